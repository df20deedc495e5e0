import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { createOrganization, createTestApp, createUser, PASSWORD, signIn, type TestApp, userForm, XHR } from '../../test/helpers.ts';
import { sessions, userOrganizations } from '../db/schema.ts';
import { hashToken } from './passwords.ts';

// What a session may still do after the user's situation changed, how long it lives, and when
// the CSRF header may be left out (two findings of the security probe).

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SESSION_LIFETIME_SECONDS: '3600', SESSION_ABSOLUTE_LIFETIME_HOURS: '12' });
});
afterAll(async () => {
  await t?.close();
});

const me = (headers: Record<string, string>) => t.app.inject({ url: '/api/v1/users/me', headers });
const refresh = (headers: Record<string, string>) => t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh', headers });

async function member(roles: NonNullable<Parameters<typeof createUser>[1]>['roles'] = ['admin']) {
  const org = await createOrganization(t.db);
  const user = await createUser(t.db, { roles, organizationIds: [org.id] });
  const cookie = await signIn(t.app, user.email);
  return { org, user, headers: { cookie, ...XHR } };
}

async function tokenFor(email: string) {
  const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/token', headers: XHR, payload: { email, password: PASSWORD, device_name: 'probe' } });
  return res.json().data.token as string;
}

describe('every request checks the session against the user as they are now', () => {
  it('when the membership is removed outside the API (an operator in SQL), then the session is refused within the cache lifetime and revoked', async () => {
    const m = await member();
    expect((await me(m.headers)).statusCode).toBe(200);
    await t.db.delete(userOrganizations).where(and(eq(userOrganizations.user_id, m.user.id), eq(userOrganizations.organization_id, m.org.id)));
    // Nothing went through the API, so only the cache's 2-second lifetime bounds it.
    await new Promise((r) => setTimeout(r, 2100));
    expect((await t.app.inject({ url: '/api/v1/admin/users', headers: m.headers })).statusCode).toBe(401);
    expect((await refresh(m.headers)).statusCode).toBe(401);
    const [session] = await t.db.select({ revoked_at: sessions.revoked_at }).from(sessions).where(eq(sessions.user_id, m.user.id));
    expect(session!.revoked_at).not.toBeNull();
  });

  it('when an administrator disables a signed-in user, then their very next request is 401', async () => {
    const admin = await member();
    const user = await createUser(t.db, { roles: ['viewer'], organizationIds: [admin.org.id] });
    const headers = { cookie: await signIn(t.app, user.email), ...XHR };
    expect((await me(headers)).statusCode).toBe(200);
    const res = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/admin/users/${user.id}`,
      headers: admin.headers,
      payload: userForm({ email: user.email, roles: ['viewer'], disabled: true }),
    });
    expect(res.statusCode).toBe(200);
    expect((await me(headers)).statusCode).toBe(401);
  });

  it('when an administrator changes a signed-in user’s roles, then the very next request has the new abilities', async () => {
    const admin = await member();
    const user = await createUser(t.db, { roles: ['viewer'], organizationIds: [admin.org.id] });
    const headers = { cookie: await signIn(t.app, user.email), ...XHR };
    expect((await t.app.inject({ url: '/api/v1/admin/users', headers })).statusCode).toBe(403);
    const promote = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/admin/users/${user.id}`,
      headers: admin.headers,
      payload: userForm({ email: user.email, roles: ['admin'], disabled: false }),
    });
    expect(promote.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/v1/admin/users', headers })).statusCode).toBe(200);
    const demote = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/admin/users/${user.id}`,
      headers: admin.headers,
      payload: userForm({ email: user.email, roles: ['viewer'], disabled: false }),
    });
    expect(demote.statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/v1/admin/users', headers })).statusCode).toBe(403);
  });
});

describe('the absolute lifetime of a browser session (12 hours here)', () => {
  it('when a session signed in 11 h 50 min ago refreshes, then it is extended only to its absolute end', async () => {
    const m = await member();
    await t.db
      .update(sessions)
      .set({ created_at: sql`now() - interval '11 hours 50 minutes'` })
      .where(eq(sessions.user_id, m.user.id));
    const res = await refresh(m.headers);
    expect(res.statusCode).toBe(200);
    const expiresIn = res.json().data.expires_in as number;
    expect(expiresIn).toBeGreaterThan(590);
    expect(expiresIn).toBeLessThanOrEqual(600);
  });

  it('when a session signed in more than 12 hours ago, kept alive by refreshes, is used or refreshed, then 401 and the user signs in again', async () => {
    const m = await member();
    await t.db
      .update(sessions)
      .set({ created_at: sql`now() - interval '12 hours 1 second'`, expires_at: sql`now() + interval '1 hour'` })
      .where(eq(sessions.user_id, m.user.id));
    expect((await me(m.headers)).statusCode).toBe(401);
    expect((await refresh(m.headers)).statusCode).toBe(401);
    const again = { cookie: await signIn(t.app, m.user.email), ...XHR };
    expect((await me(again)).statusCode).toBe(200);
  });

  it('when an integration token is older than 12 hours, then it still works (it has its own lifetime)', async () => {
    const m = await member();
    const token = await tokenFor(m.user.email);
    await t.db
      .update(sessions)
      .set({ created_at: sql`now() - interval '13 hours'` })
      .where(and(eq(sessions.user_id, m.user.id), eq(sessions.kind, 'token')));
    expect((await me({ authorization: `Bearer ${token}` })).statusCode).toBe(200);
  });
});

describe('CSRF: only a request that a valid bearer token authenticates may leave out X-Requested-With', () => {
  it('when a cross-site form posts with the victim’s cookie and an invalid bearer token, then 403 and the session stays', async () => {
    const m = await member();
    for (const authorization of ['Bearer not-a-token', 'Bearer a b', 'Bearer', 'Basic abc']) {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: { cookie: m.headers.cookie, authorization } });
      expect(res.statusCode, authorization).toBe(403);
      const create = await t.app.inject({
        method: 'POST',
        url: '/api/v1/admin/users',
        headers: { cookie: m.headers.cookie, authorization },
        payload: { email: `csrf-${Math.random()}@example.test`, password: 'a-good-password', password_confirmation: 'a-good-password', roles: ['admin'] },
      });
      expect(create.statusCode, authorization).toBe(403);
    }
    expect((await me(m.headers)).statusCode).toBe(200);
  });

  it('when a request sends an Authorization header, then its cookie is never used instead', async () => {
    const m = await member();
    for (const authorization of ['Bearer not-a-token', 'Bearer a b', 'Basic abc']) {
      const res = await me({ cookie: m.headers.cookie, authorization });
      expect(res.statusCode, authorization).toBe(401);
      expect(res.json(), authorization).toEqual({ message: 'Invalid token.' });
    }
  });

  it('when a valid bearer token comes without X-Requested-With, then the change is made', async () => {
    const m = await member();
    const token = await tokenFor(m.user.email);
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh', headers: { authorization: `Bearer ${token}` } });
    expect(res.statusCode).toBe(200);
    // The scheme's letter case does not matter (RFC 7235).
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh', headers: { authorization: `bearer ${token}` } })).statusCode).toBe(200);
  });
});

describe('docs/product.md §8 "Invalid token.": a bearer token that names no live session', () => {
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  it('when a bearer token is unknown, malformed, revoked or expired, then 401 "Invalid token."; without one, "You are not signed in."', async () => {
    const m = await member();
    const revoked = await tokenFor(m.user.email);
    const expired = await tokenFor(m.user.email);
    await t.db
      .update(sessions)
      .set({ revoked_at: sql`now()` })
      .where(eq(sessions.token_hash, hashToken(revoked)));
    await t.db
      .update(sessions)
      .set({ expires_at: sql`now() - interval '1 second'` })
      .where(eq(sessions.token_hash, hashToken(expired)));
    const cookieValue = m.headers.cookie.slice('mss_session='.length);
    const cases: Record<string, Record<string, string>> = {
      unknown: bearer('no-such-token'),
      malformed: { authorization: 'Bearer a b' },
      'another scheme': { authorization: 'Basic abc' },
      revoked: bearer(revoked),
      expired: bearer(expired),
      // A session cookie's value is not a token (each credential only in its own channel).
      'a cookie sent as a token': bearer(cookieValue),
    };
    for (const [name, headers] of Object.entries(cases)) {
      // The refresh with X-Requested-With: without it, a state-changing request with an invalid token is the CSRF check's 403.
      for (const res of [await me(headers), await refresh({ ...headers, ...XHR }), await t.app.inject({ url: '/api/v1/admin/users', headers })]) {
        expect(res.statusCode, name).toBe(401);
        expect(res.json(), name).toEqual({ message: 'Invalid token.' });
      }
    }
    const anonymous = await me({});
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ message: 'You are not signed in.' });
  });
});
