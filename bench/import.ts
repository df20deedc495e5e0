// Benchmark: the speed of report file import on the server's real code path (docs/performance.md
// "Report file import").
//
// For xlsx files of 1,000, 10,000 and 100,000 data rows (plus a header row), written with the
// project's xlsx writer, it measures in one run:
//   - the bare reading time: the project's xlsx reader alone (openXlsx, then every row);
//   - upload-to-done: a multipart upload through the HTTP API (app.inject), the pg-boss job,
//     validation, storage of the rows and the preflight, until the API shows the import done and
//     the report's new preflight;
//   - peak memory growth during that window: RSS (whole process, so the embedded database's
//     worker thread included) and the main thread's heapUsed, sampled every 20 ms, relative to
//     just before the upload;
//   - where the time goes: every SQL statement of the window is timed (pg.Client#query is
//     wrapped, no server code is touched) and split into phases; the code lookup and the
//     validator are then timed again on their own.
// Targets for 100,000 rows: done in under 2 s, within 3x of the bare reading time, peak memory
// growth under 150 MB. It is a report, not a gate: the exit code is 0 whether or not they are met.
// The figures are printed and written into docs/performance.md (between the bench markers).
//
//   npm run bench:import                        # embedded PGlite (in memory, worker thread)
//   TEST_DATABASE_URL=postgres://... npm run bench:import   # a PostgreSQL server instead
//   BENCH_IMPORT_SIZES=1000,10000 npm run bench:import      # other sizes (the doc is then not written)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { createReportWithCodes, createTestApp, type TestApp } from '../server/test/helpers.ts';
import { reports } from '../server/src/db/schema.ts';
import { writeXlsx } from '../server/src/lib/xlsx-writer/index.ts';
import { openXlsx } from '../server/src/lib/xlsx/index.ts';
import { codeLookupFor } from '../server/src/modules/imports/imports.codes.ts';
import { validateReportFile } from '../server/src/modules/imports/imports.validator.ts';

const DEFAULT_SIZES = [1_000, 10_000, 100_000];
const SIZES = process.env.BENCH_IMPORT_SIZES ? process.env.BENCH_IMPORT_SIZES.split(',').map((s) => Number(s.trim())) : DEFAULT_SIZES;
const WARM_UP_ROWS = 1_000;
const TARGET_ROWS = 100_000;
const TARGET_DONE_MS = 2_000;
const TARGET_READ_RATIO = 3;
const TARGET_RSS_MB = 150;
const SAMPLE_MS = 20;
/** How often the bench asks the API whether the import is done (as the import screen would). */
const POLL_MS = 100;
const TIMEOUT_MS = 120_000;
const MB = 1024 * 1024;
const DOC = path.resolve(import.meta.dirname, '../docs/performance.md');
const START_MARK = '<!-- bench:import:start -->';
const END_MARK = '<!-- bench:import:end -->';

if (SIZES.some((n) => !Number.isInteger(n) || n < 1)) throw new Error(`BENCH_IMPORT_SIZES: ${process.env.BENCH_IMPORT_SIZES} is not a list of row counts`);

// A clean baseline before each measurement: expose the collector without a command-line flag.
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const settle = async () => {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 20));
  }
};

// ---------------------------------------------------------------------------------------------
// SQL statement timing (every query of the app, pg-boss included, goes through pg.Client#query)
// ---------------------------------------------------------------------------------------------

interface Statement {
  text: string;
  start: number;
  end: number;
}
let statements: Statement[] | null = null;
{
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const original = proto.query;
  proto.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0] as { text?: unknown; submit?: unknown } | string | undefined;
    if (!statements || (typeof first === 'object' && first !== null && typeof first.submit === 'function')) return original.apply(this, args);
    const text = typeof first === 'string' ? first : typeof first?.text === 'string' ? first.text : '';
    const entry: Statement = { text: text.replace(/\s+/g, ' ').trim().slice(0, 300), start: performance.now(), end: NaN };
    statements.push(entry);
    const done = () => {
      entry.end = performance.now();
    };
    const callbackAt = args.findIndex((a) => typeof a === 'function');
    if (callbackAt >= 0) {
      const callback = args[callbackAt] as (...result: unknown[]) => void;
      args[callbackAt] = (...result: unknown[]) => {
        done();
        callback(...result);
      };
      return original.apply(this, args);
    }
    const result = original.apply(this, args);
    if (result instanceof Promise) result.then(done, done);
    return result;
  };
}

// ---------------------------------------------------------------------------------------------
// Memory sampling
// ---------------------------------------------------------------------------------------------

