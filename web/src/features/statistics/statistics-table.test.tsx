import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { StatisticsFigures, StatisticsRow } from '@mss/contracts/statistics';
import { AppProviders } from '../../app/providers.tsx';
import { atPhoneWidth } from '../../test/media.ts';
import { StatisticsTable } from './statistics-table.tsx';

const figures = (over: Partial<StatisticsFigures>): StatisticsFigures => ({
  volume: null,
  value: null,
  volume_last_year: null,
  value_last_year: null,
  volume_change_pct: null,
  value_change_pct: null,
  ytd_volume: null,
  ytd_value: null,
  ytd_volume_last_year: null,
  ytd_value_last_year: null,
  ytd_volume_change_pct: null,
  ytd_value_change_pct: null,
  volume_share_pct: null,
  value_share_pct: null,
  contributors: null,
  confidential: false,
  estimated: false,
  estimated_last_year: false,
  ytd_estimated: false,
  ytd_estimated_last_year: false,
  // As the server sends them: every figure of a confidential row flagged c.
  flags: Object.fromEntries(
    ['period', 'last_year', 'change', 'ytd', 'ytd_last_year', 'ytd_change'].map((g) => [g, over.confidential ? 'c' : '']),
  ) as StatisticsFigures['flags'],
  hidden_reason: null,
  first_published: null,
  ...over,
});

const rows: StatisticsRow[] = [
  {
    key: { id: 1, code: '1001', name: 'Small' },
    ...figures({ volume: '123456789012345.6789', value: '123456789012345.6788', value_change_pct: '-92.0', value_share_pct: '10.0', contributors: 4 }),
  },
  { key: { id: 2, code: '1002', name: 'Large' }, ...figures({ confidential: true }) },
  {
    key: { id: 3, code: '1003', name: 'Medium' },
    ...figures({ volume: '2.0000', value: '123456789012345.6789', value_change_pct: '12.5', value_share_pct: '90.0', contributors: 3 }),
  },
];
const totals = figures({ volume: '123456789012347.6789', value: '123456789012345.9788', contributors: 7 });

function renderTable(props: Partial<Parameters<typeof StatisticsTable>[0]> = {}) {
  render(
    <AppProviders>
      <StatisticsTable rows={rows} totals={totals} view="period" keyHeader="Code" withShare withOwn={false} label="Statistics" {...props} />
    </AppProviders>,
  );
  return within(screen.getByTestId('statistics-table'));
}
const bodyCodes = (table: ReturnType<typeof renderTable>) =>
  table
    .getAllByRole('row')
    .filter((r) => r.closest('tbody'))
    .map((r) => r.textContent!.slice(0, 4));

