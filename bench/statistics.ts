// Benchmark: the statistics endpoints (issue 10 "Speed").
//
// Builds, directly in SQL, a market (SEK) with 300 companies, 500 codes in 20 groups and 5
// sections, and 24 monthly periods (2025-01 … 2026-12) of approved, published reports: 3.6
// million rows. Four more markets of the same organization (30 companies each, same codes and
// periods) make a cluster of five; their row count does not change what a cluster read costs
// (it reads per-period cells, not rows), only how long this setup takes. Then, as a viewer, an
// approver and a reporter would ask through the HTTP API (app.inject), each endpoint is called
// 20 times after one warm-up call, and its median and p95 are printed, next to the plainest SQL
// `sum … group by code` over the same period's rows in the same run, and to:
//   - the first read of a period whose cells are not built (what a read pays after an
//     invalidation: a code group edited, a company disabled);
//   - approving one 500-row report through the API (the cells grow in the same transaction);
//   - the cluster read that follows such an approval, and one with no kept figures at all
//     (statistics_sums: what every read after a change of the cells pays once).
// Targets (issue 10): each endpoint's p95 under 200 ms on PGlite (100 ms on PostgreSQL), approving
// under 300 ms. It is a report, not a gate.
//
//   npm run bench:statistics                               # embedded PGlite (in memory)
//   TEST_DATABASE_URL=postgres://… npm run bench:statistics  # a PostgreSQL server instead
//   BENCH_COMPANIES=100 npm run bench:statistics            # a smaller market
//   BENCH_ONLY=cluster npm run bench:statistics             # only the cases whose name contains it
//   BENCH_SAMPLES=1 npm run bench:statistics                # also every call's time, in order
//   BENCH_KEEP=1 TEST_DATABASE_URL=… npm run bench:statistics  # leave the database on the server
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { createTestApp, createUser, signIn, XHR } from '../server/test/helpers.ts';

const COMPANIES = Number(process.env.BENCH_COMPANIES ?? 300);
const OTHER_COMPANIES = Number(process.env.BENCH_OTHER_COMPANIES ?? 30);
const CODES = 500;
const GROUPS = 20;
const SECTIONS = 5;
const RUNS = 20;
const PENDING = Math.min(21, Math.floor(COMPANIES / 3));
const TITLES = [...Array(24).keys()].map((i) => `${2025 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`);
const endOf = (title: string) => {
  const [y, m] = title.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
};

// Time spent in SQL (every query of the pool's clients), to split each call into database and the rest.
let sqlMs = 0;
const originalQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const start = performance.now();
  const result = (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
  if (result instanceof Promise) return result.finally(() => (sqlMs += performance.now() - start));
  return result;
} as typeof pg.Client.prototype.query;

const t = await createTestApp();
const one = async <T extends Record<string, unknown>>(query: ReturnType<typeof sql>) => (await t.db.execute<T>(query)).rows[0]!;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.95) - 1]!;
const ms = (x: number) => `${x.toFixed(1)} ms`;

