import { matchRoutes } from 'react-router';
import type { User } from '@mss/contracts/users';
import type { AbilitySubject } from '@mss/contracts/abilities';
import { isAllowed, TWO_FACTOR_SETUP_PATH } from './guard.ts';
import { type AppRoute, type NavGroup, appRoutes } from './routes.tsx';

export interface NavEntry {
  href: string;
  title: AppRoute['title'];
  group: NavGroup;
}

export const NAV_GROUPS: NavGroup[] = ['main', 'reporting', 'administration', 'help'];

/** The link of a route: optional segments dropped; routes that need a parameter have no link. */
export function navHref(path: string): string | null {
  const href = path.replace(/\/:[^/]+\?/g, '') || '/';
  return href.includes(':') ? null : href;
}

/**
 * The navbar entries this user may open, by the same permission check as the route guard (a user
 * who must first set up two-factor sign-in opens the profile only).
 */
export function navEntries(user: User, abilities: AbilitySubject, routes: AppRoute[] = appRoutes): NavEntry[] {
  const entries: NavEntry[] = [];
  for (const route of routes) {
    if (!route.nav) continue;
    const href = navHref(route.path);
    if (href === null || !isAllowed(route.permission, user, abilities)) continue;
    if (user.two_factor_required && route.access === 'protected' && route.path !== TWO_FACTOR_SETUP_PATH) continue;
    entries.push({ href, title: route.nav.title?.(user) ?? route.title, group: route.nav.group });
  }
  return entries;
}

/**
 * Whether the user may open a path (with its query string or not): the permission of the route it
 * matches, as the guard checks it. A path no route of the table matches is not the app's to refuse.
 */
export function canOpen(path: string, user: User, abilities: AbilitySubject, routes: AppRoute[] = appRoutes): boolean {
  const pathname = path.split(/[?#]/)[0]!;
  const found = matchRoutes(
    routes.map((route) => ({ path: route.path, handle: route })),
    pathname,
  );
  const route = found?.at(-1)?.route.handle as AppRoute | undefined;
  if (!route || route.access !== 'protected') return true;
  if (user.two_factor_required && route.path !== TWO_FACTOR_SETUP_PATH) return false;
  return isAllowed(route.permission, user, abilities);
}

const matches = (href: string, pathname: string) => (href === '/' ? pathname === '/' : pathname === href || pathname.startsWith(`${href}/`));

/**
 * The entry of the screen shown: the one whose link is the longest that covers the path
 * (/history/import is the import history's, not also "My reports"' under /history).
 */
export function isActive(href: string, pathname: string, hrefs: readonly string[] = [href]): boolean {
  if (!matches(href, pathname)) return false;
  return !hrefs.some((other) => other.length > href.length && matches(other, pathname));
}