describe('a statistics breakdown', () => {
  it('when figures are exact decimals, then they show every digit, signed changes, and a withheld cell says Confidential without a number', () => {
    const table = renderTable();
    expect(table.getAllByText('123,456,789,012,345.6789')).toHaveLength(2);
    expect(table.getByText('123,456,789,012,345.6788')).toBeTruthy();
    expect(table.getByText('−92.0 %')).toBeTruthy();
    expect(table.getByText('+12.5 %')).toBeTruthy();
    const withheld = table.getAllByRole('row').find((r) => r.textContent?.includes('1002 Large'))!;
    expect(within(withheld).getAllByTestId('confidential').length).toBeGreaterThan(0);
    expect(within(screen.getByTestId('statistics-totals')).getByText('123,456,789,012,345.9788')).toBeTruthy();
  });

  it('when nothing was withheld (an approver: confidentiality not applied), then a flagged row without figures shows dashes, not Confidential', () => {
    const table = renderTable({ withheld: false });
    expect(table.queryAllByTestId('confidential')).toHaveLength(0);
    const flagged = table.getAllByRole('row').find((r) => r.textContent?.includes('1002 Large'))!;
    expect(within(flagged).getAllByRole('cell').length).toBeGreaterThan(3);
    expect(within(flagged).getAllByText('–').length).toBeGreaterThan(0);
  });

  it('when sorted by value, then the decimal strings are compared exactly (never as numbers) and withheld rows come last either way', () => {
    const table = renderTable();
    const valueHeader = table.getByRole('button', { name: 'Value' });
    fireEvent.click(valueHeader);
    // …5.6789 above …5.6788: as JavaScript numbers both are 123456789012345.67, and the tie would put 1001 first.
    expect(bodyCodes(table)).toEqual(['1003', '1001', '1002']);
    fireEvent.click(valueHeader);
    expect(bodyCodes(table)).toEqual(['1001', '1003', '1002']);
  });

  it('when a row holds an estimate for a missing report, then its figures carry the mark e (read out as Estimated), last year’s do not, and a note says what it means', () => {
    const estimated: StatisticsRow = {
      key: { id: 4, code: '1004', name: 'Estimated' },
      ...figures({
        volume: '5.0000',
        value: '50.0000',
        value_last_year: '40.0000',
        value_change_pct: '25.0',
        value_share_pct: '1.0',
        estimated: true,
        flags: { period: 'e', last_year: '', change: 'e', ytd: 'e', ytd_last_year: '', ytd_change: 'e' },
      }),
    };
    expect(screen.queryByTestId('estimated-note')).toBeNull();
    const table = renderTable({ rows: [...rows, estimated] });
    const row = table.getAllByRole('row').find((r) => r.textContent?.includes('1004 Estimated'))!;
    // Volume, value, the value's change (one side holds it) and the share: four marks; last year's value none.
    expect(within(row).getAllByTestId('estimated')).toHaveLength(4);
    expect(within(row).getAllByText('Estimated', { selector: 'span' }).length).toBeGreaterThan(0);
    const lastYear = within(row).getByText('40').closest('td')!;
    expect(within(lastYear).queryByTestId('estimated')).toBeNull();
    expect(screen.getByTestId('estimated-note').textContent).toMatch(/^e Estimated: the figure holds estimates for reports not yet in/);
  });

  it('when a figure is flagged revised, then it carries the mark r with a note and the first published figure on hover; a figure flagged b or p carries no mark of its own', async () => {
    const revised: StatisticsRow = {
      key: { id: 5, code: '1005', name: 'Revised' },
      ...figures({
        volume: '5.0000',
        value: '50.0000',
        value_last_year: '40.0000',
        value_change_pct: '25.0',
        flags: { period: 'r', last_year: 'p', change: 'rb', ytd: '', ytd_last_year: '', ytd_change: '' },
        first_published: { volume: '4.0000', value: '45.5000' },
      }),
    };
    expect(screen.queryByTestId('revised-note')).toBeNull();
    const table = renderTable({ rows: [...rows, revised] });
    const row = table.getAllByRole('row').find((r) => r.textContent?.includes('1005 Revised'))!;
    // Volume, value and the value's change.
    expect(within(row).getAllByTestId('revised')).toHaveLength(3);
    expect(within(row).queryByTestId('estimated')).toBeNull();
    expect(screen.getByTestId('revised-note').textContent).toMatch(/^r Revised: the figure differs from the one first published/);
    // On hover, the figure first published.
    fireEvent.mouseEnter(within(row).getAllByTestId('revised')[1]!);
    expect(await screen.findByText('Differs from the figure first published for this period: 45.5.')).toBeTruthy();
  });

  it('when an approver sees a row hidden from viewers, then its key says why; a viewer, who sees it withheld, is not told', () => {
    const hidden: StatisticsRow = {
      key: { id: 6, code: '1006', name: 'Lonely' },
      ...figures({ volume: '1.0000', confidential: true, hidden_reason: 'contributors' }),
    };
    const table = renderTable({ rows: [...rows, hidden], withheld: false });
    const row = table.getAllByRole('row').find((r) => r.textContent?.includes('1006 Lonely'))!;
    expect(within(row).getByTestId('hidden-reason').textContent).toBe('Too few companies');
    cleanupAndRender({ rows: [...rows, { ...hidden, volume: null, hidden_reason: null }] });
    expect(screen.queryByTestId('hidden-reason')).toBeNull();
  });

  it('when ranked (the company breakdown), then the rank follows the value', () => {
    const table = renderTable({ ranked: true });
    const medium = table.getAllByRole('row').find((r) => r.textContent?.includes('Medium'))!;
    expect(within(medium).getAllByRole('cell')[0]!.textContent).toBe('1');
  });
});

