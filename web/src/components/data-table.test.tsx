import { type ReactNode, Suspense, lazy } from 'react';
import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import type { Currency } from '@mss/contracts/admin';
import { AppProviders } from '../app/providers.tsx';
import { fakeApi, type RecordedCall } from '../test/fake-api.ts';
import { resourceApi } from '../api/resource.ts';
import { DataTable, effectiveSearch } from './data-table.tsx';

const currenciesApi = resourceApi({
  key: 'currencies',
  list: '/admin/currencies',
  one: '/admin/currencies/{id}',
  create: '/admin/currencies',
  item: '/admin/currencies/{id}',
});

const currency = (id: number): Currency => ({ id, iso_code: `C${String(id).padStart(2, '0')}`, name: `Currency ${id}` });

/** A list endpoint of `total` currencies that answers the page asked for. */
function currencyList(total: number, delay = 0) {
  return (call: RecordedCall) => {
    const query = new URL(call.url, 'http://localhost').searchParams;
    const page = Number(query.get('page'));
    const perPage = Number(query.get('per_page'));
    const ids = Array.from({ length: total }, (_, i) => i + 1).slice((page - 1) * perPage, page * perPage);
    return { body: { data: ids.map(currency), meta: { page, per_page: perPage, total } }, delay };
  };
}

const queryOf = (call: RecordedCall) => Object.fromEntries(new URL(call.url, 'http://localhost').searchParams);

