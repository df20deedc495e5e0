import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMarket, createOrganization, createTestApp, signInAs, type TestApp } from '../../../test/helpers.ts';
import { currencies, markets } from '../../db/schema.ts';
import { eq } from 'drizzle-orm';

let t: TestApp;
let admin: Awaited<ReturnType<typeof signInAs>>;
beforeAll(async () => {
  t = await createTestApp();
  // Currencies and rates are shared by every organization: a super-admin changes them.
  admin = await signInAs(t, ['super-admin']);
});
afterAll(async () => {
  await t?.close();
});

const url = '/api/v1/admin/currencies';

describe('currencies', () => {
  it('when not signed in, then 401; without manage-currencies, then 403', async () => {
    expect((await t.app.inject({ url })).statusCode).toBe(401);
    const viewer = await signInAs(t, ['viewer']);
    const res = await t.app.inject({ url, headers: viewer.headers });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'Permission denied. Your user does not have permission to view this resource.' });
    const create = await t.app.inject({ method: 'POST', url, headers: viewer.headers, payload: { iso_code: 'ABC', name: 'Abc' } });
    expect(create.statusCode).toBe(403);
  });

  it('when created, then listed, found, updated and deleted', async () => {
    const created = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload: { iso_code: 'chf', name: 'Swiss franc' } });
    expect(created.statusCode).toBe(201);
    const currency = created.json().data;
    expect(currency).toMatchObject({ iso_code: 'CHF', name: 'Swiss franc' });

    const list = await t.app.inject({ url: `${url}?search=swiss`, headers: admin.headers });
    expect(list.json()).toEqual({ data: [currency], meta: { page: 1, per_page: 25, total: 1 } });

    const updated = await t.app.inject({ method: 'PUT', url: `${url}/${currency.id}`, headers: admin.headers, payload: { iso_code: 'CHF', name: 'Franc' } });
    expect(updated.json().data.name).toBe('Franc');

    const deleted = await t.app.inject({ method: 'DELETE', url: `${url}/${currency.id}`, headers: admin.headers });
    expect(deleted.statusCode).toBe(204);
    expect((await t.app.inject({ url: `${url}/${currency.id}`, headers: admin.headers })).statusCode).toBe(404);
  });

  it('when the list is paged and sorted, then meta counts all and the page holds the right rows', async () => {
    for (const iso of ['AAA', 'AAB', 'AAC']) await t.db.insert(currencies).values({ iso_code: iso, name: `Test ${iso}` });
    const res = await t.app.inject({ url: `${url}?search=Test%20AA&sort=iso_code&direction=desc&per_page=2&page=1`, headers: admin.headers });
    expect(res.json().data.map((c: { iso_code: string }) => c.iso_code)).toEqual(['AAC', 'AAB']);
    expect(res.json().meta).toEqual({ page: 1, per_page: 2, total: 3 });
    const page2 = await t.app.inject({ url: `${url}?search=Test%20AA&sort=iso_code&direction=desc&per_page=2&page=2`, headers: admin.headers });
    expect(page2.json().data.map((c: { iso_code: string }) => c.iso_code)).toEqual(['AAA']);
  });

  it('when the search has 2 characters or fewer, then 422; an unknown sort column, 422', async () => {
    const short = await t.app.inject({ url: `${url}?search=ab`, headers: admin.headers });
    expect(short.statusCode).toBe(422);
    expect(short.json().message).toBe('The search must be longer than 2 characters.');
    expect((await t.app.inject({ url: `${url}?sort=password`, headers: admin.headers })).statusCode).toBe(422);
  });

  it('when the input is invalid or the code taken, then 422 with field errors', async () => {
    const bad = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload: { iso_code: 'EURO', name: 'x'.repeat(101) } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual({
      iso_code: ['The ISO code must be three letters, such as EUR.'],
      name: ['The name may not be greater than 100 characters.'],
    });
    const empty = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload: { iso_code: ' ' } });
    expect(empty.json()).toEqual({ message: 'The ISO code field is required.', errors: { iso_code: ['The ISO code field is required.'] } });
    await t.db.insert(currencies).values({ iso_code: 'GBP', name: 'Pound' });
    const taken = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload: { iso_code: 'gbp', name: 'Pound again' } });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors).toEqual({ iso_code: ['The ISO code has already been taken.'] });
  });

  it('when a market uses the currency, then it cannot be deleted', async () => {
    const [currency] = await t.db.insert(currencies).values({ iso_code: 'ISK', name: 'Icelandic krona' }).returning();
    const org = await createOrganization(t.db);
    const market = await createMarket(t.db, org.id);
    await t.db.update(markets).set({ currency_id: currency!.id }).where(eq(markets.id, market.id));
    const res = await t.app.inject({ method: 'DELETE', url: `${url}/${currency!.id}`, headers: admin.headers });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'The currency ISK is still in use and cannot be deleted.' });
  });
});

