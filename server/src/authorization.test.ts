import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ROLES } from '@mss/contracts/enums';
import { createTestApp, type TestApp } from '../test/helpers.ts';
import { buildWorld, disposable, multipart, type Side, type World } from '../test/world.ts';
import { AUTHORIZATION_MATRIX } from './authorization.matrix.ts';

// Every route the app registers × every role × its own organization's ids and another
// organization's, with the status each must answer (authorization.matrix.ts). The routes come
// from the app itself: a route without an entry fails the test, and so does an entry without a
// route. "own" is organization A (the demo's Nordic, where each role's user is), "other" is B
// (Baltic). Own-side writes send an invalid body where they can, so that 422 means "allowed in"
// without changing the world; other-side writes send a valid body, so that only the
// authorization can stop them.
//
// MATRIX_RECORD=path writes the observed statuses to that file instead of failing (to review a
// change of the permission model line by line, never to accept one blindly).

const COLUMNS = [...ROLES, 'anonymous'] as const;
type Column = (typeof COLUMNS)[number];

interface Request {
  url: string;
  payload?: unknown;
  /** Sign in anew for this request (sign-out must not end the session the other rows use). */
  freshSession?: boolean;
  /** Sent as the multipart field `file` instead of a JSON payload. */
  file?: Buffer;
}

/** The smallest PNG (a logotype), and bytes that are no workbook (the import judges them later). */
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4f80000000049454e44ae426082',
  'hex',
);
const NOT_A_WORKBOOK = Buffer.from('not a workbook');
type Build = (w: World, s: Side, t: TestApp, side: 'own' | 'other') => Request | Promise<Request>;

let n = 0;
const uniq = (prefix: string) => `${prefix}-${++n}`;
// Write bodies are whole (every field of the form) and strict: the other side's must be valid.
const userBody = (extra: object) => ({
  email: `${uniq('matrix')}@example.test`,
  first_name: 'Matrix',
  last_name: 'User',
  phone: null,
  locale: 'en-US',
  password: 'a-good-password',
  password_confirmation: 'a-good-password',
  company_id: null,
  organization_ids: [],
  market_ids: [],
  roles: ['viewer'],
  disabled: false,
  ...extra,
});