/** The table on a screen of its own at /currencies (the URL holds its state), opened at `url`. */
function renderTable(url = '/currencies', props: { stateKey?: string } = {}) {
  const router = createMemoryRouter(
    [
      {
        path: '/currencies',
        element: (
          <DataTable
            label="Currencies"
            query={currenciesApi.listQuery}
            defaultSort={{ sort: 'iso_code', direction: 'asc' }}
            searchDelay={50}
            columns={[
              { key: 'iso_code', label: 'ISO code', sortable: true },
              { key: 'name', label: 'Name', sortable: true },
            ]}
            {...props}
          />
        ),
      },
    ],
    { initialEntries: [url] },
  );
  render(
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return router;
}

const urlQuery = (router: ReturnType<typeof renderTable>) => Object.fromEntries(new URLSearchParams(router.state.location.search));

describe('effectiveSearch', () => {
  it('when the text has fewer than 3 characters (after trimming), then no search is sent', () => {
    expect(effectiveSearch('')).toBeUndefined();
    expect(effectiveSearch('  eu  ')).toBeUndefined();
    expect(effectiveSearch(' eur ')).toBe('eur');
  });
});

describe('the list component', () => {
  it('when it opens, then it asks for the first page in the default order and shows the rows', async () => {
    const api = fakeApi().on('GET', 'admin/currencies', currencyList(3));
    renderTable();

    const table = await screen.findByRole('table', { name: 'Currencies' });
    expect(await within(table).findByText('C01')).toBeTruthy();
    expect(queryOf(api.callsTo('GET', 'admin/currencies')[0]!)).toEqual({ page: '1', per_page: '25', sort: 'iso_code', direction: 'asc' });
    expect(screen.getByTestId('list-range').textContent).toBe('1–3 of 3');
  });

  it('while the page loads, then a loader shows; when nothing is there, then the empty state', async () => {
    fakeApi().on('GET', 'admin/currencies', currencyList(0, 100));
    renderTable();

    expect(screen.getAllByLabelText('Loading…').length).toBeGreaterThan(0);
    expect((await screen.findByTestId('empty-state')).textContent).toBe('Nothing to show.');
  });

  it('when a search is typed, then it is sent (debounced, from page 1) only once longer than 2 characters', async () => {
    const api = fakeApi().on('GET', 'admin/currencies', currencyList(60));
    renderTable();
    await screen.findByText('C01');
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await screen.findByText('C26');

    const input = screen.getByRole('searchbox', { name: 'Search' });
    fireEvent.change(input, { target: { value: 'e' } });
    fireEvent.change(input, { target: { value: 'eu' } });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(api.callsTo('GET', 'admin/currencies').some((call) => 'search' in queryOf(call))).toBe(false);

    fireEvent.change(input, { target: { value: 'eur' } });
    await waitFor(() => expect(api.callsTo('GET', 'admin/currencies').some((call) => queryOf(call).search === 'eur')).toBe(true));
    const searches = api.callsTo('GET', 'admin/currencies').filter((call) => 'search' in queryOf(call));
    expect(searches.map(queryOf)).toEqual([{ page: '1', per_page: '25', sort: 'iso_code', direction: 'asc', search: 'eur' }]);
  });

  it('when a sortable header is clicked, then the list is asked sorted by it, ascending then descending', async () => {
    const api = fakeApi().on('GET', 'admin/currencies', currencyList(3));
    renderTable();
    await screen.findByText('C01');

    await act(async () => fireEvent.click(screen.getByRole('button', { name: /Name/ })));
    await waitFor(() => expect(queryOf(api.calls.at(-1)!)).toMatchObject({ sort: 'name', direction: 'asc', page: '1' }));
    expect(screen.getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).toBe('ascending');

    await act(async () => fireEvent.click(screen.getByRole('button', { name: /Name/ })));
    await waitFor(() => expect(queryOf(api.calls.at(-1)!)).toMatchObject({ sort: 'name', direction: 'desc' }));
    expect(screen.getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).toBe('descending');
  });

  it('when another page is chosen, then that page is requested and the range follows', async () => {
    const api = fakeApi().on('GET', 'admin/currencies', currencyList(60));
    renderTable();
    await screen.findByText('C01');

    fireEvent.click(screen.getByRole('button', { name: '3' }));
    expect(await screen.findByText('C51')).toBeTruthy();
    expect(queryOf(api.calls.at(-1)!)).toMatchObject({ page: '3', per_page: '25' });
    expect(screen.getByTestId('list-range').textContent).toBe('51–60 of 60');
  });

  it('while a page loads, then no range such as "0–0 of 0" is shown but a loader; the range comes with the rows', async () => {
    fakeApi().on('GET', 'admin/currencies', currencyList(60, 80));
    renderTable();

    expect(screen.queryByTestId('list-range')).toBeNull();
    expect(screen.getByTestId('list-range-loading')).toBeTruthy();
    expect((await screen.findByTestId('list-range')).textContent).toBe('1–25 of 60');

    // Another page: the rows of the first stay meanwhile, but their range is not the new page's.
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(screen.queryByTestId('list-range')).toBeNull());
    expect(screen.getByTestId('list-range-loading')).toBeTruthy();
    expect((await screen.findByTestId('list-range')).textContent).toBe('26–50 of 60');
  });

  it('when a column sorts, then its sort button is the whole header cell, not only its words and icon', async () => {
    fakeApi().on('GET', 'admin/currencies', currencyList(3));
    renderTable();
    await screen.findByText('C01');

    const header = screen.getByRole('columnheader', { name: /Name/ });
    const button = within(header).getByRole('button', { name: /Name/ });
    // The cell has no padding of its own around the button, which fills it.
    expect(parseFloat(header.style.padding)).toBe(0);
    expect(button.style.width).toBe('100%');
    expect(button.style.height).toBe('100%');
    expect(header.children).toHaveLength(1);
  });
});

