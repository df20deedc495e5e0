import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createCompany, createMarket, createOrganization, createTestApp, signInAs, type TestApp } from '../../../test/helpers.ts';
import { httpUpload, injectUpload, streamedUpload } from '../../../test/uploads.ts';
import { currencies, files } from '../../db/schema.ts';

let t: TestApp;
let admin: Awaited<ReturnType<typeof signInAs>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signInAs(t, ['admin']);
});
afterAll(async () => {
  await t?.close();
});

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 1)]);
const JPG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64, 2)]);

function multipart(name: string, content: Buffer, type = 'application/octet-stream') {
  const boundary = '----mss-test-boundary';
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: ${type}\r\n\r\n`),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload: body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const create = (headers: Record<string, string>, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/v1/admin/markets', headers, payload });

describe('markets', () => {
  it('when an admin creates a market, then it belongs to their organization and is listed and searchable by international_name', async () => {
    const [sek] = await t.db.insert(currencies).values({ iso_code: 'SEK', name: 'Krona' }).returning();
    const res = await create(admin.headers, { international_name: 'Sweden', local_name: 'Sverige', iso_code: 'se', currency_id: sek!.id });
    expect(res.statusCode).toBe(201);
    const market = res.json().data;
    expect(market).toMatchObject({
      international_name: 'Sweden',
      iso_code: 'SE',
      currency: { iso_code: 'SEK' },
      organization: { id: admin.organizationId },
      has_logotype: false,
    });

    const found = await t.app.inject({ url: '/api/v1/markets?search=swed', headers: admin.headers });
    expect(found.json().data.map((m: { id: number }) => m.id)).toEqual([market.id]);
    // The local name is not searched (docs/product.md §2: the list searches international_name).
    const byLocal = await t.app.inject({ url: '/api/v1/markets?search=sverige', headers: admin.headers });
    expect(byLocal.json().data).toEqual([]);
  });

  it('when GET /admin/markets is asked (docs/product.md §7), then the same list as GET /markets: same query, scope and permission', async () => {
    const mine = await createMarket(t.db, admin.organizationId!, 'Adminlistland');
    const foreign = await createMarket(t.db, (await createOrganization(t.db)).id, 'Adminlistforeign');
    for (const query of ['?per_page=100', '?search=adminlist', '?sort=iso_code&direction=desc&per_page=2&page=1']) {
      const [plain, underAdmin] = await Promise.all(
        ['/api/v1/markets', '/api/v1/admin/markets'].map((path) => t.app.inject({ url: `${path}${query}`, headers: admin.headers })),
      );
      expect(underAdmin!.statusCode, query).toBe(200);
      expect(underAdmin!.json(), query).toEqual(plain!.json());
    }
    const found = (await t.app.inject({ url: '/api/v1/admin/markets?search=adminlist', headers: admin.headers })).json().data.map((m: { id: number }) => m.id);
    expect(found).toEqual([mine.id]);
    expect(found).not.toContain(foreign.id);
    // view-markets is enough, as for GET /markets; without it, 403 on both.
    const marketAdmin = await signInAs(t, ['market-admin'], { organizationId: admin.organizationId! });
    expect((await t.app.inject({ url: '/api/v1/admin/markets', headers: marketAdmin.headers })).statusCode).toBe(200);
    const reporter = await signInAs(t, ['reporter'], { organizationId: admin.organizationId! });
    for (const path of ['/api/v1/markets', '/api/v1/admin/markets']) {
      expect((await t.app.inject({ url: path, headers: reporter.headers })).statusCode).toBe(403);
    }
  });

  it('when another organization owns a market, then it is invisible (404) and untouchable', async () => {
    const other = await createOrganization(t.db);
    const foreign = await createMarket(t.db, other.id, 'Foreignland');
    const list = await t.app.inject({ url: '/api/v1/markets?per_page=100', headers: admin.headers });
    expect(list.json().data.some((m: { id: number }) => m.id === foreign.id)).toBe(false);
    expect((await t.app.inject({ url: `/api/v1/markets/${foreign.id}`, headers: admin.headers })).statusCode).toBe(404);
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/admin/markets/${foreign.id}`,
      headers: admin.headers,
      payload: { international_name: 'Mine now', local_name: 'x', iso_code: 'MN', currency_id: null },
    });
    expect(put.statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/admin/markets/${foreign.id}`, headers: admin.headers })).statusCode).toBe(404);
    const asOther = await create(admin.headers, { organization_id: other.id, international_name: 'X', local_name: 'X', iso_code: 'XX', currency_id: null });
    expect(asOther.statusCode).toBe(422);
    expect(asOther.json().errors.organization_id).toEqual(['You can choose only your own organization.']);
  });

  it('when a super-admin creates a market, then the organization must be named', async () => {
    const superAdmin = await signInAs(t, ['super-admin']);
    const missing = await create(superAdmin.headers, { international_name: 'Y', local_name: 'Y', iso_code: 'YY', currency_id: null });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.organization_id).toEqual(['The organization field is required.']);
    const org = await createOrganization(t.db);
    const ok = await create(superAdmin.headers, { organization_id: org.id, international_name: 'Y', local_name: 'Y', iso_code: 'YY', currency_id: null });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().data.organization.id).toBe(org.id);
  });

  it('when a viewer without view-markets asks, then 403; view-markets may read but not write', async () => {
    const viewer = await signInAs(t, ['viewer']);
    expect((await t.app.inject({ url: '/api/v1/markets', headers: viewer.headers })).statusCode).toBe(403);
    const marketAdmin = await signInAs(t, ['market-admin']);
    expect((await t.app.inject({ url: '/api/v1/markets', headers: marketAdmin.headers })).statusCode).toBe(200);
    const write = await create(marketAdmin.headers, { international_name: 'Z', local_name: 'Z', iso_code: 'ZZ', currency_id: null });
    expect(write.statusCode).toBe(403);
  });

  it('when the iso code is taken in the organization or the input is invalid, then 422 field errors', async () => {
    await create(admin.headers, { international_name: 'Norway', local_name: 'Norge', iso_code: 'NO', currency_id: null });
    const taken = await create(admin.headers, { international_name: 'Norway 2', local_name: 'Norge', iso_code: 'no', currency_id: null });
    expect(taken.json().errors).toEqual({ iso_code: ['The ISO code has already been taken.'] });
    const bad = await create(admin.headers, { international_name: '', local_name: 'x', iso_code: 'toolong', currency_id: 999999 });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual({
      international_name: ['The international name field is required.'],
      iso_code: ['The ISO code must be two or three letters, such as SE.'],
    });
    const noCurrency = await create(admin.headers, { international_name: 'Iceland', local_name: 'Ísland', iso_code: 'IS', currency_id: 999999 });
    expect(noCurrency.json().errors).toEqual({ currency_id: ['The selected currency is invalid.'] });
  });

  it('when companies report in a market, then it cannot be deleted; an unused one can', async () => {
    const used = (await create(admin.headers, { international_name: 'Denmark', local_name: 'Danmark', iso_code: 'DK', currency_id: null })).json().data;
    await createCompany(t.db, [{ marketId: used.id, roles: [] }]);
    const refused = await t.app.inject({ method: 'DELETE', url: `/api/v1/admin/markets/${used.id}`, headers: admin.headers });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ message: 'The market Denmark is still in use and cannot be deleted.' });
    const unused = (await create(admin.headers, { international_name: 'Iceland', local_name: 'Ísland', iso_code: 'IS', currency_id: null })).json().data;
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/admin/markets/${unused.id}`, headers: admin.headers })).statusCode).toBe(204);
  });

  it('when a logotype is uploaded, then png and jpg are judged by content, stored and served', async () => {
    const market = (await create(admin.headers, { international_name: 'Finland', local_name: 'Suomi', iso_code: 'FI', currency_id: null })).json().data;
    const url = `/api/v1/admin/markets/${market.id}/logotype`;
    // A text file named .png is refused; a real jpg named .txt is accepted.
    const fake = await t.app.inject({ method: 'PUT', url, ...withHeaders(multipart('logo.png', Buffer.from('not an image at all'), 'image/png')) });
    expect(fake.statusCode).toBe(422);
    expect(fake.json().errors.file).toEqual(['The logotype must be a png or jpg image.']);
    const jpg = await t.app.inject({ method: 'PUT', url, ...withHeaders(multipart('logo.txt', JPG)) });
    expect(jpg.statusCode).toBe(200);
    expect(jpg.json().data.has_logotype).toBe(true);
    const served = await t.app.inject({ url: `/api/v1/markets/${market.id}/logotype`, headers: admin.headers });
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(served.rawPayload.equals(JPG)).toBe(true);
    // Replacing it removes the old file.
    const before = (await t.db.select({ id: files.id }).from(files)).length;
    await t.app.inject({ method: 'PUT', url, ...withHeaders(multipart('logo.png', PNG)) });
    expect((await t.db.select({ id: files.id }).from(files)).length).toBe(before);
    const removed = await t.app.inject({ method: 'DELETE', url, headers: admin.headers });
    expect(removed.json().data.has_logotype).toBe(false);
    expect((await t.app.inject({ url: `/api/v1/markets/${market.id}/logotype`, headers: admin.headers })).statusCode).toBe(404);
    const [left] = await t.db.select({ id: files.id }).from(files).where(eq(files.name, 'logo.png'));
    expect(left).toBeUndefined();
  });

  it('when a logotype is larger than 2 MiB, then 422', async () => {
    const market = (await create(admin.headers, { international_name: 'Big', local_name: 'Big', iso_code: 'BG', currency_id: null })).json().data;
    const big = Buffer.concat([PNG, Buffer.alloc(2 * 1024 * 1024 + 10)]);
    const res = await t.app.inject({ method: 'PUT', url: `/api/v1/admin/markets/${market.id}/logotype`, ...withHeaders(multipart('big.png', big)) });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.file).toEqual(['The file is too large (at most 2 MiB).']);
  });

  it('when logotypes over 2 MiB arrive in pieces (some ending exactly at the limit), then every one is refused and none is stored', async () => {
    const market = (await create(admin.headers, { international_name: 'Pieces', local_name: 'Pieces', iso_code: 'PC', currency_id: null })).json().data;
    const url = `/api/v1/admin/markets/${market.id}/logotype`;
    const base = await t.app.listen({ host: '127.0.0.1', port: 0 });
    const before = (await t.db.select({ id: files.id }).from(files)).length;
    const answers: string[] = [];
    const tries = [2 * 1024 * 1024 + 1, 4 * 1024 * 1024, 20 * 1024 * 1024].flatMap((size) => [64 * 1024, 16 * 1024, 65_000].map((piece) => ({ size, piece })));
    for (const [i, { size, piece }] of tries.entries()) {
      const body = streamedUpload(size, { piece, name: 'logo.png', first: PNG.subarray(0, 8) });
      const res = i % 2 === 0 ? await injectUpload(t.app, 'PUT', url, admin.headers, body) : await httpUpload(base, 'PUT', url, admin.headers, body);
      answers.push(`${size} in ${piece}: ${res.status} ${(res.json().errors?.file ?? []).join()}`);
    }
    expect(answers).toEqual(tries.map(({ size, piece }) => `${size} in ${piece}: 422 The file is too large (at most 2 MiB).`));
    expect((await t.db.select({ id: files.id }).from(files)).length).toBe(before);
    expect((await t.app.inject({ url: `/api/v1/markets/${market.id}/logotype`, headers: admin.headers })).statusCode).toBe(404);
  });
});

function withHeaders(m: { payload: Buffer; headers: Record<string, string> }) {
  return { payload: m.payload, headers: { ...admin.headers, ...m.headers } };
}
