import { describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import type { PublicationPattern, PublicationPreview } from '@mss/contracts/periods';
import { AppProviders } from '../../app/providers.tsx';
import { PublicationPreviewDetails } from './publication-preview.tsx';

const pattern = (over: Partial<PublicationPattern> = {}): PublicationPattern => ({
  cells: 12,
  hidden: 4,
  primary: 3,
  by_dimension: [
    { dimension: 'code', cells: 8, hidden: 4 },
    { dimension: 'code_group', cells: 1, hidden: 0 },
    { dimension: 'code_section', cells: 2, hidden: 0 },
    { dimension: 'total', cells: 1, hidden: 0 },
  ],
  total_hidden: false,
  unprotectable: [],
  ...over,
});

function show(preview: PublicationPreview) {
  render(
    <AppProviders>
      <PublicationPreviewDetails preview={preview} />
    </AppProviders>,
  );
}

describe('what publishing would show', () => {
  it('when a complete period is previewed, then the cells viewers will see are counted by breakdown, and nothing more is said', () => {
    show({ number: 1, changed: true, estimated: 0, coverage: { approved: 5, expected: 5 }, now: pattern(), later: null, advice: null });
    expect(screen.getByText('Viewers will see 8 of the period’s 12 cells; 4 are hidden as confidential.')).toBeTruthy();
    const list = within(screen.getByTestId('preview-breakdowns'));
    for (const line of ['Codes: 4 of 8 hidden', 'Code groups: 0 of 1 hidden', 'Code sections: 0 of 2 hidden', 'Total: shown'])
      expect(list.getByText(line)).toBeTruthy();
    expect(screen.queryByTestId('preview-later')).toBeNull();
    expect(screen.queryByTestId('preview-unprotectable')).toBeNull();
  });

  it('when reports are missing and publishing again would blank the period, then it says so and advises waiting', () => {
    const later = pattern({ hidden: 12, total_hidden: true, by_dimension: pattern().by_dimension.map((d) => ({ ...d, hidden: d.cells })) });
    show({
      number: 1,
      changed: true,
      estimated: 0,
      coverage: { approved: 3, expected: 5 },
      now: pattern(),
      later: { simulated: 1, unknown: 1, pattern: later },
      advice: 'wait',
    });
    const alert = within(screen.getByTestId('preview-later'));
    expect(alert.getByText('Publishing now would blank this period later')).toBeTruthy();
    expect(
      alert.getByText(
        'Publishing again once the missing reports are approved would hide 12 of 12 cells (simulated with the latest approved report of 1 missing company). The total would be hidden too.',
      ),
    ).toBeTruthy();
    expect(alert.getByText('1 missing company has no earlier approved report and is left out of this simulation.')).toBeTruthy();
    expect(alert.getByText(/We recommend waiting until every report is approved\./)).toBeTruthy();
  });

  it('when sums can no longer be protected, then each is named with its reason', () => {
    const now = pattern({
      unprotectable: [
        { kind: 'cell', dimension: 'code', key_id: 7, name: '1002 Tractors', publication: 2, without: null, period: null },
        { kind: 'earlier', dimension: 'total', key_id: 0, name: null, publication: 1, without: null, period: null },
        { kind: 'difference', dimension: 'code_group', key_id: 3, name: 'Machines', publication: 1, without: 2, period: null },
        { kind: 'earlier', dimension: 'code', key_id: 9, name: '2003 Trailers', publication: 1, without: null, period: '2026-02' },
      ],
    });
    show({ number: 2, changed: true, estimated: 0, coverage: { approved: 4, expected: 5 }, now, later: null, advice: null });
    const alert = within(screen.getByTestId('preview-unprotectable'));
    expect(alert.getByText('4 confidential figures cannot be fully protected')).toBeTruthy();
    // A sum of the period an estimate was made from is named with its period.
    expect(alert.getByText('2003 Trailers (2026-02), confidential in publication 1')).toBeTruthy();
    expect(alert.getByText('1002 Tractors')).toBeTruthy();
    expect(alert.getByText('Total, confidential in publication 1')).toBeTruthy();
    expect(alert.getByText('Machines: the figures of the companies publication 1 counts and publication 2 does not')).toBeTruthy();
  });

  it('when missing reports are counted as estimates, then it says how many, and that their figures are marked', () => {
    show({ number: 1, changed: true, estimated: 2, coverage: { approved: 3, expected: 5 }, now: pattern(), later: null, advice: null });
    expect(screen.getByTestId('preview-estimated').textContent).toBe(
      '2 missing reports are counted as estimates (each company’s last published report times the change of the others); their figures are marked as estimated until the reports arrive.',
    );
  });

  it('when nothing changed since the latest publication, then it says viewers keep it', () => {
    show({ number: 3, changed: false, estimated: 0, coverage: { approved: 5, expected: 5 }, now: pattern(), later: null, advice: null });
    expect(
      screen.getByText('Nothing changed since publication 3: viewers keep what it shows, 4 of the period’s 12 cells hidden as confidential.'),
    ).toBeTruthy();
  });
});
