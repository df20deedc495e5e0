import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createMarket, createOrganization, createTestApp, createUser, PASSWORD, signIn, signInAs, type TestApp, XHR } from '../../../test/helpers.ts';
import { codeMarkets, codes, companies, companyCodes, companyMarkets, companyOrganizations, imports, reports } from '../../db/schema.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** A company in a market with codes 1001, 1002 (value not reported) and 1004 (not the company's), its reporter's bearer token, and its open report. */
async function world() {
  const org = await createOrganization(t.db);
  const market = await createMarket(t.db, org.id);
  const [company] = await t.db
    .insert(companies)
    .values({ name: `Acme ${market.iso_code}` })
    .returning();
  await t.db.insert(companyOrganizations).values({ company_id: company!.id, organization_id: org.id });
  await t.db.insert(companyMarkets).values({ company_id: company!.id, market_id: market.id });
  const codeRows = await t.db
    .insert(codes)
    .values([
      { organization_id: org.id, code: '1001', name: 'Small' },
      { organization_id: org.id, code: '1002', name: 'Large', disabled_status: 10 },
      { organization_id: org.id, code: '1004', name: 'Not for Acme' },
    ])
    .returning();
  await t.db.insert(codeMarkets).values(codeRows.map((c) => ({ code_id: c.id, market_id: market.id })));
  await t.db.insert(companyCodes).values(codeRows.filter((c) => c.code !== '1004').map((c) => ({ company_id: company!.id, code_id: c.id })));
  const user = await createUser(t.db, { roles: ['reporter'], organizationIds: [org.id], marketIds: [market.id], companyId: company!.id });
  const issued = await t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/token',
    headers: XHR,
    payload: { email: user.email, password: PASSWORD, device_name: 'ERP' },
  });
  const bearer: Record<string, string> = { authorization: `Bearer ${issued.json().data.token}` };
  const admin = await signInAs(t, ['market-admin'], { organizationId: org.id, marketIds: [market.id] });
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/v1/periods',
    headers: admin.headers,
    payload: { market_id: market.id, title: '2026-10', starts_on: '2026-10-01', ends_on: '2026-10-31' },
  });
  await t.app.inject({ method: 'POST', url: `/api/v1/periods/${created.json().data.uuid}/open`, headers: admin.headers });
  const [report] = await t.db.select().from(reports).where(eq(reports.company_id, company!.id));
  return { report: report!, bearer, cookie: { ...XHR, cookie: await signIn(t.app, user.email) }, market };
}
type World = Awaited<ReturnType<typeof world>>;

