import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  createCompany,
  createMarket,
  createOrganization,
  createTestApp,
  createUser,
  PASSWORD,
  signIn,
  XHR,
  type TestApp,
  userForm,
} from '../../../test/helpers.ts';
import { companyOrganizations, sessions, userMarkets, userRoles, users } from '../../db/schema.ts';

// A user who belongs to organizations A and B must not be taken over by an administrator of A
// alone (docs/decisions.md "Shared people"). The person (e-mail, password, names, phone, language,
// company, roles, disabled) belongs to every organization; A's part (membership, A's markets) is A's.

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const url = '/api/v1/admin/users';
/** A user's form as the web sends it, for a user made by createUser (no phone, company or markets). */
const whole = userForm();
const REFUSAL = 'This user also belongs to another organization: only an administrator of every organization the user belongs to can change the';

/** Organizations A and B, an administrator of A only, and a viewer who belongs to both. */
async function sharedWorld() {
  const orgA = await createOrganization(t.db);
  const orgB = await createOrganization(t.db);
  const marketA = await createMarket(t.db, orgA.id);
  const marketB = await createMarket(t.db, orgB.id);
  const adminA = await createUser(t.db, { roles: ['admin'], organizationIds: [orgA.id] });
  const shared = await createUser(t.db, { roles: ['viewer'], organizationIds: [orgA.id, orgB.id], marketIds: [marketA.id, marketB.id] });
  const headersA = { cookie: await signIn(t.app, adminA.email), ...XHR };
  const unchanged = { ...whole, email: shared.email, roles: ['viewer'], market_ids: [marketA.id] };
  return { orgA, orgB, marketA, marketB, adminA, shared, headersA, unchanged };
}

