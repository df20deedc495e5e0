import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCompany,
  createMarket,
  createOrganization,
  createTestApp,
  createUser,
  PASSWORD,
  signIn,
  signInAs,
  type TestApp,
  userForm,
} from '../../../test/helpers.ts';
import { eq } from 'drizzle-orm';
import { companyOrganizations, userMarkets, userRoles, users } from '../../db/schema.ts';

let t: TestApp;
let admin: Awaited<ReturnType<typeof signInAs>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signInAs(t, ['admin']);
});
afterAll(async () => {
  await t?.close();
});

const url = '/api/v1/admin/users';
const base = userForm({ first_name: 'Nina', last_name: 'New', password: 'a-good-password', password_confirmation: 'a-good-password' });
const post = (payload: Record<string, unknown>, headers = admin.headers) => t.app.inject({ method: 'POST', url, headers, payload });

describe('administration of users', () => {
  it('when an admin creates a user with roles, markets and company, then the user can sign in and is listed', async () => {
    const org = admin.organizationId!;
    const market = await createMarket(t.db, org, 'Sweden');
    const company = await createCompany(t.db, []);
    await t.db.insert(companyOrganizations).values({ company_id: company.id, organization_id: org });
    const res = await post({ ...base, email: 'nina@example.test', roles: ['reporter'], market_ids: [market.id], company_id: company.id });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({
      email: 'nina@example.test',
      name: 'Nina New',
      roles: [{ name: 'reporter' }],
      markets: [{ id: market.id }],
      company: { id: company.id },
      organizations: [{ id: org }],
      disabled_at: null,
    });
    expect(JSON.stringify(res.json())).not.toContain('password');
    await signIn(t.app, 'nina@example.test', 'a-good-password');
    const list = await t.app.inject({ url: `${url}?search=nina`, headers: admin.headers });
    expect(list.json().data.map((u: { email: string }) => u.email)).toEqual(['nina@example.test']);
  });

  it('when the e-mail is taken, badly formatted, or the password short or unconfirmed, then the catalogue messages', async () => {
    const existing = await createUser(t.db, { organizationIds: [admin.organizationId!] });
    expect((await post({ ...base, email: existing.email.toUpperCase() })).json().errors).toEqual({
      email: ['The email address is already in use by another account.'],
    });
    expect((await post({ ...base, email: 'nope' })).json().errors).toEqual({ email: ['The email address is badly formatted.'] });
    expect((await post({ ...base, email: 'short@example.test', password: 'short', password_confirmation: 'short' })).json().errors).toEqual({
      password: ['The password must be 8 characters long or more.'],
    });
    expect((await post({ ...base, email: 'mismatch@example.test', password_confirmation: 'something-else' })).json().errors).toEqual({
      password_confirmation: ['Passwords are not matching.'],
    });
  });

  it('when a super-admin is given an organization, then 422; an admin cannot give super-admin', async () => {
    const superAdmin = await signInAs(t, ['super-admin']);
    const org = await createOrganization(t.db);
    const res = await post({ ...base, email: 'sa@example.test', roles: ['super-admin'], organization_ids: [org.id] }, superAdmin.headers);
    expect(res.json().errors).toEqual({ organization_ids: ['A super-admin must not belong to any organization.'] });
    expect((await post({ ...base, email: 'sa@example.test', roles: ['super-admin'] }, superAdmin.headers)).statusCode).toBe(201);
    const byAdmin = await post({ ...base, email: 'sa2@example.test', roles: ['super-admin'] });
    expect(byAdmin.json().errors).toEqual({ roles: ['You cannot give the role super-admin.'] });
  });

  it('when a user is disabled, then their sessions end and they cannot sign in', async () => {
    const user = await createUser(t.db, { roles: ['viewer'], organizationIds: [admin.organizationId!] });
    const cookie = await signIn(t.app, user.email);
    const res = await t.app.inject({
      method: 'PUT',
      url: `${url}/${user.id}`,
      headers: admin.headers,
      payload: userForm({ email: user.email, roles: ['viewer'], disabled: true }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.disabled_at).not.toBeNull();
    expect((await t.app.inject({ url: '/api/v1/users/me', headers: { cookie } })).statusCode).toBe(401);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'x-requested-with': 'XMLHttpRequest' },
      payload: { email: user.email, password: PASSWORD },
    });
    expect(login.statusCode).toBe(403);
  });

  it('when a user of another organization is asked for, then 404; a list-users holder reads but cannot write', async () => {
    const otherOrg = await createOrganization(t.db);
    const stranger = await createUser(t.db, { organizationIds: [otherOrg.id] });
    // Another organization's user and an id nobody has answer alike: "The user could not be found." (docs/product.md §8).
    for (const id of [stranger.id, 2_000_000_000]) {
      for (const method of ['GET', 'PUT', 'DELETE'] as const) {
        const res = await t.app.inject({
          method,
          url: `${url}/${id}`,
          headers: admin.headers,
          ...(method === 'PUT' ? { payload: { ...base, email: `x${id}@example.test` } } : {}),
        });
        expect(res.statusCode, `${method} ${id}`).toBe(404);
        expect(res.json().message, `${method} ${id}`).toBe('The user could not be found.');
      }
    }
    const marketAdmin = await signInAs(t, ['market-admin'], { organizationId: admin.organizationId! });
    expect((await t.app.inject({ url, headers: marketAdmin.headers })).statusCode).toBe(200);
    expect((await post({ ...base, email: 'x@example.test' }, marketAdmin.headers)).statusCode).toBe(403);
    const viewer = await signInAs(t, ['viewer']);
    expect((await t.app.inject({ url, headers: viewer.headers })).statusCode).toBe(403);
  });

  it('when an admin saves a user of two organizations unchanged, then the other membership stays; deleting takes them out of this organization only', async () => {
    const otherOrg = await createOrganization(t.db);
    const shared = await createUser(t.db, { roles: ['viewer'], organizationIds: [admin.organizationId!, otherOrg.id] });
    const res = await t.app.inject({
      method: 'PUT',
      url: `${url}/${shared.id}`,
      headers: admin.headers,
      payload: userForm({ email: shared.email, roles: ['viewer'] }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      organizations: [expect.objectContaining({ id: admin.organizationId })],
      other_organizations: 1,
      person_editable: false,
    });
    const superAdmin = await signInAs(t, ['super-admin']);
    const full = await t.app.inject({ url: `${url}/${shared.id}`, headers: superAdmin.headers });
    expect(
      full
        .json()
        .data.organizations.map((o: { id: number }) => o.id)
        .sort(),
    ).toEqual([admin.organizationId, otherOrg.id].sort());
    expect(full.json().data).toMatchObject({ other_organizations: 0, person_editable: true });
    expect((await t.app.inject({ method: 'DELETE', url: `${url}/${shared.id}`, headers: admin.headers })).statusCode).toBe(204);
    expect((await t.app.inject({ url: `${url}/${shared.id}`, headers: admin.headers })).statusCode).toBe(404);
    const after = await t.app.inject({ url: `${url}/${shared.id}`, headers: superAdmin.headers });
    expect(after.json().data.organizations.map((o: { id: number }) => o.id)).toEqual([otherOrg.id]);
  });

  it('when a PUT leaves out the roles or misspells a key, then 422 naming the field, and the roles, markets and company stay', async () => {
    const org = admin.organizationId!;
    const market = await createMarket(t.db, org);
    const company = await createCompany(t.db, []);
    await t.db.insert(companyOrganizations).values({ company_id: company.id, organization_id: org });
    const user = await createUser(t.db, { roles: ['reporter'], organizationIds: [org], marketIds: [market.id], companyId: company.id });
    const stored = async () => ({
      company_id: (await t.db.select().from(users).where(eq(users.id, user.id)))[0]!.company_id,
      roles: (await t.db.select().from(userRoles).where(eq(userRoles.user_id, user.id))).map((r) => r.role),
      markets: (await t.db.select().from(userMarkets).where(eq(userMarkets.user_id, user.id))).map((m) => m.market_id),
    });
    const before = await stored();
    expect(before).toEqual({ company_id: company.id, roles: ['reporter'], markets: [market.id] });
    const put = (payload: Record<string, unknown>) => t.app.inject({ method: 'PUT', url: `${url}/${user.id}`, headers: admin.headers, payload });
    const { roles: _roles, ...withoutRoles } = userForm({ email: user.email, company_id: company.id, market_ids: [market.id] });
    const left = await put(withoutRoles);
    expect(left.statusCode).toBe(422);
    expect(left.json()).toEqual({ message: 'The roles field is required.', errors: { roles: ['The roles field is required.'] } });
    const { company_id: _company, ...withoutCompany } = userForm({ email: user.email, roles: ['reporter'], market_ids: [market.id] });
    const misspelt = await put({ ...withoutCompany, company: company.id });
    expect(misspelt.json()).toEqual({
      message: 'The company field is not allowed.',
      errors: { company: ['The company field is not allowed.'], company_id: ['The company field is required.'] },
    });
    expect(await stored()).toEqual(before);
  });

  it('when an admin deletes their own account, then 409; another user of theirs, 204', async () => {
    expect((await t.app.inject({ method: 'DELETE', url: `${url}/${admin.user.id}`, headers: admin.headers })).statusCode).toBe(409);
    const user = await createUser(t.db, { organizationIds: [admin.organizationId!] });
    expect((await t.app.inject({ method: 'DELETE', url: `${url}/${user.id}`, headers: admin.headers })).statusCode).toBe(204);
  });
});
