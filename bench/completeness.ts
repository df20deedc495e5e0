// Benchmark: the completeness overview (GET /completeness), answered from kept counts.
//
// Builds, directly in SQL, an organization of 20 markets with 40 companies each and 60 monthly
// periods per market (5 years: 1,200 periods, 48,000 reports in every status, some overdue), then
// asks as its administrator through the HTTP API (app.inject): one year of every market (240
// rows), five years of every market (1,200 rows), five years of one market, the overdue filter
// and the csv download; each 50 times after a warm-up call, median and p95 printed. Beside them:
// the same counts recounted from the reports in SQL (what the kept counts save), and what the
// triggers add to approving one report and to opening a period of 40 companies.
// Target: p95 < 100 ms for each read, on PGlite. It is a report, not a gate.
//
//   npm run bench:completeness                                 # embedded PGlite (in memory)
//   TEST_DATABASE_URL=postgres://… npm run bench:completeness  # a PostgreSQL server instead
import { sql } from 'drizzle-orm';
import { createTestApp, createUser, signIn, XHR } from '../server/test/helpers.ts';

const MARKETS = 20;
const COMPANIES = 40;
const YEARS = 5;
const RUNS = 50;
const FIRST_YEAR = 2022;

const t = await createTestApp();
const one = async <T extends Record<string, unknown>>(query: ReturnType<typeof sql>) => (await t.db.execute<T>(query)).rows[0]!;
const quantile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil(xs.length * q) - 1)]!;
const ms = (x: number) => `${x.toFixed(1)} ms`;
const results: { name: string; p50: number; p95: number; target?: number }[] = [];

async function measure(name: string, call: () => Promise<unknown>, target?: number) {
  await call();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    await call();
    times.push(performance.now() - start);
  }
  results.push({ name, p50: quantile(times, 0.5), p95: quantile(times, 0.95), target });
  console.log(`${name}: p50 ${ms(quantile(times, 0.5))}, p95 ${ms(quantile(times, 0.95))}`);
}

