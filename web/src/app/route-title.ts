import type { AppRoute } from './routes.tsx';

export interface RouteHandle {
  title: AppRoute['title'];
  /** The title the navbar gives the route for this user ("My reports" for a company's user), when it differs: one name for one screen. */
  userTitle?: NonNullable<AppRoute['nav']>['title'];
}

/** A route's title for the signed-in user: the navbar's name for it, else the route's. */
export function titleFor(handle: RouteHandle, user: Parameters<NonNullable<RouteHandle['userTitle']>>[0] | null | undefined): AppRoute['title'] {
  return (user && handle.userTitle?.(user)) || handle.title;
}
