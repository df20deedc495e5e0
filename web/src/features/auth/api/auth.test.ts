import { beforeEach, describe, expect, it, vi } from 'vitest';
import { can } from '@mss/contracts/abilities';
import { fakeApi, globalAbility, makeUser } from '../../../test/fake-api.ts';
import {
  TOKEN_EXPIRY_KEY,
  TOKEN_LIFETIME_KEY,
  abilitySubject,
  getSession,
  isSessionValid,
  readTokenTimes,
  setNavigator,
  storeTokenTimes,
} from '../../../api/session.ts';
import { loadUser, login } from './auth.ts';

// Signing in and loading the user (the session's own rules are api/session.test.ts).

const T0 = new Date('2026-03-02T08:00:00Z').getTime();
const LIFETIME_S = 600;

let navigate: ReturnType<typeof vi.fn<(path: string) => void>>;

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
  navigate = vi.fn<(path: string) => void>();
  setNavigator(navigate);
});

describe('stored token times', () => {
  it('when login succeeds, then lifetime and expiry are stored in milliseconds and the session is valid until the expiry', async () => {
    fakeApi()
      .on('POST', 'auth/login', { body: { data: { expires_in: 3600, must_choose_organization: false } } })
      .signedInAs(makeUser({ name: 'Rita Reporter' }), [globalAbility('view-codes')]);

    const result = await login({ email: 'reporter@demo.test', password: 'demo-password' });

    expect(result.status).toBe('signed-in');
    expect(localStorage.getItem(TOKEN_LIFETIME_KEY)).toBe('3600000');
    expect(localStorage.getItem(TOKEN_EXPIRY_KEY)).toBe(String(T0 + 3_600_000));
    expect(getSession().user?.name).toBe('Rita Reporter');
    vi.setSystemTime(T0 + 3_600_000 - 1);
    expect(isSessionValid()).toBe(true);
    vi.setSystemTime(T0 + 3_600_000);
    expect(isSessionValid()).toBe(false);
  });

  it('when the server asks for an organization, then no session is stored and the choice is handed back', async () => {
    const organizations = [
      { uuid: 'a', name: 'Nordic Sales Association' },
      { uuid: 'b', name: 'Baltic Sales Association' },
    ];
    const api = fakeApi().on('POST', 'auth/login', ({ body }) =>
      (body as { organization?: string }).organization
        ? { body: { data: { expires_in: 600, must_choose_organization: false } } }
        : { body: { data: { expires_in: 0, must_choose_organization: true, organizations } } },
    );
    api.signedInAs(makeUser(), []);

    const first = await login({ email: 'admin@demo.test', password: 'demo-password' });
    expect(first).toEqual({ status: 'choose-organization', organizations });
    expect(readTokenTimes()).toBeNull();
    expect(api.callsTo('GET', 'users/me')).toHaveLength(0);

    const second = await login({ email: 'admin@demo.test', password: 'demo-password', organization: 'b' });
    expect(second.status).toBe('signed-in');
    expect(api.callsTo('POST', 'auth/login')[1]!.body).toEqual({ email: 'admin@demo.test', password: 'demo-password', organization: 'b' });
  });

  it('when a login fails with 401, then it is only a failed login: no logout call and no navigation', async () => {
    const api = fakeApi().on('POST', 'auth/login', { status: 401, body: { message: 'The credentials provided are not valid.' } });

    await expect(login({ email: 'x@demo.test', password: 'nope' })).rejects.toMatchObject({
      status: 401,
      message: 'The credentials provided are not valid.',
    });
    expect(api.callsTo('POST', 'auth/logout')).toHaveLength(0);
    expect(navigate).not.toHaveBeenCalled();
  });
});

describe('loading the user', () => {
  it('when the user fetch fails, then it is logged and yields false', async () => {
    fakeApi().on('GET', 'users/me', { status: 500, body: { message: 'Something went wrong, try again or contact support.' } });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    storeTokenTimes(LIFETIME_S);

    await expect(loadUser()).resolves.toBe(false);
    expect(logged).toHaveBeenCalled();
    expect(getSession().user).toBeNull();
  });

  it('when the abilities fetch fails, then the abilities are null and every check is denied', async () => {
    fakeApi()
      .on('GET', 'users/me', { body: { data: makeUser() } })
      .on('GET', 'users/me/abilities', { status: 500, body: { message: 'Something went wrong, try again or contact support.' } });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    storeTokenTimes(LIFETIME_S);

    await expect(loadUser()).resolves.toBe(true);
    expect(getSession().user).not.toBeNull();
    expect(getSession().abilities).toBeNull();
    expect(can(abilitySubject(), 'view-codes')).toBe(false);
  });
});
