import { describe, expect, it } from 'vitest';
import { ReportStatus } from '@mss/contracts/enums';
import type { ReportSummary } from '@mss/contracts/reports';
import { reportLink } from './report-link.ts';

const report = (status: number, periodStatus: 'open' | 'closed' = 'open'): ReportSummary => ({
  uuid: 'rep-1',
  status,
  company: { id: 7, name: 'Nordlys Trading AB' },
  market: { id: 1, iso_code: 'SE', international_name: 'Sweden' } as ReportSummary['market'],
  period: { uuid: 'per-1', title: '2026-11', status: periodStatus, deadline: null, published: false },
  submitted_at: null,
  approved_at: null,
  row_count: 0,
  preflight_severity: null,
  sent_back_comment: null,
  updated_at: '2026-11-21T06:00:00Z',
});
const statistics = '/report-statistics/7/1/per-1/rep-1';

describe('where a report’s Open leads', () => {
  it('when the company’s uploader can still work on it, then to its upload screen', () => {
    for (const status of [ReportStatus.Ongoing, ReportStatus.InvalidFile, ReportStatus.WaitingForCompletion, ReportStatus.WaitingForApproval])
      expect(reportLink(report(status), true)).toBe('/import/rep-1');
  });

  it('when it is approved, the period closed, or the reader no uploader of its company, then to its figures', () => {
    expect(reportLink(report(ReportStatus.Approved), true)).toBe(statistics);
    expect(reportLink(report(ReportStatus.Ongoing, 'closed'), true)).toBe(statistics);
    expect(reportLink(report(ReportStatus.Ongoing), false)).toBe(statistics);
  });
});
