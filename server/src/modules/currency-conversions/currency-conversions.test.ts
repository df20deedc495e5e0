import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, signInAs, type TestApp } from '../../../test/helpers.ts';
import { currencies, currencyConversions } from '../../db/schema.ts';

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

const url = '/api/v1/currency_conversions';

async function createCurrency(isoCode: string) {
  const [currency] = await t.db
    .insert(currencies)
    .values({ iso_code: isoCode, name: `Currency ${isoCode}` })
    .returning();
  return currency!;
}

async function createConversion(fromId: number, toId: number, rate: string, validFrom: string) {
  const [row] = await t.db.insert(currencyConversions).values({ from_currency_id: fromId, to_currency_id: toId, rate, valid_from: validFrom }).returning();
  return row!;
}

describe('currency conversions', () => {
  it('when not signed in, then 401; without manage-currency-conversion, then 403', async () => {
    expect((await t.app.inject({ url })).statusCode).toBe(401);
    const marketAdmin = await signInAs(t, ['market-admin']);
    const res = await t.app.inject({ url, headers: marketAdmin.headers });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'Permission denied. Your user does not have permission to view this resource.' });
    const sek = await createCurrency('QAA');
    const eur = await createCurrency('QAB');
    const payload = { from_currency_id: sek.id, to_currency_id: eur.id, rate: '0.09', valid_from: '2024-01-01' };
    expect((await t.app.inject({ method: 'POST', url, headers: marketAdmin.headers, payload })).statusCode).toBe(403);
    expect(await t.db.select().from(currencyConversions).where(eq(currencyConversions.from_currency_id, sek.id))).toHaveLength(0);
  });

  it('when created, then listed, found, updated and deleted, the rate as an exact decimal string with its 10 decimals and the currencies by iso code', async () => {
    const sek = await createCurrency('QBA');
    const eur = await createCurrency('QBB');
    const created = await t.app.inject({
      method: 'POST',
      url,
      headers: admin.headers,
      payload: { from_currency_id: sek.id, to_currency_id: eur.id, rate: '0.0875', valid_from: '2024-03-01' },
    });
    expect(created.statusCode).toBe(201);
    const conversion = created.json().data;
    expect(conversion).toEqual({
      id: expect.any(Number),
      rate: '0.0875000000',
      from_currency: { id: sek.id, iso_code: 'QBA' },
      to_currency: { id: eur.id, iso_code: 'QBB' },
      valid_from: '2024-03-01',
    });

    const list = await t.app.inject({ url: `${url}?search=QBA`, headers: admin.headers });
    expect(list.json()).toEqual({ data: [conversion], meta: { page: 1, per_page: 25, total: 1 } });
    expect((await t.app.inject({ url: `${url}/${conversion.id}`, headers: admin.headers })).json()).toEqual({ data: conversion });

    const updated = await t.app.inject({
      method: 'PUT',
      url: `${url}/${conversion.id}`,
      headers: admin.headers,
      payload: { from_currency_id: eur.id, to_currency_id: sek.id, rate: '11.4286', valid_from: '2024-04-01' },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().data).toMatchObject({
      rate: '11.4286000000',
      from_currency: { iso_code: 'QBB' },
      to_currency: { iso_code: 'QBA' },
      valid_from: '2024-04-01',
    });

    const deleted = await t.app.inject({ method: 'DELETE', url: `${url}/${conversion.id}`, headers: admin.headers });
    expect(deleted.statusCode).toBe(204);
    expect((await t.app.inject({ url: `${url}/${conversion.id}`, headers: admin.headers })).statusCode).toBe(404);
  });

  it('when conversions are shared, then an administrator of another organization sees them too', async () => {
    const from = await createCurrency('QCA');
    const to = await createCurrency('QCB');
    const conversion = await createConversion(from.id, to.id, '2', '2024-01-01');
    const otherAdmin = await signInAs(t, ['admin']);
    const res = await t.app.inject({ url: `${url}/${conversion.id}`, headers: otherAdmin.headers });
    expect(res.json().data.rate).toBe('2.0000000000');
  });

  it('when both currencies are the same, then 422 on to_currency_id and nothing is stored', async () => {
    const sek = await createCurrency('QDA');
    const res = await t.app.inject({
      method: 'POST',
      url,
      headers: admin.headers,
      payload: { from_currency_id: sek.id, to_currency_id: sek.id, rate: '1', valid_from: '2024-01-01' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ message: 'The two currencies must differ.', errors: { to_currency_id: ['The two currencies must differ.'] } });
    expect(await t.db.select().from(currencyConversions).where(eq(currencyConversions.from_currency_id, sek.id))).toHaveLength(0);
  });

  it('when a currency does not exist, then 422 on its field', async () => {
    const sek = await createCurrency('QEA');
    const res = await t.app.inject({
      method: 'POST',
      url,
      headers: admin.headers,
      payload: { from_currency_id: sek.id, to_currency_id: 999_999, rate: '1', valid_from: '2024-01-01' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ to_currency_id: ['The selected to currency is invalid.'] });
    const from = await t.app.inject({
      method: 'POST',
      url,
      headers: admin.headers,
      payload: { from_currency_id: 999_999, to_currency_id: sek.id, rate: '1', valid_from: '2024-01-01' },
    });
    expect(from.json().errors).toEqual({ from_currency_id: ['The selected from currency is invalid.'] });
  });

  it('when a currency is not chosen (null) or is 0, then 422 naming the field by its label, and nothing is stored', async () => {
    const sek = await createCurrency('QEB');
    const base = { from_currency_id: sek.id, to_currency_id: sek.id + 1, rate: '1', valid_from: '2024-01-01' };
    const none = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload: { ...base, from_currency_id: null, to_currency_id: null } });
    expect(none.statusCode).toBe(422);
    expect(none.json()).toEqual({
      message: 'The from currency field is required.',
      errors: { from_currency_id: ['The from currency field is required.'], to_currency_id: ['The to currency field is required.'] },
    });
    const zero = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload: { ...base, from_currency_id: 0 } });
    expect(zero.json()).toEqual({
      message: 'The selected from currency is invalid.',
      errors: { from_currency_id: ['The selected from currency is invalid.'] },
    });
    const text = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload: { ...base, from_currency_id: 'SEK' } });
    expect(text.json().errors).toEqual({ from_currency_id: ['The from currency must be a number.'] });
    expect(await t.db.select().from(currencyConversions).where(eq(currencyConversions.from_currency_id, sek.id))).toHaveLength(0);
  });

  it('when the same pair already has a rate from that date, then 422 on valid_from; updating the row itself is fine', async () => {
    const from = await createCurrency('QFA');
    const to = await createCurrency('QFB');
    const existing = await createConversion(from.id, to.id, '1.5', '2024-05-01');
    const payload = { from_currency_id: from.id, to_currency_id: to.id, rate: '1.6', valid_from: '2024-05-01' };
    const res = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ valid_from: ['These currencies already have a rate valid from this date.'] });
    const self = await t.app.inject({ method: 'PUT', url: `${url}/${existing.id}`, headers: admin.headers, payload });
    expect(self.statusCode).toBe(200);
    expect(self.json().data.rate).toBe('1.6000000000');
    // The reverse pair is another conversion.
    const reverse = await t.app.inject({
      method: 'POST',
      url,
      headers: admin.headers,
      payload: { ...payload, from_currency_id: to.id, to_currency_id: from.id },
    });
    expect(reverse.statusCode).toBe(201);
  });

  it('when the rate is 0 or negative, too fine for the column, or the date empty, malformed or not a day, then 422 with a sentence naming the field', async () => {
    const from = await createCurrency('QGA');
    const to = await createCurrency('QGB');
    const base = { from_currency_id: from.id, to_currency_id: to.id, rate: '1', valid_from: '2024-01-01' };
    const refused = async (change: Record<string, unknown>) => {
      const res = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload: { ...base, ...change } });
      expect(res.statusCode).toBe(422);
      return res.json().errors;
    };
    expect(await refused({ rate: '0' })).toEqual({ rate: ['The rate must be greater than 0.'] });
    expect(await refused({ rate: '0.0000' })).toEqual({ rate: ['The rate must be greater than 0.'] });
    expect(await refused({ rate: '-1.5' })).toEqual({ rate: ['The rate must be greater than 0.'] });
    expect(await refused({ rate: '' })).toEqual({ rate: ['The rate must be a number with at most 10 digits before the decimal point and 10 after it.'] });
    expect(await refused({ rate: '0.000000000001' })).toEqual({
      rate: ['The rate must be a number with at most 10 digits before the decimal point and 10 after it.'],
    });
    expect(await refused({ valid_from: '' })).toEqual({ valid_from: ['The valid-from date field is required.'] });
    expect(await refused({ valid_from: '01/02/2024' })).toEqual({ valid_from: ['The valid-from date is not a valid date.'] });
    expect(await refused({ valid_from: '2024-02-30' })).toEqual({ valid_from: ['The valid-from date is not a valid date.'] });
    expect(await t.db.select().from(currencyConversions).where(eq(currencyConversions.from_currency_id, from.id))).toHaveLength(0);
  });

  it('when a rate has 10 decimals, then it comes back with all of them; a JSON number (a float already) is refused', async () => {
    const from = await createCurrency('QKA');
    const to = await createCurrency('QKB');
    const base = { from_currency_id: from.id, to_currency_id: to.id, valid_from: '2024-01-01' };
    const res = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload: { ...base, rate: '1234567890.0873912345' } });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.rate).toBe('1234567890.0873912345');
    expect((await t.app.inject({ url: `${url}/${res.json().data.id}`, headers: admin.headers })).json().data.rate).toBe('1234567890.0873912345');
    const float = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload: { ...base, valid_from: '2024-02-01', rate: 0.1 } });
    expect(float.statusCode).toBe(422);
    expect(Object.keys(float.json().errors)).toEqual(['rate']);
  });

  it('when no sort is given, then the newest valid_from comes first; sorted by rate, paged, and searched by either iso code', async () => {
    const a = await createCurrency('QHA');
    const b = await createCurrency('QHB');
    const c = await createCurrency('QHC');
    await createConversion(a.id, b.id, '3', '2023-01-01');
    await createConversion(a.id, b.id, '1', '2025-01-01');
    await createConversion(c.id, a.id, '2', '2024-01-01');
    const dates = (res: { json(): { data: { valid_from: string }[] } }) => res.json().data.map((r) => r.valid_from);

    const newest = await t.app.inject({ url: `${url}?search=QHA`, headers: admin.headers });
    expect(dates(newest)).toEqual(['2025-01-01', '2024-01-01', '2023-01-01']);
    const oldest = await t.app.inject({ url: `${url}?search=QHA&direction=asc`, headers: admin.headers });
    expect(dates(oldest)).toEqual(['2023-01-01', '2024-01-01', '2025-01-01']);

    const byRate = await t.app.inject({ url: `${url}?search=QHA&sort=rate&per_page=2`, headers: admin.headers });
    expect(byRate.json().data.map((r: { rate: string }) => r.rate)).toEqual(['1.0000000000', '2.0000000000']);
    expect(byRate.json().meta).toEqual({ page: 1, per_page: 2, total: 3 });
    const page2 = await t.app.inject({ url: `${url}?search=QHA&sort=rate&per_page=2&page=2`, headers: admin.headers });
    expect(page2.json().data.map((r: { rate: string }) => r.rate)).toEqual(['3.0000000000']);

    // QHC is only ever the "from" currency, QHB only the "to" one.
    const byFrom = await t.app.inject({ url: `${url}?search=qhc`, headers: admin.headers });
    expect(dates(byFrom)).toEqual(['2024-01-01']);
    const byTo = await t.app.inject({ url: `${url}?search=QHB`, headers: admin.headers });
    expect(byTo.json().meta.total).toBe(2);
  });

  it('when the sort column is unknown or the search too short, then 422', async () => {
    expect((await t.app.inject({ url: `${url}?sort=from_currency_id`, headers: admin.headers })).statusCode).toBe(422);
    const short = await t.app.inject({ url: `${url}?search=QH`, headers: admin.headers });
    expect(short.statusCode).toBe(422);
    expect(short.json().message).toBe('The search must be longer than 2 characters.');
  });

  it("when an organization's administrator changes a rate every organization uses, then 403; reading is allowed", async () => {
    const orgAdmin = await signInAs(t, ['admin']);
    const from = await createCurrency('OAA');
    const to = await createCurrency('OAB');
    const conversion = await createConversion(from.id, to.id, '2.0000000000', '2026-01-01');
    expect((await t.app.inject({ url, headers: orgAdmin.headers })).statusCode).toBe(200);
    const payload = { from_currency_id: from.id, to_currency_id: to.id, rate: '9', valid_from: '2026-01-01' };
    expect((await t.app.inject({ method: 'POST', url, headers: orgAdmin.headers, payload: { ...payload, valid_from: '2026-02-01' } })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'PUT', url: `${url}/${conversion.id}`, headers: orgAdmin.headers, payload })).statusCode).toBe(403);
    expect((await t.app.inject({ method: 'DELETE', url: `${url}/${conversion.id}`, headers: orgAdmin.headers })).statusCode).toBe(403);
    const [kept] = await t.db.select().from(currencyConversions).where(eq(currencyConversions.id, conversion.id));
    expect(kept!.rate).toBe('2.0000000000');
  });
});
