import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { setNavigator, storeTokenTimes } from '../api/session.ts';
import { fakeApi, globalAbility, makeUser, marketAbility } from '../test/fake-api.ts';
import { notCompared } from '../test/report-fixtures.ts';
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

  describe('route parameters the screens use', () => {
    const norway = { id: 2, international_name: 'Norway', local_name: 'Norge', iso_code: 'NO' };
    const sweden = { id: 1, international_name: 'Sweden', local_name: 'Sverige', iso_code: 'SE' };

    it('when /reporting-companies/:market/:marketId names a market by its id, then the screen is that market’s; the picker writes both', async () => {
      const approver = makeUser({ role: 'market-admin', roles: [{ name: 'market-admin' }], markets: [sweden, norway] });
      const api = fakeApi()
        .withEnumerations()
        .signedInAs(approver, [marketAbility('approve-reports', 1), marketAbility('approve-reports', 2)])
        .on('GET', 'periods', { body: { data: [] } });
      storeTokenTimes(600);

      const router = renderApp('/reporting-companies/SE/2');

      expect(await screen.findByRole('heading', { name: 'Reporting companies' })).toBeTruthy();
      // :marketId (2, Norway) decides over :market (SE).
      await waitFor(() => expect(api.callsTo('GET', 'periods')[0]?.url).toBe('/api/v1/periods?market_id=2'));
      await waitFor(() => expect((screen.getByRole('combobox', { name: 'Market' }) as HTMLInputElement).value).toContain('Norway'));

      // Without :marketId, :market (an ISO code or an id) names the market.
      await act(() => router.navigate('/reporting-companies/SE'));
      await waitFor(() => expect(api.callsTo('GET', 'periods').at(-1)?.url).toBe('/api/v1/periods?market_id=1'));

      fireEvent.click(screen.getByRole('combobox', { name: 'Market' }));
      fireEvent.click(await screen.findByRole('option', { name: /Norway/, hidden: true }));
      await waitFor(() => expect(router.state.location.pathname).toBe('/reporting-companies/NO/2'));
    });

    it('when the period list shows periods, then each says how long it lasts, singular or plural', async () => {
      const approver = makeUser({ role: 'market-admin', roles: [{ name: 'market-admin' }], markets: [sweden] });
      const periodOf = (uuid: string, title: string, starts_on: string, ends_on: string) => ({
        uuid,
        title,
        market: sweden,
        starts_on,
        ends_on,
        deadline: null,
        status: 'draft',
        published: false,
        opened_at: null,
        closed_at: null,
        published_at: null,
        report_count: 0,
        coverage: null,
        publication: null,
      });
      fakeApi()
        .withEnumerations()
        .signedInAs(approver, [marketAbility('manage-periods', 1)])
        .on('GET', 'periods', {
          body: {
            data: [
              periodOf('p-1', '2026', '2026-01-01', '2026-12-31'),
              periodOf('p-2', '2026-Q1', '2026-01-01', '2026-03-31'),
              periodOf('p-3', 'W45', '2026-11-02', '2026-11-08'),
              periodOf('p-4', 'Fair', '2026-11-02', '2026-11-11'),
            ],
          },
        });
      storeTokenTimes(600);

      renderApp('/period-list/SE');

      await waitFor(() => expect(screen.getAllByTestId('period-length').map((cell) => cell.textContent)).toEqual(['1 year', '3 months', '1 week', '10 days']));
    });

    const rowsPage = {
      data: [
        {
          code_id: 11,
          code: '1001',
          name: 'Tractors',
          volume: '5.0000',
          value: '500.0000',
          ...notCompared,
        },
      ],
      meta: { page: 1, per_page: 100, total: 1 },
      comparison: { previous: null, last_year: null, deviation_percentage: '20' },
    };
    const reportOf = (company: { id: number; name: string }) => ({
      uuid: 'r-1',
      status: 20,
      company,
      market: sweden,
      period: { uuid: 'p-2026-11', title: '2026-11', status: 'open', deadline: null },
      submitted_at: null,
      approved_at: null,
      row_count: 1,
      preflight_severity: 10,
      sent_back_comment: null,
      updated_at: '2026-11-21T06:00:00Z',
      totals: { volume: '5.0000', value: '500.0000' },
      preflight: null,
      history: [],
      current_import: null,
    });
    const period = { uuid: 'p-2026-11', title: '2026-11', starts_on: '2026-11-01', ends_on: '2026-11-30', published: false };
    const reporter = makeUser({ role: 'reporter', roles: [{ name: 'reporter' }], company: { id: 7, name: 'Nordlys Trading AB', markets: [] } });

    /** The reporter of company 7 before the period is published, with report r-1 of `company`. */
    const apiWithReportOf = (company: { id: number; name: string }) => {
      const api = fakeApi()
        .withEnumerations()
        .signedInAs(reporter, [marketAbility('upload-reports', 1), marketAbility('view-statistics', 1)])
        .on('GET', 'periods', { body: { data: [period] } })
        .on('GET', 'statistics/company', { status: 403, body: { message: 'The period is not yet published for viewing.' } })
        .on('GET', 'reports/r-1', { body: { data: reportOf(company) } })
        .on('GET', 'reports/r-1/rows', { body: rowsPage });
      storeTokenTimes(600);
      return api;
    };

    it('when /report-statistics/…/:report names a report, then that report’s figures open, even while the period’s statistics are refused', async () => {
      const api = apiWithReportOf({ id: 7, name: 'Nordlys Trading AB' });

      renderApp('/report-statistics/7/SE/2026-11/r-1');

      const figures = await screen.findByTestId('report-figures');
      expect(screen.getByRole('heading', { name: 'The report’s figures (Nordlys Trading AB, 2026-11)' })).toBeTruthy();
      expect(await within(figures).findByText('Tractors')).toBeTruthy();
      expect(api.callsTo('GET', 'reports/r-1/rows')).toHaveLength(1);
      expect(await screen.findByText('The period is not yet published for viewing.')).toBeTruthy();
    });

    it('when :report is another company’s report than the address names, then its figures are not shown (not found)', async () => {
      const api = apiWithReportOf({ id: 8, name: 'Other AB' });

      renderApp('/report-statistics/7/SE/2026-11/r-1');

      expect(await screen.findByTestId('not-found')).toBeTruthy();
      expect(screen.queryByTestId('report-figures')).toBeNull();
      expect(api.callsTo('GET', 'reports/r-1/rows')).toHaveLength(0);
    });
  });

  describe('screens are offered only to those who can save them', () => {
    const organizations = {
      data: [{ id: 3, uuid: 'o-3', name: 'Nordic Sales Association', mail_description: null, settings: {} }],
      meta: { page: 1, per_page: 25, total: 1 },
    };
    const admin = makeUser({ name: 'Ada Admin', role: 'admin', roles: [{ name: 'admin' }] });
    const superAdmin = makeUser({ name: 'Sam Super', role: 'super-admin', roles: [{ name: 'super-admin' }], organization: null, organizations: [] });

    it('when an administrator (who cannot create organizations) lists them, then no Add is offered and /organizations/add is the 403 page', async () => {
      fakeApi()
        .withEnumerations()
        .signedInAs(admin, [globalAbility('manage-organizations')])
        .on('GET', 'admin/organizations', { body: organizations });
      storeTokenTimes(600);

      const router = renderApp('/organizations');

      const table = await screen.findByRole('table', { name: 'Organizations' });
      expect(await within(table).findByText('Nordic Sales Association')).toBeTruthy();
      expect(within(table).getByRole('link', { name: 'Edit' })).toBeTruthy();
      expect(screen.queryByRole('link', { name: 'Add' })).toBeNull();

      await act(() => router.navigate('/organizations/add'));
      expect(await screen.findByRole('heading', { name: 'Permission denied' })).toBeTruthy();
      expect(router.state.location.pathname).toBe('/403');
    });

    it('when a super-admin lists organizations, then Add is offered and opens the form', async () => {
      fakeApi()
        .withEnumerations()
        .signedInAs(superAdmin, [globalAbility('manage-organizations')])
        .on('GET', 'admin/organizations', { body: organizations });
      storeTokenTimes(600);

      const router = renderApp('/organizations');

      fireEvent.click(await screen.findByRole('link', { name: 'Add' }));
      expect(await screen.findByRole('heading', { name: 'Add organization' })).toBeTruthy();
      expect(router.state.location.pathname).toBe('/organizations/add');
    });

    it.each([
      ['a reporter', makeUser({ role: 'reporter', roles: [{ name: 'reporter' }] }), [globalAbility('view-codes')]],
      [
        'a market administrator',
        makeUser({ role: 'market-admin', roles: [{ name: 'market-admin' }] }),
        [globalAbility('list-users'), globalAbility('view-markets')],
      ],
    ])('when %s opens the add screen of an information modal, then the 403 page shows', async (_who, user, abilities) => {
      fakeApi().withEnumerations().signedInAs(user, abilities);
      storeTokenTimes(600);

      const router = renderApp('/information-modals/3/add');

      expect(await screen.findByRole('heading', { name: 'Permission denied' })).toBeTruthy();
      expect(router.state.location.pathname).toBe('/403');
    });

    it("when an administrator opens the add screen of another organization's information modal, then not found instead of a form", async () => {
      fakeApi()
        .withEnumerations()
        .signedInAs(admin, [globalAbility('manage-organizations')])
        .on('GET', 'admin/organizations/9', { status: 404, body: { message: 'Could not find what you were looking for.' } });
      storeTokenTimes(600);

      renderApp('/information-modals/9/add');

      expect(await screen.findByRole('heading', { name: 'Add information modal' })).toBeTruthy();
      expect(await screen.findByText('Could not find what you were looking for.')).toBeTruthy();
      expect(screen.queryByRole('button', { name: 'Save' })).toBeNull();
    });

    it('when an administrator opens the shared currencies, then neither Add nor Edit is offered and their screens are the 403 page', async () => {
      fakeApi()
        .withEnumerations()
        .signedInAs(admin, [globalAbility('manage-currencies')])
        .on('GET', 'admin/currencies', { body: { data: [{ id: 1, iso_code: 'SEK', name: 'Swedish Krona' }], meta: { page: 1, per_page: 25, total: 1 } } });
      storeTokenTimes(600);

      const router = renderApp('/currencies');

      expect(await screen.findByText('Swedish Krona')).toBeTruthy();
      expect(screen.queryByRole('link', { name: 'Add' })).toBeNull();
      expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
      for (const path of ['/currencies/add', '/currencies/1', '/currency-conversions/add']) {
        await act(() => router.navigate(path));
        await waitFor(() => expect(router.state.location.pathname).toBe('/403'));
      }
    });
  });
});
