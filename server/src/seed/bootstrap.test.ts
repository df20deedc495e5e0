import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, XHR } from '../../test/helpers.ts';
import { bootstrapAdmin } from './bootstrap.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SEED: 'none' });
});
afterAll(async () => {
  await t?.close();
});

describe('administrator bootstrap (ADMIN_EMAIL, ADMIN_PASSWORD)', () => {
  it('when the e-mail has no account, then a super-admin is created once and keeps its password on restart', async () => {
    expect(await bootstrapAdmin(t.db, 'Owner@Example.test', 'first-password')).toBe('created');
    expect(await bootstrapAdmin(t.db, 'owner@example.test', 'second-password')).toBe('exists');
    const login = (password: string) =>
      t.app.inject({ method: 'POST', url: '/api/v1/auth/login', headers: XHR, payload: { email: 'owner@example.test', password } });
    expect((await login('first-password')).statusCode).toBe(200);
    expect((await login('second-password')).statusCode).toBe(422);
    const cookie = `mss_session=${(await login('first-password')).cookies[0]!.value}`;
    const me = await t.app.inject({ url: '/api/v1/users/me', headers: { cookie } });
    expect(me.json().data).toMatchObject({ roles: [{ name: 'super-admin' }], organization: null, organizations: [] });
  });
});