try {
  const setupStart = performance.now();
  const org = await one<{ id: number }>(sql`insert into organizations (name) values ('Completeness bench') returning id`);
  await t.db.execute(sql`insert into markets (organization_id, international_name, local_name, iso_code)
    select ${org.id}, 'Market ' || lpad(g::text, 2, '0'), 'Market ' || g, 'M' || g from generate_series(1, ${MARKETS}::int) g`);
  await t.db.execute(sql`with c as (
      insert into companies (name) select 'Company ' || m.id || '-' || g from markets m, generate_series(1, ${COMPANIES}::int) g
      where m.organization_id = ${org.id} returning id, name)
    , o as (insert into company_organizations (company_id, organization_id) select id, ${org.id} from c)
    insert into company_markets (company_id, market_id, roles)
    select c.id, split_part(split_part(c.name, ' ', 2), '-', 1)::int, '{reporter}' from c`);
  // Five years of months per market; the last three open (deadlines the 10th of the next month), the rest closed.
  await t.db.execute(sql`insert into periods (market_id, title, starts_on, ends_on, deadline, status)
    select m.id, to_char(s, 'YYYY-MM'), s::date, (s + interval '1 month - 1 day')::date, (s + interval '1 month 9 days')::date,
      case when s >= make_date(${FIRST_YEAR + YEARS - 1}, 10, 1) then 'open' else 'closed' end
    from markets m, generate_series(make_date(${FIRST_YEAR}, 1, 1), make_date(${FIRST_YEAR + YEARS - 1}, 12, 1), interval '1 month') s
    where m.organization_id = ${org.id}`);
  // Every company a report in every period of its market: mostly approved, the open months in every status.
  await t.db.execute(sql`insert into reports (period_id, company_id, status)
    select p.id, cm.company_id,
      case when p.status = 'closed' then (case when (cm.company_id + p.id) % 25 = 0 then 20 else 60 end)
        else (array[20, 30, 40, 50, 60, 60, 60])[(cm.company_id * 3 + p.id) % 7 + 1] end
    from periods p join company_markets cm on cm.market_id = p.market_id join markets m on m.id = p.market_id
    where m.organization_id = ${org.id}`);
  // A few companies disabled along the way (no longer expected after).
  await t.db.execute(sql`update companies set disabled_at = make_timestamptz(${FIRST_YEAR + 2}, 6, 15, 0, 0, 0, 'UTC')
    where id in (select company_id from company_markets where market_id in (select id from markets where organization_id = ${org.id}) and company_id % 37 = 0)`);
  await t.db.execute(sql`analyze`);
  const counts = await one<{ periods: number; reports: number }>(
    sql`select (select count(*)::int from periods) as periods, (select count(*)::int from reports) as reports`,
  );
  const statuses = (await t.db.execute<{ status: number; n: number }>(sql`select status, count(*)::int as n from reports group by 1 order by 1`)).rows;
  console.log(`reports by status: ${statuses.map((s) => `${s.status}: ${s.n}`).join(', ')}`);
  console.log(
    `${MARKETS} markets × ${COMPANIES} companies × ${YEARS * 12} periods: ${counts.periods} periods, ${counts.reports} reports in ${ms(performance.now() - setupStart)}`,
  );

  const admin = await createUser(t.db, { roles: ['admin'], organizationIds: [org.id] });
  const headers = { ...XHR, cookie: await signIn(t.app, admin.email) };
  const get = (query: string) => async () => {
    const res = await t.app.inject({ url: `/api/v1/completeness?${query}`, headers });
    if (res.statusCode !== 200) throw new Error(`${query}: ${res.statusCode} ${res.body}`);
    return res;
  };
  const lastYear = FIRST_YEAR + YEARS - 1;
  const rows = (await get(`from=${lastYear}-01&to=${lastYear}-12`)()).json().data.rows.length as number;
  const all = (await get(`from=${FIRST_YEAR}-01&to=${lastYear}-12`)()).json().data.rows.length as number;
  console.log(`one year: ${rows} rows; five years: ${all} rows`);
  const market = await one<{ id: number }>(sql`select id from markets where organization_id = ${org.id} order by id limit 1`);

  await measure(`GET /completeness, one year, ${MARKETS} markets`, get(`from=${lastYear}-01&to=${lastYear}-12`), 100);
  await measure(`GET /completeness, ${YEARS} years, ${MARKETS} markets`, get(`from=${FIRST_YEAR}-01&to=${lastYear}-12`), 100);
  await measure(`GET /completeness, ${YEARS} years, one market`, get(`from=${FIRST_YEAR}-01&to=${lastYear}-12&market_id=${market.id}`), 100);
  await measure(`GET /completeness, ${YEARS} years, overdue only`, get(`from=${FIRST_YEAR}-01&to=${lastYear}-12&status=overdue`), 100);
  await measure(`GET /completeness, one year as csv`, get(`from=${lastYear}-01&to=${lastYear}-12&format=csv`), 100);
  // What the kept counts save: the same counts recounted from the reports (the statistics' rule).
  await measure(`for comparison: recounting ${YEARS} years from the reports in SQL`, () =>
    t.db.execute(sql`select r.period_id, r.status, count(*) from reports r join periods p on p.id = r.period_id join companies co on co.id = r.company_id
      where (co.disabled_at is null or co.disabled_at >= ((p.ends_on + 1)::timestamp at time zone 'UTC')) group by 1, 2`),
  );
  // What keeping them costs: one approval, and opening a period of 40 companies.
  const pending = (await t.db.execute<{ id: number }>(sql`select id from reports where status <> 60 order by id limit ${RUNS + 1}`)).rows;
  if (pending.length <= RUNS) throw new Error(`only ${pending.length} reports to approve`);
  let next = 0;
  await measure('approving one report (an update of its status, the trigger included)', () =>
    t.db.execute(sql`update reports set status = 60 where id = ${pending[next++]!.id}`),
  );
  let month = 0;
  await measure(`opening a period: ${COMPANIES} reports in one statement, the trigger included`, async () => {
    month++;
    const period = await one<{ id: number }>(sql`insert into periods (market_id, title, starts_on, ends_on, status)
      values (${market.id}, ${`bench-${month}`}, make_date(2040, 1, 1) + ${month}::int, make_date(2040, 1, 1) + ${month}::int, 'open') returning id`);
    await t.db.execute(sql`insert into reports (period_id, company_id) select ${period.id}, company_id from company_markets where market_id = ${market.id}`);
  });

  console.log('\n| Measure | p50 | p95 | Target |\n|---|---|---|---|');
  for (const r of results)
    console.log(`| ${r.name} | ${ms(r.p50)} | ${ms(r.p95)} | ${r.target ? `p95 < ${r.target} ms${r.p95 < r.target ? ' ✓' : ' ✗'}` : ''} |`);
} finally {
  await t.close();
}
