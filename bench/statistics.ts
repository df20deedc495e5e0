// Benchmark: the speed of the statistics endpoints (docs/performance.md "Statistics").
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
// Targets: each endpoint's p95 under 200 ms on PGlite (100 ms on PostgreSQL), approving
// under 300 ms. It is a report, not a gate.
//
//   npm run bench:statistics                               # embedded PGlite (in memory)
//   TEST_DATABASE_URL=postgres://… npm run bench:statistics  # a PostgreSQL server instead
//   BENCH_COMPANIES=100 npm run bench:statistics            # a smaller market
//   BENCH_ONLY=cluster npm run bench:statistics             # only the cases whose name contains it
//   BENCH_SAMPLES=1 npm run bench:statistics                # also every call's time, in order
//   BENCH_PROFILE='/statistics/cluster?cluster_id=CLUSTER&month=2026-12&by=code' …  # each query of three calls (CLUSTER: the bench's cluster)
//   BENCH_KEEP=1 TEST_DATABASE_URL=… npm run bench:statistics  # leave the database on the server
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { createTestApp, createUser, signIn, XHR } from '../server/test/helpers.ts';
import { publishPeriod } from '../server/src/modules/statistics/disclosure/statistics.publications.ts';

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
  // The published periods as viewers see them: each published once, as an administrator would have.
  const publishStart = performance.now();
  const published = (await t.db.execute<{ id: number }>(sql`select id from periods where published_at is not null order by starts_on, id`)).rows;
  for (const p of published) await publishPeriod(t.db, p.id, { actorId: null, mark: false });
  console.log(`${published.length} periods published in ${ms(performance.now() - publishStart)} (no cell breaks the rules: no pattern to decide)`);

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
    // Twice: the first call builds what the next ones read.
    for (const call of ['first', 'second', 'third']) {
      const start = performance.now();
      await t.app.inject({ url: `/api/v1${process.env.BENCH_PROFILE.replace('CLUSTER', String(cluster.id))}`, headers: clusterViewer });
      console.log(`${call} call: ${(performance.now() - start).toFixed(1)} ms`);
    }
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

  if (!process.env.BENCH_ONLY || 'publish'.includes(process.env.BENCH_ONLY)) await benchPublishing();
} finally {
  // BENCH_KEEP=1 leaves the database on the server (TEST_DATABASE_URL) to look at its plans.
  if (process.env.BENCH_KEEP) process.exit(0);
  await t.close();
}

/**
 * Publishing: what deciding the pattern costs. A market of its own organization with
 * 500 codes in 20 overlapping groups (60 codes each, chosen by a hash) and 5 sections, 60
 * companies, 24 monthly periods; a third of the codes are rare (a company or two: primary cells),
 * a tenth have one dominant company, and every fiftieth (ten codes) holds returns: figures below
 * zero. Each period is published through the API in turn (the last previewed first, with its two
 * reports missing); then the two late reports of the last period are approved and it is published
 * again. Printed: the time per
 * publication, and the cells hidden beyond the primary ones against what the old rule (one
 * confidential cell of a breakdown takes the next smallest with it) hid.
 */
