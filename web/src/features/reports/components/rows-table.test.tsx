import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReportRow } from '@mss/contracts/reports';
import { AppProviders } from '../../../app/providers.tsx';
import { fakeApi, type RecordedCall } from '../../../test/fake-api.ts';
import { ROWS_PAGE_SIZE, RowsTable } from './rows-table.tsx';
import { notCompared } from '../../../test/report-fixtures.ts';

const rows: ReportRow[] = Array.from({ length: 250 }, (_, i) => ({
  code_id: i + 1,
  code: String(1000 + i),
  name: i === 42 ? 'Electric tractors' : `Item ${i}`,
  volume: `${i}.0000`,
  value: i === 0 ? '123456789012345.6789' : null,
  ...notCompared,
}));
// Totals and the row count come with the report (summed in SQL); the screen shows them as they are.
const report = { uuid: 'rep-1', row_count: rows.length, totals: { volume: '31125.0000', value: '123456789012345.6789' } };

/** The server's GET /reports/rep-1/rows: pages and searches (code or name, any case) like the real one. */
function rowsEndpoint(all: ReportRow[]) {
  return fakeApi().on('GET', 'reports/rep-1/rows', (call: RecordedCall) => {
    const query = new URL(call.url, 'http://localhost').searchParams;
    const page = Number(query.get('page'));
    const perPage = Number(query.get('per_page'));
    const search = query.get('search')?.toLowerCase();
    const matching = search ? all.filter((r) => r.code.toLowerCase().includes(search) || r.name.toLowerCase().includes(search)) : all;
    return { body: { data: matching.slice((page - 1) * perPage, page * perPage), meta: { page, per_page: perPage, total: matching.length } } };
  });
}

const bodyRows = () =>
  within(screen.getByTestId('report-rows'))
    .getAllByRole('row')
    .filter((r) => r.closest('tbody'));
const searches = (api: ReturnType<typeof fakeApi>) =>
  api.callsTo('GET', 'reports/rep-1/rows').map((c) => new URL(c.url, 'http://localhost').searchParams.get('search'));

describe('the rows of a report', () => {
  it('when a report has more rows than a page, then the server sends one page, the totals are the whole report, and pages and search ask the server', async () => {
    const api = rowsEndpoint(rows);
    render(
      <AppProviders>
        <RowsTable report={report} searchDelay={10} />
      </AppProviders>,
    );
    expect(await screen.findByText('1000')).toBeTruthy();
    expect(bodyRows()).toHaveLength(ROWS_PAGE_SIZE);
    expect(api.calls[0]!.url).toBe(`/api/v1/reports/rep-1/rows?page=1&per_page=${ROWS_PAGE_SIZE}`);
    expect(screen.getByText('100 shown of 250 matching (250 rows)')).toBeTruthy();
    expect(within(screen.getByTestId('report-rows')).getByText('31,125')).toBeTruthy();
    // Every decimal of an exact figure, grouped by the locale, never rounded through a float.
    expect(within(screen.getByTestId('report-rows')).getAllByText('123,456,789,012,345.6789')).toHaveLength(2);

    fireEvent.click(screen.getByRole('button', { name: '3' }));
    expect(await screen.findByText('1200')).toBeTruthy();
    expect(bodyRows()).toHaveLength(50);
    expect(api.calls.at(-1)!.url).toBe(`/api/v1/reports/rep-1/rows?page=3&per_page=${ROWS_PAGE_SIZE}`);

    // Two characters are not a search (the server would refuse them); the third one is, from page 1.
    const search = screen.getByRole('textbox', { name: 'Search by code or name' });
    fireEvent.change(search, { target: { value: 'el' } });
    fireEvent.change(search, { target: { value: 'ELECTRIC' } });
    expect(await screen.findByText('Electric tractors')).toBeTruthy();
    expect(bodyRows()).toHaveLength(1);
    expect(bodyRows()[0]!.textContent).toContain('1042');
    expect(screen.getByText('1 shown of 1 matching (250 rows)')).toBeTruthy();
    expect(api.calls.at(-1)!.url).toBe(`/api/v1/reports/rep-1/rows?page=1&per_page=${ROWS_PAGE_SIZE}&search=ELECTRIC`);
    // Debounced: the typing in between sent nothing, and never a search under 3 characters.
    expect(searches(api)).toEqual([null, null, 'ELECTRIC']);
    // The totals stay those of the whole report.
    expect(within(screen.getByTestId('report-rows')).getByText('31,125')).toBeTruthy();

    fireEvent.change(search, { target: { value: 'nothing like it' } });
    expect(await screen.findByText('Nothing matches "nothing like it".')).toBeTruthy();
  });

  it('when a report is small, then all its rows show without search or pages', async () => {
    rowsEndpoint(rows.slice(0, 3));
    render(
      <AppProviders>
        <RowsTable report={{ uuid: 'rep-1', row_count: 3, totals: { volume: '3.0000', value: '0.0000' } }} />
      </AppProviders>,
    );
    await waitFor(() => expect(bodyRows()).toHaveLength(3));
    expect(screen.queryByRole('textbox', { name: 'Search by code or name' })).toBeNull();
    expect(screen.queryByRole('navigation')).toBeNull();
  });

  it('when a report has no rows, then it says so and asks the server nothing', () => {
    const api = rowsEndpoint([]);
    render(
      <AppProviders>
        <RowsTable report={{ uuid: 'rep-1', row_count: 0, totals: { volume: '0.0000', value: '0.0000' } }} />
      </AppProviders>,
    );
    expect(screen.getByText('The report has no rows yet.')).toBeTruthy();
    expect(api.calls).toHaveLength(0);
  });
});

