import type { Ability } from '@mss/contracts/abilities';
import type { LoginBody, LoginResponse } from '@mss/contracts/auth';
import { translate } from '@mss/contracts/messages';
import type { User } from '@mss/contracts/users';
import { request } from './http.ts';
import { ensureFreshSession, getSession, isRefreshing, isSessionValid, logout, setSession, storeTokenTimes } from './session.ts';
import { ApiError, type ApiBody, send } from './transport.ts';

/** The signing-in side of the session (docs/product.md §4): login, loading the user, initialising on navigation. */

export type OrganizationChoice = NonNullable<LoginResponse['organizations']>;

export type LoginResult = { status: 'signed-in'; user: User } | { status: 'choose-organization'; organizations: OrganizationChoice };

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
  };
  // Not through `request`: a 401 here is a failed login, not an expired session.
  const response = await send<ApiBody<LoginResponse>>('POST', 'auth/login', { body });
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
    user = (await request<ApiBody<User>>('GET', 'users/me')).data;
  } catch (error) {
    console.error('Could not load the signed-in user.', error);
    return false;
  }
  let abilities: Ability[] | null;
  try {
    abilities = (await request<ApiBody<Ability[]>>('GET', 'users/me/abilities')).data;
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
