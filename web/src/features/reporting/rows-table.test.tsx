import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { AppProviders } from '../../app/providers.tsx';
import { ROWS_PAGE_SIZE, RowsTable, filterRows } from './components.tsx';

const rows = Array.from({ length: 250 }, (_, i) => ({
  code_id: i + 1,
  code: String(1000 + i),
  name: i === 42 ? 'Electric tractors' : `Item ${i}`,
  volume: `${i}.0000`,
  value: i === 0 ? '123456789012345.6789' : null,
}));
// Totals come from the server (summed in SQL); the screen shows them as they are.
const report = { rows, totals: { volume: '31125.0000', value: '123456789012345.6789' } };

const bodyRows = () => within(screen.getByTestId('report-rows')).getAllByRole('row').filter((r) => r.closest('tbody'));

describe('the rows of a report', () => {
  it('when a report has more rows than a page, then a page is shown with the totals of all rows, and pages and search reach the rest', () => {
    render(
      <AppProviders>
        <RowsTable report={report} />
      </AppProviders>,
    );
    expect(bodyRows()).toHaveLength(ROWS_PAGE_SIZE);
    expect(bodyRows()[0]!.textContent).toContain('1000');
    expect(screen.getByText(`100 shown of 250 matching (250 rows)`)).toBeTruthy();
    expect(within(screen.getByTestId('report-rows')).getByText('31,125')).toBeTruthy();
    // Every decimal of an exact figure, grouped by the locale, never rounded through a float.
    expect(within(screen.getByTestId('report-rows')).getAllByText('123,456,789,012,345.6789')).toHaveLength(2);

    fireEvent.click(screen.getByRole('button', { name: '3' }));
    expect(bodyRows()).toHaveLength(50);
    expect(bodyRows()[0]!.textContent).toContain('1200');

    fireEvent.change(screen.getByRole('textbox', { name: 'Search by code or name' }), { target: { value: 'electric' } });
    expect(bodyRows()).toHaveLength(1);
    expect(bodyRows()[0]!.textContent).toContain('1042');
    expect(screen.getByText('1 shown of 1 matching (250 rows)')).toBeTruthy();
  });

  it('when a report is small, then all rows show without search or pages', () => {
    render(
      <AppProviders>
        <RowsTable report={{ rows: rows.slice(0, 3), totals: { volume: '3.0000', value: '0.0000' } }} />
      </AppProviders>,
    );
    expect(bodyRows()).toHaveLength(3);
    expect(screen.queryByRole('textbox', { name: 'Search by code or name' })).toBeNull();
  });

  it('matches codes and names in any case', () => {
    expect(filterRows(rows, ' ITEM 24').map((r) => r.code)).toEqual(['1024', '1240', '1241', '1242', '1243', '1244', '1245', '1246', '1247', '1248', '1249']);
    expect(filterRows(rows, '')).toBe(rows);
  });
});
