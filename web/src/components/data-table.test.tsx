import { describe, expect, it } from 'vitest';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { Currency, CurrencyInput } from '@mss/contracts/admin';
import { AppProviders } from '../app/providers.tsx';
import { fakeApi, type RecordedCall } from '../test/fake-api.ts';
import { resourceApi } from '../api/resource.ts';
import { DataTable, effectiveSearch } from './data-table.tsx';

const currenciesApi = resourceApi<Currency, CurrencyInput>({ key: 'currencies', path: 'admin/currencies' });

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

function renderTable() {
  render(
    <AppProviders>
      <DataTable
        label="Currencies"
        query={currenciesApi.listQuery}
        defaultSort={{ sort: 'iso_code', direction: 'asc' }}
        searchDelay={50}
        columns={[
          { key: 'iso_code', label: 'ISO code', sortable: true },
          { key: 'name', label: 'Name', sortable: true },
        ]}
      />
    </AppProviders>,
  );
}

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

    expect(screen.getByLabelText('Loading…')).toBeTruthy();
    expect((await screen.findByTestId('empty-state')).textContent).toBe('Nothing here yet.');
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
});
