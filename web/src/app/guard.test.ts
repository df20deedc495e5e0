import { beforeEach, describe, expect, it, vi } from 'vitest';
import { matchRoutes } from 'react-router';
import type { Ability } from '@mss/contracts/abilities';
import type { User } from '@mss/contracts/users';
import { getSession, readTokenTimes, setNavigator, setSession, storeTokenTimes } from '../api/session.ts';
import { fakeApi, globalAbility, makeUser, marketAbility } from '../test/fake-api.ts';
import { type RoutePermission, decideAccess, guardLoader, isAllowed } from './guard.ts';
import { type AppRoute, appRoutes } from './routes.tsx';

const subject = (abilities: Ability[] | null, companyMarkets: NonNullable<User['company']>['markets'] = []) => ({ abilities, companyMarkets });

/** Runs the guard of the route that the URL matches, as the router does before showing it. */
async function navigateTo(url: string): Promise<{ redirect: string | null; route: AppRoute }> {
  const matches = matchRoutes(
    appRoutes.map((route) => ({ path: route.path, route })),
    url,
  );
  const route = (matches!.at(-1)!.route as unknown as { route: AppRoute }).route;
  try {
    await guardLoader(route)({ request: new Request(`http://localhost${url}`) });
    return { redirect: null, route };
  } catch (thrown) {
    if (thrown instanceof Response) return { redirect: thrown.headers.get('Location'), route };
    throw thrown;
  }
}

function routeAt(url: string): AppRoute {
  const matches = matchRoutes(
    appRoutes.map((route) => ({ path: route.path, route })),
    url,
  );
  return (matches!.at(-1)!.route as unknown as { route: AppRoute }).route;
}

describe('permission kinds', () => {
  const user = makeUser();

  it('when a list is marked any, then one of its abilities is enough', () => {
    const permission: RoutePermission = { any: ['manage-users', 'list-users'] };
    expect(isAllowed(permission, user, subject([globalAbility('list-users')]))).toBe(true);
    expect(isAllowed(permission, user, subject([globalAbility('view-codes')]))).toBe(false);
  });

  it('when a list is marked all, then every ability is needed', () => {
    const permission: RoutePermission = { all: ['manage-users', 'list-users'] };
    expect(isAllowed(permission, user, subject([globalAbility('list-users')]))).toBe(false);
    expect(isAllowed(permission, user, subject([globalAbility('list-users'), globalAbility('manage-users')]))).toBe(true);
  });

  it('when the permission is a function, then it decides with the user and the abilities', () => {
    const permission = vi.fn((u: User, a: { abilities: Ability[] | null }) => u.email === 'a@demo.test' && a.abilities!.length > 0);
    expect(isAllowed(permission, makeUser({ email: 'a@demo.test' }), subject([globalAbility('x')]))).toBe(true);
    expect(isAllowed(permission, makeUser({ email: 'b@demo.test' }), subject([globalAbility('x')]))).toBe(false);
    expect(permission).toHaveBeenCalledTimes(2);
  });

  it('when the abilities did not load, then every list check is denied', () => {
    expect(isAllowed({ any: ['list-users'] }, user, subject(null))).toBe(false);
    expect(isAllowed({ all: ['list-users'] }, user, subject(null))).toBe(false);
  });

  it('when nobody is signed in, then a protected route asks for sign-in and a public one is open', () => {
    const route = routeAt('/users');
    expect(decideAccess(route, { signedIn: false, user: null, abilities: subject(null) })).toEqual({ kind: 'login' });
    expect(decideAccess(routeAt('/login'), { signedIn: false, user: null, abilities: subject(null) })).toEqual({ kind: 'allow' });
  });

  it('when the organization requires two-factor sign-in the user has not set up, then every screen but the profile leads to the profile', () => {
    const pending = { ...makeUser(), two_factor_required: true };
    const abilities = subject([globalAbility('manage-users')]);
    expect(decideAccess(routeAt('/users'), { signedIn: true, user: pending, abilities })).toEqual({ kind: 'two-factor' });
    expect(decideAccess(routeAt('/'), { signedIn: true, user: pending, abilities })).toEqual({ kind: 'two-factor' });
    expect(decideAccess(routeAt('/profile'), { signedIn: true, user: pending, abilities })).toEqual({ kind: 'allow' });
    expect(decideAccess(routeAt('/users'), { signedIn: true, user: makeUser(), abilities })).toEqual({ kind: 'allow' });
  });
});

