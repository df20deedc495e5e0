import { describe, expect, it } from 'vitest';
import { ReportStatus } from '@mss/contracts/enums';
import type { ReportSummary } from '@mss/contracts/reports';
import { isPast } from '../../lib/dates.ts';
import { progressByPeriod, recentReports } from './dashboard-tasks.tsx';

const market = { id: 1, international_name: 'Sweden', local_name: 'Sverige', iso_code: 'SE' };
const period = (uuid: string, deadline: string | null) => ({ uuid, title: uuid, status: 'open' as const, deadline, published: false });
const report = (status: number, p: ReturnType<typeof period>): ReportSummary => ({
  uuid: `${p.uuid}-${status}-${Math.random()}`,
  status,
  company: { id: 1, name: 'Company' },
  market,
  period: p,
  submitted_at: null,
  approved_at: null,
  updated_at: '2026-11-01T00:00:00.000Z',
  row_count: 0,
  preflight_severity: null,
  sent_back_comment: null,
});

describe('the dashboard of open periods', () => {
  it('counts each period’s reports: submitted means sent for approval or approved', () => {
    const october = period('2026-10', '2026-11-10');
    const november = period('2026-11', '2026-12-10');
    const reports = [
      report(ReportStatus.Ongoing, october),
      report(ReportStatus.WaitingForApproval, october),
      report(ReportStatus.Approved, october),
      report(ReportStatus.WaitingForCompletion, october),
      report(ReportStatus.InvalidFile, november),
    ];
    expect(progressByPeriod(reports).map((p) => [p.period.uuid, p.total, p.submitted, p.approved])).toEqual([
      ['2026-10', 4, 2, 1],
      ['2026-11', 1, 0, 0],
    ]);
  });

  it('calls a deadline past from the day after it on, and never without a deadline', () => {
    expect(isPast('2026-11-10', '2026-11-10')).toBe(false);
    expect(isPast('2026-11-10', '2026-11-11')).toBe(true);
    expect(isPast('2026-11-10T00:00:00.000Z', '2026-11-11')).toBe(true);
    expect(isPast(null, '2026-11-11')).toBe(false);
  });
});

describe('the recent reports of a company', () => {
  it('keeps submitted and approved reports changed in the last 45 days, newest first, at most 8', () => {
    const now = Date.parse('2026-11-25T12:00:00Z');
    const at = (daysAgo: number) => ({
      ...report(ReportStatus.Approved, period(`p${daysAgo}`, null)),
      updated_at: new Date(now - daysAgo * 86_400_000).toISOString(),
    });
    const list = [at(50), at(1), at(44), at(3), ...Array.from({ length: 10 }, (_, i) => at(10 + i))];
    const recent = recentReports(list, now);
    expect(recent).toHaveLength(8);
    expect(recent[0]!.period.uuid).toBe('p1');
    expect(recent[1]!.period.uuid).toBe('p3');
    expect(recent.some((r) => r.period.uuid === 'p50')).toBe(false);
  });
});