describe('the rows of a report beside the previous period and last year (what changed)', () => {
  const compared: ReportRow[] = [
    {
      code_id: 1,
      code: '1001',
      name: 'Small',
      volume: '8.0000',
      value: '1100.0000',
      volume_previous: '100.0000',
      value_previous: '1000.0000',
      volume_previous_change_pct: '-92.0',
      value_previous_change_pct: '10.0',
      volume_last_year: '50.0000',
      value_last_year: '400.0000',
      volume_last_year_change_pct: '-84.0',
      value_last_year_change_pct: '175.0',
      // The volume fell by more than the setting; the value's +10 % did not.
      deviates: true,
      volume_deviates: true,
      value_deviates: false,
    },
    {
      ...notCompared,
      code_id: 2,
      code: '1003',
      name: 'Half up',
      volume: '224.9000',
      value: '200.0000',
      volume_previous: '200.0000',
      volume_previous_change_pct: '12.5',
    },
    { ...notCompared, code_id: 3, code: '1006', name: 'New', volume: '1.0000', value: '1.0000' },
  ];
  const comparison = {
    previous: { period: { uuid: 'per-0', title: '2026-09' }, report: { uuid: 'rep-0', status: 60 } },
    last_year: { period: { uuid: 'per-y', title: '2025-10' }, report: null },
    deviation_percentage: '20',
  };
  function endpoint() {
    return fakeApi()
      .withEnumerations()
      .on('GET', 'reports/rep-1/rows', (call: RecordedCall) => {
        const query = new URL(call.url, 'http://localhost').searchParams;
        const data = query.get('deviating') === '1' ? compared.filter((r) => r.deviates) : compared;
        return { body: { data, meta: { page: 1, per_page: 100, total: data.length }, comparison } };
      });
  }

  it('when compared, then the headers name the periods, changes are signed, a deviating row is marked with more than colour, and the toggle asks the server', async () => {
    const api = endpoint();
    render(
      <AppProviders>
        <RowsTable report={{ uuid: 'rep-1', row_count: 3, totals: { volume: '233.9000', value: '1301.0000' }, period: { title: '2026-10' } }} compare />
      </AppProviders>,
    );
    expect(await screen.findByText('Small')).toBeTruthy();
    const table = screen.getByTestId('report-rows');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    // Each change under a column of its own.
    expect(headers).toEqual([
      'Code',
      'Name',
      'Volume',
      'Value',
      '2026-10',
      '2026-09',
      'Change',
      '2025-10',
      'Change',
      '2026-10',
      '2026-09',
      'Change',
      '2025-10',
      'Change',
    ]);
    expect(screen.getByTestId('rows-comparison').textContent).toBe(
      "Compared with the same company's 2026-09 (Approved), 2025-10 (no report). Rows marked ⚠ changed by more than 20\u00a0% against 2026-09; codes of 2026-09 missing now are listed in the preflight.",
    );
    const [small, halfUp, fresh] = bodyRows();
    expect(small!.textContent).toContain('100\u221292.0\u00a0%');
    expect(small!.textContent).toContain('1,000+10.0\u00a0%');
    expect(small!.textContent).toContain('50\u221284.0\u00a0%');
    expect(small!.getAttribute('data-deviates')).toBe('true');
    // Only the change past the setting stands out: the volume's against 2026-09, not the value's.
    const standing = small!.querySelectorAll('td[data-deviates]');
    expect([...standing].map((cell) => cell.textContent)).toEqual(['\u221292.0\u00a0%']);
    // Not colour alone: a sign, and a text for screen readers.
    expect(within(small!).getByText('Deviates by more than 20 % from 2026-09')).toBeTruthy();
    expect(within(small!).getByText('⚠')).toBeTruthy();
    expect(halfUp!.textContent).toContain('+12.5\u00a0%');
    expect(halfUp!.getAttribute('data-deviates')).toBeNull();
    expect(within(halfUp!).queryByText('⚠')).toBeNull();
    expect(fresh!.textContent).toBe('1006New1––1––');

    fireEvent.click(screen.getByRole('switch', { name: 'Only deviating rows' }));
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect(api.calls.at(-1)!.url).toBe(`/api/v1/reports/rep-1/rows?page=1&per_page=${ROWS_PAGE_SIZE}&deviating=1`);
    expect(screen.getByText('1 shown of 1 matching (3 rows)')).toBeTruthy();
  });

  it('when the market has no earlier period, then it says so and offers no deviation controls', async () => {
    fakeApi()
      .withEnumerations()
      .on('GET', 'reports/rep-1/rows', {
        body: { data: [compared[2]], meta: { page: 1, per_page: 100, total: 1 }, comparison: { previous: null, last_year: null, deviation_percentage: '20' } },
      });
    render(
      <AppProviders>
        <RowsTable report={{ uuid: 'rep-1', row_count: 1, totals: { volume: '1.0000', value: '1.0000' } }} compare />
      </AppProviders>,
    );
    expect(await screen.findByText('No earlier period of this market to compare with.')).toBeTruthy();
    expect(screen.queryByRole('switch', { name: 'Only deviating rows' })).toBeNull();
  });
});
