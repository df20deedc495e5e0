import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany, createMarket, createOrganization, createTestApp, createUser, signIn, type TestApp } from '../../../test/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('GET /users/me', () => {
  it('when not signed in, then 401', async () => {
    const res = await t.app.inject({ url: '/api/v1/users/me' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: 'You are not signed in.' });
  });

  it('when signed in, then the user with organization, markets of that organization, roles and company markets', async () => {
    const org = await createOrganization(t.db);
    const otherOrg = await createOrganization(t.db);
    const sweden = await createMarket(t.db, org.id, 'Sweden');
    const norway = await createMarket(t.db, org.id, 'Norway');
    const estonia = await createMarket(t.db, otherOrg.id, 'Estonia');
    const company = await createCompany(t.db, [
      { marketId: sweden.id, roles: ['company'] },
      { marketId: estonia.id, roles: ['viewer'] },
    ]);
    const user = await createUser(t.db, {
      roles: ['reporter'],
      organizationIds: [org.id, otherOrg.id],
      marketIds: [sweden.id, norway.id, estonia.id],
      companyId: company.id,
    });
    const cookie = await signIn(t.app, user.email, undefined, org.uuid);
    const res = await t.app.inject({ url: '/api/v1/users/me', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    const me = res.json().data;
    expect(me).toMatchObject({
      email: user.email,
      name: 'Test User',
      role: 'reporter',
      organization: { uuid: org.uuid, name: org.name },
      roles: [{ name: 'reporter' }],
    });
    expect(me.organizations).toHaveLength(2);
    expect(me.markets.map((m: { international_name: string }) => m.international_name)).toEqual(['Norway', 'Sweden']);
    expect(me.company.name).toBe(company.name);
    expect(me.company.markets).toEqual([
      expect.objectContaining({ market_id: sweden.id, roles: [{ name: 'company' }], abilities: ['view-company-reports', 'view-report-history'] }),
    ]);
    expect(JSON.stringify(me)).not.toContain('password');
  });
});

describe('GET /users/me/abilities', () => {
  it('when a market-admin asks, then global permissions and per-market abilities for their markets only', async () => {
    const org = await createOrganization(t.db);
    const sweden = await createMarket(t.db, org.id);
    const finland = await createMarket(t.db, org.id);
    const user = await createUser(t.db, { roles: ['market-admin'], organizationIds: [org.id], marketIds: [sweden.id] });
    const cookie = await signIn(t.app, user.email);
    const res = await t.app.inject({ url: '/api/v1/users/me/abilities', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    const abilities = res.json().data as { name: string; entity_id: number | null; entity_type: string | null }[];
    expect(abilities).toContainEqual({ name: 'list-users', entity_id: null, entity_type: null });
    expect(abilities).toContainEqual({ name: 'approve-reports', entity_id: sweden.id, entity_type: 'market' });
    expect(abilities.some((a) => a.entity_id === finland.id)).toBe(false);
    expect(abilities.some((a) => a.name === 'manage-users')).toBe(false);
  });

  it('when an admin asks, then the administration permissions, but not manage-releases', async () => {
    const org = await createOrganization(t.db);
    const user = await createUser(t.db, { roles: ['admin'], organizationIds: [org.id] });
    const cookie = await signIn(t.app, user.email);
    const names = (await t.app.inject({ url: '/api/v1/users/me/abilities', headers: { cookie } })).json().data.map((a: { name: string }) => a.name);
    expect(names).toEqual(expect.arrayContaining(['manage-users', 'manage-markets', 'manage-companies', 'manage-codes', 'manage-currency-conversion']));
    expect(names).toContain('manage-organizations');
    expect(names).not.toContain('manage-releases');
  });

  it('when a user acts only through company markets, then no direct abilities', async () => {
    const org = await createOrganization(t.db);
    const market = await createMarket(t.db, org.id);
    const company = await createCompany(t.db, [{ marketId: market.id, roles: ['company'] }]);
    const user = await createUser(t.db, { organizationIds: [org.id], companyId: company.id });
    const cookie = await signIn(t.app, user.email);
    const res = await t.app.inject({ url: '/api/v1/users/me/abilities', headers: { cookie } });
    expect(res.json()).toEqual({ data: [] });
  });
});
