import { redirect } from 'react-router';
import { type AbilitySubject, canAll, canAny } from '@mss/contracts/abilities';
import type { AbilityName } from '@mss/contracts/enums';
import type { User } from '@mss/contracts/users';
import { initSession } from '../features/auth/api/auth.ts';
import { queryClient } from '../api/query-client.ts';
import { abilitySubject, getSession, isSessionValid, LOGIN_PATH, logout } from '../api/session.ts';
import { enumerationsQuery } from '../api/enumerations.ts';

/**
 * The route guard of docs/product.md §5. A route's permission is a list marked `any` (at least one
 * ability), a list marked `all` (every ability), or a function of the user and the abilities.
 */
export type RoutePermission = { any: readonly AbilityName[] } | { all: readonly AbilityName[] } | ((user: User, abilities: AbilitySubject) => boolean);

/** public: no sign-in (login, password reset). protected: signed in, plus the permission if any. system: 403 and 404, open to all. */
export type RouteAccess = 'public' | 'protected' | 'system';

export interface GuardedRoute {
  path: string;
  access: RouteAccess;
  permission?: RoutePermission;
}

export const FORBIDDEN_PATH = '/403';

export function isAllowed(permission: RoutePermission | undefined, user: User, abilities: AbilitySubject): boolean {
  if (!permission) return true;
  if (typeof permission === 'function') return permission(user, abilities);
  if ('any' in permission) return canAny(abilities, permission.any);
  return canAll(abilities, permission.all);
}

export type GuardDecision = { kind: 'allow' } | { kind: 'login' } | { kind: 'forbidden' } | { kind: 'two-factor' };

/** Where a user goes whose organization requires two-factor sign-in they have not set up: the one screen the server answers for them. */
export const TWO_FACTOR_SETUP_PATH = '/profile';

/** The decision for a protected route once the session is known. */
export function decideAccess(route: GuardedRoute, session: { signedIn: boolean; user: User | null; abilities: AbilitySubject }): GuardDecision {
  if (route.access !== 'protected') return { kind: 'allow' };
  if (!session.signedIn || !session.user) return { kind: 'login' };
  if (session.user.two_factor_required && route.path !== TWO_FACTOR_SETUP_PATH) return { kind: 'two-factor' };
  return isAllowed(route.permission, session.user, session.abilities) ? { kind: 'allow' } : { kind: 'forbidden' };
}

/** Enumerations are loaded before every navigation, cached per locale; a failure does not block the screen. */
export async function loadEnumerations(): Promise<void> {
  try {
    await queryClient.ensureQueryData(enumerationsQuery());
  } catch (error) {
    console.error('Could not load the enumerations.', error);
  }
}

/** Where to come back to after signing in: the path the user asked for, when it is not the login itself. */
export function loginRedirect(url: URL): string {
  const target = `${url.pathname}${url.search}`;
  return target === '/' || url.pathname === LOGIN_PATH ? LOGIN_PATH : `${LOGIN_PATH}?redirect=${encodeURIComponent(target)}`;
}

/** The loader every route of the table runs before its screen. */
export function guardLoader(route: GuardedRoute) {
  return async ({ request }: { request: Request }): Promise<null> => {
    await loadEnumerations();
    if (route.access === 'public') return null;
    if (route.access === 'system') {
      // 403 and 404 show the app shell to a signed-in user, but never send anyone to /login.
      if (isSessionValid() && !getSession().user) await initSession();
      return null;
    }
    const signedIn = await initSession();
    const session = getSession();
    const decision = decideAccess(route, { signedIn, user: session.user, abilities: abilitySubject(session) });
    if (decision.kind === 'login') {
      await logout({ navigate: false });
      throw redirect(loginRedirect(new URL(request.url)));
    }
    if (decision.kind === 'forbidden') throw redirect(FORBIDDEN_PATH);
    if (decision.kind === 'two-factor') throw redirect(TWO_FACTOR_SETUP_PATH);
    return null;
  };
}
