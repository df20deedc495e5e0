import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_MAX_ATTEMPTS } from '@mss/contracts/auth';
import { auditEntries, passwordResets, users } from '../../db/schema.ts';
import { hashToken } from '../../auth/passwords.ts';
import { base32Decode, stepAt, totpCode } from '../../auth/totp.ts';
import { createOrganization, createTestApp, createUser, PASSWORD, signIn, type TestApp, XHR } from '../../../test/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** The app's code for `secret` at a step from now (0: now, -1: the one before). */
const codeOf = (secret: string, offset = 0) => totpCode(base32Decode(secret), stepAt(Date.now()) + offset);
const login = (payload: object, remoteAddress = '10.9.0.1') =>
  t.app.inject({ method: 'POST', url: '/api/v1/auth/login', headers: XHR, payload, remoteAddress });

/** A user with two-factor sign-in turned on through the profile's routes: its secret and recovery codes. */
async function withTwoFactor(roles: ('admin' | 'reporter')[] = ['admin']) {
  const org = await createOrganization(t.db);
  const user = await createUser(t.db, { roles, organizationIds: [org.id] });
  const headers = { ...XHR, cookie: await signIn(t.app, user.email) };
  const setup = await t.app.inject({ method: 'POST', url: '/api/v1/users/me/two-factor/setup', headers });
  expect(setup.statusCode, setup.body).toBe(200);
  const { secret, otpauth_uri } = setup.json().data as { secret: string; otpauth_uri: string };
  expect(otpauth_uri).toContain(`secret=${secret}`);
  // Not on until a code confirms it: a wrong code is refused.
  expect((await t.app.inject({ method: 'POST', url: '/api/v1/users/me/two-factor/enable', headers, payload: { code: '000000' } })).statusCode).toBe(422);
  const enable = await t.app.inject({ method: 'POST', url: '/api/v1/users/me/two-factor/enable', headers, payload: { code: codeOf(secret, -1) } });
  expect(enable.statusCode, enable.body).toBe(200);
  const codes = enable.json().data.recovery_codes as string[];
  return { org, user, headers, secret, codes };
}

