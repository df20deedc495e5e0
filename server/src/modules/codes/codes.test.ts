import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany, createMarket, createOrganization, createTestApp, signInAs, type TestApp } from '../../../test/helpers.ts';
import { codes, codeSections, companyCodes } from '../../db/schema.ts';
import { sectionOf } from './codes.service.ts';

let t: TestApp;
let admin: Awaited<ReturnType<typeof signInAs>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signInAs(t, ['admin']);
});
afterAll(async () => {
  await t?.close();
});

const url = '/api/v1/admin/codes';
/** The whole form, as the web sends it: all reported, no markets unless given. */
const whole = (fields: Record<string, unknown>) => ({ disabled_status: 0, market_ids: [], ...fields });
const post = (payload: Record<string, unknown>, headers = admin.headers) => t.app.inject({ method: 'POST', url, headers, payload: whole(payload) });

describe('codes', () => {
  it('when created with markets and a disabled status, then answered with its section and listed with name and code', async () => {
    const market = await createMarket(t.db, admin.organizationId!, 'Sweden');
    await t.db.insert(codeSections).values({ organization_id: admin.organizationId!, name: 'Cars', start: 1000, length: 100 });
    const res = await post({ code: '1005', name: 'Small cars', disabled_status: 10, market_ids: [market.id] });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({
      code: '1005',
      name: 'Small cars',
      disabled_status: 10,
      markets: [{ id: market.id, international_name: 'Sweden' }],
      section: { name: 'Cars' },
      groups: [],
    });
    const list = await t.app.inject({ url: `${url}?search=small`, headers: admin.headers });
    expect(list.json().data.map((c: { code: string }) => c.code)).toEqual(['1005']);
  });

  it('when the disabled status is not one of 0, 10, 20, 30, then 422', async () => {
    const res = await post({ code: 'X1', name: 'x', disabled_status: 15 });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ disabled_status: ['The selected disabled status is invalid.'] });
  });

  it('when the code is empty or holds a space or another sign, then 422 saying what it may hold', async () => {
    expect((await post({ code: '', name: 'x' })).json().errors).toEqual({ code: ['The code field is required.'] });
    expect((await post({ code: '10 05', name: 'x' })).json().errors).toEqual({
      code: ['The code may contain only letters, digits, dots, hyphens and underscores.'],
    });
  });

  it('when the code is taken in the organization, then 422; in another organization it is free', async () => {
    await post({ code: 'DUP', name: 'First' });
    const again = await post({ code: 'DUP', name: 'Second' });
    expect(again.json().errors).toEqual({ code: ['The code has already been taken.'] });
    const other = await signInAs(t, ['admin']);
    expect((await post({ code: 'DUP', name: 'Theirs' }, other.headers)).statusCode).toBe(201);
  });

  it("when a market of another organization is given, then 422; another organization's code is 404", async () => {
    const otherOrg = await createOrganization(t.db);
    const foreignMarket = await createMarket(t.db, otherOrg.id);
    const res = await post({ code: 'F1', name: 'x', market_ids: [foreignMarket.id] });
    expect(res.json().errors).toEqual({ market_ids: ['The chosen markets must belong to the same organization.'] });
    const [foreign] = await t.db.insert(codes).values({ organization_id: otherOrg.id, code: 'F2', name: 'Foreign' }).returning();
    expect((await t.app.inject({ url: `${url}/${foreign!.id}`, headers: admin.headers })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `${url}/${foreign!.id}`, headers: admin.headers })).statusCode).toBe(404);
  });

  it('when a reporter (view-codes) asks, then the list is readable but not writable; a viewer is refused', async () => {
    const reporter = await signInAs(t, ['reporter']);
    expect((await t.app.inject({ url, headers: reporter.headers })).statusCode).toBe(200);
    expect((await post({ code: 'R1', name: 'x' }, reporter.headers)).statusCode).toBe(403);
    const viewer = await signInAs(t, ['viewer']);
    expect((await t.app.inject({ url, headers: viewer.headers })).statusCode).toBe(403);
  });

  it('when a company reports the code, then it cannot be deleted', async () => {
    const code = (await post({ code: 'USED', name: 'Used code' })).json().data;
    const company = await createCompany(t.db, []);
    await t.db.insert(companyCodes).values({ company_id: company.id, code_id: code.id });
    const res = await t.app.inject({ method: 'DELETE', url: `${url}/${code.id}`, headers: admin.headers });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('The code USED is still in use and cannot be deleted.');
  });

  it('when updated, then the markets are replaced', async () => {
    const a = await createMarket(t.db, admin.organizationId!);
    const b = await createMarket(t.db, admin.organizationId!);
    const code = (await post({ code: 'UPD', name: 'x', market_ids: [a.id] })).json().data;
    const res = await t.app.inject({
      method: 'PUT',
      url: `${url}/${code.id}`,
      headers: admin.headers,
      payload: whole({ code: 'UPD', name: 'y', market_ids: [b.id] }),
    });
    expect(res.json().data.markets.map((m: { id: number }) => m.id)).toEqual([b.id]);
  });
});

describe('the section of a code', () => {
  const sections = [
    { id: 1, name: 'Wide', organization_id: 1, start: 1000, length: 1000 },
    { id: 2, name: 'Narrow', organization_id: 1, start: 1200, length: 10 },
    { id: 3, name: 'Elsewhere', organization_id: 2, start: 0, length: 99999 },
  ];
  it('is the narrowest range of the same organization holding the numeric code', () => {
    expect(sectionOf('1205', 1, sections)?.name).toBe('Narrow');
    expect(sectionOf('1999', 1, sections)?.name).toBe('Wide');
    expect(sectionOf('2000', 1, sections)).toBeNull();
    expect(sectionOf('12A', 1, sections)).toBeNull();
  });
});