describe('a currency from its ISO code alone', () => {
  it('when the name is missing or empty, then it is the standard name of the ISO 4217 code', async () => {
    const created = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload: { iso_code: 'chf' } });
    expect(created.statusCode).toBe(201);
    expect(created.json().data).toMatchObject({ iso_code: 'CHF', name: 'Swiss Franc' });
    const empty = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload: { iso_code: 'NOK', name: '  ' } });
    expect(empty.json().data).toMatchObject({ iso_code: 'NOK', name: 'Norwegian Krone' });
    const renamed = await t.app.inject({
      method: 'PUT',
      url: `${url}/${empty.json().data.id}`,
      headers: admin.headers,
      payload: { iso_code: 'NOK', name: null },
    });
    expect(renamed.json().data.name).toBe('Norwegian Krone');
  });

  it('when the code is not an ISO 4217 currency and no name is given, then 422 saying to check it or name the currency', async () => {
    const res = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload: { iso_code: 'QQQ' } });
    expect(res.statusCode).toBe(422);
    const message = 'QQQ is not a standard ISO 4217 currency code: check it, or give the currency a name.';
    expect(res.json()).toEqual({ message, errors: { iso_code: [message] } });
    expect(await t.db.select().from(currencies).where(eq(currencies.iso_code, 'QQQ'))).toEqual([]);
  });

  it('when the code is unknown to the standard but the administrator names it, then it is created (a new currency)', async () => {
    const res = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload: { iso_code: 'QQR', name: 'Association unit of account' } });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ iso_code: 'QQR', name: 'Association unit of account' });
  });
});

describe('field error messages', () => {
  it('when a field error is the top-level message, then it names the field too', async () => {
    await t.db.insert(currencies).values({ iso_code: 'JPY', name: 'Yen' });
    const res = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload: { iso_code: 'JPY', name: 'Yen again' } });
    expect(res.json()).toEqual({ message: 'The ISO code has already been taken.', errors: { iso_code: ['The ISO code has already been taken.'] } });
  });

  it('when not signed in, then 401 even with an invalid body', async () => {
    const res = await t.app.inject({ method: 'POST', url, headers: { 'x-requested-with': 'XMLHttpRequest' }, payload: { iso_code: 1 } });
    expect(res.statusCode).toBe(401);
  });

  it("when an organization's administrator creates, renames or deletes a currency every organization uses, then 403; reading is allowed", async () => {
    const orgAdmin = await signInAs(t, ['admin']);
    const [shared] = await t.db.insert(currencies).values({ iso_code: 'SHD', name: 'Shared' }).returning();
    expect((await t.app.inject({ url, headers: orgAdmin.headers })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url, headers: orgAdmin.headers, payload: { iso_code: 'ADM', name: 'Admin money' } })).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'PUT', url: `${url}/${shared!.id}`, headers: orgAdmin.headers, payload: { iso_code: 'SHD', name: 'Renamed' } })).statusCode,
    ).toBe(403);
    expect((await t.app.inject({ method: 'DELETE', url: `${url}/${shared!.id}`, headers: orgAdmin.headers })).statusCode).toBe(403);
    const [kept] = await t.db.select().from(currencies).where(eq(currencies.id, shared!.id));
    expect(kept!.name).toBe('Shared');
  });
});