describe('two-factor sign-in', () => {
  it('when a user turns it on, then sign-in asks for the code after the password, a current code signs in once, and the profile says so', async () => {
    const { user, headers, secret, codes } = await withTwoFactor();
    expect(codes).toHaveLength(10);
    const status = await t.app.inject({ url: '/api/v1/users/me/two-factor', headers });
    expect(status.json().data).toMatchObject({ enabled: true, recovery_codes_left: 10 });
    // Turning it on twice is refused.
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/users/me/two-factor/setup', headers })).statusCode).toBe(409);

    // The password alone: no session, the code is asked.
    const first = await login({ email: user.email, password: PASSWORD });
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toMatchObject({ must_enter_code: true, must_choose_organization: false, expires_in: 0 });
    expect(first.cookies.find((c) => c.name === 'mss_session')).toBeUndefined();
    // A wrong password is still the same refusal as ever, whatever the code.
    expect((await login({ email: user.email, password: 'wrong-password', code: codeOf(secret) })).statusCode).toBe(422);
    // A wrong code.
    const wrong = await login({ email: user.email, password: PASSWORD, code: '123456' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.code).toEqual(['The code is not valid. Enter the current code from your authenticator app, or one of your recovery codes.']);
    // The current code: signed in.
    const code = codeOf(secret);
    const ok = await login({ email: user.email, password: PASSWORD, code });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.cookies.find((c) => c.name === 'mss_session')).toBeDefined();
    // The same code again (a replay, or an eavesdropper): refused.
    expect((await login({ email: user.email, password: PASSWORD, code })).statusCode).toBe(422);
    // An integration token asks for it too.
    const token = (payload: object) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/token',
        headers: XHR,
        payload: { email: user.email, password: PASSWORD, device_name: 'ERP', ...payload },
      });
    const noCode = await token({});
    expect(noCode.statusCode).toBe(422);
    expect(noCode.json().errors.code).toEqual(['Enter the code from your authenticator app.']);
    const next = codeOf(secret, 1);
    expect((await token({ code: next })).statusCode).toBe(201);

    // Failed sign-ins are by e-mail (a wrong password names nobody); the rest by the user.
    const trail = await t.db
      .select()
      .from(auditEntries)
      .where(sql`${auditEntries.user_id} = ${user.id} or ${auditEntries.email} = ${user.email}`);
    expect(trail.map((e) => e.action)).toContain('auth.two_factor_enabled');
    expect(trail.filter((e) => e.action === 'auth.sign_in_failed').map((e) => (e.details as { reason: string }).reason)).toEqual(
      expect.arrayContaining(['wrong_code', 'wrong_credentials']),
    );
    expect(JSON.stringify(trail)).not.toContain(secret);
  });

  it('when a recovery code is used, then it signs in once and never again; when wrong codes are guessed, then the throttle stops them as it stops passwords', async () => {
    const { user, codes } = await withTwoFactor();
    const ok = await login({ email: user.email, password: PASSWORD, code: codes[0]!.toUpperCase() });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await login({ email: user.email, password: PASSWORD, code: codes[0] })).statusCode).toBe(422);
    // Guessing codes with the right password: the password does not clear the count.
    for (let i = 0; i < LOGIN_MAX_ATTEMPTS; i++)
      expect((await login({ email: user.email, password: PASSWORD, code: '000000' }, '10.9.9.9')).statusCode).toBe(422);
    const throttled = await login({ email: user.email, password: PASSWORD, code: codes[1] }, '10.9.9.9');
    expect(throttled.statusCode).toBe(429);
  });

  it('when two requests bring the same code at once, then one signs in and the other is refused', async () => {
    const { user, secret } = await withTwoFactor();
    const code = codeOf(secret, 1);
    const answers = await Promise.all([login({ email: user.email, password: PASSWORD, code }), login({ email: user.email, password: PASSWORD, code })]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 422]);
  });

  it('when a user in two organizations signs in, then the code is asked first and still counts when the organization is chosen', async () => {
    const { user, org, secret } = await withTwoFactor();
    const other = await createOrganization(t.db);
    await t.db.execute(sql`insert into user_organizations (user_id, organization_id) values (${user.id}, ${other.id})`);
    const code = codeOf(secret, 1);
    const choose = await login({ email: user.email, password: PASSWORD, code });
    expect(choose.json().data).toMatchObject({ must_choose_organization: true });
    const [orgRow] = await t.db.execute<{ uuid: string }>(sql`select uuid::text from organizations where id = ${org.id}`).then((r) => r.rows);
    const chosen = await login({ email: user.email, password: PASSWORD, code, organization: orgRow!.uuid });
    expect(chosen.statusCode, chosen.body).toBe(200);
    expect(chosen.cookies.find((c) => c.name === 'mss_session')).toBeDefined();
  });

  it('when a reset link is used, then the code is asked too; turning it off needs the password and a code; a super-administrator can reset it for a lost device', async () => {
    const { user, headers, secret, codes } = await withTwoFactor();
    const token = 'reset-token-two-factor';
    await t.db.insert(passwordResets).values({ user_id: user.id, token_hash: hashToken(token), expires_at: new Date(Date.now() + 3600_000) });
    const reset = (payload: object) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/reset-password',
        headers: XHR,
        payload: { token, email: user.email, password: 'a-new-password', password_confirmation: 'a-new-password', ...payload },
      });
    expect((await reset({})).json().errors.code).toEqual(['Enter the code from your authenticator app.']);
    expect((await reset({ code: '999999' })).statusCode).toBe(422);
    expect((await reset({ code: codes[2] })).statusCode).toBe(200);

    // Off: a wrong password or a wrong code is refused; both right, it is off.
    const fresh = { ...XHR, cookie: await signIn(t.app, user.email, 'a-new-password').catch(() => '') };
    expect(fresh.cookie).toBe(''); // the password alone no longer signs in: a code is needed
    const disable = (payload: object, h = headers) => t.app.inject({ method: 'POST', url: '/api/v1/users/me/two-factor/disable', headers: h, payload });
    // The reset ended every session: sign in again with a code.
    const again = await login({ email: user.email, password: 'a-new-password', code: codeOf(secret, 1) });
    expect(again.statusCode, again.body).toBe(200);
    const h = { ...XHR, cookie: `mss_session=${again.cookies.find((c) => c.name === 'mss_session')!.value}` };
    expect((await disable({ password: 'wrong', code: codes[3] }, h)).statusCode).toBe(422);
    expect((await disable({ password: 'a-new-password', code: '000000' }, h)).statusCode).toBe(422);
    expect((await disable({ password: 'a-new-password', code: codes[3] }, h)).statusCode).toBe(204);
    expect((await t.app.inject({ url: '/api/v1/users/me/two-factor', headers: h })).json().data).toMatchObject({ enabled: false, recovery_codes_left: 0 });
    expect((await login({ email: user.email, password: 'a-new-password' })).cookies.find((c) => c.name === 'mss_session')).toBeDefined();

    // A lost device: only a super-administrator resets it, and it is in the user's organization's trail.
    const second = await withTwoFactor();
    const admin = await createUser(t.db, { roles: ['admin'], organizationIds: [second.org.id] });
    const adminHeaders = { ...XHR, cookie: await signIn(t.app, admin.email) };
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/admin/users/${second.user.id}/two-factor`, headers: adminHeaders })).statusCode).toBe(403);
    const root = await createUser(t.db, { roles: ['super-admin'] });
    const rootHeaders = { ...XHR, cookie: await signIn(t.app, root.email) };
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/admin/users/${second.user.id}/two-factor`, headers: rootHeaders })).statusCode).toBe(204);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/v1/admin/users/${second.user.id}/two-factor`, headers: rootHeaders })).statusCode).toBe(409);
    const [row] = await t.db.select().from(users).where(eq(users.id, second.user.id));
    expect(row).toMatchObject({ totp_secret: null, totp_enabled_at: null });
    const [entry] = await t.db.select().from(auditEntries).where(eq(auditEntries.action, 'auth.two_factor_reset'));
    expect(entry).toMatchObject({ user_id: root.id, organization_id: second.org.id, record_id: String(second.user.id) });
  });

  it('when the organization requires it, then an administrator without it reaches only the profile until they turn it on; a reporter is not asked', async () => {
    const org = await createOrganization(t.db);
    await t.db.execute(sql`insert into organization_settings (organization_id, key, value) values (${org.id}, 'require_two_factor', '1')`);
    const admin = await createUser(t.db, { roles: ['admin'], organizationIds: [org.id] });
    const reporter = await createUser(t.db, { roles: ['reporter'], organizationIds: [org.id] });
    const headers = { ...XHR, cookie: await signIn(t.app, admin.email) };
    const me = await t.app.inject({ url: '/api/v1/users/me', headers });
    expect(me.json().data.two_factor_required).toBe(true);
    const refused = await t.app.inject({ url: '/api/v1/admin/clusters', headers });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Your organization requires two-factor sign-in: turn it on on your profile first.');
    expect((await t.app.inject({ url: '/api/v1/users/me/two-factor', headers })).statusCode).toBe(200);
    // The reporter is not one who reads every member's figures.
    const reporterHeaders = { ...XHR, cookie: await signIn(t.app, reporter.email) };
    expect((await t.app.inject({ url: '/api/v1/users/me', headers: reporterHeaders })).json().data.two_factor_required).toBeUndefined();
    expect((await t.app.inject({ url: '/api/v1/reports', headers: reporterHeaders })).statusCode).toBe(200);

    // Turned on: everything the role allows answers again, in the same session.
    const { secret } = (await t.app.inject({ method: 'POST', url: '/api/v1/users/me/two-factor/setup', headers })).json().data as { secret: string };
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/users/me/two-factor/enable', headers, payload: { code: codeOf(secret) } })).statusCode).toBe(
      200,
    );
    expect((await t.app.inject({ url: '/api/v1/admin/clusters', headers })).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/v1/users/me', headers })).json().data.two_factor_required).toBeUndefined();
  });
});