try {
  const setupStart = performance.now();
  const org = await one<{ id: number }>(sql`insert into organizations (name) values ('Bench') returning id`);
  const sek = await one<{ id: number }>(sql`insert into currencies (iso_code, name) values ('SEK', 'Krona') returning id`);
  const eur = await one<{ id: number }>(sql`insert into currencies (iso_code, name) values ('EUR', 'Euro') returning id`);
  await t.db.execute(sql`insert into currency_conversions (from_currency_id, to_currency_id, rate, valid_from)
    select ${sek.id}, ${eur.id}, 0.09 + g * 0.0001, make_date(2025 + g / 12, g % 12 + 1, 1) from generate_series(0, 23) g`);
  const cluster = await one<{ id: number }>(sql`insert into clusters (organization_id, name) values (${org.id}, 'Bench cluster') returning id`);
  await t.db.execute(
    sql`insert into codes (organization_id, code, name) select ${org.id}, (1000 + g)::text, 'Code ' || g from generate_series(0, ${CODES - 1}::int) g`,
  );
  await t.db.execute(sql`insert into code_groups (organization_id, title) select ${org.id}, 'Group ' || g from generate_series(1, ${GROUPS}::int) g`);
  await t.db.execute(sql`insert into code_group_codes (code_group_id, code_id)
    select g.id, c.id from codes c join code_groups g on g.organization_id = c.organization_id and g.title = 'Group ' || ((c.code::int - 1000) % ${GROUPS} + 1)
    where c.organization_id = ${org.id}`);
  await t.db.execute(sql`insert into code_sections (organization_id, name, start, length)
    select ${org.id}, 'Section ' || g, 1000 + g * ${CODES / SECTIONS}, ${CODES / SECTIONS} from generate_series(0, ${SECTIONS - 1}::int) g`);

  const markets: number[] = [];
  for (let m = 0; m < 5; m++) {
    const companies = m === 0 ? COMPANIES : OTHER_COMPANIES;
    const market = await one<{ id: number }>(sql`insert into markets (organization_id, international_name, local_name, iso_code, currency_id)
      values (${org.id}, ${`Market ${m}`}, ${`Market ${m}`}, ${`M${m}`}, ${sek.id}) returning id`);
    markets.push(market.id);
    await t.db.execute(sql`insert into cluster_markets (cluster_id, market_id) values (${cluster.id}, ${market.id})`);
    await t.db.execute(sql`insert into code_markets (code_id, market_id) select id, ${market.id} from codes where organization_id = ${org.id}`);
    await t.db.execute(sql`with c as (insert into companies (name) select ${`M${m} company `} || g from generate_series(1, ${companies}::int) g returning id)
      , o as (insert into company_organizations (company_id, organization_id) select id, ${org.id} from c)
      insert into company_markets (company_id, market_id, roles) select id, ${market.id}, '{reporter}' from c`);
    for (const [pi, title] of TITLES.entries()) {
      const period = await one<{ id: number }>(sql`insert into periods (market_id, title, starts_on, ends_on, status, published_at)
        values (${market.id}, ${title}, ${`${title}-01`}, ${endOf(title)}, ${pi === TITLES.length - 1 ? 'open' : 'closed'}, now()) returning id`);
      // The last period of the big market keeps a few reports waiting for approval (measured below).
      await t.db.execute(sql`insert into reports (period_id, company_id, status)
        select ${period.id}, cm.company_id, case when ${m === 0 && pi === TITLES.length - 1} and row_number() over (order by cm.company_id) <= ${PENDING} then 40 else 60 end
        from company_markets cm where cm.market_id = ${market.id}`);
      await t.db.execute(sql`insert into report_row_sets (report_id) select id from reports where period_id = ${period.id}`);
      await t.db.execute(sql`update reports r set row_set_id = s.id from report_row_sets s where s.report_id = r.id and r.period_id = ${period.id}`);
      await t.db.execute(sql`insert into report_rows (row_set_id, code_id, volume, value)
        select r.row_set_id, c.id, ((r.company_id * 31 + c.id * 17 + ${pi}) % 997 + 1)::numeric / 4,
          ((r.company_id * 131 + c.id * 7 + ${pi} * 3) % 99991 + 100)::numeric * 12.5
        from reports r cross join codes c where r.period_id = ${period.id} and c.organization_id = ${org.id}`);
    }
    console.log(`market ${m}: ${companies} companies × ${CODES} codes × ${TITLES.length} periods (${ms(performance.now() - setupStart)} so far)`);
  }
  await t.db.execute(sql`analyze`);
  const rowCount = await one<{ n: number }>(sql`select count(*)::int as n from report_rows`);
  console.log(`${rowCount.n} rows in ${ms(performance.now() - setupStart)}`);

  const market = markets[0]!;
  const periods = (
    await t.db.execute<{ id: number; uuid: string; title: string }>(
      sql`select id, uuid::text as uuid, title from periods where market_id = ${market} order by starts_on`,
    )
  ).rows;
  const last = periods.at(-1)!;
  const headers = async (roles: string[], companyId?: number) => ({
    cookie: await signIn(t.app, (await createUser(t.db, { roles: roles as never, organizationIds: [org.id], marketIds: markets, companyId })).email),
    ...XHR,
  });
  const reporterCompany = await one<{ company_id: number }>(
    sql`select company_id from reports where period_id = ${last.id} and status = 60 order by company_id limit 1`,
  );
  const viewer = await headers(['viewer']);
  const approver = await headers(['market-admin']);
  const clusterViewer = await headers(['cluster-viewer']);
  const reporter = await headers(['reporter'], reporterCompany.company_id);
  const group = await one<{ id: number }>(sql`select id from code_groups where organization_id = ${org.id} order by id limit 1`);

  // The first read of a period whose cells are not built: the whole period's rows, once.
  const coldStart = performance.now();
  const cold = await t.app.inject({ url: `/api/v1/statistics/market?period_uuid=${periods[0]!.uuid}&by=total`, headers: approver });
  const coldMs = performance.now() - coldStart;
  if (cold.statusCode !== 200) throw new Error(`cold read: ${cold.statusCode} ${cold.body}`);

  const cases: [string, string, Record<string, string>][] = [
    ['market by code, last year and YTD (viewer)', `/statistics/market?period_uuid=${last.uuid}&by=code`, viewer],
    ['market by code in EUR (viewer)', `/statistics/market?period_uuid=${last.uuid}&by=code&currency=EUR`, viewer],
    ['market by code group (reporter, own share)', `/statistics/market?period_uuid=${last.uuid}&by=code_group`, reporter],
    ['market by company (approver)', `/statistics/market?period_uuid=${last.uuid}&by=company`, approver],
    ['cluster of 5 markets by code in EUR', `/statistics/cluster?cluster_id=${cluster.id}&month=2026-12&by=code&currency=EUR`, clusterViewer],
    ['trend of 24 periods, total', `/statistics/trend?market_id=${market}&periods=24`, viewer],
    ['trend of 24 periods, one code group in EUR', `/statistics/trend?market_id=${market}&periods=24&code_group_id=${group.id}&currency=EUR`, viewer],
    ['company against the market', `/statistics/company?company_id=${reporterCompany.company_id}&period_uuid=${last.uuid}`, reporter],
    ['market by code as xlsx', `/statistics/market?period_uuid=${last.uuid}&by=code&format=xlsx`, viewer],
  ];
  if (process.env.BENCH_PROFILE) {
    const pool = t.db.$client;
    const q = pool.query.bind(pool);
    (pool as unknown as { query: unknown }).query = async (...args: unknown[]) => {
      const start = performance.now();
      try {
        return await (q as (...a: unknown[]) => Promise<unknown>)(...args);
      } finally {
        const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text: string }).text;
        const took = performance.now() - start;
        console.log(`${took.toFixed(1)} ms  ${text.replace(/\s+/g, ' ').slice(0, 90)}`);
        if (took > 100 && !text.startsWith('explain')) {
          const plan = await q(`explain (analyze, costs off) ${text}`, (args[0] as { values?: unknown[] }).values ?? (args[1] as unknown[]));
          console.log((plan as { rows: Record<string, string>[] }).rows.map((r) => r['QUERY PLAN']).join('\n'));
        }
      }
    };
    const start = performance.now();
    await t.app.inject({ url: `/api/v1${process.env.BENCH_PROFILE}`, headers: clusterViewer });
    console.log(`total ${(performance.now() - start).toFixed(1)} ms`);
    (pool as unknown as { query: unknown }).query = q;
  }
  const results: { name: string; median: number; p95: number; bytes: number; sql: number }[] = [];
  for (const [name, url, h] of cases) {
    if (process.env.BENCH_ONLY && !name.includes(process.env.BENCH_ONLY)) continue;
    const samples: number[] = [];
    const sqlSamples: number[] = [];
    let bytes = 0;
    for (let i = 0; i <= RUNS; i++) {
      sqlMs = 0;
      const start = performance.now();
      const res = await t.app.inject({ url: `/api/v1${url}`, headers: h });
      const elapsed = performance.now() - start;
      if (res.statusCode !== 200) throw new Error(`${name}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      bytes = res.rawPayload.length;
      if (i > 0) samples.push(elapsed);
      if (i > 0) sqlSamples.push(sqlMs);
    }
    if (process.env.BENCH_SAMPLES) console.log(name, samples.map((x) => x.toFixed(0)).join(' '), 'sql', sqlSamples.map((x) => x.toFixed(0)).join(' '));
    results.push({ name, median: median(samples), p95: p95(samples), bytes, sql: median(sqlSamples) });
  }
  // The plainest SQL over the same period: sum … group by code.
  const plain: number[] = [];
  for (let i = 0; i <= RUNS; i++) {
    const start = performance.now();
    await t.db.execute(sql`select rr.code_id, sum(rr.volume), sum(rr.value) from reports r join report_rows rr on rr.row_set_id = r.row_set_id
      where r.period_id = ${last.id} and r.status = 60 group by rr.code_id`);
    if (i > 0) plain.push(performance.now() - start);
  }
  // Approving a 500-row report through the API (its period's cells are built by now).
  const pending = (await t.db.execute<{ uuid: string }>(sql`select uuid::text as uuid from reports where period_id = ${last.id} and status = 40 order by id`))
    .rows;
  const approvals: number[] = [];
  for (const [i, report] of pending.entries()) {
    const start = performance.now();
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/reports/${report.uuid}/status`, headers: approver, payload: { status: 60 } });
    if (res.statusCode !== 200) throw new Error(`approve: ${res.statusCode} ${res.body}`);
    if (i > 0) approvals.push(performance.now() - start);
  }

  // What a read pays when the kept figures (statistics_sums) are gone: the approvals above dropped
  // the big market's (its period's cells grew); then all five are dropped.
  const clusterUrl = cases.find(([name]) => name.startsWith('cluster'))![1];
  const timed = async () => {
    const start = performance.now();
    const res = await t.app.inject({ url: `/api/v1${clusterUrl}`, headers: clusterViewer });
    if (res.statusCode !== 200) throw new Error(`cluster: ${res.statusCode}`);
    return performance.now() - start;
  };
  const afterApproval = await timed();
  await t.db.execute(sql`delete from statistics_sums`);
  const keptCold = await timed();

  console.log(
    `\n${rowCount.n.toLocaleString('en-US')} rows; ${RUNS} calls after one warm-up; database: ${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite (in memory)'}\n`,
  );
  console.log('| what | median | p95 | of which SQL (median) | answer |');
  console.log('|---|---|---|---|---|');
  for (const r of results) console.log(`| ${r.name} | ${ms(r.median)} | ${ms(r.p95)} | ${ms(r.sql)} | ${(r.bytes / 1024).toFixed(0)} KiB |`);
  console.log(`| plain SQL: sum … group by code over one period's ${COMPANIES * CODES} rows | ${ms(median(plain))} | ${ms(p95(plain))} | | |`);
  console.log(`| approve a ${CODES}-row report (API, cells grown) | ${ms(median(approvals))} | ${ms(p95(approvals))} | | |`);
  console.log(`| first read of a period whose cells are not built (${COMPANIES * CODES} rows) | ${ms(coldMs)} | | | |`);
  console.log(`| cluster after an approval in the big market (its kept figures summed again) | ${ms(afterApproval)} | | | |`);
  console.log(`| cluster with no kept figures (five markets summed from their cells) | ${ms(keptCold)} | | | |`);
} finally {
  // BENCH_KEEP=1 leaves the database on the server (TEST_DATABASE_URL) to look at its plans.
  if (process.env.BENCH_KEEP) process.exit(0);
  await t.close();
}
