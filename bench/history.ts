// Benchmark: an association's history in one step (docs/decisions.md "History import").
//
// An organization of 5 markets, 40 companies reporting in all of them and 200 codes, and one CSV of
// YEARS years of monthly figures: every company, market, month and code (10 years: 4.8 million
// rows, ~190 MB). Through the HTTP API (app.inject, the real pg-boss queue), it measures:
//   - the dry run: upload accepted to "checked";
//   - the import: "import" asked to "imported" (the file read and checked again, staged, and each
//     market's month written in a transaction of its own);
//   - publishing every period: "publish" asked to "published";
//   - meanwhile, other users' requests (a viewer's market statistics of a published period, and
//     the report list), one after the other: their p50, p99 and maximum;
//   - peak memory growth over the whole run: the main thread's heap, and the process's RSS (which
//     holds the embedded database's pages too: in memory, the history is in it).
// Targets (10 years): dry run < 60 s; import and publication < 3 min (PGlite), < 90 s (PostgreSQL
// server); heap growth < 300 MB; other requests p99 < 300 ms. A report, not a gate.
//
//   npm run bench:history                                   # embedded PGlite
//   TEST_DATABASE_URL=postgres://... npm run bench:history  # a PostgreSQL server
//   BENCH_HISTORY_YEARS=1 npm run bench:history             # smaller (the doc is then not written)
//   BENCH_HISTORY_YEARS=0 npm run bench:history             # only the 500-row PUT /reports/{uuid}/rows
// First, before the history: a 500-row report sent 40 times through PUT /reports/{uuid}/rows,
// from sending to the answer (target p95 < 300 ms).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import v8 from 'node:v8';
import vm from 'node:vm';
import { sql } from 'drizzle-orm';
import { createReportWithCodes, createTestApp, createUser, signIn, XHR } from '../server/test/helpers.ts';

const YEARS = Number(process.env.BENCH_HISTORY_YEARS ?? 10);
const MARKETS = 5;
const COMPANIES = 40;
const CODES = 200;
const FIRST_YEAR = 2014;
const MB = 1024 * 1024;
const DOC = path.resolve(import.meta.dirname, '../docs/performance.md');
const START_MARK = '<!-- bench:history:start -->';
const END_MARK = '<!-- bench:history:end -->';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const t = await createTestApp({ JOBS: 'on', HISTORY_MAX_MB: '1000' });
const db = t.db;
const kind = process.env.TEST_DATABASE_URL ? 'PostgreSQL server' : 'PGlite (embedded, in memory)';

