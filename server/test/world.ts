import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { and, eq } from 'drizzle-orm';
import { ROLES, type Role } from '@mss/contracts/enums';
import type { TestApp } from './helpers.ts';
import { XHR } from './helpers.ts';
import {
  clusters,
  codeGroups,
  codes,
  codeSections,
  companies,
  companyOrganizations,
  currencies,
  currencyConversions,
  importErrors,
  imports,
  informationModals,
  markets,
  organizations,
  periods,
  releases,
  reports,
  userOrganizations,
  users,
} from '../src/db/schema.ts';
import { DEMO_PASSWORD, seedDemo } from '../src/seed/demo.ts';

/**
 * The demo data (organization A = Nordic, with a user of every role) plus organization B
 * (Baltic) filled with one record of every kind, for tests that try every route with every role
 * against their own and another organization's ids.
 */
export interface Side {
  organization: number;
  organizationUuid: string;
  market: number;
  cluster: number;
  company: number;
  code: number;
  codeSection: number;
  codeGroup: number;
  informationModal: number;
  user: number;
  period: string;
  report: string;
  import: string;
  /** A draft communication to the reporters of the side's market, with one attachment. */
  communication: string;
  attachment: number;
}

export interface World {
  a: Side;
  b: Side;
  currency: number;
  conversion: number;
  release: number;
  /** Session headers (cookie and X-Requested-With) by role; anonymous has none. */
  headers: Record<Role | 'anonymous', Record<string, string>>;
  signInAs(role: Role): Promise<Record<string, string>>;
}

async function post(t: TestApp, headers: Record<string, string>, url: string, payload: unknown) {
  const res = await t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers, payload: payload as object });
  if (res.statusCode >= 300) throw new Error(`world: POST ${url} answered ${res.statusCode} ${res.body}`);
  return res.json().data;
}

export function multipart(name: string, content: Buffer): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----world${Date.now()}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function upload(t: TestApp, headers: Record<string, string>, report: string): Promise<string> {
  const body = multipart('report.xlsx', Buffer.from('not really a workbook'));
  const res = await t.app.inject({ method: 'POST', url: `/api/v1/reports/${report}/file`, headers: { ...headers, ...body.headers }, payload: body.payload });
  if (res.statusCode !== 202) throw new Error(`world: upload answered ${res.statusCode} ${res.body}`);
  const uuid: string = res.json().data.uuid;
  // One row error, so that the routes about an import's errors have one to work on (no job reads the
  // file here: its bytes are no workbook, so a marked copy of it is refused, 422, to those who may ask).
  const [item] = await t.db.select({ id: imports.id }).from(imports).where(eq(imports.uuid, uuid));
  await t.db
    .insert(importErrors)
    .values({ import_id: item!.id, position: 0, row: 2, code: '9999', key: 'import.invalid_code', params: { row: 2 }, column_letter: 'A', cell: '9999' });
  return uuid;
}

