// Benchmark: opening a 100,000-row report on the data import screen, in a real Chromium
// (docs/performance.md "Opening a large report").
//
// The app runs in this process (the built web app in web/dist and the API, on an embedded
// PGlite), a report of N rows is written straight into its database, and a headless Chromium
// signed in as the company's reporter opens /import/{reportUuid}. Measured from navigation start
// until the rows table shows its first row and the totals row shows the report's total, five
// times (a fresh page each, after one warm-up run), with the bytes of the API answers.
//
// The page is loaded anew (SPA boot, session, report, rows), as when a link is opened.
//
//   npm run build && npx tsx bench/report-open.ts          # CHROMIUM_PATH (default /usr/bin/chromium)
//   BENCH_ROWS=10000 npx tsx bench/report-open.ts
//   BENCH_API_ONLY=1 npx tsx bench/report-open.ts     # the API timings only, no browser
//
// The company also reported the same codes in the previous period and the same period last year
// (docs/decisions.md "What changed, for the approver"), so every page of rows is compared with them.
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { chromium } from '@playwright/test';
import { createMarket, createOrganization, createTestApp, createUser, PASSWORD, signIn, signInAs, XHR } from '../server/test/helpers.ts';
import { codes, companies, companyMarkets, companyOrganizations, periods, reportRows, reportRowSets, reports } from '../server/src/db/schema.ts';

const N = Number(process.env.BENCH_ROWS ?? 100_000);
const RUNS = 5;
const PORT = Number(process.env.BENCH_PORT ?? 3190);
const BATCH = 5_000;