// A 500-row report through PUT /reports/{uuid}/rows: from sending to the answer (checked, stored,
// preflight run), 40 times, the figures changed each time.
const ROWS_API_TIMES = 40;
const rowsApi: number[] = [];
{
  const { reporter, report } = await createReportWithCodes(t, 500);
  for (let i = 0; i < ROWS_API_TIMES; i++) {
    const body = JSON.stringify(
      Array.from({ length: 500 }, (_, k) => ({ code: String(1000001 + k), volume: (k + i) % 97, value: `${(k * 31 + i) % 1000}.25` })),
    );
    const started = performance.now();
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/reports/${report.uuid}/rows`,
      headers: { ...reporter, 'content-type': 'application/json' },
      payload: body,
    });
    rowsApi.push(performance.now() - started);
    if (res.statusCode !== 200 || !res.json().data.valid) throw new Error(`PUT rows: ${res.statusCode} ${res.body.slice(0, 300)}`);
  }
}
const rowsSorted = [...rowsApi].sort((a, b) => a - b);
const rowsP95 = rowsSorted[Math.floor(0.95 * rowsSorted.length)]!;
console.log(
  `PUT /reports/{uuid}/rows, 500 rows, ${ROWS_API_TIMES} times: p50 ${rowsSorted[Math.floor(rowsSorted.length / 2)]!.toFixed(0)} ms, p95 ${rowsP95.toFixed(0)} ms`,
);
if (YEARS === 0) {
  await t.close();
  process.exit(0);
}

// The organization, in a few statements.
const org = (await db.execute<{ id: number }>(sql`insert into organizations (name) values ('History bench') returning id`)).rows[0]!.id;
const marketIds = (
  await db.execute<{ id: number }>(sql`
    insert into markets (organization_id, international_name, local_name, iso_code)
    select ${org}, 'Market ' || g, 'Market ' || g, 'M' || g from generate_series(1, ${MARKETS}::int) g returning id`)
).rows.map((r) => r.id);
await db.execute(sql`
  with c as (insert into codes (organization_id, code, name) select ${org}, (1000 + g)::text, 'Code ' || g from generate_series(1, ${CODES}::int) g returning id)
  insert into code_markets (code_id, market_id) select c.id, m from c cross join unnest(${`{${marketIds.join(',')}}`}::int[]) m`);
const companyIds = (
  await db.execute<{ id: number }>(sql`insert into companies (name) select 'Company ' || g from generate_series(1, ${COMPANIES}::int) g returning id`)
).rows.map((r) => r.id);
await db.execute(sql`insert into company_organizations (company_id, organization_id) select id, ${org} from unnest(${`{${companyIds.join(',')}}`}::int[]) id`);
await db.execute(sql`
  insert into company_markets (company_id, market_id, roles)
  select c, m, '{reporter}'::text[] from unnest(${`{${companyIds.join(',')}}`}::int[]) c cross join unnest(${`{${marketIds.join(',')}}`}::int[]) m`);
await db.execute(sql`
  insert into company_codes (company_id, code_id) select c, k.id from unnest(${`{${companyIds.join(',')}}`}::int[]) c cross join codes k where k.organization_id = ${org}`);
const admin = await createUser(db, { roles: ['admin'], organizationIds: [org] });
const adminHeaders = { ...XHR, cookie: await signIn(t.app, admin.email) };
const viewer = await createUser(db, { roles: ['viewer'], organizationIds: [org], marketIds });
const viewerHeaders = { ...XHR, cookie: await signIn(t.app, viewer.email) };

// The file.
const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mss-bench-history-')), 'history.csv');
{
  const out = fs.createWriteStream(file);
  const write = (text: string) => (out.write(text) ? Promise.resolve() : new Promise<void>((r) => out.once('drain', () => r())));
  await write('Market;Period;Company;Code;Volume;Value\r\n');
  let chunk = '';
  for (let y = 0; y < YEARS; y++)
    for (let month = 1; month <= 12; month++)
      for (let m = 1; m <= MARKETS; m++)
        for (let c = 1; c <= COMPANIES; c++) {
          for (let k = 1; k <= CODES; k++) {
            const v = (y * 7 + month * 13 + m * 17 + c * 19 + k * 23) % 1000;
            chunk += `M${m};${FIRST_YEAR + y}-${String(month).padStart(2, '0')};Company ${c};${1000 + k};${v},5;${v * 1234},25\r\n`;
          }
          if (chunk.length > 1 << 20) {
            await write(chunk);
            chunk = '';
          }
        }
  await write(chunk);
  await new Promise<void>((resolve) => out.end(resolve));
}
const rows = YEARS * 12 * MARKETS * COMPANIES * CODES;
const bytes = fs.statSync(file).size;
console.log(`${kind}: ${rows.toLocaleString('en-US')} rows, ${(bytes / MB).toFixed(0)} MB`);

// Other users meanwhile: a viewer's market statistics of a published period, once one exists, and the report list.
const latencies: number[] = [];
/** Each request's latency by the step it ran in, to see where the slow ones are. */
const byPhase = new Map<string, number[]>();
let phase = 'upload and dry run';
let running = true;
let publishedUuid: string | null = null;
const others = (async () => {
  while (running) {
    const url = publishedUuid ? `/api/v1/statistics/market?period_uuid=${publishedUuid}&by=code` : '/api/v1/reports?per_page=25';
    const started = performance.now();
    const res = await t.app.inject({ url, headers: viewerHeaders });
    latencies.push(performance.now() - started);
    byPhase.set(phase, [...(byPhase.get(phase) ?? []), performance.now() - started]);
    if (res.statusCode >= 500) throw new Error(`${url}: ${res.statusCode}`);
    await new Promise((r) => setTimeout(r, 50));
  }
})();

// Memory, sampled every 100 ms.
for (let i = 0; i < 3; i++) gc();
const base = { heap: process.memoryUsage().heapUsed, rss: process.memoryUsage().rss };
let peak = { heap: 0, rss: 0 };
const sampler = setInterval(() => {
  const m = process.memoryUsage();
  peak = { heap: Math.max(peak.heap, m.heapUsed - base.heap), rss: Math.max(peak.rss, m.rss - base.rss) };
}, 100);

const boundary = '----mss-bench-history';
const body = () =>
  Readable.from(
    (async function* () {
      yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="history.csv"\r\nContent-Type: text/csv\r\n\r\n`);
      for await (const chunk of fs.createReadStream(file)) yield chunk as Buffer;
      yield Buffer.from(`\r\n--${boundary}--\r\n`);
    })(),
  );

