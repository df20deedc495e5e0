// Benchmark: deadline day. N companies each upload one report of 500 rows within a
// window while approvers and viewers read, against the app running as real processes
// (server/src/main.ts):
//   pglite  the embedded database, one process (the default install);
//   pg      the PostgreSQL server of TEST_DATABASE_URL, one process;
//   pg2     the same server, two processes behind nginx with deploy/nginx (the shipped site).
// It reports upload→done p50/p95/max (from the start of the upload until the import was written
// done, both on this machine's clock), the other users' reads p50/p99/max, errors, and rows lost
// or duplicated (each report must hold exactly its file's 500 rows, from one import).
//
//   npm run bench:deadline                                   # pglite; pg and pg2 with TEST_DATABASE_URL
//   DEADLINE_REPORTS=200 DEADLINE_WINDOW_SECONDS=30 npm run bench:deadline   # smaller (no doc written)
//   DEADLINE_SETUPS=pg2 TEST_DATABASE_URL=postgres://… npm run bench:deadline
//
// With the default size the figures are written into docs/performance.md (between the markers).
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type Database, migrateDatabase, openDatabase } from '../server/src/db/client.ts';
import { buildWorld, type World } from './deadline-world.ts';
import { type AppProcess, APP_PORTS, findNginx, LB_URL, ready, startApp, startNginx, xlsx } from '../server/test/processes.ts';

const REPORTS = Number(process.env.DEADLINE_REPORTS ?? 1000);
const WINDOW_SECONDS = Number(process.env.DEADLINE_WINDOW_SECONDS ?? 120);
const ROWS = 500;
const MARKETS = 10;
const READERS = Number(process.env.DEADLINE_READERS ?? 20); // half approvers (market administrators), half viewers
const READ_PAUSE_MS = Number(process.env.DEADLINE_READ_PAUSE_MS ?? 2000); // a person opens a screen every 2 s
const IN_STEP = process.env.DEADLINE_READERS_IN_STEP === '1';
const FILE_VARIANTS = 20;
const DONE_TIMEOUT_MS = 15 * 60_000;
const serverUrl = process.env.TEST_DATABASE_URL;
const setups = (process.env.DEADLINE_SETUPS ?? (serverUrl ? 'pglite,pg,pg2' : 'pglite')).split(',').map((s) => s.trim());
const DOC = path.join(import.meta.dirname, '../docs/performance.md');
const START_MARK = '<!-- bench:deadline:start -->';
const END_MARK = '<!-- bench:deadline:end -->';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** mulberry32: a small seeded generator of numbers in [0, 1). */
const seeded = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const quantile = (values: number[], q: number) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
};
const ms = (v: number) => (Number.isFinite(v) ? `${Math.round(v).toLocaleString('en-US')} ms` : '–');

/** File k: code 1000001… with volume k*1000+i and value i/4; exact sums known in SQL. */
const variantOf = (company: number) => company % FILE_VARIANTS;
const files = await Promise.all(
  Array.from({ length: FILE_VARIANTS }, (_, k) =>
    xlsx([['Code', 'Volume', 'Value'], ...Array.from({ length: ROWS }, (_, i) => [String(1_000_001 + i), k * 1000 + i + 1, (i + 1) / 4])]),
  ),
);

interface Result {
  setup: string;
  uploads: number;
  done: number;
  uploadToDone: number[];
  accepted: number[];
  reads: number[];
  readErrors: number;
  uploadErrors: number;
  lost: number;
  duplicated: number;
  lastUploadAt: number;
  allDoneAt: number;
}

