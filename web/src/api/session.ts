import { useSyncExternalStore } from 'react';
import type { Ability, AbilitySubject } from '@mss/contracts/abilities';
import type { User } from '@mss/contracts/users';
import { queryClient } from './query-client.ts';
import type { Answer } from './client.ts';
import { send, setLocaleProvider } from './transport.ts';
import { interfaceLocale } from './locale.ts';

/**
 * The session of docs/product.md §4: stored token times, the single-flight refresh, the signed-in user and
 * abilities, and logout (also across tabs). The cookie itself is httpOnly; the browser only
 * keeps the token lifetime and expiry, in milliseconds, to know when to refresh.
 */

export const TOKEN_LIFETIME_KEY = 'mss.token_lifetime';
export const TOKEN_EXPIRY_KEY = 'mss.token_expiry';
/** Written on logout when BroadcastChannel is unavailable; other tabs react to its `storage` event. */
export const LOGOUT_SIGNAL_KEY = 'mss.logout';
export const SESSION_CHANNEL = 'mss-session';
/** Requests that find a refresh running check again this often (docs/product.md §9). */
export const REFRESH_POLL_MS = 200;
export const LOGIN_PATH = '/login';

// ---------------------------------------------------------------------------------------------
// Stored token times
// ---------------------------------------------------------------------------------------------

export interface TokenTimes {
  lifetime: number;
  expiry: number;
}

export function storeTokenTimes(expiresInSeconds: number, now = Date.now()): TokenTimes {
  const lifetime = expiresInSeconds * 1000;
  const times = { lifetime, expiry: now + lifetime };
  localStorage.setItem(TOKEN_LIFETIME_KEY, String(times.lifetime));
  localStorage.setItem(TOKEN_EXPIRY_KEY, String(times.expiry));
  return times;
}

export function readTokenTimes(): TokenTimes | null {
  const lifetime = Number(localStorage.getItem(TOKEN_LIFETIME_KEY));
  const expiry = Number(localStorage.getItem(TOKEN_EXPIRY_KEY));
  if (!Number.isFinite(lifetime) || !Number.isFinite(expiry) || lifetime <= 0 || expiry <= 0) return null;
  return { lifetime, expiry };
}

export function clearTokenTimes(): void {
  localStorage.removeItem(TOKEN_LIFETIME_KEY);
  localStorage.removeItem(TOKEN_EXPIRY_KEY);
}

/** The session is valid only while the stored expiry is in the future. */
export function isSessionValid(now = Date.now()): boolean {
  const times = readTokenTimes();
  return times !== null && times.expiry > now;
}

/** A refresh is due once the current time passes expiry minus half the lifetime. */
export function isRefreshDue(now = Date.now()): boolean {
  const times = readTokenTimes();
  return times !== null && now > times.expiry - times.lifetime / 2;
}

// ---------------------------------------------------------------------------------------------
// User and abilities
// ---------------------------------------------------------------------------------------------

export interface SessionState {
  user: User | null;
  /** null: not loaded or the fetch failed, so every ability check is denied. */
  abilities: Ability[] | null;
}

const signedOut: SessionState = { user: null, abilities: null };
let state: SessionState = signedOut;
const listeners = new Set<() => void>();

export function getSession(): SessionState {
  return state;
}

export function setSession(next: SessionState): void {
  state = next;
  for (const listener of listeners) listener();
}

