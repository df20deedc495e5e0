import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMarket, createOrganization, createTestApp, signInAs, type TestApp } from '../../../test/helpers.ts';
import { codeSections } from '../../db/schema.ts';

let t: TestApp;
let admin: Awaited<ReturnType<typeof signInAs>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signInAs(t, ['admin']);
});
afterAll(async () => {
  await t?.close();
});

const url = '/api/v1/admin/code_sections';
/** The whole form, as the web sends it: no markets unless given. */
const whole = (fields: Record<string, unknown>) => ({ market_ids: [], ...fields });
const post = (payload: Record<string, unknown>, headers = admin.headers) => t.app.inject({ method: 'POST', url, headers, payload: whole(payload) });

describe('code sections', () => {
  it('when created, then the list shows id, name, start, length, organization and markets', async () => {
    const market = await createMarket(t.db, admin.organizationId!, 'Norway');
    const res = await post({ name: 'Trucks', start: 2000, length: 500, market_ids: [market.id] });
    expect(res.statusCode).toBe(201);
    const list = await t.app.inject({ url, headers: admin.headers });
    expect(list.json().data).toEqual([
      expect.objectContaining({
        id: res.json().data.id,
        name: 'Trucks',
        start: 2000,
        length: 500,
        organization: { id: admin.organizationId, name: expect.any(String) },
        markets: [expect.objectContaining({ international_name: 'Norway' })],
      }),
    ]);
  });

  it('when a range overlaps another section of the organization, then 422 naming it', async () => {
    await post({ name: 'Buses', start: 3000, length: 100 });
    const res = await post({ name: 'Coaches', start: 3050, length: 100 });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ start: ['The range overlaps the code section Buses.'] });
    expect((await post({ name: 'Coaches', start: 3100, length: 100 })).statusCode).toBe(201);
  });

  it('when the length is 0 or the name empty, then 422 on both, in words', async () => {
    const res = await post({ name: '', start: 1, length: 0 });
    expect(res.json().errors).toEqual({ name: ['The name field is required.'], length: ['The length must be at least 1.'] });
  });

  it('when the length or the start is negative, not whole or missing, then 422 saying so, and nothing is stored (not saved as 1)', async () => {
    const refused = async (change: Record<string, unknown>) => {
      const res = await post({ name: 'Negative', start: 7000, length: 10, ...change });
      expect(res.statusCode).toBe(422);
      return res.json();
    };
    expect(await refused({ length: -5 })).toEqual({ message: 'The length must be at least 1.', errors: { length: ['The length must be at least 1.'] } });
    expect((await refused({ start: -1 })).errors).toEqual({ start: ['The start must be at least 0.'] });
    expect((await refused({ length: 2.5 })).errors).toEqual({ length: ['The length must be an integer.'] });
    expect((await refused({ length: null })).errors).toEqual({ length: ['The length field is required.'] });
    expect((await refused({ length: '10' })).errors).toEqual({ length: ['The length must be a number.'] });
    const list = await t.app.inject({ url: `${url}?search=Negative`, headers: admin.headers });
    expect(list.json().data).toEqual([]);
  });

  it("when another organization's section is asked for, then 404; without manage-codes, 403", async () => {
    const other = await createOrganization(t.db);
    const [foreign] = await t.db.insert(codeSections).values({ organization_id: other.id, name: 'Theirs', start: 1, length: 1 }).returning();
    expect((await t.app.inject({ url: `${url}/${foreign!.id}`, headers: admin.headers })).statusCode).toBe(404);
    const put = await t.app.inject({
      method: 'PUT',
      url: `${url}/${foreign!.id}`,
      headers: admin.headers,
      payload: whole({ name: 'Mine', start: 1, length: 1 }),
    });
    expect(put.statusCode).toBe(404);
    const reporter = await signInAs(t, ['reporter']);
    expect((await t.app.inject({ url, headers: reporter.headers })).statusCode).toBe(403);
  });
});
