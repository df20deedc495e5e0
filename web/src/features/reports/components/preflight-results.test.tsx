import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { AppProviders } from '../../../app/providers.tsx';
import { PreflightResults } from './preflight-results.tsx';

const missing = (code: number) => ({
  severity: 30,
  key: 'preflight.missing_code',
  params: { code: String(code), name: `Item ${code}`, period: '2026-09' },
  message: `Code ${code} (Item ${code}) was reported in 2026-09 but is missing now.`,
});

describe('the preflight', () => {
  it('when a finding repeats, then it reads as one line with the count that opens to every message; a few stay one by one', () => {
    const results = [
      ...Array.from({ length: 21 }, (_, i) => missing(1001 + i)),
      {
        severity: 30,
        key: 'preflight.deviation_fall',
        params: { code: '2001', name: 'X', field: 'volume', percent: '40.0', period: '2026-09' },
        message: 'Code 2001 (X): volume fell by 40.0 % against 2026-09.',
      },
    ];
    render(
      <AppProviders>
        <PreflightResults preflight={{ severity: 30, results, created_at: '2026-11-01T10:00:00Z' }} />
      </AppProviders>,
    );
    const group = screen.getByTestId('preflight-group');
    expect(group.textContent).toContain('21 codes reported in 2026-09 are missing now.');
    expect(screen.queryByText('Code 1001 (Item 1001) was reported in 2026-09 but is missing now.')).toBeNull();
    // The single deviation is listed as it is.
    expect(screen.getByText('Code 2001 (X): volume fell by 40.0 % against 2026-09.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    expect(screen.getByText('Code 1001 (Item 1001) was reported in 2026-09 but is missing now.')).toBeTruthy();
    expect(screen.getByText('Code 1021 (Item 1021) was reported in 2026-09 but is missing now.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Hide' }).getAttribute('aria-expanded')).toBe('true');
  });
});
