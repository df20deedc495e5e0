import { useMutation } from '@tanstack/react-query';
import type { Ability } from '@mss/contracts/abilities';
import type { LoginBody, LoginResponse, ResetPasswordBody } from '@mss/contracts/auth';
import { translate } from '@mss/contracts/messages';
import type { User } from '@mss/contracts/users';
import { type Answer, api, data } from '../../../api/client.ts';
import { ensureFreshSession, getSession, isRefreshing, isSessionValid, logout, replacingSession, setSession, storeTokenTimes } from '../../../api/session.ts';
import { ApiError, send } from '../../../api/transport.ts';

/**
 * Signing in, the one home of the auth calls: login, loading the user, initialising the session on
 * navigation (the route guard), and the forms' password reset (docs/product.md §4). The session's
 * own state and refresh are api/session.ts.
 */

export type OrganizationChoice = NonNullable<LoginResponse['organizations']>;

export type LoginResult = { status: 'signed-in'; user: User } | { status: 'enter-code' } | { status: 'choose-organization'; organizations: OrganizationChoice };

/**
 * Signs in. When the server answers must_choose_organization no session exists yet: the
 * organizations are handed back so the caller can ask and call login again with one of them.
 * Server errors (422 wrong credentials, 403 disabled, 429 throttled) reject with their ApiError.
 */
export async function login(credentials: LoginBody): Promise<LoginResult> {
  const body = {
    email: credentials.email,
    password: credentials.password,
    ...(credentials.organization ? { organization: credentials.organization } : {}),
    ...(credentials.code ? { code: credentials.code } : {}),
  };
  // Not through `request`: a 401 here is a failed login, not an expired session.
  const response = await send<Answer<'post', '/auth/login'>>('POST', 'auth/login', { body });
  // Two-factor sign-in: the same again with the code from the app.
  if (response.data.must_enter_code) return { status: 'enter-code' };
  if (response.data.must_choose_organization) {
    return { status: 'choose-organization', organizations: response.data.organizations ?? [] };
  }
  storeTokenTimes(response.data.expires_in);
  if (!(await loadUser())) {
    await logout({ navigate: false });
    throw new ApiError(0, translate('generic.error'));
  }
  return { status: 'signed-in', user: getSession().user! };
}

/**
 * Loads the user and the abilities. A failed user fetch is logged and yields false; a failed
 * abilities fetch leaves the abilities null, so every check is denied.
 */
export async function loadUser(): Promise<boolean> {
  let user: User;
  try {
    user = await api.get('/users/me').then(data);
  } catch (error) {
    console.error('Could not load the signed-in user.', error);
    return false;
  }
  let abilities: Ability[] | null;
  try {
    abilities = await api.get('/users/me/abilities').then(data);
  } catch (error) {
    console.error('Could not load the abilities of the signed-in user.', error);
    abilities = null;
  }
  setSession({ user, abilities });
  return true;
}

/**
 * Run by the route guard before every protected screen: refresh if due, then load the user
 * (once; later navigations reuse it). Resolves whether the user is signed in.
 */
export async function initSession(): Promise<boolean> {
  if (!isSessionValid() && !isRefreshing()) return false;
  try {
    await ensureFreshSession();
  } catch (error) {
    console.error('Could not refresh the session.', error);
    return false;
  }
  if (!isSessionValid()) return false;
  if (getSession().user) return true;
  return loadUser();
}

/** Moves the browser session to another of the user's organizations (a new session; the old one ends). */
export async function switchOrganization(organizationUuid: string): Promise<void> {
  await replacingSession(async () => {
    const answer = await api.post('/auth/organization', { body: { organization: organizationUuid } });
    storeTokenTimes(answer.data.expires_in);
  });
}

// The forms' mutations.

export const authKeys = {
  all: ['auth'] as const,
  login: () => [...authKeys.all, 'login'] as const,
  forgotPassword: () => [...authKeys.all, 'forgot-password'] as const,
  resetPassword: () => [...authKeys.all, 'reset-password'] as const,
};

export function requestPasswordReset(email: string): Promise<string> {
  return api.post('/auth/forgot-password', { body: { email } }).then((answer) => answer.data.message);
}

export function resetPassword(body: ResetPasswordBody): Promise<string> {
  return api.post('/auth/reset-password', { body }).then((answer) => answer.data.message);
}

/** The sign-in forms show their errors themselves (message above the form, fields inline). */
export function useLogin() {
  return useMutation({ mutationKey: authKeys.login(), mutationFn: (body: LoginBody) => login(body), meta: { handlesErrors: true } });
}

export function useForgotPassword() {
  return useMutation({ mutationKey: authKeys.forgotPassword(), mutationFn: requestPasswordReset, meta: { handlesErrors: true } });
}

export function useResetPassword() {
  return useMutation({ mutationKey: authKeys.resetPassword(), mutationFn: resetPassword, meta: { handlesErrors: true } });
}