export async function buildWorld(t: TestApp): Promise<World> {
  await seedDemo(t.db);
  const [nordic] = await t.db.select().from(organizations).where(eq(organizations.name, 'Nordic Sales Association'));
  const [baltic] = await t.db.select().from(organizations).where(eq(organizations.name, 'Baltic Sales Association'));
  if (!nordic || !baltic) throw new Error('world: the demo organizations are missing');

  const signInAs = async (role: Role): Promise<Record<string, string>> => {
    const email = role === 'company' ? 'company@demo.test' : `${role}@demo.test`;
    const organization = role === 'super-admin' ? undefined : nordic.uuid;
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', headers: XHR, payload: { email, password: DEMO_PASSWORD, organization } });
    const cookie = res.cookies.find((c) => c.name === 'mss_session');
    if (!cookie) throw new Error(`world: ${email} cannot sign in: ${res.body}`);
    return { cookie: `mss_session=${cookie.value}`, ...XHR };
  };
  const headers = { anonymous: {} } as World['headers'];
  for (const role of ROLES) headers[role] = await signInAs(role);
  const su = headers['super-admin'];

  // Organization B: a record of every kind, made through the API as a super-admin would.
  const [ee] = await t.db
    .select()
    .from(markets)
    .where(and(eq(markets.organization_id, baltic.id), eq(markets.iso_code, 'EE')));
  const bCode = await post(t, su, '/admin/codes', { organization_id: baltic.id, code: 'EE-1', name: 'Baltic code', disabled_status: 0, market_ids: [ee!.id] });
  const bCluster = await post(t, su, '/admin/clusters', { organization_id: baltic.id, name: 'Baltic', market_ids: [ee!.id] });
  const bSection = await post(t, su, '/admin/code_sections', {
    organization_id: baltic.id,
    name: 'Baltic section',
    start: 0,
    length: 10,
    market_ids: [ee!.id],
  });
  const bGroup = await post(t, su, '/admin/code_groups', { organization_id: baltic.id, title: 'Baltic group', code_ids: [bCode.id] });
  const bModal = await post(t, su, '/admin/information-modals', {
    organization_id: baltic.id,
    title: 'Baltic notice',
    body: 'Hello Baltic.',
    active: false,
    starts_on: null,
    ends_on: null,
  });
  const bCompany = await post(t, su, '/companies', {
    name: 'Baltic Trading OÜ',
    disabled_at: null,
    organization_ids: [baltic.id],
    markets: [{ market_id: ee!.id, roles: ['reporter'] }],
    code_ids: [bCode.id],
    user_ids: [],
  });
  const bUser = await post(t, su, '/admin/users', {
    email: 'baltic-reporter@demo.test',
    first_name: 'Birgit',
    last_name: 'Baltic',
    phone: null,
    locale: 'en-US',
    password: DEMO_PASSWORD,
    password_confirmation: DEMO_PASSWORD,
    organization_ids: [baltic.id],
    market_ids: [ee!.id],
    company_id: bCompany.id,
    roles: ['reporter'],
    disabled: false,
  });
  const bPeriod = await post(t, su, '/periods', { market_id: ee!.id, title: '2026-10', starts_on: '2026-10-01', ends_on: '2026-10-31' });
  await post(t, su, `/periods/${bPeriod.uuid}/open`, {});
  const [bReport] = await t.db.select().from(reports).where(eq(reports.company_id, bCompany.id));
  const bHeaders = { cookie: '', ...XHR };
  {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: XHR,
      payload: { email: 'baltic-reporter@demo.test', password: DEMO_PASSWORD },
    });
    bHeaders.cookie = `mss_session=${res.cookies.find((c) => c.name === 'mss_session')!.value}`;
  }
  const bImport = await upload(t, bHeaders, bReport!.uuid);

  // Organization A: the demo's records.
  const first = async <T>(rows: Promise<T[]>): Promise<T> => {
    const [row] = await rows;
    if (!row) throw new Error('world: a demo record is missing');
    return row;
  };
  const aMarket = await first(
    t.db
      .select()
      .from(markets)
      .where(and(eq(markets.organization_id, nordic.id), eq(markets.iso_code, 'SE'))),
  );
  const reporterCompany = (await first(t.db.select({ company_id: users.company_id }).from(users).where(eq(users.email, 'reporter@demo.test')))).company_id!;
  const aReport = await first(
    t.db
      .select({ uuid: reports.uuid, period: periods.uuid })
      .from(reports)
      .innerJoin(periods, eq(periods.id, reports.period_id))
      .where(and(eq(reports.company_id, reporterCompany), eq(periods.market_id, aMarket.id), eq(periods.status, 'open'), eq(reports.status, 20))),
  );
  const aImport = await upload(t, headers.reporter, aReport.uuid);
  const viewer = await first(t.db.select().from(users).where(eq(users.email, 'viewer@demo.test')));
  const inOrg = <C extends { organization_id: AnyPgColumn }>(table: C) => eq(table.organization_id, nordic.id);

  const aCommunication = await disposable.communication(t, su, aMarket.id);
  const bCommunication = await disposable.communication(t, su, ee!.id);

  return {
    a: {
      organization: nordic.id,
      organizationUuid: nordic.uuid,
      market: aMarket.id,
      cluster: (await first(t.db.select().from(clusters).where(inOrg(clusters)))).id,
      company: reporterCompany,
      code: (await first(t.db.select().from(codes).where(inOrg(codes)))).id,
      codeSection: (await first(t.db.select().from(codeSections).where(inOrg(codeSections)))).id,
      codeGroup: (await first(t.db.select().from(codeGroups).where(inOrg(codeGroups)))).id,
      informationModal: (await first(t.db.select().from(informationModals).where(inOrg(informationModals)))).id,
      user: viewer.id,
      period: aReport.period,
      report: aReport.uuid,
      import: aImport,
      communication: aCommunication,
      attachment: await disposable.attachment(t, su, aCommunication),
    },
    b: {
      organization: baltic.id,
      organizationUuid: baltic.uuid,
      market: ee!.id,
      cluster: bCluster.id,
      company: bCompany.id,
      code: bCode.id,
      codeSection: bSection.id,
      codeGroup: bGroup.id,
      informationModal: bModal.id,
      user: bUser.id,
      period: bPeriod.uuid,
      report: bReport!.uuid,
      import: bImport,
      communication: bCommunication,
      attachment: await disposable.attachment(t, su, bCommunication),
    },
    currency: (await first(t.db.select().from(currencies).where(eq(currencies.iso_code, 'SEK')))).id,
    conversion: (await first(t.db.select().from(currencyConversions))).id,
    release: (await first(t.db.select().from(releases))).id,
    headers,
    signInAs,
  };
}