const put = (w: World, body: string, options: { type?: string; query?: string; headers?: Record<string, string> } = {}) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/v1/reports/${w.report.uuid}/rows${options.query ?? ''}`,
    headers: { ...w.bearer, 'content-type': options.type ?? 'application/json', ...options.headers },
    payload: body,
  });

const rowsOf = async (w: World) =>
  (await t.app.inject({ url: `/api/v1/reports/${w.report.uuid}/rows?per_page=100`, headers: w.bearer }))
    .json()
    .data.map((r: { code: string; volume: string | null; value: string | null }) => [r.code, r.volume, r.value]);

const importsOf = async (w: World) => (await t.app.inject({ url: `/api/v1/imports?report_uuid=${w.report.uuid}`, headers: w.bearer })).json().data;

describe('PUT /reports/{uuid}/rows', () => {
  it('when a system sends JSON rows with its token, then they are stored exactly as sent, listed as an API import, with the preflight', async () => {
    const w = await world();
    const res = await put(w, '[{"code":"1001","volume":12345678901234.1234,"value":0.1},{"code":1002,"volume":"1 234,5","value":null}]');
    expect(res.statusCode).toBe(200);
    const answer = res.json().data;
    expect(answer).toMatchObject({
      dry_run: false,
      valid: true,
      rows_accepted: 2,
      error_count: 0,
      errors: [],
      import: { status: 'done', source: 'api', file_name: 'rows.json' },
    });
    expect(answer.preflight).not.toBeNull();
    expect(await rowsOf(w)).toEqual([
      ['1001', '12345678901234.1234', '0.1000'],
      ['1002', '1234.5000', null],
    ]);
    expect((await importsOf(w)).map((i: { source: string; status: string }) => [i.source, i.status])).toEqual([['api', 'done']]);
    // The report is back to Ongoing, ready to submit, as after a valid file.
    expect((await t.db.select().from(reports).where(eq(reports.id, w.report.id)))[0]!.status).toBe(20);
  });

  it('when rows break the rules, then the errors of a report file with the element’s row and field, and the rows stay as they were', async () => {
    const w = await world();
    await put(w, '[{"code":"1001","volume":1,"value":2}]');
    const res = await put(
      w,
      '[{"code":"1001","volume":"12,5 st","value":1},{"code":"1004","volume":1},{"code":"1002","volume":1,"value":5},"oops",{"code":"9999","volume":true}]',
    );
    expect(res.statusCode).toBe(200);
    const answer = res.json().data;
    expect(answer).toMatchObject({ valid: false, rows_accepted: 0, error_count: 8, preflight: null, import: { status: 'invalid', source: 'api' } });
    expect(
      answer.errors.map((e: { row: number; message: string; column: { name: string; cell: string | null } | null }) => [
        e.row,
        e.message,
        e.column && `${e.column.name}: ${e.column.cell}`,
      ]),
    ).toEqual([
      [1, 'Column B contains invalid characters on row 1.', 'Volume: 12,5 st'],
      [2, 'The code is not available to you (row 2).', 'Code: 1004'],
      [3, 'Column C must be empty for code 1002, its value is not reported (row 3).', 'Value: 5'],
      // An element that is not an object: no field of it can be read.
      [4, 'Invalid code on row 4.', 'Code: #VALUE!'],
      [4, 'Column B contains invalid characters on row 4.', 'Volume: #VALUE!'],
      [4, 'Column C contains invalid characters on row 4.', 'Value: #VALUE!'],
      [5, 'Invalid code on row 5.', 'Code: 9999'],
      [5, 'Column B contains invalid characters on row 5.', 'Volume: #VALUE!'],
    ]);
    expect(await rowsOf(w)).toEqual([['1001', '1.0000', '2.0000']]);
  });

  it('when the rows come as CSV, then as a report file’s CSV; with dry_run, checked and nothing stored or recorded', async () => {
    const w = await world();
    const dry = await put(w, 'Code;Volume;Value\r\n1001;1.234,5;7\r\n', { type: 'text/csv', query: '?dry_run=true' });
    expect(dry.json().data).toEqual({ dry_run: true, valid: true, import: null, rows_accepted: 1, error_count: 0, errors: [], preflight: null });
    expect(await rowsOf(w)).toEqual([]);
    expect(await importsOf(w)).toEqual([]);
    const real = await put(w, 'Code;Volume;Value\r\n1001;1.234,5;7\r\n', { type: 'text/csv; charset=utf-8' });
    expect(real.json().data).toMatchObject({ valid: true, import: { file_name: 'rows.csv', source: 'api' } });
    expect(await rowsOf(w)).toEqual([['1001', '1234.5000', '7.0000']]);
  });

  it('when a request is repeated with its Idempotency-Key, then the same answer and nothing done twice; the key with another body is refused', async () => {
    const w = await world();
    const body = '[{"code":"1001","volume":5,"value":6}]';
    const first = await put(w, body, { headers: { 'idempotency-key': 'erp-2026-10-1' } });
    const again = await put(w, body, { headers: { 'idempotency-key': 'erp-2026-10-1' } });
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expect(await importsOf(w)).toHaveLength(1);
    const other = await put(w, '[{"code":"1001","volume":7,"value":6}]', { headers: { 'idempotency-key': 'erp-2026-10-1' } });
    expect(other.statusCode).toBe(422);
    expect(other.json().message).toBe('This Idempotency-Key was used for another request; use a new key for each request.');
    expect((await put(w, body, { headers: { 'idempotency-key': 'bad key' } })).statusCode).toBe(422);
    // Another user's key of the same name is theirs.
    const second = await world();
    expect((await put(second, body, { headers: { 'idempotency-key': 'erp-2026-10-1' } })).headers['idempotent-replayed']).toBeUndefined();
  });

  it('when someone else sends rows, or not as JSON or CSV, then refused and nothing changes', async () => {
    const w = await world();
    const other = await world();
    // Another company's token: its report is not theirs.
    expect([403, 404]).toContain((await put({ ...w, bearer: other.bearer }, '[{"code":"1001","volume":1}]')).statusCode);
    const anonymous = (headers: Record<string, string>) =>
      t.app.inject({ method: 'PUT', url: `/api/v1/reports/${w.report.uuid}/rows`, headers: { 'content-type': 'application/json', ...headers }, payload: '[]' });
    expect((await anonymous(XHR)).statusCode).toBe(401);
    // Without a token, a state-changing request must come from the application (CSRF), first of all.
    expect((await anonymous({})).statusCode).toBe(403);
    // A key a row does not name: refused, so that a misspelt "vol" does not leave the volume empty.
    const unknown = await put(w, '[{"code":"1001","volume":1},{"code":"1001","vol":5}]');
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toEqual({ message: 'The vol field is not allowed.', errors: { '1.vol': ['The vol field is not allowed.'] } });
    for (const body of ['{"code":"1001"}', '[{"code":"1001",', ''])
      expect((await put(w, body)).json()).toMatchObject({ message: 'Send the rows as JSON (an array of {"code", "volume", "value"}) or as CSV (text/csv).' });
    expect((await put(w, 'code=1001', { type: 'application/x-www-form-urlencoded' })).statusCode).toBe(422);
    // The browser's session works too (with the header a browser's script sends).
    expect((await put({ ...w, bearer: w.cookie }, '[{"code":"1001","volume":1}]')).json().data.valid).toBe(true);
    expect(
      await t.db
        .select({ n: sql<number>`count(*)::int` })
        .from(imports)
        .where(eq(imports.report_id, other.report.id)),
    ).toEqual([{ n: 0 }]);
  });
});

describe('integration tokens on the profile', () => {
  it('when a user makes a token limited to uploading, then it sends rows and reads its reports, and nothing else; revoked, it is refused', async () => {
    const w = await world();
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/me/tokens',
      headers: w.cookie,
      payload: { device_name: 'ERP (upload)', scope: 'upload-reports' },
    });
    expect(made.statusCode).toBe(201);
    const limited = { authorization: `Bearer ${made.json().data.token}` };
    // Listed with its name and scope, never the token; the one POST /auth/token made is there too.
    const listed = (await t.app.inject({ url: '/api/v1/users/me/tokens', headers: w.cookie })).json().data;
    expect(listed.map((x: { device_name: string; scope: string }) => [x.device_name, x.scope])).toEqual([
      ['ERP (upload)', 'upload-reports'],
      ['ERP', 'all'],
    ]);
    expect(JSON.stringify(listed)).not.toContain(made.json().data.token);

    expect((await put({ ...w, bearer: limited }, '[{"code":"1001","volume":1,"value":2}]')).json().data.valid).toBe(true);
    expect((await t.app.inject({ url: `/api/v1/reports/${w.report.uuid}`, headers: limited })).statusCode).toBe(200);
    // Submitting, the statistics and the profile's tokens are beyond it.
    const submit = await t.app.inject({ method: 'POST', url: `/api/v1/reports/${w.report.uuid}/status`, headers: limited, payload: { status: 40 } });
    expect(submit.statusCode).toBe(403);
    expect(submit.json().message).toBe("This token may only upload its company's reports.");
    expect((await t.app.inject({ url: '/api/v1/statistics/choices', headers: limited })).statusCode).toBe(403);
    // Routes whose check is an ability (the code list, which a reporter may read), and token refresh, too.
    expect((await t.app.inject({ url: '/api/v1/admin/codes', headers: w.bearer })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/v1/admin/codes', headers: limited })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh', headers: limited })).statusCode).toBe(403);
    expect((await t.app.inject({ url: '/api/v1/users/me/tokens', headers: limited })).statusCode).toBe(403);
    // A full token cannot manage tokens either: only the person, signed in.
    expect((await t.app.inject({ url: '/api/v1/users/me/tokens', headers: w.bearer })).statusCode).toBe(403);

    const id = listed[0].id;
    const other = await world();
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/users/me/tokens/${id}`, headers: other.cookie })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/users/me/tokens/${id}`, headers: w.cookie })).statusCode).toBe(204);
    expect((await t.app.inject({ url: `/api/v1/reports/${w.report.uuid}`, headers: limited })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/v1/users/me/tokens', headers: w.cookie })).json().data).toHaveLength(1);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/users/me/tokens', headers: w.cookie, payload: { device_name: '<script>' } })).statusCode).toBe(
      422,
    );
  });
});