async function until(uuid: string, statuses: string[]): Promise<Record<string, unknown>> {
  for (;;) {
    const data = (await t.app.inject({ url: `/api/v1/history-imports/${uuid}`, headers: adminHeaders })).json().data;
    if (statuses.includes(data.status)) return data;
    if (['invalid', 'failed', 'cancelled'].includes(data.status))
      throw new Error(`history import ended ${data.status}: ${JSON.stringify(data.errors?.slice(0, 3))}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const t0 = performance.now();
const accepted = await t.app.inject({
  method: 'POST',
  url: '/api/v1/history-imports',
  headers: { ...adminHeaders, 'content-type': `multipart/form-data; boundary=${boundary}` },
  payload: body(),
});
if (accepted.statusCode !== 202) throw new Error(`upload refused: ${accepted.statusCode} ${accepted.body}`);
const uuid = accepted.json().data.uuid as string;
const uploaded = performance.now();
await until(uuid, ['checked']);
const checked = performance.now();
phase = 'import';
await t.app.inject({ method: 'POST', url: `/api/v1/history-imports/${uuid}/import`, headers: adminHeaders });
await until(uuid, ['imported']);
const imported = performance.now();
phase = 'publication';
await t.app.inject({ method: 'POST', url: `/api/v1/history-imports/${uuid}/publish`, headers: adminHeaders });
// The viewer reads the first published period as soon as there is one.
const firstPeriod = (
  await db.execute<{ uuid: string }>(sql`select uuid::text as uuid from periods where market_id = ${marketIds[0]!} order by starts_on limit 1`)
).rows[0];
const publishing = until(uuid, ['published']);
const watch = setInterval(async () => {
  const [row] = (await db.execute<{ p: string | null }>(sql`select published_at::text as p from periods where uuid = ${firstPeriod!.uuid}`)).rows;
  if (row?.p) {
    publishedUuid = firstPeriod!.uuid;
    clearInterval(watch);
  }
}, 500);
await publishing;
clearInterval(watch);
const published = performance.now();
running = false;
await others;
clearInterval(sampler);

const sorted = [...latencies].sort((a, b) => a - b);
const q = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const result = {
  upload: uploaded - t0,
  dryRun: checked - t0,
  import: imported - checked,
  publish: published - imported,
};
const lines = [
  `${kind}, ${rows.toLocaleString('en-US')} rows (${YEARS} years × ${MARKETS} markets × ${COMPANIES} companies × ${CODES} codes), ${(bytes / MB).toFixed(0)} MB of CSV, ${os.cpus().length} cores:`,
  '',
  '| step | time | target (10 years) |',
  '|---|---|---|',
  `| upload (streamed, stored) | ${s(result.upload)} | |`,
  `| dry run: upload to checked | ${s(result.dryRun)} | < 60 s |`,
  `| import: asked to imported | ${s(result.import)} | |`,
  `| publication of ${YEARS * 12 * MARKETS} periods | ${s(result.publish)} | |`,
  `| import and publication | ${s(result.import + result.publish)} | < 3 min PGlite, < 90 s server |`,
  `| peak growth: main thread heap / process RSS | ${(peak.heap / MB).toFixed(0)} MB / ${(peak.rss / MB).toFixed(0)} MB | < 300 MB |`,
  `| other requests (${latencies.length}): p50 / p99 / max | ${q(50).toFixed(0)} / ${q(99).toFixed(0)} / ${(sorted.at(-1) ?? 0).toFixed(0)} ms | p99 < 300 ms |`,
  `| PUT /reports/{uuid}/rows, 500 rows (${ROWS_API_TIMES} times, before the history): p95 | ${rowsP95.toFixed(0)} ms | < 300 ms |`,
];
console.log(lines.join('\n'));
for (const [name, list] of byPhase) {
  const ordered = [...list].sort((a, b) => a - b);
  const at = (p: number) => (ordered[Math.min(ordered.length - 1, Math.floor((p / 100) * ordered.length))] ?? 0).toFixed(0);
  console.log(`other requests during ${name} (${list.length}): p50 / p99 / max ${at(50)} / ${at(99)} / ${(ordered.at(-1) ?? 0).toFixed(0)} ms`);
}
if (YEARS === 10) {
  const doc = fs.readFileSync(DOC, 'utf8');
  const section = `${START_MARK}\n${lines.join('\n')}\n${END_MARK}`;
  const label = process.env.TEST_DATABASE_URL ? 'server' : 'pglite';
  const start = `${START_MARK.replace('start', `${label}:start`)}`;
  const end = `${END_MARK.replace('end', `${label}:end`)}`;
  const block = section.replace(START_MARK, start).replace(END_MARK, end);
  fs.writeFileSync(DOC, doc.includes(start) ? doc.replace(new RegExp(`${start}[\\s\\S]*?${end}`), block) : `${doc.trimEnd()}\n\n${block}\n`);
}
fs.rmSync(path.dirname(file), { recursive: true, force: true });
await t.close();
