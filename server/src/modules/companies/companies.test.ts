import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createMarket, createOrganization, createTestApp, createUser, signInAs, type TestApp } from '../../../test/helpers.ts';
import { codes, companies, companyCodes, companyMarkets, companyOrganizations, users } from '../../db/schema.ts';

let t: TestApp;
let admin: Awaited<ReturnType<typeof signInAs>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signInAs(t, ['admin']);
});
afterAll(async () => {
  await t?.close();
});

/** The whole form, as the web sends it: every list, empty unless given. */
const whole = <T extends Record<string, unknown>>(fields: T) => ({
  disabled_at: null,
  organization_ids: [],
  markets: [],
  code_ids: [],
  user_ids: [],
  ...fields,
});
const post = (payload: Record<string, unknown>, headers = admin.headers) =>
  t.app.inject({ method: 'POST', url: '/api/v1/companies', headers, payload: whole(payload) });
const put = (id: number, payload: Record<string, unknown>) => t.app.inject({ method: 'PUT', url: `/api/v1/companies/${id}`, headers: admin.headers, payload });

async function companyIn(organizationId: number, name: string, disabledAt: Date | null = null) {
  const [company] = await t.db.insert(companies).values({ name, disabled_at: disabledAt }).returning();
  await t.db.insert(companyOrganizations).values({ company_id: company!.id, organization_id: organizationId });
  return company!;
}