/** The request of each route, for one side. */
const REQUESTS: Record<string, Build> = {
  'POST /auth/login': () => ({ url: '/auth/login', payload: {} }),
  'POST /auth/refresh': () => ({ url: '/auth/refresh' }),
  'POST /auth/logout': () => ({ url: '/auth/logout', freshSession: true }),
  'POST /auth/token': () => ({ url: '/auth/token', payload: {} }),
  'POST /auth/forgot-password': () => ({ url: '/auth/forgot-password', payload: {} }),
  'POST /auth/reset-password': () => ({ url: '/auth/reset-password', payload: {} }),
  // Another organization's uuid is valid only for a member of it (the admin of both): a fresh
  // session, since switching ends the one that asked.
  'POST /auth/organization': (_w, s, _t, side) =>
    side === 'own'
      ? { url: '/auth/organization', payload: { organization: 'not-a-uuid' } }
      : { url: '/auth/organization', payload: { organization: s.organizationUuid }, freshSession: true },
  'GET /users/me': () => ({ url: '/users/me' }),
  'PUT /users/me': () => ({ url: '/users/me', payload: {} }),
  'PUT /users/me/password': () => ({ url: '/users/me/password', payload: {} }),
  'GET /users/me/abilities': () => ({ url: '/users/me/abilities' }),
  'GET /users/me/two-factor': () => ({ url: '/users/me/two-factor' }),
  'POST /users/me/two-factor/setup': () => ({ url: '/users/me/two-factor/setup' }),
  'POST /users/me/two-factor/enable': () => ({ url: '/users/me/two-factor/enable', payload: {} }),
  'POST /users/me/two-factor/disable': () => ({ url: '/users/me/two-factor/disable', payload: {} }),
  'GET /protocol/enums/:locale': () => ({ url: '/protocol/enums/en-US' }),

  'GET /admin/currencies': () => ({ url: '/admin/currencies' }),
  'GET /admin/currencies/:id': (w) => ({ url: `/admin/currencies/${w.currency}` }),
  'POST /admin/currencies': (_w, _s, _t, side) => ({ url: '/admin/currencies', payload: side === 'own' ? {} : { iso_code: 'XTS', name: 'Testing' } }),
  'PUT /admin/currencies/:id': (w, _s, _t, side) => ({
    url: `/admin/currencies/${w.currency}`,
    payload: side === 'own' ? {} : { iso_code: 'SEK', name: 'Swedish krona' },
  }),
  'DELETE /admin/currencies/:id': async (_w, _s, t) => ({ url: `/admin/currencies/${await disposable.currency(t)}` }),
  'GET /currency_conversions': () => ({ url: '/currency_conversions' }),
  'GET /currency_conversions/:id': (w) => ({ url: `/currency_conversions/${w.conversion}` }),
  'POST /currency_conversions': () => ({ url: '/currency_conversions', payload: {} }),
  'PUT /currency_conversions/:id': (w) => ({ url: `/currency_conversions/${w.conversion}`, payload: {} }),
  'DELETE /currency_conversions/:id': async (w, _s, t) => ({ url: `/currency_conversions/${await disposable.conversion(t, w.currency)}` }),

  'GET /admin/releases': () => ({ url: '/admin/releases' }),
  'GET /admin/releases/:id': (w) => ({ url: `/admin/releases/${w.release}` }),
  'POST /admin/releases': () => ({ url: '/admin/releases', payload: {} }),
  'PUT /admin/releases/:id': (w) => ({ url: `/admin/releases/${w.release}`, payload: {} }),
  'DELETE /admin/releases/:id': async (_w, _s, t) => ({ url: `/admin/releases/${await disposable.release(t)}` }),
  'GET /releases/unread': () => ({ url: '/releases/unread' }),
  'POST /releases/:id/view': (w) => ({ url: `/releases/${w.release}/view` }),

  'GET /admin/organizations': () => ({ url: '/admin/organizations' }),
  'GET /admin/organizations/:id': (_w, s) => ({ url: `/admin/organizations/${s.organization}` }),
  'POST /admin/organizations': (_w, _s, _t, side) => ({
    url: '/admin/organizations',
    payload: side === 'own' ? {} : { name: uniq('Matrix organization'), mail_description: null },
  }),
  'PUT /admin/organizations/:id': (_w, s, _t, side) => ({
    url: `/admin/organizations/${s.organization}`,
    payload: side === 'own' ? {} : { name: 'Baltic Sales Association', mail_description: null },
  }),
  'DELETE /admin/organizations/:id': async (_w, _s, t) => ({ url: `/admin/organizations/${await disposable.organization(t)}` }),
  'PUT /admin/organizations/:id/settings': (_w, s) => ({ url: `/admin/organizations/${s.organization}/settings`, payload: { settings: {} } }),

  'GET /admin/information-modals': () => ({ url: '/admin/information-modals' }),
  'GET /admin/information-modals/:id': (_w, s) => ({ url: `/admin/information-modals/${s.informationModal}` }),
  'POST /admin/information-modals': (_w, s, _t, side) => ({
    url: '/admin/information-modals',
    payload: side === 'own' ? {} : { organization_id: s.organization, title: 'Matrix', body: 'x', active: false, starts_on: null, ends_on: null },
  }),
  'PUT /admin/information-modals/:id': (_w, s, _t, side) => ({
    url: `/admin/information-modals/${s.informationModal}`,
    payload:
      side === 'own' ? {} : { organization_id: s.organization, title: 'Baltic notice', body: 'Hello Baltic.', active: false, starts_on: null, ends_on: null },
  }),
  'DELETE /admin/information-modals/:id': async (_w, s, t) => ({ url: `/admin/information-modals/${await disposable.informationModal(t, s.organization)}` }),
  'GET /information-modals/active': () => ({ url: '/information-modals/active' }),
  'POST /information-modals/:id/dismiss': (_w, s) => ({ url: `/information-modals/${s.informationModal}/dismiss` }),

  'GET /admin/clusters': () => ({ url: '/admin/clusters' }),
  'GET /admin/clusters/:id': (_w, s) => ({ url: `/admin/clusters/${s.cluster}` }),
  'POST /admin/clusters': (_w, s, _t, side) => ({ url: '/admin/clusters', payload: side === 'own' ? {} : { name: uniq('Matrix'), market_ids: [s.market] } }),
  'PUT /admin/clusters/:id': (_w, s, _t, side) => ({
    url: `/admin/clusters/${s.cluster}`,
    payload: side === 'own' ? {} : { name: 'Baltic', market_ids: [s.market] },
  }),
  'DELETE /admin/clusters/:id': async (_w, s, t) => ({ url: `/admin/clusters/${await disposable.cluster(t, s.organization)}` }),

  'GET /markets': () => ({ url: '/markets' }),
  'GET /markets/:id': (_w, s) => ({ url: `/markets/${s.market}` }),
  'GET /markets/:id/logotype': (_w, s) => ({ url: `/markets/${s.market}/logotype` }),
  'GET /admin/markets': () => ({ url: '/admin/markets' }),
  'GET /admin/markets/:id': (_w, s) => ({ url: `/admin/markets/${s.market}` }),
  'POST /admin/markets': (_w, s, _t, side) => ({
    url: '/admin/markets',
    payload: side === 'own' ? {} : { organization_id: s.organization, international_name: 'Latvia', local_name: 'Latvija', iso_code: 'LV', currency_id: null },
  }),
  'PUT /admin/markets/:id': (_w, s, _t, side) => ({
    url: `/admin/markets/${s.market}`,
    payload: side === 'own' ? {} : { international_name: 'Estonia', local_name: 'Eesti', iso_code: 'EE', currency_id: null },
  }),
  'DELETE /admin/markets/:id': async (_w, s, t) => ({ url: `/admin/markets/${await disposable.market(t, s.organization)}` }),
  'PUT /admin/markets/:id/logotype': (_w, s) => ({ url: `/admin/markets/${s.market}/logotype`, file: PNG }),
  'DELETE /admin/markets/:id/logotype': (_w, s) => ({ url: `/admin/markets/${s.market}/logotype` }),

  'GET /admin/codes': () => ({ url: '/admin/codes' }),
  'GET /admin/codes/:id': (_w, s) => ({ url: `/admin/codes/${s.code}` }),
  'POST /admin/codes': (_w, s, _t, side) => ({
    url: '/admin/codes',
    payload: side === 'own' ? {} : { organization_id: s.organization, code: uniq('M'), name: 'Matrix', disabled_status: 0, market_ids: [] },
  }),
  'PUT /admin/codes/:id': (_w, s, _t, side) => ({
    url: `/admin/codes/${s.code}`,
    payload: side === 'own' ? {} : { code: 'EE-1', name: 'Baltic code', disabled_status: 0, market_ids: [s.market] },
  }),
  'DELETE /admin/codes/:id': async (_w, s, t) => ({ url: `/admin/codes/${await disposable.code(t, s.organization)}` }),
  'GET /admin/code_sections': () => ({ url: '/admin/code_sections' }),
  'GET /admin/code_sections/:id': (_w, s) => ({ url: `/admin/code_sections/${s.codeSection}` }),
  'POST /admin/code_sections': (_w, s, _t, side) => ({
    url: '/admin/code_sections',
    payload: side === 'own' ? {} : { organization_id: s.organization, name: uniq('Matrix'), start: 0, length: 1, market_ids: [] },
  }),
  'PUT /admin/code_sections/:id': (_w, s, _t, side) => ({
    url: `/admin/code_sections/${s.codeSection}`,
    payload: side === 'own' ? {} : { name: 'Baltic section', start: 0, length: 10, market_ids: [s.market] },
  }),
  'DELETE /admin/code_sections/:id': async (_w, s, t) => ({ url: `/admin/code_sections/${await disposable.codeSection(t, s.organization)}` }),
  'GET /admin/code_groups': () => ({ url: '/admin/code_groups' }),
  'GET /admin/code_groups/:id': (_w, s) => ({ url: `/admin/code_groups/${s.codeGroup}` }),
  'POST /admin/code_groups': (_w, s, _t, side) => ({
    url: '/admin/code_groups',
    payload: side === 'own' ? {} : { organization_id: s.organization, title: uniq('Matrix'), code_ids: [] },
  }),
  'PUT /admin/code_groups/:id': (_w, s, _t, side) => ({
    url: `/admin/code_groups/${s.codeGroup}`,
    payload: side === 'own' ? {} : { title: 'Baltic group', code_ids: [s.code] },
  }),
  'DELETE /admin/code_groups/:id': async (_w, s, t) => ({ url: `/admin/code_groups/${await disposable.codeGroup(t, s.organization)}` }),

  'GET /companies/companies-with-disabled': () => ({ url: '/companies/companies-with-disabled' }),
  'GET /companies': () => ({ url: '/companies' }),
  'GET /companies/:id': (_w, s) => ({ url: `/companies/${s.company}` }),
  'POST /companies': (_w, s, _t, side) => ({
    url: '/companies',
    payload:
      side === 'own' ? {} : { name: uniq('Matrix company'), disabled_at: null, organization_ids: [s.organization], markets: [], code_ids: [], user_ids: [] },
  }),
  'PUT /companies/:id': (_w, s, _t, side) => ({
    url: `/companies/${s.company}`,
    payload:
      side === 'own'
        ? {}
        : {
            name: 'Baltic Trading OÜ',
            disabled_at: null,
            organization_ids: [s.organization],
            markets: [{ market_id: s.market, roles: ['reporter'] }],
            code_ids: [s.code],
            user_ids: [s.user],
          },
  }),
  'DELETE /companies/:id': async (_w, s, t) => ({ url: `/companies/${await disposable.company(t, s.organization)}` }),
  'GET /companies/:id/logotype': (_w, s) => ({ url: `/companies/${s.company}/logotype` }),
  'PUT /companies/:id/logotype': (_w, s) => ({ url: `/companies/${s.company}/logotype`, file: PNG }),
  'DELETE /companies/:id/logotype': (_w, s) => ({ url: `/companies/${s.company}/logotype` }),

  'GET /admin/users': () => ({ url: '/admin/users' }),
  'GET /admin/users/:id': (_w, s) => ({ url: `/admin/users/${s.user}` }),
  'POST /admin/users': (_w, s, _t, side) => ({ url: '/admin/users', payload: side === 'own' ? {} : userBody({ organization_ids: [s.organization] }) }),
  'PUT /admin/users/:id': (_w, s, _t, side) => ({
    url: `/admin/users/${s.user}`,
    payload:
      side === 'own'
        ? {}
        : {
            email: 'baltic-reporter@demo.test',
            first_name: 'Birgit',
            last_name: 'Baltic',
            phone: null,
            locale: 'en-US',
            organization_ids: [s.organization],
            market_ids: [s.market],
            company_id: s.company,
            roles: ['reporter'],
            disabled: false,
          },
  }),
  'DELETE /admin/users/:id/two-factor': (_w, s) => ({ url: `/admin/users/${s.user}/two-factor` }),
  'DELETE /admin/users/:id': async (_w, s, t) => ({ url: `/admin/users/${await disposable.user(t, s.organization)}` }),

  'GET /periods': (_w, s) => ({ url: `/periods?market_id=${s.market}` }),
  'GET /periods/:uuid': (_w, s) => ({ url: `/periods/${s.period}` }),
  'POST /periods': (_w, s) => ({ url: '/periods', payload: { market_id: s.market, title: uniq('M'), starts_on: '2019-02-01', ends_on: '2019-02-28' } }),
  'POST /periods/:uuid/open': async (_w, s, t) => ({ url: `/periods/${await disposable.period(t, s.market)}/open` }),
  'POST /periods/:uuid/close': async (_w, s, t) => ({ url: `/periods/${await disposable.period(t, s.market)}/close` }),
  'POST /periods/:uuid/publish': async (_w, s, t) => ({ url: `/periods/${await disposable.period(t, s.market)}/publish` }),
  'POST /periods/:uuid/republish': async (_w, s, t) => ({ url: `/periods/${await disposable.period(t, s.market)}/republish` }),
  'POST /periods/:uuid/unpublish': async (_w, s, t) => ({ url: `/periods/${await disposable.period(t, s.market)}/unpublish` }),
  'GET /periods/:uuid/publication-preview': (_w, s) => ({ url: `/periods/${s.period}/publication-preview` }),
  'GET /periods/:uuid/approval-list': (_w, s) => ({ url: `/periods/${s.period}/approval-list` }),
  'GET /completeness': (_w, s) => ({ url: `/completeness?market_id=${s.market}&from=2020-01&to=2029-12` }),

  'GET /reports': (_w, s) => ({ url: `/reports?period_uuid=${s.period}` }),
  'GET /report-history': (_w, s) => ({ url: `/report-history?market_id=${s.market}` }),
  'POST /reports': (_w, s) => ({ url: '/reports', payload: { company_id: s.company, period_uuid: s.period } }),
  'GET /reports/:uuid': (_w, s) => ({ url: `/reports/${s.report}` }),
  'GET /reports/:uuid/rows': (_w, s) => ({ url: `/reports/${s.report}/rows` }),
  // Processing file (10) is no person's step: whoever may see the report gets 422 "Invalid status.".
  'POST /reports/:uuid/status': (_w, s, _t, side) => ({ url: `/reports/${s.report}/status`, payload: { status: side === 'own' ? 10 : 60 } }),
  // Valid bodies on both sides (a body the schema refuses would answer 422 before visibility):
  // the report's state refuses whoever is allowed in (409), without changing the world.
  'POST /reports/:uuid/withdraw': (_w, s) => ({ url: `/reports/${s.report}/withdraw`, payload: { comment: 'Matrix' } }),
  'POST /reports/:uuid/unapprove': (_w, s) => ({ url: `/reports/${s.report}/unapprove`, payload: { comment: 'Matrix', republish: false } }),
  'POST /reports/bulk-status': (_w, s, _t, side) => ({ url: '/reports/bulk-status', payload: { uuids: [s.report], status: side === 'own' ? 10 : 60 } }),
  'GET /reports/:uuid/copy-previous': (_w, s) => ({ url: `/reports/${s.report}/copy-previous` }),
  'POST /reports/:uuid/copy-previous': (_w, s) => ({ url: `/reports/${s.report}/copy-previous` }),
  'GET /reports/:uuid/preflight': (_w, s) => ({ url: `/reports/${s.report}/preflight` }),
  'POST /reports/:uuid/preflight': (_w, s) => ({ url: `/reports/${s.report}/preflight` }),
  'POST /reports/:uuid/file': (_w, s) => ({ url: `/reports/${s.report}/file`, file: NOT_A_WORKBOOK }),
  'GET /reports/:uuid/template': (_w, s) => ({ url: `/reports/${s.report}/template` }),
  // Own side: a body that is no rows (422 once allowed in); the other side: rows.
  'PUT /reports/:uuid/rows': (_w, s, _t, side) => ({
    url: `/reports/${s.report}/rows`,
    payload: side === 'own' ? { rows: 'none' } : [{ code: '1001', volume: '1' }],
  }),

  'GET /imports': (_w, s) => ({ url: `/imports?report_uuid=${s.report}` }),
  'GET /imports/:uuid': (_w, s) => ({ url: `/imports/${s.import}` }),
  'GET /imports/:uuid/file': (_w, s) => ({ url: `/imports/${s.import}/file` }),
  'GET /imports/:uuid/errors': (_w, s) => ({ url: `/imports/${s.import}/errors` }),
  'GET /imports/:uuid/marked': (_w, s) => ({ url: `/imports/${s.import}/marked` }),

  // Statistics of the demo's published September (A); B's period is not published.
  'GET /communications': () => ({ url: '/communications' }),
  'POST /communications': () => ({ url: '/communications', payload: {} }),
  'GET /communications/:uuid': (_w, s) => ({ url: `/communications/${s.communication}` }),
  'PUT /communications/:uuid': (_w, s) => ({ url: `/communications/${s.communication}`, payload: {} }),
  'DELETE /communications/:uuid': async (w, s, t) => ({ url: `/communications/${await disposable.communication(t, w.headers['super-admin'], s.market)}` }),
  'GET /communications/:uuid/recipients': (_w, s) => ({ url: `/communications/${s.communication}/recipients` }),
  'GET /communications/:uuid/companies': (_w, s) => ({ url: `/communications/${s.communication}/companies` }),
  'POST /communications/:uuid/preflight': async (w, s, t) => ({
    url: `/communications/${await disposable.communication(t, w.headers['super-admin'], s.market)}/preflight`,
    payload: {},
  }),
  // The side's communication is a draft: sending, returning to draft and retrying are refused by its state (409).
  'POST /communications/:uuid/send': (_w, s) => ({ url: `/communications/${s.communication}/send`, payload: {} }),
  'POST /communications/:uuid/draft': (_w, s) => ({ url: `/communications/${s.communication}/draft` }),
  'POST /communications/:uuid/retry': (_w, s) => ({ url: `/communications/${s.communication}/retry` }),
  'GET /communications/:uuid/deliveries': (_w, s) => ({ url: `/communications/${s.communication}/deliveries` }),
  'POST /communications/:uuid/attachments': async (w, s, t) => ({
    url: `/communications/${await disposable.communication(t, w.headers['super-admin'], s.market)}/attachments`,
    file: PNG,
  }),
  'GET /communications/:uuid/attachments/:id': (_w, s) => ({ url: `/communications/${s.communication}/attachments/${s.attachment}` }),
  'DELETE /communications/:uuid/attachments/:id': async (w, s, t) => {
    const communication = await disposable.communication(t, w.headers['super-admin'], s.market);
    return { url: `/communications/${communication}/attachments/${await disposable.attachment(t, w.headers['super-admin'], communication)}` };
  },
  'GET /users/me/tokens': () => ({ url: '/users/me/tokens' }),
  'POST /users/me/tokens': () => ({ url: '/users/me/tokens', payload: {} }),
  // No token of that id is the caller's: 404 for everyone signed in.
  'DELETE /users/me/tokens/:id': () => ({ url: '/users/me/tokens/2147483000' }),

  // History imports: each side's organization has one, whose file had errors (import and publish
  // are refused by its state, 409; cancel too, it does not run).
  'POST /history-imports': () => ({ url: '/history-imports', file: NOT_A_WORKBOOK }),
  'GET /history-imports': () => ({ url: '/history-imports' }),
  'GET /history-imports/template': () => ({ url: '/history-imports/template' }),
  'GET /history-imports/:uuid': async (_w, s, t) => ({ url: `/history-imports/${await historyImportOf(t, s)}` }),
  'GET /history-imports/:uuid/errors': async (_w, s, t) => ({ url: `/history-imports/${await historyImportOf(t, s)}/errors` }),
  'POST /history-imports/:uuid/import': async (_w, s, t) => ({ url: `/history-imports/${await historyImportOf(t, s)}/import` }),
  'POST /history-imports/:uuid/publish': async (_w, s, t) => ({ url: `/history-imports/${await historyImportOf(t, s)}/publish` }),
  'POST /history-imports/:uuid/cancel': async (_w, s, t) => ({ url: `/history-imports/${await historyImportOf(t, s)}/cancel` }),

  'GET /audit': () => ({ url: '/audit?action=report.' }),
  'GET /audit/download': () => ({ url: '/audit/download?action=auth.' }),
  'GET /audit/:id': async (_w, s, t) => ({ url: `/audit/${await auditEntryOf(t, s)}` }),

  'GET /users/me/notifications': () => ({ url: '/users/me/notifications' }),
  'PUT /users/me/notifications': () => ({ url: '/users/me/notifications', payload: {} }),

  'GET /statistics/choices': () => ({ url: '/statistics/choices' }),
  'GET /statistics/market': async (_w, s, t) => ({ url: `/statistics/market?period_uuid=${await publishedPeriod(t, s)}&by=code` }),
  'GET /statistics/cluster': (_w, s) => ({ url: `/statistics/cluster?cluster_id=${s.cluster}&month=2026-09&by=code&currency=EUR` }),
  'GET /statistics/trend': (_w, s) => ({ url: `/statistics/trend?market_id=${s.market}&periods=24` }),
  'GET /statistics/company': async (_w, s, t) => ({ url: `/statistics/company?company_id=${s.company}&period_uuid=${await publishedPeriod(t, s)}` }),
};