async function benchPublishing() {
  const setupStart = performance.now();
  const org = await one<{ id: number }>(sql`insert into organizations (name) values ('Bench publishing') returning id`);
  const sek = await one<{ id: number }>(sql`select id from currencies where iso_code = 'SEK'`);
  const market = await one<{ id: number }>(sql`insert into markets (organization_id, international_name, local_name, iso_code, currency_id)
    values (${org.id}, 'Publishing', 'Publishing', 'PB', ${sek.id}) returning id`);
  await t.db.execute(
    sql`insert into codes (organization_id, code, name) select ${org.id}, (2000 + g)::text, 'Code ' || g from generate_series(0, ${CODES - 1}::int) g`,
  );
  await t.db.execute(sql`insert into code_markets (code_id, market_id) select id, ${market.id} from codes where organization_id = ${org.id}`);
  await t.db.execute(sql`insert into code_groups (organization_id, title) select ${org.id}, 'Overlapping ' || g from generate_series(1, ${GROUPS}::int) g`);
  // Each code in three groups or so: 60 codes a group, groups overlapping.
  await t.db.execute(sql`insert into code_group_codes (code_group_id, code_id)
    select g.id, c.id from codes c join code_groups g on g.organization_id = c.organization_id
    where c.organization_id = ${org.id} and abs(hashtext(c.code || '/' || g.title)) % ${CODES} < 60`);
  await t.db.execute(sql`insert into code_sections (organization_id, name, start, length)
    select ${org.id}, 'Section ' || g, 2000 + g * ${CODES / SECTIONS}, ${CODES / SECTIONS} from generate_series(0, ${SECTIONS - 1}::int) g`);
  await t.db.execute(sql`with c as (insert into companies (name) select 'PB company ' || g from generate_series(1, 60) g returning id)
    , o as (insert into company_organizations (company_id, organization_id) select id, ${org.id} from c)
    insert into company_markets (company_id, market_id, roles) select id, ${market.id}, '{reporter}' from c`);
  const periods: { id: number; uuid: string }[] = [];
  for (const [pi, title] of TITLES.entries()) {
    const last = pi === TITLES.length - 1;
    const period = await one<{ id: number; uuid: string }>(sql`insert into periods (market_id, title, starts_on, ends_on, status)
      values (${market.id}, ${title}, ${`${title}-01`}, ${endOf(title)}, ${last ? 'open' : 'closed'}) returning id, uuid::text as uuid`);
    periods.push(period);
    await t.db.execute(sql`insert into reports (period_id, company_id, status)
      select ${period.id}, cm.company_id, case when ${last} and row_number() over (order by cm.company_id) <= 2 then 40 else 60 end
      from company_markets cm where cm.market_id = ${market.id}`);
    await t.db.execute(sql`insert into report_row_sets (report_id) select id from reports where period_id = ${period.id}`);
    await t.db.execute(sql`update reports r set row_set_id = s.id from report_row_sets s where s.report_id = r.id and r.period_id = ${period.id}`);
    // Rare codes (a third: 3 % of the companies), medium (15 %), common (50 %); a tenth dominated by one company.
    await t.db.execute(sql`insert into report_rows (row_set_id, code_id, volume, value)
      select r.row_set_id, c.id,
        ((abs(hashtext(r.company_id || '/' || c.id || '/' || ${pi})) % 997 + 1) * (case when abs(hashtext('d' || c.id)) % 10 = 0 and r.company_id % 60 = c.id % 60 then 60 else 1 end))::numeric / 4
          * (case when (c.code::int - 2000) % 50 = 7 then -1 else 1 end),
        ((abs(hashtext(c.id || '/' || r.company_id || '/' || ${pi})) % 99991 + 100) * (case when abs(hashtext('d' || c.id)) % 10 = 0 and r.company_id % 60 = c.id % 60 then 60 else 1 end))::numeric * 12.5
          * (case when (c.code::int - 2000) % 50 = 7 then -1 else 1 end)
      from reports r cross join codes c
      where r.period_id = ${period.id} and c.organization_id = ${org.id}
        and abs(hashtext(r.company_id || ':' || c.id)) % 1000 < case abs(hashtext('p' || c.id)) % 10 when 0 then 30 when 1 then 30 when 2 then 30
          when 3 then 150 when 4 then 150 when 5 then 150 when 6 then 150 else 500 end`);
  }
  await t.db.execute(sql`analyze`);
  const rows = await one<{ n: number }>(sql`select count(*)::int as n from report_rows rr join reports r on r.row_set_id = rr.row_set_id
    join periods p on p.id = r.period_id where p.market_id = ${market.id}`);
  const admin = {
    cookie: await signIn(t.app, (await createUser(t.db, { roles: ['market-admin'], organizationIds: [org.id], marketIds: [market.id] })).email),
    ...XHR,
  };
  console.log(`\npublishing market: 60 companies × ${CODES} codes (${rows.n} rows) × ${TITLES.length} periods in ${ms(performance.now() - setupStart)}`);
  const publish = async (uuid: string, action: 'publish' | 'republish') => {
    const start = performance.now();
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/periods/${uuid}/${action}`, headers: admin });
    if (res.statusCode !== 200) throw new Error(`${action}: ${res.statusCode} ${res.body}`);
    return performance.now() - start;
  };
  const times: number[] = [];
  for (const p of periods.slice(0, -1)) times.push(await publish(p.uuid, 'publish'));
  // The last period has two reports missing: what publishing it would show, and what publishing
  // again after them would hide (each simulated by its company's previous report), before it is published.
  const previewStart = performance.now();
  const previewRes = await t.app.inject({ url: `/api/v1/periods/${periods.at(-1)!.uuid}/publication-preview`, headers: admin });
  const previewMs = performance.now() - previewStart;
  if (previewRes.statusCode !== 200) throw new Error(`preview: ${previewRes.statusCode} ${previewRes.body}`);
  const preview = previewRes.json().data as {
    now: { cells: number; hidden: number; primary: number };
    later: { pattern: { cells: number; hidden: number; primary: number; total_hidden: boolean } } | null;
    advice: string | null;
  };
  times.push(await publish(periods.at(-1)!.uuid, 'publish'));
  const late = (await t.db.execute<{ uuid: string }>(sql`select uuid::text as uuid from reports where period_id = ${periods.at(-1)!.id} and status = 40`)).rows;
  for (const r of late) {
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/reports/${r.uuid}/status`, headers: admin, payload: { status: 60 } });
    if (res.statusCode !== 200) throw new Error(`approve: ${res.statusCode} ${res.body}`);
  }
  const again = await publish(periods.at(-1)!.uuid, 'republish');
  // What the old rule hid beyond the primary cells: per breakdown with exactly one primary cell, the next smallest (or the total).
  const counts = await t.db.execute<{ number: number; cells: number; primary_cells: number; hidden_cells: number; decided_ms: number; old: number }>(sql`
    select s.number, (select count(*)::int from statistics_publication_cells c where c.publication_id = s.id) as cells,
      s.primary_cells, s.hidden_cells, s.decided_ms,
      (select count(*)::int from (select c.dimension from statistics_publication_cells c where c.publication_id = s.id and c.dimension <> 'total'
        group by c.dimension having count(*) filter (where c.primary_confidential) = 1) x) as old
    from statistics_publications s join periods p on p.id = s.period_id where p.market_id = ${market.id} order by p.starts_on, s.number`);
  const first = counts.rows.filter((c) => c.number === 1);
  const republished = counts.rows.find((c) => c.number === 2)!;
  const sum = (f: (c: (typeof first)[number]) => number) => first.reduce((s, c) => s + f(c), 0);
  console.log('| publishing (API, 24 periods one after another) | median | p95 | max |');
  console.log('|---|---|---|---|');
  console.log(`| publish a period | ${ms(median(times))} | ${ms(p95(times))} | ${ms(Math.max(...times))} |`);
  console.log(
    `| of which deciding the pattern (decided_ms) | ${ms(median(first.map((c) => c.decided_ms)))} | ${ms(p95(first.map((c) => c.decided_ms)))} | ${ms(Math.max(...first.map((c) => c.decided_ms)))} |`,
  );
  console.log(`| publish the last period again after 2 late approvals | ${ms(again)} (deciding ${ms(republished.decided_ms)}) | | |`);
  console.log(
    `\ncells a period ${Math.round(sum((c) => c.cells) / first.length)}; primary ${sum((c) => c.primary_cells)} in 24 periods; hidden beyond them ${sum((c) => c.hidden_cells - c.primary_cells)} (the old rule: ${sum((c) => c.old)}, which protected nothing against subtraction)`,
  );
  console.log(`published again: primary ${republished.primary_cells}, hidden ${republished.hidden_cells} of ${republished.cells} cells`);
  const last = first.at(-1)!;
  console.log(
    `| the preview of the last period (two reports missing: this publication and the next, simulated) | ${ms(previewMs)} | now ${preview.now.hidden} hidden (${preview.now.primary} primary), later ${preview.later?.pattern.hidden} (${preview.later?.pattern.primary} primary${preview.later?.pattern.total_hidden ? ', the total among them' : ''}), advice ${preview.advice ?? 'none'} |`,
  );
  console.log(
    `the last period: first publication hid ${last.hidden_cells} of ${last.cells} cells, the one after the 2 late approvals ${republished.hidden_cells} (${republished.hidden_cells - last.hidden_cells} more: every cell of what the two late companies add must stay uncertain; estimates for missing reports are not built yet)`,
  );
}