const t = await createTestApp({ WEB_DIST: path.resolve(import.meta.dirname, '../web/dist') });
try {
  const org = await createOrganization(t.db);
  const market = await createMarket(t.db, org.id, 'Sweden');
  const [company] = await t.db.insert(companies).values({ name: 'Acme AB' }).returning();
  await t.db.insert(companyOrganizations).values({ company_id: company!.id, organization_id: org.id });
  await t.db.insert(companyMarkets).values({ company_id: company!.id, market_id: market.id });
  const admin = await signInAs(t, ['market-admin'], { organizationId: org.id, marketIds: [market.id] });
  const period = (
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/periods',
      headers: admin.headers,
      payload: { market_id: market.id, title: '2026-10', starts_on: '2026-10-01', ends_on: '2026-10-31' },
    })
  ).json().data;
  await t.app.inject({ method: 'POST', url: `/api/v1/periods/${period.uuid}/open`, headers: admin.headers });
  const [report] = await t.db.select().from(reports).where(eq(reports.company_id, company!.id));
  // The periods the rows are compared with, each with the company's report (rows written below).
  const earlier: number[] = [];
  for (const [title, starts_on, ends_on] of [
    ['2025-10', '2025-10-01', '2025-10-31'],
    ['2026-09', '2026-09-01', '2026-09-30'],
  ] as const) {
    const p = (
      await t.app.inject({ method: 'POST', url: '/api/v1/periods', headers: admin.headers, payload: { market_id: market.id, title, starts_on, ends_on } })
    ).json().data;
    await t.app.inject({ method: 'POST', url: `/api/v1/periods/${p.uuid}/open`, headers: admin.headers });
    const [r] = await t.db.select({ id: reports.id }).from(reports).innerJoin(periods, eq(periods.id, reports.period_id)).where(eq(periods.uuid, p.uuid));
    earlier.push(r!.id);
  }

  const seedStart = performance.now();
  const [rowSet] = await t.db.insert(reportRowSets).values({ report_id: report!.id }).returning();
  for (let from = 0; from < N; from += BATCH) {
    const size = Math.min(BATCH, N - from);
    const inserted = await t.db
      .insert(codes)
      .values(Array.from({ length: size }, (_, i) => ({ organization_id: org.id, code: String(1_000_000 + from + i), name: `Item ${from + i}` })))
      .returning({ id: codes.id });
    await t.db
      .insert(reportRows)
      .values(inserted.map((c, i) => ({ row_set_id: rowSet!.id, code_id: c.id, volume: `1234.567${(from + i) % 10}`, value: `${from + i}.5` })));
  }
  await t.db.update(reports).set({ row_set_id: rowSet!.id }).where(eq(reports.id, report!.id));
  // The same codes earlier, one in ten changed by more than the deviation setting, one in a hundred missing.
  for (const earlierId of earlier) {
    const [set] = await t.db.insert(reportRowSets).values({ report_id: earlierId }).returning();
    await t.db.execute(sql`insert into report_rows (row_set_id, code_id, volume, value)
      select ${set!.id}, code_id, case when code_id % 10 = 0 then volume * 2 else volume end, value + 1 from report_rows where row_set_id = ${rowSet!.id} and code_id % 100 <> 7`);
    await t.db.update(reports).set({ row_set_id: set!.id }).where(eq(reports.id, earlierId));
  }
  console.log(`seeded ${N} rows in ${Math.round(performance.now() - seedStart)} ms`);

  const reporterUser = await createUser(t.db, { roles: ['reporter'], organizationIds: [org.id], marketIds: [market.id], companyId: company!.id });
  const cookie = await signIn(t.app, reporterUser.email);
  const api = (await t.app.inject({ url: `/api/v1/reports/${report!.uuid}`, headers: { cookie, ...XHR } })).json().data;
  const totalText = Number(api.totals.volume).toLocaleString('en-US', { maximumFractionDigits: 4 });
  // The API alone (app.inject, no browser): median of 5 after one warm-up.
  const apiTimes: Record<string, number> = {};
  for (const url of [
    '',
    '/rows?page=1&per_page=100',
    '/rows?page=1000&per_page=100',
    '/rows?page=1&per_page=100&search=item%2012345',
    '/rows?page=1&per_page=100&sort=value&direction=desc',
    '/rows?page=1&per_page=100&sort=volume_change&direction=desc',
    '/rows?page=1&per_page=100&deviating=1',
    '/rows?page=100&per_page=100&deviating=1',
  ]) {
    const samples: number[] = [];
    for (let i = 0; i <= 5; i++) {
      const start = performance.now();
      const res = await t.app.inject({ url: `/api/v1/reports/${report!.uuid}${url}`, headers: { cookie, ...XHR } });
      if (res.statusCode !== 200) break;
      if (i > 0) samples.push(performance.now() - start);
    }
    if (samples.length) apiTimes[`GET /reports/{uuid}${url}`] = Math.round(samples.sort((a, b) => a - b)[2]!);
  }
  console.log('API alone, median ms:', JSON.stringify(apiTimes, null, 1));
  if (process.env.BENCH_API_ONLY) {
    await t.close();
    process.exit(0);
  }
  await t.app.listen({ port: PORT, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${PORT}`;

  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  const times: number[] = [];
  const apiBytes: Record<string, number> = {};
  for (let run = 0; run <= RUNS; run++) {
    const context = await browser.newContext({ locale: 'en-US' });
    const page = await context.newPage();
    // Signed in through the form (the web app keeps its own note of the session), not timed.
    await page.goto(`${base}/login`);
    await page.getByRole('textbox', { name: 'E-mail' }).fill(reporterUser.email);
    await page.getByRole('textbox', { name: 'Password' }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: /^Welcome, / }).waitFor();
    await page.waitForLoadState('networkidle');
    const bytes: Record<string, number> = {};
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (!url.pathname.startsWith('/api/')) return;
      void response.body().then(
        (body) => (bytes[url.pathname.replace(report!.uuid, '{uuid}')] = (bytes[url.pathname.replace(report!.uuid, '{uuid}')] ?? 0) + body.length),
        () => undefined,
      );
    });
    const start = performance.now();
    await page.goto(`${base}/import/${report!.uuid}`);
    if (process.env.BENCH_DEBUG) {
      await page.waitForTimeout(5000);
      console.log(page.url(), (await page.locator('body').innerText()).slice(0, 2000));
    }
    await page
      .locator('[data-testid="report-rows"] tbody tr')
      .first()
      .locator('td', { hasText: /^(⚠.*)?1000000$/ })
      .waitFor({ timeout: 60_000 });
    await page.locator('[data-testid="report-rows"] tfoot').getByText(totalText).waitFor({ timeout: 60_000 });
    const ms = performance.now() - start;
    if (run > 0) times.push(ms);
    console.log(`${run === 0 ? 'warm-up' : `run ${run}`}: ${Math.round(ms)} ms`);
    await page.waitForTimeout(300);
    Object.assign(apiBytes, bytes);
    await context.close();
  }
  await browser.close();
  times.sort((a, b) => a - b);
  console.log(
    `${N} rows, /import/{uuid} to first row and totals: median ${Math.round(times[Math.floor(RUNS / 2)]!)} ms (min ${Math.round(times[0]!)}, max ${Math.round(times.at(-1)!)})`,
  );
  console.log('API answers (bytes):', JSON.stringify(apiBytes));
} finally {
  await t.close();
}
