import { eq } from 'drizzle-orm';
import { createMarket, createOrganization, createUser, signIn, signInAs, type TestApp, XHR } from './helpers.ts';
import { codeMarkets, codes, companies, companyCodes, companyMarkets, companyOrganizations, reportRows, reportRowSets, reports } from '../src/db/schema.ts';

/**
 * A market with two reporting companies (Acme AB with its reporter, Rival AB with its own),
 * two codes and a market administrator, and the steps the reporting tests take on it: open a
 * period, store rows, change a status. `app` is read when a step runs (the app starts in beforeAll).
 */
export function reportingWorld(app: () => TestApp) {
  async function world() {
    const org = await createOrganization(app().db);
    const market = await createMarket(app().db, org.id, 'Sweden');
    const [company] = await app().db.insert(companies).values({ name: 'Acme AB' }).returning();
    await app().db.insert(companyOrganizations).values({ company_id: company!.id, organization_id: org.id });
    await app().db.insert(companyMarkets).values({ company_id: company!.id, market_id: market.id });
    const [rival] = await app().db.insert(companies).values({ name: 'Rival AB' }).returning();
    await app().db.insert(companyMarkets).values({ company_id: rival!.id, market_id: market.id });
    const codeRows = await app()
      .db.insert(codes)
      .values([
        { organization_id: org.id, code: '1001', name: 'Small' },
        { organization_id: org.id, code: '1002', name: 'Large' },
      ])
      .returning();
    // Both codes are offered in the market and reported by both companies (what an import and a copy ask).
    await app()
      .db.insert(codeMarkets)
      .values(codeRows.map((c) => ({ code_id: c.id, market_id: market.id })));
    await app()
      .db.insert(companyCodes)
      .values([company!, rival!].flatMap((co) => codeRows.map((c) => ({ code_id: c.id, company_id: co.id }))));
    const reporterUser = await createUser(app().db, { roles: ['reporter'], organizationIds: [org.id], marketIds: [market.id], companyId: company!.id });
    const reporter = { cookie: await signIn(app().app, reporterUser.email) };
    const rivalUser = await createUser(app().db, { roles: ['reporter'], organizationIds: [org.id], marketIds: [market.id], companyId: rival!.id });
    const rivalReporter = { cookie: await signIn(app().app, rivalUser.email) };
    const marketAdmin = await signInAs(app(), ['market-admin'], { organizationId: org.id, marketIds: [market.id] });
    return {
      org,
      market,
      company: company!,
      rival: rival!,
      codes: codeRows,
      reporter: { ...XHR, ...reporter },
      rivalReporter: { ...XHR, ...rivalReporter },
      admin: marketAdmin.headers,
    };
  }

  async function openPeriod(w: ReportingWorld, title: string, startsOn: string) {
    const created = await app().app.inject({
      method: 'POST',
      url: '/api/v1/periods',
      headers: w.admin,
      payload: { market_id: w.market.id, title, starts_on: startsOn, ends_on: startsOn.replace(/-01$/, '-28') },
    });
    const period = created.json().data;
    await app().app.inject({ method: 'POST', url: `/api/v1/periods/${period.uuid}/open`, headers: w.admin });
    const list = await app().app.inject({ url: `/api/v1/reports?period_uuid=${period.uuid}`, headers: w.reporter });
    return { period, report: list.json().data[0] };
  }

  const rowsOf = (headers: Record<string, string>, uuid: string, query = '') => app().app.inject({ url: `/api/v1/reports/${uuid}/rows${query}`, headers });

  const status = (headers: Record<string, string>, uuid: string, payload: Record<string, unknown>) =>
    app().app.inject({ method: 'POST', url: `/api/v1/reports/${uuid}/status`, headers, payload });

  async function storeRows(reportUuid: string, rows: [number, number | null, number | null][]) {
    const [report] = await app().db.select({ id: reports.id }).from(reports).where(eq(reports.uuid, reportUuid));
    const [rowSet] = await app().db.insert(reportRowSets).values({ report_id: report!.id }).returning();
    if (rows.length)
      await app()
        .db.insert(reportRows)
        .values(
          rows.map(([code_id, volume, value]) => ({ row_set_id: rowSet!.id, code_id, volume: volume?.toString() ?? null, value: value?.toString() ?? null })),
        );
    await app().db.update(reports).set({ row_set_id: rowSet!.id }).where(eq(reports.id, report!.id));
  }

  return { world, openPeriod, rowsOf, status, storeRows };
}

export type ReportingWorld = Awaited<ReturnType<ReturnType<typeof reportingWorld>['world']>>;