/** An audit entry of the side's organization (made once per side). */
const auditEntriesMade = new Map<number, Promise<number>>();
function auditEntryOf(t: TestApp, s: Side): Promise<number> {
  let made = auditEntriesMade.get(s.organization);
  if (!made) {
    made = t.db
      .execute<{ id: number }>(sql`insert into audit_entries (organization_id, action) values (${s.organization}, 'auth.sign_in') returning id`)
      .then((r) => r.rows[0]!.id);
    auditEntriesMade.set(s.organization, made);
  }
  return made;
}

/** A history import of the side's organization whose file had errors (made once per side). */
const historyImports = new Map<number, Promise<string>>();
function historyImportOf(t: TestApp, s: Side): Promise<string> {
  let made = historyImports.get(s.organization);
  if (!made) {
    made = (async () => {
      const file = await t.db.execute<{ id: number }>(
        sql`insert into files (name, mime_type, size, sha256, complete) values ('history.csv', 'text/csv', 0, '', true) returning id`,
      );
      const row = await t.db.execute<{ uuid: string }>(sql`
        insert into history_imports (organization_id, file_id, status, error_count) values (${s.organization}, ${file.rows[0]!.id}, 'invalid', 1)
        returning uuid::text as uuid`);
      return row.rows[0]!.uuid;
    })();
    historyImports.set(s.organization, made);
  }
  return made;
}