describe('a user shared by two organizations', () => {
  it("when an administrator of A changes the shared user's password, then 403, the password stays, and signing in to B with the new one fails", async () => {
    const w = await sharedWorld();
    const res = await t.app.inject({
      method: 'PUT',
      url: `${url}/${w.shared.id}`,
      headers: w.headersA,
      payload: { ...w.unchanged, password: 'taken-over-123', password_confirmation: 'taken-over-123' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: `${REFUSAL} password.`, errors: { password: [`${REFUSAL} password.`] } });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: XHR,
      payload: { email: w.shared.email, password: 'taken-over-123', organization: w.orgB.uuid },
    });
    expect(login.statusCode).toBe(422);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/v1/auth/login',
          headers: XHR,
          payload: { email: w.shared.email, password: PASSWORD, organization: w.orgB.uuid },
        })
      ).statusCode,
    ).toBe(200);
  });

  it('when an administrator of A makes a shared viewer an administrator, changes the e-mail, disables them or gives them a company, then 403 naming each field and nothing changes', async () => {
    const w = await sharedWorld();
    const company = await createCompany(t.db, []);
    await t.db.insert(companyOrganizations).values({ company_id: company.id, organization_id: w.orgA.id });
    const attempts: [Record<string, unknown>, string, string][] = [
      [{ roles: ['admin'] }, 'roles', 'roles'],
      [{ email: 'attacker@example.test' }, 'email', 'e-mail address'],
      [{ disabled: true }, 'disabled', 'disabled state'],
      [{ company_id: company.id }, 'company_id', 'company'],
      [{ first_name: 'Mallory' }, 'first_name', 'first name'],
      [{ locale: 'sv-SE' }, 'locale', 'language'],
    ];
    for (const [change, field, name] of attempts) {
      const res = await t.app.inject({ method: 'PUT', url: `${url}/${w.shared.id}`, headers: w.headersA, payload: { ...w.unchanged, ...change } });
      expect(res.statusCode, field).toBe(403);
      expect(res.json().errors, field).toEqual({ [field]: [`${REFUSAL} ${name}.`] });
    }
    const [stored] = await t.db.select().from(users).where(eq(users.id, w.shared.id));
    expect(stored).toMatchObject({ email: w.shared.email, first_name: 'Test', disabled_at: null, company_id: null, locale: 'en-US' });
    expect(await t.db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.user_id, w.shared.id))).toEqual([{ role: 'viewer' }]);
  });

  it("when an administrator of A changes only A's part (A's markets), then 200 and B's markets stay", async () => {
    const w = await sharedWorld();
    const marketA2 = await createMarket(t.db, w.orgA.id);
    const res = await t.app.inject({
      method: 'PUT',
      url: `${url}/${w.shared.id}`,
      headers: w.headersA,
      payload: { ...w.unchanged, market_ids: [marketA2.id] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ person_editable: false, other_organizations: 1, markets: [expect.objectContaining({ id: marketA2.id })] });
    const kept = await t.db.select({ id: userMarkets.market_id }).from(userMarkets).where(eq(userMarkets.user_id, w.shared.id));
    expect(kept.map((m) => m.id).sort()).toEqual([w.marketB.id, marketA2.id].sort());
  });

  it('when the administrator administers both organizations, then they may change the person', async () => {
    const w = await sharedWorld();
    const both = await createUser(t.db, { roles: ['admin'], organizationIds: [w.orgA.id, w.orgB.id] });
    const headers = { cookie: await signIn(t.app, both.email, PASSWORD, w.orgA.uuid), ...XHR };
    const shown = await t.app.inject({ url: `${url}/${w.shared.id}`, headers });
    expect(shown.json().data).toMatchObject({ person_editable: true, other_organizations: 1 });
    const res = await t.app.inject({
      method: 'PUT',
      url: `${url}/${w.shared.id}`,
      headers,
      payload: { ...w.unchanged, first_name: 'Renamed', roles: ['viewer', 'reporter'] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ first_name: 'Renamed', roles: [{ name: 'reporter' }, { name: 'viewer' }] });
  });

  it("when an administrator of A takes a shared user into or out of a company through the company's form, then 403 and the user's company stays", async () => {
    const w = await sharedWorld();
    const company = await createCompany(t.db, []);
    await t.db.insert(companyOrganizations).values({ company_id: company.id, organization_id: w.orgA.id });
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/companies/${company.id}`,
      headers: w.headersA,
      payload: { name: company.name, disabled_at: null, organization_ids: [], markets: [], code_ids: [], user_ids: [w.shared.id] },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().errors).toEqual({ user_ids: [`${REFUSAL} company.`] });
    const [stored] = await t.db.select({ company_id: users.company_id }).from(users).where(eq(users.id, w.shared.id));
    expect(stored!.company_id).toBeNull();
  });

  it("when an administrator of A renames or disables a company that B shares, then 403; A's own company may be renamed", async () => {
    const w = await sharedWorld();
    const company = await createCompany(t.db, []);
    await t.db.insert(companyOrganizations).values([
      { company_id: company.id, organization_id: w.orgA.id },
      { company_id: company.id, organization_id: w.orgB.id },
    ]);
    const body = { name: company.name, disabled_at: null, organization_ids: [], markets: [], code_ids: [], user_ids: [] };
    const shown = await t.app.inject({ url: `/api/v1/companies/${company.id}`, headers: w.headersA });
    expect(shown.json().data.company_editable).toBe(false);
    const renamed = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/companies/${company.id}`,
      headers: w.headersA,
      payload: { ...body, name: 'Taken over' },
    });
    expect(renamed.statusCode).toBe(403);
    expect(renamed.json().message).toBe(
      'This company also belongs to another organization: only an administrator of every organization the company belongs to can change the name.',
    );
    const disabled = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/companies/${company.id}`,
      headers: w.headersA,
      payload: { ...body, disabled_at: new Date().toISOString() },
    });
    expect(disabled.statusCode).toBe(403);
    const own = await createCompany(t.db, []);
    await t.db.insert(companyOrganizations).values({ company_id: own.id, organization_id: w.orgA.id });
    const ok = await t.app.inject({ method: 'PUT', url: `/api/v1/companies/${own.id}`, headers: w.headersA, payload: { ...body, name: 'Renamed own' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.company_editable).toBe(true);
  });
});

describe('removing a membership ends the sessions in that organization', () => {
  it("when an administrator of A deletes a shared user, then they leave A only: A's session and token end at once, B's go on", async () => {
    const w = await sharedWorld();
    const inA = { cookie: await signIn(t.app, w.shared.email, PASSWORD, w.orgA.uuid), ...XHR };
    const inB = { cookie: await signIn(t.app, w.shared.email, PASSWORD, w.orgB.uuid), ...XHR };
    const token = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/token',
      headers: XHR,
      payload: { email: w.shared.email, password: PASSWORD, organization: w.orgA.uuid, device_name: 'probe' },
    });
    const bearer = { authorization: `Bearer ${token.json().data.token}` };
    // Both work (and are cached) before the removal.
    for (const headers of [inA, inB, bearer]) expect((await t.app.inject({ url: '/api/v1/users/me', headers })).statusCode).toBe(200);

    expect((await t.app.inject({ method: 'DELETE', url: `${url}/${w.shared.id}`, headers: w.headersA })).statusCode).toBe(204);

    expect((await t.app.inject({ url: '/api/v1/users/me', headers: inA })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh', headers: inA })).statusCode).toBe(401);
    expect((await t.app.inject({ url: '/api/v1/users/me', headers: bearer })).statusCode).toBe(401);
    const me = await t.app.inject({ url: '/api/v1/users/me', headers: inB });
    expect(me.statusCode).toBe(200);
    expect(me.json().data.organizations).toEqual([{ uuid: w.orgB.uuid, name: w.orgB.name }]);
    const rows = await t.db
      .select({ organization_id: sessions.organization_id, revoked_at: sessions.revoked_at })
      .from(sessions)
      .where(eq(sessions.user_id, w.shared.id));
    expect(rows.filter((r) => r.organization_id === w.orgA.id).every((r) => r.revoked_at !== null)).toBe(true);
    expect(rows.filter((r) => r.organization_id === w.orgB.id).every((r) => r.revoked_at === null)).toBe(true);
  });

  it("when a super-admin takes an administrator out of B, then the old cookie can no longer list B's users, create administrators or refresh", async () => {
    const w = await sharedWorld();
    const adminAB = await createUser(t.db, { roles: ['admin'], organizationIds: [w.orgA.id, w.orgB.id] });
    const inB = { cookie: await signIn(t.app, adminAB.email, PASSWORD, w.orgB.uuid), ...XHR };
    expect((await t.app.inject({ url, headers: inB })).statusCode).toBe(200);
    const superAdmin = await createUser(t.db, { roles: ['super-admin'] });
    const superHeaders = { cookie: await signIn(t.app, superAdmin.email), ...XHR };
    const edit = await t.app.inject({
      method: 'PUT',
      url: `${url}/${adminAB.id}`,
      headers: superHeaders,
      payload: { ...whole, email: adminAB.email, roles: ['admin'], organization_ids: [w.orgA.id] },
    });
    expect(edit.statusCode).toBe(200);
    expect((await t.app.inject({ url, headers: inB })).statusCode).toBe(401);
    const create = await t.app.inject({
      method: 'POST',
      url,
      headers: inB,
      payload: { ...whole, email: 'new-admin@example.test', password: 'a-good-password', password_confirmation: 'a-good-password', roles: ['admin'] },
    });
    expect(create.statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh', headers: inB })).statusCode).toBe(401);
  });
});