async function run(setup: string, base: string, world: World, database: () => Promise<Database>, stop: () => Promise<void>): Promise<Result> {
  const multipart = (content: Buffer) => {
    const boundary = `----mss-deadline-${randomBytes(6).toString('hex')}`;
    return {
      body: Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="report.xlsx"\r\nContent-Type: application/octet-stream\r\n\r\n`),
        content,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
      contentType: `multipart/form-data; boundary=${boundary}`,
    };
  };
  const started: { uuid: string; at: number; company: number }[] = [];
  const accepted: number[] = [];
  let uploadErrors = 0;
  const reads: number[] = [];
  const byUrl: Record<string, number[]> = {};
  let readErrors = 0;
  let reading = true;
  const read = async (cookie: string, url: string) => {
    const t0 = performance.now();
    try {
      const res = await fetch(`${base}${url}`, { headers: { cookie } });
      await res.arrayBuffer();
      if (res.status !== 200) readErrors++;
      else {
        reads.push(performance.now() - t0);
        (byUrl[url] ??= []).push(performance.now() - t0);
      }
    } catch {
      readErrors++;
    }
  };
  // People do not click in step: each reader starts at its own moment within a pause and pauses
  // between half and one and a half times READ_PAUSE_MS (the same mean), from a seeded generator so
  // that runs are comparable. DEADLINE_READERS_IN_STEP=1 keeps them in step instead (all twenty
  // readers in the same millisecond every pause, as this bench did until 2026-11-26): a worst case.
  const random = seeded(21);
  const pause = () => (IN_STEP ? READ_PAUSE_MS : READ_PAUSE_MS * (0.5 + random()));
  const reader = (cookie: string, urls: string[]) => async () => {
    if (!IN_STEP) await sleep(READ_PAUSE_MS * random());
    while (reading) {
      for (const url of urls) await read(cookie, url);
      await sleep(pause());
    }
  };
  const readers = [
    ...world.approvers.map((cookie) => reader(cookie, ['/api/v1/reports', '/api/v1/imports'])()),
    ...world.viewers.map((cookie) => reader(cookie, ['/api/v1/statistics/choices', '/api/v1/users/me'])()),
  ];
  const t0 = Date.now();
  const gap = (WINDOW_SECONDS * 1000) / world.reporters.length;
  const uploads = world.reporters.map(async (r, i) => {
    await sleep(i * gap);
    const { body, contentType } = multipart(files[variantOf(r.company)]!);
    const at = Date.now();
    try {
      const res = await fetch(`${base}/api/v1/reports/${r.reportUuid}/file`, {
        method: 'POST',
        headers: { cookie: r.cookie, 'x-requested-with': 'XMLHttpRequest', 'content-type': contentType },
        body,
      });
      const json = (await res.json()) as { data?: { uuid: string } };
      if (res.status !== 202 || !json.data) {
        uploadErrors++;
        return;
      }
      accepted.push(Date.now() - at);
      started.push({ uuid: json.data.uuid, at, company: r.company });
    } catch {
      uploadErrors++;
    }
  });
  await Promise.all(uploads);
  const lastUploadAt = Date.now() - t0;
  // Until every import is done, asked of the API as the import screen would (the embedded
  // database belongs to the app's process while it runs): the open ones, every second.
  const deadline = Date.now() + DONE_TIMEOUT_MS;
  const cookieOf = new Map(world.reporters.map((r) => [r.company, r.cookie]));
  let open = started.map((s) => s);
  while (open.length && Date.now() < deadline) {
    const still: typeof open = [];
    for (const s of open) {
      const res = await fetch(`${base}/api/v1/imports/${s.uuid}`, { headers: { cookie: cookieOf.get(s.company)! } });
      const status = res.status === 200 ? ((await res.json()) as { data: { status: string } }).data.status : 'unknown';
      if (status === 'queued' || status === 'processing' || status === 'unknown') still.push(s);
    }
    open = still;
    if (open.length) await sleep(1000);
  }
  const allDoneAt = Date.now() - t0;
  reading = false;
  await Promise.all(readers);
  for (const [url, values] of Object.entries(byUrl))
    console.log(`  ${url}: ${values.length} reads, p50 ${ms(quantile(values, 0.5))}, p99 ${ms(quantile(values, 0.99))}`);
  await stop();
  const db = await database();
  const done = (
    await db.pool.query<{ uuid: string; status: string; finished: Date | null }>(
      `select uuid::text, status, finished_at as finished from imports where uuid = any($1::uuid[])`,
      [`{${started.map((s) => s.uuid).join(',')}}`],
    )
  ).rows;
  const atOf = new Map(started.map((s) => [s.uuid, s.at]));
  const uploadToDone = done.filter((d) => d.status === 'done' && d.finished).map((d) => d.finished!.getTime() - atOf.get(d.uuid)!);
  // Exactly the file's rows in each report, from one import.
  const check = (
    await db.pool.query<{ rows: number; imports: number; volume_ok: boolean; value_ok: boolean }>(`
      select (select count(*)::int from report_rows rr where rr.row_set_id = r.row_set_id) as rows,
        (select count(*)::int from imports i where i.report_id = r.id) as imports,
        coalesce((select sum(rr.volume) from report_rows rr where rr.row_set_id = r.row_set_id), 0)
          = ${ROWS} * ((row_number() over (order by c.id) - 1) % ${FILE_VARIANTS}) * 1000 + ${(ROWS * (ROWS + 1)) / 2} as volume_ok,
        coalesce((select sum(rr.value) from report_rows rr where rr.row_set_id = r.row_set_id), 0) = ${(ROWS * (ROWS + 1)) / 2} / 4.0 as value_ok
      from reports r join companies c on c.id = r.company_id`)
  ).rows;
  const lost = check.filter((c) => c.rows < ROWS || !c.volume_ok || !c.value_ok).length;
  const duplicated = check.filter((c) => c.rows > ROWS || c.imports > 1).length;
  await db.close();
  return {
    setup,
    uploads: world.reporters.length,
    done: done.filter((d) => d.status === 'done').length,
    uploadToDone,
    accepted,
    reads,
    readErrors,
    uploadErrors,
    lost,
    duplicated,
    lastUploadAt,
    allDoneAt,
  };
}

async function freshServerDatabase(): Promise<string> {
  const name = `mss_deadline_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl!);
  url.pathname = `/${name}`;
  return url.toString();
}

async function dropServerDatabase(url: string) {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${new URL(url).pathname.slice(1)} with (force)`);
  await admin.end();
}

const appEnv = { LOG_LEVEL: 'error', SEED: 'none', JOBS: 'on' };
const stopApps = async (apps: AppProcess[]) => {
  for (const app of apps) app.child.kill('SIGTERM');
  await Promise.all(apps.map((a) => a.exited));
};

const results: Result[] = [];
for (const setup of setups) {
  console.log(`\n== ${setup}: ${REPORTS} reports of ${ROWS} rows within ${WINDOW_SECONDS} s, ${READERS} readers`);
  if (setup === 'pglite') {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mss-deadline-'));
    const database = await openDatabase({ dataDir });
    await migrateDatabase(database.db);
    const world = await buildWorld(database, { reports: REPORTS, rows: ROWS, markets: MARKETS, readers: READERS });
    await database.close();
    const app = startApp(APP_PORTS[0], { ...appEnv, DATA_DIR: dataDir, DATABASE_URL: '' });
    await ready(app);
    results.push(
      await run(
        setup,
        app.url,
        world,
        () => openDatabase({ dataDir }),
        () => stopApps([app]),
      ),
    );
    fs.rmSync(dataDir, { recursive: true, force: true });
  } else if (setup === 'pg' || setup === 'pg2') {
    if (!serverUrl) throw new Error(`${setup} needs TEST_DATABASE_URL`);
    const url = await freshServerDatabase();
    const database = await openDatabase({ databaseUrl: url });
    await migrateDatabase(database.db);
    const world = await buildWorld(database, { reports: REPORTS, rows: ROWS, markets: MARKETS, readers: READERS });
    await database.close();
    const two = setup === 'pg2';
    if (two && !findNginx()) throw new Error('pg2 needs nginx (apt-get install nginx)');
    const nginx = two ? await startNginx() : null;
    const apps = (two ? APP_PORTS : [APP_PORTS[0]]).map((port) => startApp(port, { ...appEnv, DATABASE_URL: url, TRUST_PROXY: 'true' }));
    await Promise.all(apps.map((a) => ready(a)));
    results.push(
      await run(
        setup,
        two ? LB_URL : apps[0]!.url,
        world,
        () => openDatabase({ databaseUrl: url }),
        async () => {
          await stopApps(apps);
          await nginx?.stop();
        },
      ),
    );
    await dropServerDatabase(url);
  } else throw new Error(`unknown setup ${setup} (pglite, pg, pg2)`);
  const r = results.at(-1)!;
  console.log(
    `  done ${r.done}/${r.uploads}; upload→done p50 ${ms(quantile(r.uploadToDone, 0.5))}, p95 ${ms(quantile(r.uploadToDone, 0.95))}, max ${ms(Math.max(...r.uploadToDone))}; ` +
      `reads ${r.reads.length} p50 ${ms(quantile(r.reads, 0.5))}, p99 ${ms(quantile(r.reads, 0.99))}; errors ${r.uploadErrors} uploads, ${r.readErrors} reads; lost ${r.lost}, duplicated ${r.duplicated}`,
  );
}

const label: Record<string, string> = {
  pglite: 'embedded PGlite, one process',
  pg: 'PostgreSQL server, one process',
  pg2: 'PostgreSQL server, two processes behind nginx',
};
const runAt = new Date().toISOString().replace(/:\d\d\.\d+Z$/, 'Z');
const header = [
  'setup',
  'run',
  'done',
  'accepted (202) p50',
  'upload→done p50 / p95 / max',
  'other reads p50 / p99 / max',
  'errors',
  'lost / duplicated',
  'last upload / all done',
];
const rows = results.map((r) => [
  label[r.setup] ?? r.setup,
  runAt,
  `${r.done} of ${r.uploads}`,
  ms(quantile(r.accepted, 0.5)),
  `${ms(quantile(r.uploadToDone, 0.5))} / ${ms(quantile(r.uploadToDone, 0.95))} / ${ms(Math.max(...r.uploadToDone))}`,
  `${ms(quantile(r.reads, 0.5))} / ${ms(quantile(r.reads, 0.99))} / ${ms(Math.max(...r.reads))} (${r.reads.length.toLocaleString('en-US')})`,
  `${r.uploadErrors + r.readErrors}`,
  `${r.lost} / ${r.duplicated}`,
  `${(r.lastUploadAt / 1000).toFixed(0)} s / ${(r.allDoneAt / 1000).toFixed(0)} s`,
]);
const markdown = [
  `| ${header.join(' | ')} |`,
  `| ${header.map((_, i) => (i === 0 ? ':--' : '--:')).join(' | ')} |`,
  ...rows.map((r) => `| ${r.join(' | ')} |`),
].join('\n');
const verdicts = results.flatMap((r) => [
  { label: `${label[r.setup]}: upload→done p95 under 5 s`, met: quantile(r.uploadToDone, 0.95) < 5000 && r.done === r.uploads },
  { label: `${label[r.setup]}: other reads p99 under 100 ms`, met: quantile(r.reads, 0.99) < 100 },
  { label: `${label[r.setup]}: nothing lost or duplicated, no errors`, met: r.lost === 0 && r.duplicated === 0 && r.uploadErrors + r.readErrors === 0 },
]);
console.log(`\n${markdown}\n`);
for (const v of verdicts) console.log(`  ${v.met ? 'MET    ' : 'NOT MET'}  ${v.label}`);

if (REPORTS === 1000 && WINDOW_SECONDS === 120 && !process.env.DEADLINE_NO_DOC) {
  const cpus = os.cpus();
  let section = [
    START_MARK,
    '<!-- Written by `npm run bench:deadline` (bench/deadline.ts); edits between these markers are replaced on the next run. -->',
    '',
    `Machine of the latest run (${runAt}): ${cpus.length} × ${cpus[0]?.model ?? '?'}, ${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB RAM, Node ${process.version}`,
    '',
    `${REPORTS.toLocaleString('en-US')} reports of ${ROWS} rows from distinct companies, uploaded evenly within ${WINDOW_SECONDS} s, while ${READERS / 2} approvers (report list, import list) and ${READERS / 2} viewers (statistics choices, their profile) read, each pausing ${IN_STEP ? `${READ_PAUSE_MS} ms between rounds, all in step` : `${READ_PAUSE_MS} ms between rounds on average (0.5–1.5 ×, each starting at its own moment)`}. The app runs as real processes; the bench, nginx and the PostgreSQL server share the machine.`,
    '',
    markdown,
    '',
    "upload→done: from the start of the upload to the import written done (the database clock, on the same machine). Lost: a report without exactly its file's rows and sums; duplicated: more rows or more than one import.",
    '',
    ...verdicts.map((v) => `- ${v.met ? 'met' : '**NOT met**'}: ${v.label}`),
    END_MARK,
  ].join('\n');
  const doc = fs.readFileSync(DOC, 'utf8');
  // The rows and verdicts of setups this run did not measure stay, with their own run's date.
  const previous = doc.includes(START_MARK) ? doc.slice(doc.indexOf(START_MARK), doc.indexOf(END_MARK)).split('\n') : [];
  const measured = results.map((r) => label[r.setup] ?? r.setup);
  const kept = (prefix: string, line: string) =>
    line.startsWith(prefix) &&
    Object.values(label).some((l) => line.includes(l)) &&
    !measured.some((l) => line.includes(`${l}:`) || line.startsWith(`| ${l} |`));
  const keptRows = previous.filter((line) => kept('| ', line) && line.split('|').length === header.length + 2);
  const keptVerdicts = previous.filter((line) => kept('- ', line));
  const order = (line: string) => Object.values(label).findIndex((l) => line.includes(l));
  const allRows = [...keptRows, ...rows.map((r) => `| ${r.join(' | ')} |`)].sort((a, b) => order(a) - order(b));
  const allVerdicts = [...keptVerdicts, ...verdicts.map((v) => `- ${v.met ? 'met' : '**NOT met**'}: ${v.label}`)].sort((a, b) => order(a) - order(b));
  section = section.replace(markdown, [...markdown.split('\n').slice(0, 2), ...allRows].join('\n'));
  section = section.replace(verdicts.map((v) => `- ${v.met ? 'met' : '**NOT met**'}: ${v.label}`).join('\n'), allVerdicts.join('\n'));
  const next = doc.includes(START_MARK)
    ? doc.slice(0, doc.indexOf(START_MARK)) + section + doc.slice(doc.indexOf(END_MARK) + END_MARK.length)
    : `${doc.trimEnd()}\n\n## Deadline day\n\n${section}\n`;
  fs.writeFileSync(DOC, next);
  console.log(`\nWritten to ${path.relative(process.cwd(), DOC)}`);
}