export function subscribeSession(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSession(): SessionState {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}

/** What the ability rules of the contracts read: the abilities plus the company markets. */
export function abilitySubject(session: SessionState = state): AbilitySubject {
  return { abilities: session.abilities, companyMarkets: session.user?.company?.markets ?? null };
}

setLocaleProvider(() => interfaceLocale(state.user?.locale));

// ---------------------------------------------------------------------------------------------
// Navigation (the router registers itself; before that, a full page load does the job)
// ---------------------------------------------------------------------------------------------

let navigateTo: (path: string) => void = (path) => window.location.assign(path);

export function setNavigator(navigator: (path: string) => void): void {
  navigateTo = navigator;
}

function goToLoginUnlessThere(): void {
  if (window.location.pathname !== LOGIN_PATH) navigateTo(LOGIN_PATH);
}

// ---------------------------------------------------------------------------------------------
// A session replaced (another organization): the requests sent with the one that ended
// ---------------------------------------------------------------------------------------------

let sessionEpoch = 0;
let replacing = 0;

/** Which session the requests now go out with; it moves on when the session is replaced. */
export function currentSessionEpoch(): number {
  return sessionEpoch;
}

/**
 * Replaces the session (POST /auth/organization ends the old one on the server). A request sent
 * before or during the replacement carries the old session and may come back 401: that says
 * nothing of the new session, and signing out on it would post a logout that ends the new one.
 */
export async function replacingSession<T>(replace: () => Promise<T>): Promise<T> {
  sessionEpoch++;
  replacing++;
  try {
    return await replace();
  } finally {
    replacing--;
    sessionEpoch++;
  }
}

/** Whether a 401 to a request sent in `epoch` means the session is over. */
export function endsSession(epoch: number): boolean {
  return replacing === 0 && epoch === sessionEpoch;
}

// ---------------------------------------------------------------------------------------------
// Refresh: one at a time; other requests wait, polling every 200 ms
// ---------------------------------------------------------------------------------------------

let refreshing = false;
let refreshRun = 0;
let failedRun = 0;
let failure: unknown = null;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function isRefreshing(): boolean {
  return refreshing;
}

/** Refreshes the token and stores the new times. A failure is passed to the caller. */
export async function refreshSession(): Promise<void> {
  refreshing = true;
  const run = ++refreshRun;
  const epoch = sessionEpoch;
  try {
    const body = await send<Answer<'post', '/auth/refresh'>>('POST', 'auth/refresh');
    storeTokenTimes(body.data.expires_in);
  } catch (error) {
    failedRun = run;
    failure = error;
    if (isUnauthorized(error) && endsSession(epoch)) await handleUnauthorized();
    throw error;
  } finally {
    refreshing = false;
  }
}

async function waitForRefresh(): Promise<void> {
  const run = refreshRun;
  while (refreshing) await sleep(REFRESH_POLL_MS);
  // The requests that waited for a failed refresh fail with it too, instead of each retrying.
  if (failedRun === run) throw failure;
}

/** Before each request: a due refresh is performed, or awaited when another one is running. */
export async function ensureFreshSession(): Promise<void> {
  if (refreshing) return waitForRefresh();
  if (isSessionValid() && isRefreshDue()) await refreshSession();
}

// ---------------------------------------------------------------------------------------------
// Logout
// ---------------------------------------------------------------------------------------------

export interface LogoutOptions {
  /** Post /auth/logout (false when another tab already did). */
  callServer?: boolean;
  /** Tell the other tabs (false when this logout came from another tab). */
  broadcast?: boolean;
  /** Move to /login unless already there (false when the caller redirects itself). */
  navigate?: boolean;
}

let channel: BroadcastChannel | null = null;

function getChannel(): BroadcastChannel | null {
  if (typeof BroadcastChannel === 'undefined') return null;
  channel ??= new BroadcastChannel(SESSION_CHANNEL);
  return channel;
}

function broadcastLogout(): void {
  const ch = getChannel();
  if (ch) ch.postMessage({ type: 'logout' });
  else localStorage.setItem(LOGOUT_SIGNAL_KEY, String(Date.now()));
}

/**
 * Clears the user, abilities and stored token times, posts /auth/logout (failure ignored),
 * clears the query cache and broadcasts the logout; then moves to /login unless already there.
 */
export async function logout(options: LogoutOptions = {}): Promise<void> {
  const { callServer = true, broadcast = true, navigate = true } = options;
  setSession(signedOut);
  clearTokenTimes();
  if (callServer) {
    try {
      await send('POST', 'auth/logout');
    } catch {
      // Ignored: the session is gone on this side whatever the server answers.
    }
  }
  queryClient.clear();
  if (broadcast) broadcastLogout();
  if (navigate) goToLoginUnlessThere();
}

export function isUnauthorized(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'status' in error && error.status === 401;
}

let unauthorizedInProgress: Promise<void> | null = null;

/** Any 401 (other than on login and logout) signs out and moves to /login. */
export function handleUnauthorized(): Promise<void> {
  // Several requests failing together sign out once.
  unauthorizedInProgress ??= logout().finally(() => {
    unauthorizedInProgress = null;
  });
  return unauthorizedInProgress;
}

/**
 * Listens for logouts in other tabs. Returns the function that stops listening.
 * Called once at start-up (main.tsx).
 */
export function startSessionSync(): () => void {
  const onSignal = () => void logout({ callServer: false, broadcast: false });
  const ch = getChannel();
  if (ch) {
    const onMessage = (event: MessageEvent) => {
      if (event.data?.type === 'logout') onSignal();
    };
    ch.addEventListener('message', onMessage);
    return () => ch.removeEventListener('message', onMessage);
  }
  const onStorage = (event: StorageEvent) => {
    if (event.key === LOGOUT_SIGNAL_KEY && event.newValue) onSignal();
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}

/** For tests: forget the in-memory state between cases. */
export function resetSessionForTests(): void {
  setSession(signedOut);
  refreshing = false;
  refreshRun = 0;
  failedRun = 0;
  failure = null;
  unauthorizedInProgress = null;
  sessionEpoch = 0;
  replacing = 0;
  channel?.close();
  channel = null;
}