describe('companies', () => {
  it('when created with markets, roles, codes and users, then the edit view loads them all', async () => {
    const org = admin.organizationId!;
    const sweden = await createMarket(t.db, org, 'Sweden');
    const [code] = await t.db.insert(codes).values({ organization_id: org, code: '100', name: 'Hundred' }).returning();
    const reporter = await createUser(t.db, { roles: ['reporter'], organizationIds: [org], marketIds: [sweden.id] });
    const res = await post({
      name: 'Acme AB',
      organization_ids: [org],
      markets: [{ market_id: sweden.id, roles: ['reporter', 'company'] }],
      code_ids: [code!.id],
      user_ids: [reporter.id],
    });
    expect(res.statusCode).toBe(201);
    const company = res.json().data;
    expect(company).toMatchObject({
      name: 'Acme AB',
      disabled_at: null,
      organizations: [{ id: org }],
      company_markets: [{ market_id: sweden.id, roles: [{ name: 'reporter' }, { name: 'company' }] }],
      codes: [{ id: code!.id, code: '100' }],
      users: [{ id: reporter.id, email: reporter.email, roles: [{ name: 'reporter' }], markets: [{ id: sweden.id }] }],
    });
    const [stored] = await t.db.select({ company_id: users.company_id }).from(users).where(eq(users.id, reporter.id));
    expect(stored!.company_id).toBe(company.id);
  });

  it('when listed, then /companies holds enabled ones and companies-with-disabled all of them, by name ascending', async () => {
    const other = await signInAs(t, ['admin']);
    const org = other.organizationId!;
    await companyIn(org, 'Zeta');
    await companyIn(org, 'alpha');
    await companyIn(org, 'Beta (disabled)', new Date(Date.now() - 86400_000));
    await companyIn(org, 'Gamma (disabling later)', new Date(Date.now() + 86400_000));
    const all = await t.app.inject({ url: '/api/v1/companies/companies-with-disabled', headers: other.headers });
    expect(all.json().data.map((c: { name: string }) => c.name)).toEqual(['alpha', 'Beta (disabled)', 'Gamma (disabling later)', 'Zeta']);
    expect(all.json().meta.total).toBe(4);
    const enabled = await t.app.inject({ url: '/api/v1/companies', headers: other.headers });
    expect(enabled.json().data.map((c: { name: string }) => c.name)).toEqual(['alpha', 'Gamma (disabling later)', 'Zeta']);
  });

  it("when another organization's company is asked for, then 404; its markets and codes cannot be assigned", async () => {
    const otherOrg = await createOrganization(t.db);
    const foreign = await companyIn(otherOrg.id, 'Foreign Oy');
    expect((await t.app.inject({ url: `/api/v1/companies/${foreign.id}`, headers: admin.headers })).statusCode).toBe(404);
    expect((await put(foreign.id, whole({ name: 'Mine' }))).statusCode).toBe(404);
    const foreignMarket = await createMarket(t.db, otherOrg.id);
    const res = await post({ name: 'X', markets: [{ market_id: foreignMarket.id, roles: [] }] });
    expect(res.json().errors).toEqual({ markets: ['The chosen markets must belong to the same organization.'] });
    const asOtherOrg = await post({ name: 'X', organization_ids: [otherOrg.id] });
    expect(asOtherOrg.statusCode).toBe(422);
  });

  it('when a company market is given an organization-wide role, then 422', async () => {
    const market = await createMarket(t.db, admin.organizationId!);
    const res = await post({ name: 'Y', markets: [{ market_id: market.id, roles: ['admin'] }] });
    expect(res.json().errors).toEqual({ markets: ['You cannot give the role admin.'] });
  });

  it('when updated, then markets keep their row, roles change, removed users leave the company', async () => {
    const org = admin.organizationId!;
    const m1 = await createMarket(t.db, org);
    const m2 = await createMarket(t.db, org);
    const u1 = await createUser(t.db, { organizationIds: [org] });
    const created = (await post({ name: 'Keep AB', markets: [{ market_id: m1.id, roles: ['reporter'] }], user_ids: [u1.id] })).json().data;
    const before = created.company_markets[0].id;
    const res = await put(
      created.id,
      whole({
        name: 'Keep AB',
        disabled_at: '2030-01-01T00:00:00.000Z',
        markets: [
          { market_id: m1.id, roles: ['viewer'] },
          { market_id: m2.id, roles: [] },
        ],
        user_ids: [],
      }),
    );
    expect(res.statusCode).toBe(200);
    const company = res.json().data;
    expect(company.disabled_at).toBe('2030-01-01T00:00:00.000Z');
    expect(company.company_markets.find((cm: { market_id: number }) => cm.market_id === m1.id)).toMatchObject({ id: before, roles: [{ name: 'viewer' }] });
    expect(company.company_markets).toHaveLength(2);
    expect(company.users).toEqual([]);
  });

  it('when users still work for the company, then it cannot be deleted; without users it can', async () => {
    const u = await createUser(t.db, { organizationIds: [admin.organizationId!] });
    const busy = (await post({ name: 'Busy AB', user_ids: [u.id] })).json().data;
    const refused = await t.app.inject({ method: 'DELETE', url: `/api/v1/companies/${busy.id}`, headers: admin.headers });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('The company Busy AB is still in use and cannot be deleted.');
    // A Swedish reader reads the whole sentence in Swedish, the record named too.
    const swedish = await t.app.inject({ method: 'DELETE', url: `/api/v1/companies/${busy.id}`, headers: { ...admin.headers, 'accept-language': 'sv-SE' } });
    expect(swedish.json().message).toBe('Företaget Busy AB används fortfarande och kan inte tas bort.');
    const idle = (await post({ name: 'Idle AB' })).json().data;
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/companies/${idle.id}`, headers: admin.headers })).statusCode).toBe(204);
  });

  it('when a user without manage-companies asks, then 403', async () => {
    const marketAdmin = await signInAs(t, ['market-admin']);
    expect((await t.app.inject({ url: '/api/v1/companies/companies-with-disabled', headers: marketAdmin.headers })).statusCode).toBe(403);
    expect((await post({ name: 'Nope' }, marketAdmin.headers)).statusCode).toBe(403);
  });

  it('when the logotype is not png or jpg by content, then 422; a png is stored', async () => {
    const company = (await post({ name: 'Logo AB' })).json().data;
    const boundary = 'b0undary';
    const body = (content: Buffer, filename: string) =>
      Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n`),
        content,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
    const headers = { ...admin.headers, 'content-type': `multipart/form-data; boundary=${boundary}` };
    const gif = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/companies/${company.id}/logotype`,
      headers,
      payload: body(Buffer.from('GIF89a........'), 'logo.png'),
    });
    expect(gif.statusCode).toBe(422);
    expect(gif.json().errors.file).toEqual(['The logotype must be a png or jpg image.']);
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32)]);
    const ok = await t.app.inject({ method: 'PUT', url: `/api/v1/companies/${company.id}/logotype`, headers, payload: body(png, 'logo.bin') });
    expect(ok.json().data.has_logotype).toBe(true);
    const served = await t.app.inject({ url: `/api/v1/companies/${company.id}/logotype`, headers: admin.headers });
    expect(served.headers['content-type']).toBe('image/png');
  });

  describe('when a PUT does not say what the company holds', () => {
    /** A company with a market (and its roles), a code and a reporter, and what is stored of it. */
    async function held() {
      const org = admin.organizationId!;
      const market = await createMarket(t.db, org);
      const [code] = await t.db
        .insert(codes)
        .values({ organization_id: org, code: `H${market.id}`, name: 'Held' })
        .returning();
      const reporter = await createUser(t.db, { roles: ['reporter'], organizationIds: [org], marketIds: [market.id] });
      const body = whole({
        name: `Held ${market.id} AB`,
        markets: [{ market_id: market.id, roles: ['reporter'] }],
        code_ids: [code!.id],
        user_ids: [reporter.id],
      });
      const company = (await post(body)).json().data as { id: number };
      const stored = async () => ({
        name: (await t.db.select({ name: companies.name }).from(companies).where(eq(companies.id, company.id)))[0]!.name,
        markets: await t.db
          .select({ market_id: companyMarkets.market_id, roles: companyMarkets.roles })
          .from(companyMarkets)
          .where(eq(companyMarkets.company_id, company.id)),
        codes: await t.db.select({ code_id: companyCodes.code_id }).from(companyCodes).where(eq(companyCodes.company_id, company.id)),
        reporter: (await t.db.select({ company_id: users.company_id }).from(users).where(eq(users.id, reporter.id)))[0]!.company_id,
      });
      const before = await stored();
      expect(before).toEqual({
        name: body.name,
        markets: [{ market_id: market.id, roles: ['reporter'] }],
        codes: [{ code_id: code!.id }],
        reporter: company.id,
      });
      return { company, body, before, stored };
    }

    it('when a key is misspelt, then 422 naming the key, and the name, markets, codes and users are unchanged', async () => {
      const { company, body, before, stored } = await held();
      const { markets, ...rest } = body;
      const res = await put(company.id, { ...rest, name: 'Renamed AB', markts: markets });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        message: 'The markts field is not allowed.',
        errors: { markts: ['The markts field is not allowed.'], markets: ['The markets field is required.'] },
      });
      expect(await stored()).toEqual(before);
    });

    it('when the markets are left out, then 422 "The markets field is required." and the markets are kept', async () => {
      const { company, body, before, stored } = await held();
      const { markets: _left, ...rest } = body;
      const res = await put(company.id, { ...rest, name: 'Renamed AB' });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ message: 'The markets field is required.', errors: { markets: ['The markets field is required.'] } });
      expect(await stored()).toEqual(before);
    });

    it("when a market's roles are left out or it holds an unknown key, then 422 on that market's field, and nothing changes", async () => {
      const { company, body, before, stored } = await held();
      const [market] = body.markets as { market_id: number }[];
      const res = await put(company.id, { ...body, markets: [{ market_id: market!.market_id, role: 'viewer' }] });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({ 'markets.0.role': ['The role field is not allowed.'], 'markets.0.roles': ['The roles field is required.'] });
      expect(await stored()).toEqual(before);
    });

    it('when the whole form is sent, then it is saved (the lists as sent)', async () => {
      const { company, body, stored } = await held();
      const res = await put(company.id, { ...body, code_ids: [], user_ids: [] });
      expect(res.statusCode).toBe(200);
      expect(await stored()).toMatchObject({ codes: [], reporter: null });
    });
  });
});