/** The side's latest published period of its market, else its open one. */
async function publishedPeriod(t: TestApp, s: Side): Promise<string> {
  const rows = await t.db.execute<{ uuid: string }>(
    sql`select uuid::text as uuid from periods where market_id = ${s.market} and published_at is not null order by starts_on desc limit 1`,
  );
  return rows.rows[0]?.uuid ?? s.period;
}

let t: TestApp;
let w: World;
beforeAll(async () => {
  t = await createTestApp();
  w = await buildWorld(t);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

async function statusOf(key: string, column: Column, side: 'own' | 'other'): Promise<number> {
  const method = key.split(' ')[0]!;
  const request = await REQUESTS[key]!(w, side === 'own' ? w.a : w.b, t, side);
  let headers = w.headers[column];
  if (request.freshSession && column !== 'anonymous') headers = await w.signInAs(column);
  const upload = request.file ? multipart('file.bin', request.file) : null;
  const res = await t.app.inject({
    method: method as 'GET',
    url: `/api/v1${request.url}`,
    headers: { ...headers, ...(column === 'anonymous' && method !== 'GET' ? { 'x-requested-with': 'XMLHttpRequest' } : {}), ...upload?.headers },
    ...(upload ? { payload: upload.payload } : request.payload !== undefined ? { payload: request.payload as object } : {}),
  });
  return res.statusCode;
}

describe('authorization matrix', () => {
  it('covers every registered route, and nothing else', () => {
    const registered = t.app.registeredRoutes
      .filter((r) => r.url.startsWith('/api/v1/'))
      .flatMap((r) =>
        [r.method]
          .flat()
          .filter((m) => m !== 'HEAD')
          .map((m) => `${m} ${r.url.slice('/api/v1'.length)}`),
      );
    expect([...registered].sort()).toEqual(Object.keys(REQUESTS).sort());
    expect(Object.keys(AUTHORIZATION_MATRIX).sort()).toEqual(Object.keys(REQUESTS).sort());
    // Outside /api/v1 only what is public by design, holding no one's data: the API's own
    // documentation and the health probes (health.test.ts asks them as every role). A new route
    // elsewhere must be added to the matrix above, or here with a reason.
    const outside = new Set(t.app.registeredRoutes.filter((r) => !r.url.startsWith('/api/v1/')).map((r) => r.url));
    expect([...outside].filter((url) => !url.startsWith('/api/docs')).sort()).toEqual(['/healthz', '/readyz']);
  });

  it('every route × every role × own and another organization answers the expected status', async () => {
    const observed: Record<string, { own: string; other: string }> = {};
    for (const key of Object.keys(REQUESTS)) {
      const row = { own: [] as number[], other: [] as number[] };
      for (const side of ['own', 'other'] as const) for (const column of COLUMNS) row[side].push(await statusOf(key, column, side));
      observed[key] = { own: row.own.join(' '), other: row.other.join(' ') };
    }
    const record = process.env.MATRIX_RECORD;
    if (record) {
      const lines = Object.entries(observed).map(([key, v]) => `  '${key}': { own: '${v.own}', other: '${v.other}' },`);
      fs.writeFileSync(record, `${lines.join('\n')}\n`);
      return;
    }
    const mismatches = Object.keys(observed).filter((key) => {
      const expected = AUTHORIZATION_MATRIX[key];
      return !expected || expected.own !== observed[key]!.own || expected.other !== observed[key]!.other;
    });
    expect(
      mismatches.map((key) => ({ route: key, expected: AUTHORIZATION_MATRIX[key], observed: observed[key] })),
      `columns: ${COLUMNS.join(' ')}`,
    ).toEqual([]);
  }, 120_000);
});