describe('the route table carries the permissions of docs/product.md §2', () => {
  const decide = (url: string, abilities: Ability[], companyMarkets: NonNullable<User['company']>['markets'] = []) =>
    decideAccess(routeAt(url), { signedIn: true, user: makeUser(), abilities: subject(abilities, companyMarkets) }).kind;
  const g = globalAbility;

  it.each([
    ['/users', [g('list-users')], 'allow'],
    ['/users', [g('manage-users')], 'allow'],
    ['/users', [g('view-codes')], 'forbidden'],
    ['/users/add', [g('list-users')], 'forbidden'],
    ['/users/add', [g('manage-users')], 'allow'],
    ['/users/12', [g('list-users')], 'forbidden'],
    ['/users/12', [g('manage-users')], 'allow'],
    ['/users/view/12', [g('list-users')], 'allow'],
    ['/users/view/12', [g('manage-users')], 'forbidden'],
    ['/markets', [g('view-markets')], 'allow'],
    ['/markets/add', [g('view-markets')], 'forbidden'],
    ['/markets/4', [g('manage-markets')], 'allow'],
    ['/markets/view/4', [g('view-markets')], 'allow'],
    ['/currencies', [g('manage-currencies')], 'allow'],
    ['/currencies/add', [g('manage-currencies')], 'forbidden'],
    ['/currencies/3', [g('manage-markets')], 'forbidden'],
    ['/releases', [g('manage-releases')], 'allow'],
    ['/clusters/2', [g('manage-clusters')], 'allow'],
    ['/organizations/add', [g('manage-companies')], 'forbidden'],
    ['/organizations/add', [g('manage-organizations')], 'forbidden'],
    ['/organizations/3', [g('manage-organizations')], 'allow'],
    ['/information-modals/5/add', [], 'forbidden'],
    ['/information-modals/5/9', [g('view-markets')], 'forbidden'],
    ['/information-modals/5/add', [g('manage-organizations')], 'allow'],
    ['/information-modals/5/9', [g('manage-organizations')], 'allow'],
    ['/companies/8', [g('manage-companies')], 'allow'],
    ['/code_sections/add', [g('manage-codes')], 'allow'],
    ['/codes', [g('view-codes')], 'allow'],
    ['/codes', [g('manage-codes')], 'allow'],
    ['/codes/manage', [g('view-codes')], 'forbidden'],
    ['/codes/manage', [g('manage-codes')], 'allow'],
    ['/codes/add', [g('view-codes')], 'forbidden'],
    ['/codes/17', [g('manage-codes')], 'allow'],
    ['/code_groups/1', [g('view-codes')], 'forbidden'],
    ['/currency-conversions', [g('manage-currency-conversion')], 'allow'],
    ['/currency-conversions/add', [g('manage-currency-conversion')], 'forbidden'],
    ['/currency-conversions/4', [g('manage-currency-conversion')], 'forbidden'],
    ['/currency-conversions/add', [g('manage-currencies')], 'forbidden'],
    ['/history/import', [marketAbility('upload-reports', 1)], 'allow'],
    ['/history/import', [marketAbility('view-report-history', 1)], 'allow'],
    ['/history/import', [marketAbility('view-statistics', 1)], 'forbidden'],
    ['/history/SE', [marketAbility('view-report-history', 1)], 'allow'],
    ['/history/SE', [marketAbility('upload-reports', 1)], 'forbidden'],
    ['/reporting-companies/SE', [marketAbility('approve-reports', 1)], 'allow'],
    ['/reporting-companies/SE/1', [marketAbility('view-statistics', 1)], 'forbidden'],
    ['/report-statistics/3/SE/2026-01', [marketAbility('view-statistics', 1)], 'allow'],
    ['/report-statistics/3/SE/2026-01/r1', [marketAbility('upload-reports', 1)], 'forbidden'],
    ['/approval-list/p-1', [marketAbility('approve-reports', 2)], 'allow'],
    ['/period-list', [marketAbility('manage-periods', 2)], 'allow'],
    ['/period-list/SE', [marketAbility('approve-reports', 2)], 'forbidden'],
    ['/communication', [marketAbility('send-communications', 1)], 'allow'],
    ['/communication', [marketAbility('approve-reports', 1)], 'forbidden'],
    ['/cluster-approval/p-1', [g('approve-cluster-reports')], 'allow'],
    ['/cluster-period-list', [marketAbility('approve-reports', 1)], 'forbidden'],
    ['/import/abc', [], 'allow'],
    ['/', [], 'allow'],
    ['/docs', [], 'allow'],
  ] as const)('%s with %j → %s', (url, abilities, expected) => {
    expect(decide(url, [...abilities])).toBe(expected);
  });

  it('when only a super-admin can save a screen (organizations created, shared currencies and rates), then it opens for a super-admin only', () => {
    const superAdmin = makeUser({ role: 'super-admin', roles: [{ name: 'super-admin' }], organization: null, organizations: [] });
    const decideAs = (user: User, url: string, abilities: Ability[]) =>
      decideAccess(routeAt(url), { signedIn: true, user, abilities: subject(abilities) }).kind;
    for (const [url, ability] of [
      ['/organizations/add', 'manage-organizations'],
      ['/currencies/add', 'manage-currencies'],
      ['/currencies/3', 'manage-currencies'],
      ['/currency-conversions/add', 'manage-currency-conversion'],
      ['/currency-conversions/4', 'manage-currency-conversion'],
    ] as const) {
      expect(decideAs(superAdmin, url, [g(ability)]), url).toBe('allow');
      expect(decideAs(superAdmin, url, []), url).toBe('forbidden');
      expect(decideAs(makeUser({ role: 'admin', roles: [{ name: 'admin' }] }), url, [g(ability)]), url).toBe('forbidden');
    }
  });

  it('when a company market lists an ability, then the reporting routes open', () => {
    const companyMarkets = [
      {
        id: 10,
        market_id: 1,
        market: { id: 1, international_name: 'Sweden', local_name: 'Sverige', iso_code: 'SE' },
        abilities: ['view-company-reports', 'view-report-history'],
        roles: [{ name: 'company' }],
      },
    ];
    expect(decide('/report-statistics/3/SE/2026-01', [], companyMarkets)).toBe('allow');
    expect(decide('/history/SE', [], companyMarkets)).toBe('allow');
    expect(decide('/approval-list/p-1', [], companyMarkets)).toBe('forbidden');
  });

  it('when a path is unknown, then the 404 route answers and a screen gets its parameters by name', () => {
    expect(routeAt('/no/such/page').path).toBe('*');
    expect(routeAt('/report-statistics/3/SE/2026-01').path).toBe('/report-statistics/:companyId/:market/:period/:report?');
  });
});

