import { describe, expect, it } from 'vitest';
import { ReportStatus } from './enums.ts';
import { canUploadInStatus, nextReportStatus, REPORT_EVENTS, type ReportEvent, reportEventRefusal, WORKER_EVENTS } from './reports.ts';

/** Every status, and none (the report does not exist yet). */
const ALL: (number | null)[] = [null, ...Object.values(ReportStatus)];
const S = ReportStatus;

// The whole table of docs/architecture.md §5 and of the events the job and copy-previous need: every
// (status, event) pair not listed here must be refused. [from, event, to, before?]
const ALLOWED: [number | null, ReportEvent, number, number?][] = [
  [null, 'create', S.Ongoing],
  [S.Ongoing, 'upload', S.ProcessingFile],
  [S.InvalidFile, 'upload', S.ProcessingFile],
  [S.WaitingForCompletion, 'upload', S.ProcessingFile],
  [S.ProcessingFile, 'file_invalid', S.InvalidFile],
  [S.ProcessingFile, 'file_valid', S.ProcessingData],
  [S.ProcessingData, 'rows_stored', S.Ongoing, S.Ongoing],
  [S.ProcessingData, 'rows_stored', S.Ongoing, S.InvalidFile],
  [S.ProcessingData, 'rows_stored', S.WaitingForCompletion, S.WaitingForCompletion],
  [S.ProcessingData, 'restart', S.ProcessingFile],
  [S.ProcessingFile, 'give_up', S.InvalidFile],
  [S.Ongoing, 'copy_previous', S.Ongoing],
  [S.WaitingForCompletion, 'copy_previous', S.WaitingForCompletion],
  [S.InvalidFile, 'copy_previous', S.Ongoing, S.Ongoing],
  [S.InvalidFile, 'copy_previous', S.WaitingForCompletion, S.WaitingForCompletion],
  [S.Ongoing, 'submit', S.WaitingForApproval],
  [S.WaitingForCompletion, 'submit', S.WaitingForApproval],
  [S.WaitingForApproval, 'withdraw', S.Ongoing, S.Ongoing],
  [S.WaitingForApproval, 'withdraw', S.WaitingForCompletion, S.WaitingForCompletion],
  [S.WaitingForApproval, 'send_back', S.WaitingForCompletion],
  [S.WaitingForApproval, 'approve', S.Approved],
  [S.Approved, 'unapprove', S.WaitingForApproval],
];
const allowed = (from: number | null, event: ReportEvent) => ALLOWED.some(([f, e]) => f === from && e === event);
const OPEN = 'open';