function sampleMemory() {
  const base = process.memoryUsage();
  let rss = base.rss;
  let heap = base.heapUsed;
  const take = () => {
    const m = process.memoryUsage();
    if (m.rss > rss) rss = m.rss;
    if (m.heapUsed > heap) heap = m.heapUsed;
  };
  const timer = setInterval(take, SAMPLE_MS);
  return {
    stop() {
      take();
      clearInterval(timer);
      return { rssMb: (rss - base.rss) / MB, heapMb: (heap - base.heapUsed) / MB };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The world: an organization with N codes, all available to one company in one market, a
// reporter of that company, and an open period (which creates the company's report).
// ---------------------------------------------------------------------------------------------

const codeOf = (i: number) => String(1_000_000 + i);

const world = (t: TestApp, n: number) => createReportWithCodes(t, n);

async function writeFile(dir: string, n: number): Promise<string> {
  const file = path.join(dir, `report-${n}.xlsx`);
  function* rows() {
    yield ['Code', 'Volume', 'Value'];
    for (let i = 1; i <= n; i++) yield [codeOf(i), (i % 997) + 1, Math.round(i * 12.5) / 100];
  }
  await writeXlsx(file, rows());
  return file;
}

function multipart(name: string, content: Buffer) {
  const boundary = '----mss-bench-import';
  return {
    payload: Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`,
      ),
      content,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

// ---------------------------------------------------------------------------------------------
// Measurements
// ---------------------------------------------------------------------------------------------

async function bareRead(file: string) {
  await settle();
  const memory = sampleMemory();
  const started = performance.now();
  const book = await openXlsx(file);
  let rows = 0;
  for await (const row of book.rows()) if (row.cells.length > 0) rows++;
  const ms = performance.now() - started;
  return { ms, rows, ...memory.stop() };
}

interface Phases {
  accept: number;
  pickup: number;
  load: number;
  lookupSql: number;
  /** Codes known → the last row batch written (the validator reading while the database writes). */
  readWrite: number;
  /** Time the row inserts took in the database, summed (they overlap the reading). */
  insertSql: number;
  batches: number;
  /** The last batch written → the new rows made the report's (status 30, then the switch). */
  finish: number;
  preflight: number;
  /** Job finished (preflight stored) → the API poll saw it. */
  detect: number;
  /** Job finished, on the bench's clock. */
  finished: number;
}

interface ImportRun {
  rows: number;
  fileBytes: number;
  acceptMs: number;
  statusDoneMs: number;
  /** Upload start → the job's last statement (the preflight) completed; the API poll's time when unknown. */
  doneMs: number;
  /** Upload start → the API poll saw the import done with its preflight. */
  seenMs: number;
  rssMb: number;
  heapMb: number;
  rowCount: number;
  phases: Phases | null;
  statements: Statement[];
}

const find = (list: Statement[], pattern: RegExp, after = -Infinity) => list.find((s) => s.start >= after && pattern.test(s.text));
const findLast = (list: Statement[], pattern: RegExp) => [...list].reverse().find((s) => pattern.test(s.text));

/** Splits the window into phases by the job's SQL statements (see processImport). */
function phasesOf(list: Statement[], t0: number, accepted: number, seen: number): Phases | null {
  const job = list.filter((s) => !/pgboss/i.test(s.text));
  const jobStart = find(job, /^select .* from "imports" where "imports"\."id" = \$1$/, accepted);
  const lookupScope =
    jobStart && find(job, /^select "reports"\."company_id", "periods"\."market_id", "markets"\."organization_id" from "reports"/, jobStart.start);
  const lookupCodes = lookupScope && find(job, /^select "codes"\."id", "codes"\."code"/, lookupScope.start);
  const inserts = lookupCodes ? job.filter((s) => s.start >= lookupCodes.start && /^insert into "report_rows"/.test(s.text)) : [];
  const lastInsert = inserts.at(-1);
  const commit = lastInsert && find(job, /^commit$/, lastInsert.end);
  const preflightInsert = findLast(job, /^insert into "preflights"/);
  if (!jobStart || !lookupScope || !lookupCodes || !lastInsert || !commit || !preflightInsert) return null;
  return {
    accept: accepted - t0,
    pickup: jobStart.start - accepted,
    load: lookupScope.start - jobStart.start,
    lookupSql: lookupCodes.end - lookupScope.start,
    readWrite: lastInsert.end - lookupCodes.end,
    insertSql: inserts.reduce((sum, s) => sum + (s.end - s.start), 0),
    batches: inserts.length,
    finish: commit.end - lastInsert.end,
    preflight: preflightInsert.end - commit.end,
    detect: seen - preflightInsert.end,
    finished: preflightInsert.end,
  };
}

async function importFile(t: TestApp, n: number, file: string): Promise<ImportRun> {
  const { reporter, report } = await world(t, n);
  const content = fs.readFileSync(file);
  const { payload, contentType } = multipart(path.basename(file), content);
  await settle();
  statements = [];
  const memory = sampleMemory();
  const t0 = performance.now();
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/reports/${report.uuid}/file`,
    headers: { ...reporter, 'content-type': contentType },
    payload,
  });
  const accepted = performance.now();
  if (res.statusCode !== 202) throw new Error(`upload refused: ${res.statusCode} ${res.body}`);
  const importUuid: string = res.json().data.uuid;

  let statusDone = NaN;
  let rowCount = 0;
  let seen = NaN;
  while (Number.isNaN(seen)) {
    if (performance.now() - t0 > TIMEOUT_MS) throw new Error(`${n} rows: not done after ${TIMEOUT_MS} ms`);
    if (Number.isNaN(statusDone)) {
      const item = (await t.app.inject({ url: `/api/v1/imports/${importUuid}`, headers: reporter })).json().data;
      if (item.status === 'invalid' || item.status === 'failed')
        throw new Error(`${n} rows: import ${item.status}: ${JSON.stringify(item.errors.slice(0, 3))}`);
      if (item.status === 'done') {
        statusDone = performance.now();
        rowCount = item.row_count;
      }
    }
    if (!Number.isNaN(statusDone)) {
      // The job marks the import done, then runs the preflight: done = the preflight is there too.
      const preflight = (await t.app.inject({ url: `/api/v1/reports/${report.uuid}/preflight`, headers: reporter })).json().data;
      if (preflight) seen = performance.now();
    }
    if (Number.isNaN(seen)) await new Promise((r) => setTimeout(r, POLL_MS));
  }
  const { rssMb, heapMb } = memory.stop();
  const log = statements;
  statements = null;
  const phases = phasesOf(log, t0, accepted, seen);
  return {
    rows: n,
    fileBytes: content.length,
    acceptMs: accepted - t0,
    statusDoneMs: statusDone - t0,
    doneMs: (phases?.finished ?? seen) - t0,
    seenMs: seen - t0,
    rssMb,
    heapMb,
    rowCount,
    phases,
    statements: log.map((s) => ({ ...s, start: s.start - t0, end: s.end - t0 })),
  };
}

/** The code lookup and the validator again, on their own (after the run, outside the window). */
async function isolated(t: TestApp, file: string, reportUuid: string) {
  const [report] = await t.db.select({ id: reports.id }).from(reports).where(eq(reports.uuid, reportUuid));
  let started = performance.now();
  const lookup = await codeLookupFor(t.db, report!.id);
  const lookupMs = performance.now() - started;
  started = performance.now();
  const result = await validateReportFile(file, lookup);
  const validateMs = performance.now() - started;
  if (!result.ok) throw new Error(`validator refused the bench file: ${result.errors[0]?.message}`);
  return { lookupMs, validateMs };
}

// ---------------------------------------------------------------------------------------------
// Run
// ---------------------------------------------------------------------------------------------

const fmtMs = (ms: number) => (Number.isFinite(ms) ? ms.toFixed(0) : '-');
const fmtMb = (mb: number) => mb.toFixed(1);
const pad = (cells: string[], widths: number[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  return [pad(header, widths), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map((r) => pad(r, widths))].join('\n');
}

function markdownTable(header: string[], rows: string[][]): string {
  const align = header.map((_, i) => (i === 0 ? ':--' : '--:'));
  return [header, align, ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
}

const usingServer = Boolean(process.env.TEST_DATABASE_URL);
const cpus = os.cpus();
const machine = {
  cpu: `${cpus.length} × ${cpus[0]?.model.trim() ?? 'unknown CPU'}${cpus[0]?.speed ? ` (${cpus[0].speed} MHz)` : ''}`,
  memory: `${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB`,
  os: `${os.type()} ${os.release()} ${os.arch()}`,
  node: process.version,
};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mss-bench-import-'));
const t = await createTestApp({ JOBS: 'on', IMPORT_MAX_MB: '100' });
let exitCode = 0;
try {
  const [versionRow] = (await t.db.execute<{ version: string }>(sql`select version() as version`)).rows as { version: string }[];
  if (!versionRow) throw new Error('select version() returned no row');
  const { version } = versionRow;
  const database = usingServer
    ? `PostgreSQL server (TEST_DATABASE_URL): ${version.split(' on ')[0]}`
    : `embedded PGlite in a worker thread, in memory (${version.split(' on ')[0]})`;
  console.log(`Import benchmark, ${new Date().toISOString()}`);
  console.log(`Machine: ${machine.cpu}, ${machine.memory} RAM, ${machine.os}, Node ${machine.node}`);
  console.log(`Database: ${database}`);
  console.log(
    'Path: multipart upload (app.inject) → pg-boss job → validation → row insert → preflight; done = import done and preflight visible through the API\n',
  );

  // Warm-up (not reported): JIT, the queue's first poll, first statements.
  const warmFile = await writeFile(dir, WARM_UP_ROWS);
  await bareRead(warmFile);
  const warm = await importFile(t, WARM_UP_ROWS, warmFile);
  console.log(`warm-up: ${WARM_UP_ROWS.toLocaleString('en-US')} rows done in ${fmtMs(warm.doneMs)} ms (not reported)\n`);

  const results: { run: ImportRun; read: Awaited<ReturnType<typeof bareRead>>; alone: Awaited<ReturnType<typeof isolated>> }[] = [];
  for (const n of SIZES) {
    const file = await writeFile(dir, n);
    const read = await bareRead(file);
    if (read.rows !== n + 1) throw new Error(`reader saw ${read.rows} rows in a file of ${n + 1}`);
    const run = await importFile(t, n, file);
    if (run.rowCount !== n) throw new Error(`import stored ${run.rowCount} rows of ${n}`);
    const [report] = await t.db
      .execute<{ uuid: string }>(sql`select r.uuid from reports r join imports i on i.report_id = r.id order by i.id desc limit 1`)
      .then((r) => r.rows as { uuid: string }[]);
    const alone = await isolated(t, file, report!.uuid);
    results.push({ run, read, alone });
    console.log(`${n.toLocaleString('en-US')} rows: done in ${fmtMs(run.doneMs)} ms (bare read ${fmtMs(read.ms)} ms)`);
    if (process.env.BENCH_IMPORT_DEBUG)
      for (const s of run.statements) console.log(`  ${fmtMs(s.start).padStart(6)} ${fmtMs(s.end - s.start).padStart(5)} ms  ${s.text.slice(0, 140)}`);
  }

  const mainHeader = ['rows', 'file', 'bare read', 'accepted (202)', 'upload→done', '× bare read', 'seen via API', 'RSS peak growth', 'heapUsed peak growth'];
  const mainRows = results.map(({ run, read }) => [
    run.rows.toLocaleString('en-US'),
    `${(run.fileBytes / 1024).toFixed(0)} KiB`,
    `${fmtMs(read.ms)} ms`,
    `${fmtMs(run.acceptMs)} ms`,
    `${fmtMs(run.doneMs)} ms`,
    `${(run.doneMs / read.ms).toFixed(1)}×`,
    `${fmtMs(run.seenMs)} ms`,
    `${fmtMb(run.rssMb)} MB`,
    `${fmtMb(run.heapMb)} MB`,
  ]);
  const readHeader = ['rows', 'bare read', 'RSS peak growth', 'heapUsed peak growth', 'code lookup alone', 'validator alone'];
  const readRows = results.map(({ run, read, alone }) => [
    run.rows.toLocaleString('en-US'),
    `${fmtMs(read.ms)} ms`,
    `${fmtMb(read.rssMb)} MB`,
    `${fmtMb(read.heapMb)} MB`,
    `${fmtMs(alone.lookupMs)} ms`,
    `${fmtMs(alone.validateMs)} ms`,
  ]);
  const phaseHeader = [
    'rows',
    'accept',
    'queue pickup',
    'load job+file',
    'code lookup SQL',
    'read+validate+write',
    '(row inserts in the database)',
    'switch to the new rows',
    'preflight',
    'poll detect',
  ];
  const phaseRows = results.map(({ run }) => {
    const p = run.phases;
    if (!p) return [run.rows.toLocaleString('en-US'), ...phaseHeader.slice(1).map(() => '?')];
    const ms = (v: number) => `${fmtMs(v)} ms`;
    return [
      run.rows.toLocaleString('en-US'),
      ...[p.accept, p.pickup, p.load, p.lookupSql, p.readWrite].map(ms),
      `${ms(p.insertSql)} in ${p.batches}`,
      ...[p.finish, p.preflight, p.detect].map(ms),
    ];
  });

  console.log('\nUpload through the API to done (one run each):');
  console.log(table(mainHeader, mainRows));
  console.log('\nReader and validator on their own (same files):');
  console.log(table(readHeader, readRows));
  console.log('\nWhere the time goes (from the timed SQL statements of the job):');
  console.log(table(phaseHeader, phaseRows));

  const target = results.find((r) => r.run.rows === TARGET_ROWS);
  const verdicts: { label: string; value: string; met: boolean }[] = [];
  if (target) {
    const ratio = target.run.doneMs / target.read.ms;
    verdicts.push(
      {
        label: `${TARGET_ROWS.toLocaleString('en-US')} rows done in under ${TARGET_DONE_MS / 1000} s`,
        value: `${fmtMs(target.run.doneMs)} ms`,
        met: target.run.doneMs < TARGET_DONE_MS,
      },
      {
        label: `within ${TARGET_READ_RATIO}× of the bare reading time`,
        value: `${ratio.toFixed(1)}× (${fmtMs(target.run.doneMs)} / ${fmtMs(target.read.ms)} ms)`,
        met: ratio <= TARGET_READ_RATIO,
      },
      { label: `peak memory growth under ${TARGET_RSS_MB} MB (RSS)`, value: `${fmtMb(target.run.rssMb)} MB`, met: target.run.rssMb < TARGET_RSS_MB },
    );
    console.log('\nTargets (100,000 rows):');
    for (const v of verdicts) console.log(`  ${v.met ? 'MET    ' : 'NOT MET'}  ${v.label}: ${v.value}`);
    const missed = verdicts.filter((v) => !v.met).length;
    console.log(missed ? `\n>>> ${missed} of ${verdicts.length} targets NOT met (a report, not a gate: exit code 0).` : '\nAll targets met.');
  } else {
    console.log(`\nNo ${TARGET_ROWS.toLocaleString('en-US')}-row run: targets not judged.`);
  }

  const sameSizes = SIZES.length === DEFAULT_SIZES.length && SIZES.every((n, i) => n === DEFAULT_SIZES[i]);
  if (sameSizes && !process.env.BENCH_IMPORT_NO_DOC) {
    const section = [
      START_MARK,
      '<!-- Written by `npm run bench:import` (bench/import.ts); edits between these markers are replaced on the next run. -->',
      '',
      `Latest run: **${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}**`,
      '',
      `- Machine: ${machine.cpu}, ${machine.memory} RAM, ${machine.os}`,
      `- Node ${machine.node}`,
      `- Database: ${database}`,
      '',
      '### Upload through the API to done',
      '',
      markdownTable(mainHeader, mainRows),
      '',
      `upload→done: from the start of the multipart upload until the job's last statement (the preflight) completed, timed by the bench's SQL hook; seen via API: when the bench's poll of the API (every ${POLL_MS} ms) showed the import done with its preflight. Memory: growth of the peak over the value just before the upload, sampled every ${SAMPLE_MS} ms; RSS is the whole process${usingServer ? '' : " (the embedded database's worker thread included)"}, heapUsed the main thread.`,
      '',
      '### Targets (100,000 rows)',
      '',
      markdownTable(
        ['target', 'measured', 'result'],
        verdicts.map((v) => [v.label, v.value, v.met ? 'met' : '**NOT met**']),
      ),
      '',
      '### Reader and validator on their own',
      '',
      markdownTable(readHeader, readRows),
      '',
      '### Where the time goes',
      '',
      markdownTable(phaseHeader, phaseRows),
      '',
      END_MARK,
    ].join('\n');
    const intro = [
      '# Performance',
      '',
      '## Report file import',
      '',
      'Measured by `npm run bench:import` (bench/import.ts); see "How it is measured" below.',
      '',
    ].join('\n');
    const existing = fs.existsSync(DOC) ? fs.readFileSync(DOC, 'utf8') : '';
    const at = existing.indexOf(START_MARK);
    const endAt = existing.indexOf(END_MARK);
    const next =
      at >= 0 && endAt > at
        ? existing.slice(0, at) + section + existing.slice(endAt + END_MARK.length)
        : existing
          ? `${existing.trimEnd()}\n\n${section}\n`
          : `${intro}${section}\n`;
    fs.writeFileSync(DOC, next);
    console.log(`\nWritten to ${path.relative(process.cwd(), DOC)}`);
  } else {
    console.log('\nNot the standard sizes (or BENCH_IMPORT_NO_DOC set): docs/performance.md left as it is.');
  }
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  await t.close().catch(() => {});
  fs.rmSync(dir, { recursive: true, force: true });
}
process.exit(exitCode);
