import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { can } from '@mss/contracts/abilities';
import { fakeApi, globalAbility, makeUser } from '../test/fake-api.ts';
import { loadUser, login } from './auth.ts';
import { http } from './http.ts';
import { queryClient } from './query-client.ts';
import {
  LOGOUT_SIGNAL_KEY,
  SESSION_CHANNEL,
  TOKEN_EXPIRY_KEY,
  TOKEN_LIFETIME_KEY,
  abilitySubject,
  getSession,
  isRefreshDue,
  isSessionValid,
  logout,
  readTokenTimes,
  resetSessionForTests,
  setNavigator,
  setSession,
  startSessionSync,
  storeTokenTimes,
} from './session.ts';
import { ApiError } from './transport.ts';

const T0 = new Date('2026-03-02T08:00:00Z').getTime();
const LIFETIME_S = 600; // 10 minutes: refresh due after 5 minutes

/** Settles pending promise callbacks without moving the fake clock. */
const flush = () => vi.advanceTimersByTimeAsync(0);

let navigate: ReturnType<typeof vi.fn<(path: string) => void>>;

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
  navigate = vi.fn<(path: string) => void>();
  setNavigator(navigate);
});

function signIn() {
  storeTokenTimes(LIFETIME_S);
  setSession({ user: makeUser(), abilities: [] });
}

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