describe('report status machine', () => {
  it.each(ALLOWED)('from %s, %s goes to %i (before %s)', (from, event, to, before) => {
    expect(nextReportStatus(from, event, before)).toBe(to);
    expect(reportEventRefusal({ status: from, periodStatus: OPEN }, event)).toBeNull();
  });

  it('walks the whole table: every other event from every status (and none) is refused with its catalogue message', () => {
    let refused = 0;
    for (const from of ALL) {
      for (const event of REPORT_EVENTS) {
        if (allowed(from, event)) continue;
        refused += 1;
        expect(nextReportStatus(from, event), `${from} ${event}`).toBeNull();
        for (const before of [S.Ongoing, S.WaitingForCompletion, S.InvalidFile]) expect(nextReportStatus(from, event, before)).toBeNull();
        const expected =
          from === S.Approved && event !== 'create' && event !== 'unapprove'
            ? 'report_status.already_approved'
            : event === 'create'
              ? 'report.exists'
              : event === 'upload'
                ? 'report.upload_not_allowed'
                : 'report.invalid_status_for_action';
        expect(reportEventRefusal({ status: from, periodStatus: OPEN }, event), `${from} ${event}`).toBe(expected);
      }
    }
    expect(refused).toBe(ALL.length * REPORT_EVENTS.length - new Set(ALLOWED.map(([f, e]) => `${f} ${e}`)).size);
  });

  it('leaves Approved only when the approval is undone, and nothing happens to a report that does not exist but its creation', () => {
    expect(REPORT_EVENTS.filter((e) => nextReportStatus(S.Approved, e) !== null)).toEqual(['unapprove']);
    expect(REPORT_EVENTS.filter((e) => nextReportStatus(null, e) !== null)).toEqual(['create']);
  });

  it('copy from previous goes back to where the failed upload came from, and leaves 20 and 50 as they are whatever `before` says', () => {
    expect(nextReportStatus(S.InvalidFile, 'copy_previous')).toBe(S.Ongoing);
    expect(nextReportStatus(S.Ongoing, 'copy_previous', S.WaitingForCompletion)).toBe(S.Ongoing);
    expect(nextReportStatus(S.WaitingForCompletion, 'copy_previous', S.Ongoing)).toBe(S.WaitingForCompletion);
  });

  it('withdrawing goes back to the status the report was submitted from (Ongoing when no one knows)', () => {
    expect(nextReportStatus(S.WaitingForApproval, 'withdraw', S.WaitingForCompletion)).toBe(S.WaitingForCompletion);
    expect(nextReportStatus(S.WaitingForApproval, 'withdraw', S.Ongoing)).toBe(S.Ongoing);
    expect(nextReportStatus(S.WaitingForApproval, 'withdraw')).toBe(S.Ongoing);
  });

  it('allows uploads only in Ongoing, Invalid file and Waiting for completion', () => {
    expect(
      ALL.filter((s): s is number => s !== null)
        .filter(canUploadInStatus)
        .sort(),
    ).toEqual([S.InvalidFile, S.Ongoing, S.WaitingForCompletion].sort());
  });
});

describe('report event guards, in their fixed order', () => {
  const PERSON_EVENTS = REPORT_EVENTS.filter((e) => !WORKER_EVENTS.includes(e));

  it('refuses a person without access first, whatever the period and the status', () => {
    for (const event of PERSON_EVENTS) {
      for (const status of ALL) {
        for (const periodStatus of ['open', 'closed']) {
          expect(reportEventRefusal({ status, periodStatus }, event, false), `${status} ${event} ${periodStatus}`).toBe('report_status.no_access');
        }
      }
    }
  });

  it('then a closed period beats approved, which beats the status', () => {
    const closed = 'closed';
    for (const event of PERSON_EVENTS) {
      for (const status of ALL) expect(reportEventRefusal({ status, periodStatus: closed }, event), `${status} ${event}`).toBe('report_status.period_closed');
    }
    // An approved report in a closed period: the closed-period message.
    expect(reportEventRefusal({ status: S.Approved, periodStatus: closed }, 'approve')).toBe('report_status.period_closed');
    expect(reportEventRefusal({ status: S.Approved, periodStatus: closed }, 'upload')).toBe('report_status.period_closed');
    // Open: approved beats the status table's message.
    expect(reportEventRefusal({ status: S.Approved, periodStatus: OPEN }, 'upload')).toBe('report_status.already_approved');
    expect(reportEventRefusal({ status: S.Approved, periodStatus: OPEN }, 'submit')).toBe('report_status.already_approved');
    // A draft period is not closed.
    expect(reportEventRefusal({ status: null, periodStatus: 'draft' }, 'create')).toBeNull();
    // Creating a report that exists says so, even when it is approved.
    expect(reportEventRefusal({ status: S.Approved, periodStatus: OPEN }, 'create')).toBe('report.exists');
  });

  it('lets the job finish in a closed period, without a person: only the table applies to its events', () => {
    for (const event of WORKER_EVENTS) {
      for (const status of ALL) {
        const expected = allowed(status, event) ? null : status === S.Approved ? 'report_status.already_approved' : 'report.invalid_status_for_action';
        expect(reportEventRefusal({ status, periodStatus: 'closed' }, event, false), `${status} ${event}`).toBe(expected);
      }
    }
  });
});