describe('the guard before each navigation', () => {
  let navigate: ReturnType<typeof vi.fn<(path: string) => void>>;
  beforeEach(() => {
    navigate = vi.fn<(path: string) => void>();
    setNavigator(navigate);
  });

  it('when nobody is signed in, then the guard logs out and redirects to /login, keeping the wanted path', async () => {
    const api = fakeApi().withEnumerations().on('POST', 'auth/logout', { status: 204 });

    const result = await navigateTo('/users?page=2');

    expect(result.redirect).toBe('/login?redirect=%2Fusers%3Fpage%3D2');
    expect(api.callsTo('POST', 'auth/logout')).toHaveLength(1);
    expect(api.callsTo('GET', 'users/me')).toHaveLength(0);
  });

  it('when the stored session has expired, then the guard sends to /login without loading the user', async () => {
    const api = fakeApi().withEnumerations().signedInAs(makeUser(), []);
    vi.useFakeTimers({ now: 1_000_000 });
    storeTokenTimes(60);
    vi.setSystemTime(1_000_000 + 60_000);

    expect((await navigateTo('/')).redirect).toBe('/login');
    expect(api.callsTo('GET', 'users/me')).toHaveLength(0);
    expect(readTokenTimes()).toBeNull();
  });

  it('when the user fetch fails, then the guard treats the user as signed out', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    fakeApi()
      .withEnumerations()
      .on('GET', 'users/me', { status: 500, body: { message: 'x' } })
      .on('POST', 'auth/logout', { status: 204 });
    storeTokenTimes(600);

    expect((await navigateTo('/docs')).redirect).toBe('/login?redirect=%2Fdocs');
  });

  it('when the user lacks the permission, then the guard redirects to /403', async () => {
    fakeApi()
      .withEnumerations()
      .signedInAs(makeUser({ role: 'viewer' }), [marketAbility('view-statistics', 1)]);
    storeTokenTimes(600);

    expect((await navigateTo('/users')).redirect).toBe('/403');
    expect(getSession().user).not.toBeNull();
  });

  it('when the user has the permission, then the screen loads, and the user is loaded once for later navigations', async () => {
    const api = fakeApi()
      .withEnumerations()
      .signedInAs(makeUser({ role: 'admin' }), [globalAbility('list-users')]);
    storeTokenTimes(600);

    expect((await navigateTo('/users')).redirect).toBeNull();
    expect((await navigateTo('/users/view/3')).redirect).toBeNull();
    expect(api.callsTo('GET', 'users/me')).toHaveLength(1);
    expect(api.callsTo('GET', 'users/me/abilities')).toHaveLength(1);
  });

  it('when a refresh is due, then it runs before any other call of the navigation, and the user is loaded after it', async () => {
    vi.useFakeTimers({ now: 5_000_000 });
    const api = fakeApi()
      .withEnumerations()
      .signedInAs(makeUser(), [])
      .on('POST', 'auth/refresh', { body: { data: { expires_in: 600 } } });
    storeTokenTimes(600);
    vi.setSystemTime(5_000_000 + 301_000);

    expect((await navigateTo('/')).redirect).toBeNull();
    expect(api.calls.map((c) => c.path)).toEqual(['auth/refresh', expect.stringMatching(/^protocol\/enums\//), 'users/me', 'users/me/abilities']);
  });

  it('when navigating to a public route, then only the enumerations are loaded', async () => {
    const api = fakeApi().withEnumerations();
    expect((await navigateTo('/reset-password/tok?email=a%40b.c')).redirect).toBeNull();
    expect(api.calls.map((c) => c.path)).toEqual([expect.stringMatching(/^protocol\/enums\//)]);
  });

  it('when navigating again, then the enumerations come from the cache of that locale', async () => {
    const languages = vi.spyOn(navigator, 'languages', 'get');
    const api = fakeApi().withEnumerations();

    languages.mockReturnValue(['fi-FI', 'en']);
    await navigateTo('/login');
    await navigateTo('/forgot-password');
    languages.mockReturnValue(['de-DE']); // not supported: sv-SE
    await navigateTo('/login');
    await navigateTo('/login');

    expect(api.calls.map((c) => c.url)).toEqual(['/api/v1/protocol/enums/fi-FI', '/api/v1/protocol/enums/sv-SE']);
  });

  it('when signed in, then the enumerations are in the user’s own language, whatever the browser’s', async () => {
    vi.spyOn(navigator, 'languages', 'get').mockReturnValue(['de-DE']);
    const api = fakeApi().withEnumerations();
    setSession({ user: makeUser({ locale: 'dk-DK' }), abilities: [] });
    await navigateTo('/login');
    expect(api.calls.map((c) => c.url)).toEqual(['/api/v1/protocol/enums/dk-DK']);
  });
});

describe('the navbar entry of the report history', () => {
  it('is "My reports" for a company’s user and leads to /history; "Report history" for others; /history/import stays the import history', async () => {
    const { navEntries } = await import('./navigation.ts');
    const reporter = makeUser({ role: 'reporter', company: { id: 1, name: 'Nordlys', markets: [] } as never });
    const entries = navEntries(reporter, subject([marketAbility('view-report-history', 1), marketAbility('upload-reports', 1)]));
    expect(entries.find((e) => e.href === '/history')).toMatchObject({ title: 'nav.my_reports', group: 'reporting' });
    const approver = makeUser({ role: 'market-admin', company: null });
    expect(navEntries(approver, subject([marketAbility('view-report-history', 1)])).find((e) => e.href === '/history')?.title).toBe('title.report_history');
    expect(routeAt('/history/import').title).toBe('title.import_history');
    expect(routeAt('/history/SE').title).toBe('title.report_history');
  });
});

describe('the navbar of a user who must set up two-factor sign-in', () => {
  it('offers no screen the server would refuse: only the profile (and what needs no sign-in)', async () => {
    const { navEntries, canOpen } = await import('./navigation.ts');
    const abilities = subject([marketAbility('view-report-history', 1), marketAbility('upload-reports', 1)]);
    const user = makeUser({ role: 'admin' });
    expect(navEntries(user, abilities).length).toBeGreaterThan(1);
    const pending = { ...user, two_factor_required: true };
    expect(navEntries(pending, abilities).filter((e) => e.href !== '/profile')).toEqual(
      navEntries(pending, abilities).filter((e) => e.href !== '/profile' && routeAt(e.href).access !== 'protected'),
    );
    expect(navEntries(pending, abilities).map((e) => e.href)).not.toContain('/history');
    expect(canOpen('/history', pending, abilities)).toBe(false);
    expect(canOpen('/profile', pending, abilities)).toBe(true);
    expect(canOpen('/history', user, abilities)).toBe(true);
  });
});

describe('the active navbar entry', () => {
  it('is the one with the longest link that covers the path', async () => {
    const { isActive } = await import('./navigation.ts');
    const hrefs = ['/', '/history', '/history/import', '/statistics'];
    expect(isActive('/history/import', '/history/import', hrefs)).toBe(true);
    expect(isActive('/history', '/history/import', hrefs)).toBe(false);
    expect(isActive('/history', '/history/SE', hrefs)).toBe(true);
    expect(isActive('/', '/history', hrefs)).toBe(false);
  });
});