let counter = 0;
const next = () => ++counter;

/** Records made to be deleted, in organization `organizationId` (or global ones). */
export const disposable = {
  /** A draft to the reporters of a market, made through the API by `headers` (a super-admin reaches every organization). */
  async communication(t: TestApp, headers: Record<string, string>, market: number): Promise<string> {
    const n = next();
    return (
      await post(t, headers, '/communications', {
        subject: `Reminder ${n}`,
        body: '<p>Hello {{recipient_name}}</p>',
        recipients: { market_ids: [market], roles: ['reporter'], company_ids: [], period_uuid: null, report_statuses: [] },
      })
    ).uuid;
  },
  async attachment(t: TestApp, headers: Record<string, string>, communication: string): Promise<number> {
    const body = multipart('notes.txt', Buffer.from(`Notes ${next()}\n`));
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/communications/${communication}/attachments`,
      headers: { ...headers, ...body.headers },
      payload: body.payload,
    });
    if (res.statusCode !== 201) throw new Error(`world: attachment answered ${res.statusCode} ${res.body}`);
    return res.json().data.id;
  },
  async currency(t: TestApp) {
    const n = next();
    const iso = `Q${String.fromCharCode(65 + (Math.floor(n / 26) % 26))}${String.fromCharCode(65 + (n % 26))}`;
    return (
      await t.db
        .insert(currencies)
        .values({ iso_code: iso, name: `Disposable ${n}` })
        .returning()
    )[0]!.id;
  },
  async conversion(t: TestApp, currency: number) {
    const other = await disposable.currency(t);
    const day = String(1 + (next() % 28)).padStart(2, '0');
    return (
      await t.db
        .insert(currencyConversions)
        .values({ from_currency_id: currency, to_currency_id: other, rate: '1.5', valid_from: `2020-01-${day}` })
        .returning()
    )[0]!.id;
  },
  async release(t: TestApp) {
    return (
      await t.db
        .insert(releases)
        .values({ version: `0.0.${next()}`, release_date: '2020-01-01' })
        .returning()
    )[0]!.id;
  },
  async organization(t: TestApp) {
    return (
      await t.db
        .insert(organizations)
        .values({ name: `Disposable organization ${next()}` })
        .returning()
    )[0]!.id;
  },
  async informationModal(t: TestApp, organizationId: number) {
    return (await t.db.insert(informationModals).values({ organization_id: organizationId, title: 'Disposable', body: 'x', active: false }).returning())[0]!.id;
  },
  async cluster(t: TestApp, organizationId: number) {
    return (
      await t.db
        .insert(clusters)
        .values({ organization_id: organizationId, name: `Disposable ${next()}` })
        .returning()
    )[0]!.id;
  },
  async market(t: TestApp, organizationId: number) {
    const n = next();
    const iso = `Z${String.fromCharCode(65 + (n % 26))}${String.fromCharCode(65 + (Math.floor(n / 26) % 26))}`;
    return (
      await t.db
        .insert(markets)
        .values({ organization_id: organizationId, international_name: `Disposable ${n}`, local_name: 'x', iso_code: iso })
        .returning()
    )[0]!.id;
  },
  async code(t: TestApp, organizationId: number) {
    return (
      await t.db
        .insert(codes)
        .values({ organization_id: organizationId, code: `DISP-${next()}`, name: 'Disposable' })
        .returning()
    )[0]!.id;
  },
  async codeSection(t: TestApp, organizationId: number) {
    return (
      await t.db
        .insert(codeSections)
        .values({ organization_id: organizationId, name: `Disposable ${next()}`, start: 0, length: 1 })
        .returning()
    )[0]!.id;
  },
  async codeGroup(t: TestApp, organizationId: number) {
    return (
      await t.db
        .insert(codeGroups)
        .values({ organization_id: organizationId, title: `Disposable ${next()}` })
        .returning()
    )[0]!.id;
  },
  async company(t: TestApp, organizationId: number) {
    const id = (
      await t.db
        .insert(companies)
        .values({ name: `Disposable ${next()}` })
        .returning()
    )[0]!.id;
    await t.db.insert(companyOrganizations).values({ company_id: id, organization_id: organizationId });
    return id;
  },
  async user(t: TestApp, organizationId: number) {
    const id = (
      await t.db
        .insert(users)
        .values({ email: `disposable-${next()}@example.test` })
        .returning()
    )[0]!.id;
    await t.db.insert(userOrganizations).values({ user_id: id, organization_id: organizationId });
    return id;
  },
  async period(t: TestApp, marketId: number) {
    const n = next();
    return (
      await t.db
        .insert(periods)
        .values({ market_id: marketId, title: `D-${n}`, starts_on: '2019-01-01', ends_on: '2019-01-31' })
        .returning()
    )[0]!.uuid;
  },
};
