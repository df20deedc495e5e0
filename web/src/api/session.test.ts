import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, makeUser } from '../test/fake-api.ts';
import { http } from './http.ts';
import { queryClient } from './query-client.ts';
import {
  LOGOUT_SIGNAL_KEY,
  SESSION_CHANNEL,
  getSession,
  isRefreshDue,
  isSessionValid,
  logout,
  readTokenTimes,
  replacingSession,
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

  it('when a request sent with the session being replaced (another organization) comes back 401, then nobody is signed out and the new session is not logged out', async () => {
    const api = fakeApi()
      .on('GET', 'users/me/notifications', { status: 401, body: { message: 'You are not signed in.' }, delay: 50 })
      .on('POST', 'auth/organization', { status: 200, body: { data: { expires_in: LIFETIME_S } }, delay: 20 })
      .on('POST', 'auth/logout', { status: 204 });
    signIn();
    // Sent before the switch; its session ends on the server before its answer comes.
    const before = http.get('users/me/notifications');
    const rejected = expect(before).rejects.toMatchObject({ status: 401 });
    const switched = replacingSession(() => http.post('auth/organization', { organization: 'b' }));
    await vi.advanceTimersByTimeAsync(60);
    await switched;
    await rejected;
    expect(getSession().user).not.toBeNull();
    expect(api.callsTo('POST', 'auth/logout')).toHaveLength(0);
    expect(navigate).not.toHaveBeenCalled();
    // A 401 to a request of the new session still signs out.
    api.on('GET', 'markets', { status: 401, body: { message: 'You are not signed in.' } });
    await expect(http.get('markets')).rejects.toMatchObject({ status: 401 });
    expect(getSession().user).toBeNull();
    expect(api.callsTo('POST', 'auth/logout')).toHaveLength(1);
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