describe('a statistics breakdown: notes and phones', () => {
  afterEach(() => vi.restoreAllMocks());

  it('when the breakdown is the total alone, then no "No approved figures" shows above a total that has figures; with none, it does', () => {
    renderTable({ rows: [] });
    expect(screen.queryByText('No approved figures in this period.')).toBeNull();
    expect(within(screen.getByTestId('statistics-totals')).getByText('123,456,789,012,345.9788')).toBeTruthy();
    cleanupAndRender({ rows: [], totals: figures({}) });
    expect(screen.getByText('No approved figures in this period.')).toBeTruthy();
  });

  it('when values were converted, then they show 2 decimals (volumes stay exact); when coverage differs, each change column is marked', () => {
    const table = renderTable({ converted: true, coverageDiffers: true });
    expect(within(screen.getByTestId('statistics-totals')).getByText('123,456,789,012,345.98')).toBeTruthy();
    expect(within(screen.getByTestId('statistics-totals')).getByText('123,456,789,012,347.6789')).toBeTruthy();
    expect(table.getAllByRole('button', { name: /^Change †/ })).toHaveLength(2);
  });

  it('when the screen is a phone, then each row is a card with its figures under their labels, the total first, and a withheld row says so in words', () => {
    atPhoneWidth();
    render(
      <AppProviders>
        <StatisticsTable rows={rows} totals={totals} view="period" keyHeader="Code" withShare withOwn={false} label="Statistics" />
      </AppProviders>,
    );
    expect(screen.queryByTestId('statistics-table')).toBeNull();
    const cards = screen.getAllByTestId('statistics-card');
    expect(cards.map((c) => c.querySelector('p')!.textContent)).toEqual(['Total', '1001 Small', '1002 Large', '1003 Medium']);
    expect(within(cards[1]!).getByText('−92.0 %')).toBeTruthy();
    expect(within(cards[2]!).getByTestId('confidential')).toBeTruthy();
    expect(within(cards[2]!).getByText('Withheld so that no company can read another company’s figures.')).toBeTruthy();
    expect(within(cards[2]!).queryByText('Volume')).toBeNull();
  });

  it('when the screen is a phone, then the cards are sorted from a list: value highest first (exactly), a change, back as listed', () => {
    atPhoneWidth();
    render(
      <AppProviders>
        <StatisticsTable rows={rows} totals={totals} view="period" keyHeader="Code" withShare withOwn={false} label="Statistics" />
      </AppProviders>,
    );
    const titles = () => screen.getAllByTestId('statistics-card').map((c) => c.querySelector('p')!.textContent);
    const sortBy = screen.getByRole('combobox', { name: 'Sort by' });
    expect([...(sortBy as HTMLSelectElement).options].map((o) => o.text)).toContain('Value change, highest first');
    fireEvent.change(sortBy, { target: { value: 'value' } });
    // …5.6789 above …5.6788 (equal as JavaScript numbers); the withheld row last.
    expect(titles()).toEqual(['Total', '1003 Medium', '1001 Small', '1002 Large']);
    fireEvent.change(sortBy, { target: { value: 'value_change_pct' } });
    expect(titles()).toEqual(['Total', '1003 Medium', '1001 Small', '1002 Large']);
    fireEvent.change(sortBy, { target: { value: 'key' } });
    expect(titles()).toEqual(['Total', '1001 Small', '1002 Large', '1003 Medium']);
    fireEvent.change(sortBy, { target: { value: '' } });
    expect(titles()).toEqual(['Total', '1001 Small', '1002 Large', '1003 Medium']);
  });
});

function cleanupAndRender(props: Partial<Parameters<typeof StatisticsTable>[0]>) {
  cleanup();
  return renderTable(props);
}