describe('refresh timing', () => {
  it('when less than half the lifetime has passed, then no refresh is made; just after half, one refresh comes first', async () => {
    const api = fakeApi()
      .on('GET', 'markets', { body: { data: [] } })
      .on('POST', 'auth/refresh', { body: { data: { expires_in: LIFETIME_S } } });
    signIn();

    vi.setSystemTime(T0 + 300_000); // exactly half: not yet due
    expect(isRefreshDue()).toBe(false);
    await http.get('markets');
    expect(api.calls.map((c) => c.path)).toEqual(['markets']);

    vi.setSystemTime(T0 + 300_001);
    expect(isRefreshDue()).toBe(true);
    await http.get('markets');
    expect(api.calls.map((c) => c.path)).toEqual(['markets', 'auth/refresh', 'markets']);
    expect(readTokenTimes()).toEqual({ lifetime: 600_000, expiry: T0 + 300_001 + 600_000 });
    expect(isRefreshDue()).toBe(false);
  });

  it('when several requests find a refresh due, then only one refresh runs and the others wait, polling every 200 ms', async () => {
    const api = fakeApi()
      .on('POST', 'auth/refresh', { body: { data: { expires_in: LIFETIME_S } }, delay: 500 })
      .on('GET', 'a', { body: { data: 'a' } })
      .on('GET', 'b', { body: { data: 'b' } })
      .on('GET', 'c', { body: { data: 'c' } });
    signIn();
    vi.setSystemTime(T0 + 400_000);
    const started = Date.now();

    const requests = [http.get('a'), http.get('b'), http.get('c')];
    await flush();
    expect(api.callsTo('POST', 'auth/refresh')).toHaveLength(1);
    expect(api.calls).toHaveLength(1);

    await vi.advanceTimersByTimeAsync(500); // the refresh answers; its own request goes on at once
    expect(api.callsTo('GET', 'a').map((c) => c.at - started)).toEqual([500]);
    expect(api.callsTo('GET', 'b')).toHaveLength(0);

    await vi.advanceTimersByTimeAsync(99);
    expect(api.callsTo('GET', 'b')).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1); // the waiting requests' third poll, at 600 ms
    expect(api.callsTo('GET', 'b').map((c) => c.at - started)).toEqual([600]);
    expect(api.callsTo('GET', 'c').map((c) => c.at - started)).toEqual([600]);

    await expect(Promise.all(requests)).resolves.toEqual([{ data: 'a' }, { data: 'b' }, { data: 'c' }]);
    expect(api.callsTo('POST', 'auth/refresh')).toHaveLength(1);
  });

  it('when the refresh fails, then the failure reaches the caller and the requests that waited for it, and nothing is sent', async () => {
    const api = fakeApi()
      .on('POST', 'auth/refresh', { status: 500, body: { message: 'Something went wrong, try again or contact support.' }, delay: 300 })
      .on('GET', 'a', { body: { data: 'a' } })
      .on('GET', 'b', { body: { data: 'b' } });
    signIn();
    vi.setSystemTime(T0 + 400_000);

    const first = http.get('a');
    const waiting = http.get('b');
    const firstResult = expect(first).rejects.toMatchObject({ status: 500, message: 'Something went wrong, try again or contact support.' });
    const waitingResult = expect(waiting).rejects.toBeInstanceOf(ApiError);
    await vi.advanceTimersByTimeAsync(400);
    await firstResult;
    await waitingResult;

    expect(api.calls.map((c) => c.path)).toEqual(['auth/refresh']);
    // A server error is not a signed-out answer: the session stays.
    expect(getSession().user).not.toBeNull();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('when the refresh answers 401, then the user is signed out and the caller still gets the error', async () => {
    const api = fakeApi()
      .on('POST', 'auth/refresh', { status: 401, body: { message: 'You are not signed in.' } })
      .on('POST', 'auth/logout', { status: 204 });
    signIn();
    vi.setSystemTime(T0 + 400_000);

    await expect(http.get('a')).rejects.toMatchObject({ status: 401 });
    expect(getSession().user).toBeNull();
    expect(readTokenTimes()).toBeNull();
    expect(api.callsTo('POST', 'auth/logout')).toHaveLength(1);
    expect(navigate).toHaveBeenCalledWith('/login');
  });
});

describe('401 answers', () => {
  it('when a request gets 401, then the user, abilities, times and query cache are cleared, logout is posted, the app moves to /login and the error is passed on', async () => {
    const api = fakeApi()
      .on('GET', 'markets', { status: 401, body: { message: 'You are not signed in.' } })
      .on('POST', 'auth/logout', { status: 204 });
    signIn();
    queryClient.setQueryData(['markets'], ['cached']);

    await expect(http.get('markets')).rejects.toMatchObject({ status: 401, message: 'You are not signed in.' });

    expect(getSession()).toEqual({ user: null, abilities: null });
    expect(readTokenTimes()).toBeNull();
    expect(queryClient.getQueryData(['markets'])).toBeUndefined();
    expect(api.callsTo('POST', 'auth/logout')).toHaveLength(1);
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/login');
  });

  it('when the app is already on /login, then a 401 signs out without navigating', async () => {
    fakeApi()
      .on('GET', 'markets', { status: 401, body: { message: 'You are not signed in.' } })
      .on('POST', 'auth/logout', { status: 204 });
    signIn();
    window.history.replaceState(null, '', '/login');

    await expect(http.get('markets')).rejects.toMatchObject({ status: 401 });
    expect(getSession().user).toBeNull();
    expect(navigate).not.toHaveBeenCalled();
  });

  it('when other statuses come back, then the session stays', async () => {
    fakeApi().on('GET', 'markets', { status: 403, body: { message: 'Permission denied. Your user does not have permission to view this resource.' } });
    signIn();
    await expect(http.get('markets')).rejects.toMatchObject({ status: 403 });
    expect(getSession().user).not.toBeNull();
    expect(isSessionValid()).toBe(true);
  });
});

describe('logout', () => {
  let other: BroadcastChannel;
  beforeEach(() => {
    other = new BroadcastChannel(SESSION_CHANNEL);
  });
  afterEach(() => other.close());

  it('when the logout call fails, then it is ignored and the logout is still broadcast to the other tabs', async () => {
    const api = fakeApi().on('POST', 'auth/logout', { status: 500, body: { message: 'Something went wrong, try again or contact support.' } });
    signIn();
    const received = new Promise<unknown>((resolve) => other.addEventListener('message', (e) => resolve(e.data), { once: true }));

    await logout();

    expect(api.callsTo('POST', 'auth/logout')).toHaveLength(1);
    expect(readTokenTimes()).toBeNull();
    expect(getSession().user).toBeNull();
    await expect(received).resolves.toEqual({ type: 'logout' });
    expect(navigate).toHaveBeenCalledWith('/login');
  });

  it('when another tab broadcasts a logout, then this tab signs out without calling the server again', async () => {
    const api = fakeApi();
    signIn();
    const stop = startSessionSync();

    other.postMessage({ type: 'logout' });
    await vi.waitFor(() => expect(navigate).toHaveBeenCalledWith('/login'));

    expect(getSession().user).toBeNull();
    expect(api.callsTo('POST', 'auth/logout')).toHaveLength(0);
    stop();
  });

  it('when BroadcastChannel is missing, then the logout travels through a storage event', async () => {
    vi.stubGlobal('BroadcastChannel', undefined);
    resetSessionForTests();
    fakeApi().on('POST', 'auth/logout', { status: 204 });
    signIn();
    const stop = startSessionSync();

    await logout({ navigate: false });
    const signal = localStorage.getItem(LOGOUT_SIGNAL_KEY);
    expect(signal).not.toBeNull();

    // What another tab sees: the storage event of that key.
    signIn();
    window.dispatchEvent(new StorageEvent('storage', { key: LOGOUT_SIGNAL_KEY, newValue: signal }));
    await flush();
    expect(getSession().user).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/login');
    stop();
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
