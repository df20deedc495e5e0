import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { setNavigator, storeTokenTimes } from '../api/session.ts';
import { fakeApi, globalAbility, makeUser } from '../test/fake-api.ts';
import { AppProviders } from './providers.tsx';
import { buildRouteObjects } from './router.tsx';

function renderApp(url: string) {
  const router = createMemoryRouter(buildRouteObjects(), { initialEntries: [url] });
  setNavigator((path) => void router.navigate(path));
  render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}

describe('the app behind the route guard', () => {
  it('when a viewer opens /users, then the 403 page shows in the shell and the navbar has no Users entry', async () => {
    fakeApi()
      .withEnumerations()
      .signedInAs(makeUser({ name: 'Vera Viewer', role: 'viewer' }), []);
    storeTokenTimes(600);

    const router = renderApp('/users');

    expect(await screen.findByRole('heading', { name: 'Permission denied' })).toBeTruthy();
    expect(screen.getByText('Permission denied. Your user does not have permission to view this resource.')).toBeTruthy();
    expect(router.state.location.pathname).toBe('/403');
    await waitFor(() => expect(document.title).toBe('Permission denied - Market Sales Statistics'));
    expect(screen.getByTestId('user-name').textContent).toBe('Vera Viewer');
    expect(screen.getByTestId('organization-name').textContent).toBe('Nordic Sales Association');
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).queryByText('Users')).toBeNull();
    expect(within(nav).getByText('Dashboard')).toBeTruthy();
  });

  it('when an administrator signs in, then the navbar lists the administration screens the abilities allow', async () => {
    fakeApi()
      .withEnumerations()
      .signedInAs(makeUser({ name: 'Ada Admin', role: 'admin', roles: [{ name: 'admin' }] }), [
        globalAbility('list-users'),
        globalAbility('view-markets'),
        globalAbility('manage-codes'),
      ]);
    storeTokenTimes(600);

    renderApp('/');

    expect(await screen.findByRole('heading', { name: 'Welcome, Some' })).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Main navigation' });
    for (const label of ['Dashboard', 'Users', 'Markets', 'Codes', 'Code sections', 'Code groups', 'User guide']) {
      expect(within(nav).getByText(label)).toBeTruthy();
    }
    for (const label of ['Currencies', 'Organizations', 'Release notes', 'Import history']) {
      expect(within(nav).queryByText(label)).toBeNull();
    }
    await waitFor(() => expect(document.title).toBe('Dashboard - Market Sales Statistics'));
  });

  it('when nobody is signed in, then a protected path shows the sign-in screen', async () => {
    fakeApi().withEnumerations().on('POST', 'auth/logout', { status: 204 });

    const router = renderApp('/codes');

    expect(await screen.findByRole('heading', { name: 'Sign in to your account' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toBe('?redirect=%2Fcodes');
  });

  it('when the login fails, then the server message is shown', async () => {
    fakeApi()
      .withEnumerations()
      .on('POST', 'auth/login', { status: 429, body: { message: 'Too many login attempts. Please try again in 42 seconds.' } });

    renderApp('/login');
    fireEvent.change(await screen.findByLabelText(/E-mail/), { target: { value: 'reporter@demo.test' } });
    fireEvent.change(screen.getByLabelText(/Password/), { target: { value: 'wrong' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    });

    expect((await screen.findByRole('alert')).textContent).toContain('Too many login attempts. Please try again in 42 seconds.');
  });

  it('when a path is unknown, then the 404 page shows with its title', async () => {
    fakeApi().withEnumerations();

    renderApp('/this/does/not/exist');

    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(screen.getByText('Could not find what you were looking for.')).toBeTruthy();
    await waitFor(() => expect(document.title).toBe('Page not found - Market Sales Statistics'));
  });

  it('when the report statistics screen opens, then it receives its route parameters', async () => {
    const period = { uuid: 'p-2026-01', title: '2026-01', starts_on: '2026-01-01', ends_on: '2026-01-31', published: true };
    const api = fakeApi()
      .withEnumerations()
      .signedInAs(makeUser(), [globalAbility('view-statistics')])
      .on('GET', 'periods', { body: { data: [period] } })
      .on('GET', 'statistics/company', { status: 403, body: { message: 'The period is not available for this company.' } });
    storeTokenTimes(600);

    renderApp('/report-statistics/7/SE/2026-01');

    expect(await screen.findByRole('heading', { name: 'Report statistics' })).toBeTruthy();
    // The market (ISO code, resolved among the user's markets) gives the periods; the period's
    // title picks its uuid; the company id and that uuid ask for the company's statistics.
    await waitFor(() => expect(api.callsTo('GET', 'periods')[0]?.url).toBe('/api/v1/periods?market_id=1'));
    await waitFor(() => expect(api.callsTo('GET', 'statistics/company')[0]?.url).toBe('/api/v1/statistics/company?company_id=7&period_uuid=p-2026-01'));
    expect(await screen.findByText('The period is not available for this company.')).toBeTruthy();
  });
});