describe('the list state in the URL', () => {
  it('when the URL holds page, rows per page, sort, direction and search (a reload or a link), then the list opens as it says', async () => {
    const api = fakeApi().on('GET', 'admin/currencies', currencyList(60));
    renderTable('/currencies?page=2&per_page=10&sort=name&direction=desc&search=cur');

    expect(await screen.findByText('C11')).toBeTruthy();
    expect(queryOf(api.callsTo('GET', 'admin/currencies')[0]!)).toEqual({ page: '2', per_page: '10', sort: 'name', direction: 'desc', search: 'cur' });
    expect((screen.getByRole('searchbox', { name: 'Search' }) as HTMLInputElement).value).toBe('cur');
    expect(screen.getByRole('columnheader', { name: /Name/ }).getAttribute('aria-sort')).toBe('descending');
  });

  it('when the URL holds values the list does not know (a column that does not sort, a page of 0), then the defaults are asked for', async () => {
    const api = fakeApi().on('GET', 'admin/currencies', currencyList(3));
    renderTable('/currencies?page=0&per_page=7&sort=password&direction=sideways');

    await screen.findByText('C01');
    expect(queryOf(api.callsTo('GET', 'admin/currencies')[0]!)).toEqual({ page: '1', per_page: '25', sort: 'iso_code', direction: 'asc' });
  });

  it('when a page or a sort is chosen, then it is a new history entry, and Back shows the list as it was', async () => {
    fakeApi().on('GET', 'admin/currencies', currencyList(60));
    const router = renderTable();
    await screen.findByText('C01');

    fireEvent.click(screen.getByRole('button', { name: '3' }));
    expect(await screen.findByText('C51')).toBeTruthy();
    expect(urlQuery(router)).toEqual({ page: '3' });
    expect(router.state.historyAction).toBe('PUSH');

    fireEvent.click(screen.getByRole('button', { name: /Name/ }));
    await waitFor(() => expect(urlQuery(router)).toEqual({ sort: 'name', direction: 'asc' }));
    expect(router.state.historyAction).toBe('PUSH');

    await act(() => router.navigate(-1));
    expect(await screen.findByText('C51')).toBeTruthy();
    expect(urlQuery(router)).toEqual({ page: '3' });
    expect(screen.getByTestId('list-range').textContent).toBe('51–60 of 60');

    await act(() => router.navigate(-1));
    expect(await screen.findByText('C01')).toBeTruthy();
    expect(urlQuery(router)).toEqual({});
  });

  it('when a search is typed, then it replaces the history entry (from page 1), and Back goes to the list before the search', async () => {
    fakeApi().on('GET', 'admin/currencies', currencyList(60));
    const router = renderTable('/currencies');
    await screen.findByText('C01');
    fireEvent.click(screen.getByRole('button', { name: '2' }));
    await screen.findByText('C26');

    const input = screen.getByRole('searchbox', { name: 'Search' });
    fireEvent.change(input, { target: { value: 'cu' } });
    fireEvent.change(input, { target: { value: 'cur' } });
    await waitFor(() => expect(urlQuery(router)).toEqual({ search: 'cur' }));
    expect(router.state.historyAction).toBe('REPLACE');

    await act(() => router.navigate(-1));
    await waitFor(() => expect(urlQuery(router)).toEqual({}));
    expect((screen.getByRole('searchbox', { name: 'Search' }) as HTMLInputElement).value).toBe('');
  });

  it('when a screen has more than one list, then each keeps its state under its own prefix', async () => {
    const api = fakeApi().on('GET', 'admin/currencies', currencyList(60));
    const router = renderTable('/currencies?deliveries_page=2&page=9', { stateKey: 'deliveries' });

    expect(await screen.findByText('C26')).toBeTruthy();
    expect(queryOf(api.callsTo('GET', 'admin/currencies')[0]!)).toMatchObject({ page: '2' });
    fireEvent.click(screen.getByRole('button', { name: /Name/ }));
    await waitFor(() => expect(urlQuery(router)).toEqual({ page: '9', deliveries_sort: 'name', deliveries_direction: 'asc' }));
  });
});

const SlowScreen = lazy(() => new Promise<{ default: () => ReactNode }>((resolve) => setTimeout(() => resolve({ default: () => <p>Currency 1</p> }), 200)));

describe('the list while the user leaves it', () => {
  it('when a link is followed before the search was written, then the next screen gets no search in its address', async () => {
    fakeApi().on('GET', 'admin/currencies', currencyList(30));
    const router = createMemoryRouter(
      [
        {
          path: '/currencies',
          element: (
            <DataTable label="Currencies" query={currenciesApi.listQuery} searchDelay={50} columns={[{ key: 'iso_code', label: 'ISO code', sortable: true }]} />
          ),
        },
        // A screen whose code takes a while to load (a lazy chunk on a slow line), as the app's screens do.
        { path: '/currencies/view/1', element: <SlowScreen /> },
      ],
      { initialEntries: ['/currencies'] },
    );
    render(
      <AppProviders>
        <Suspense fallback="Loading">
          <RouterProvider router={router} />
        </Suspense>
      </AppProviders>,
    );
    await screen.findByText('C01');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search' }), { target: { value: 'C01' } });
    await act(async () => {
      void router.navigate('/currencies/view/1');
    });
    expect(await screen.findByText('Currency 1')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(router.state.location.pathname).toBe('/currencies/view/1');
    expect(router.state.location.search).toBe('');
  });
});
