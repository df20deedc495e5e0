import { ReportStatus } from './enums.ts';

// ---------------------------------------------------------------------------------------------
// The report status machine (docs/architecture.md §5), shared by the server (which enforces it, in one place:
// server/src/modules/reports/reports.workflow.ts) and the web (which offers only the actions it
// allows).
// ---------------------------------------------------------------------------------------------

export type ReportEvent =
  | 'create'
  | 'upload'
  | 'file_invalid'
  | 'file_valid'
  | 'rows_stored'
  | 'restart'
  | 'give_up'
  | 'copy_previous'
  | 'submit'
  | 'withdraw'
  | 'send_back'
  | 'approve'
  | 'unapprove';

export const REPORT_EVENTS: readonly ReportEvent[] = [
  'create',
  'upload',
  'file_invalid',
  'file_valid',
  'rows_stored',
  'restart',
  'give_up',
  'copy_previous',
  'submit',
  'withdraw',
  'send_back',
  'approve',
  'unapprove',
];

/** Events of the import job: no person, no access check, and a closed period does not stop them. */
export const WORKER_EVENTS: readonly ReportEvent[] = ['file_invalid', 'file_valid', 'rows_stored', 'restart', 'give_up'];

/** `null` as a "from" status: the report does not exist yet. */
const TRANSITIONS: Record<ReportEvent, { from: readonly (ReportStatus | null)[]; to: ReportStatus | 'back' }> = {
  // By a reporter or a market admin (POST /reports), or for every reporting company when a period opens.
  create: { from: [null], to: ReportStatus.Ongoing },
  upload: { from: [ReportStatus.Ongoing, ReportStatus.InvalidFile, ReportStatus.WaitingForCompletion], to: ReportStatus.ProcessingFile },
  file_invalid: { from: [ReportStatus.ProcessingFile], to: ReportStatus.InvalidFile },
  file_valid: { from: [ReportStatus.ProcessingFile], to: ReportStatus.ProcessingData },
  // Rows stored: back to Ongoing, or to Waiting for completion when the upload came from there.
  rows_stored: { from: [ReportStatus.ProcessingData], to: 'back' },
  // The job starts over from the file (interrupted while storing rows, or about to give up).
  restart: { from: [ReportStatus.ProcessingData], to: ReportStatus.ProcessingFile },
  // The job failed for good: the file is not accepted, the report's rows are untouched.
  give_up: { from: [ReportStatus.ProcessingFile], to: ReportStatus.InvalidFile },
  // The previous period's rows become the report's: where an upload may start, and it ends as a
  // valid file would (from Invalid file back to 20, or 50 if the failed upload came from 50;
  // Ongoing and Waiting for completion stay as they are).
  copy_previous: { from: [ReportStatus.Ongoing, ReportStatus.InvalidFile, ReportStatus.WaitingForCompletion], to: 'back' },
  submit: { from: [ReportStatus.Ongoing, ReportStatus.WaitingForCompletion], to: ReportStatus.WaitingForApproval },
  // The reporter takes a submission back to correct it, until it is approved: to the status it was
  // submitted from (20, or 50 when it had been sent back).
  withdraw: { from: [ReportStatus.WaitingForApproval], to: 'back' },
  send_back: { from: [ReportStatus.WaitingForApproval], to: ReportStatus.WaitingForCompletion },
  approve: { from: [ReportStatus.WaitingForApproval], to: ReportStatus.Approved },
  // An approver undoes an approval made by mistake: waiting for approval again (a published period
  // is published again without the report, docs/architecture.md §5).
  unapprove: { from: [ReportStatus.Approved], to: ReportStatus.WaitingForApproval },
};

/**
 * The status after `event`, or null when the event is not allowed in `from` (null: no report
 * yet). `before` is the status the report had when its last file was uploaded (20 or 50), for
 * the events that go 'back' from a processing or invalid status (`rows_stored`, `copy_previous`),
 * or when it was submitted, for `withdraw`.
 */
export function nextReportStatus(from: number | null, event: ReportEvent, before?: number | null): ReportStatus | null {
  const rule = TRANSITIONS[event];
  if (!(rule.from as readonly (number | null)[]).includes(from)) return null;
  if (rule.to !== 'back') return rule.to;
  const origin = from === ReportStatus.Ongoing || from === ReportStatus.WaitingForCompletion ? from : before;
  return origin === ReportStatus.WaitingForCompletion ? ReportStatus.WaitingForCompletion : ReportStatus.Ongoing;
}

/** The message keys with which an event is refused (the server maps them to 403 / 409). */
export type ReportEventRefusal =
  | 'report_status.no_access'
  | 'report_status.period_closed'
  | 'report_status.already_approved'
  | 'report.exists'
  | 'report.upload_not_allowed'
  | 'report.invalid_status_for_action';

/**
 * Why `event` cannot happen to a report in this state, or null when it can. The guards run in
 * one fixed order, everywhere (after the report or period was found: 404 first):
 *   1. access: `mayAct`, decided by the caller who knows the person (403 "You don't have access
 *      to change this report."); the job's events have no person and skip it;
 *   2. period closed (409 "This period has been closed, …"); the job's events skip it, since
 *      they finish what was started while the period was open;
 *   3. already approved (409 "This report has already been approved."), for events on an
 *      existing report other than `unapprove`;
 *   4. the transition table (409): "This report already exists." for `create`, "Report file
 *      cannot be uploaded due to the report status." for `upload`, otherwise "Report has invalid
 *      status for this action.".
 * So an approved report of a closed period answers the closed-period message.
 */
export function reportEventRefusal(state: { status: number | null; periodStatus: string }, event: ReportEvent, mayAct = true): ReportEventRefusal | null {
  const worker = WORKER_EVENTS.includes(event);
  if (!worker && !mayAct) return 'report_status.no_access';
  if (!worker && state.periodStatus === 'closed') return 'report_status.period_closed';
  if (event !== 'create' && event !== 'unapprove' && state.status === ReportStatus.Approved) return 'report_status.already_approved';
  if (nextReportStatus(state.status, event) !== null) return null;
  if (event === 'create') return 'report.exists';
  return event === 'upload' ? 'report.upload_not_allowed' : 'report.invalid_status_for_action';
}

/** The statuses a user may ask for with POST /reports/{uuid}/status, and the event each means. */
export const REQUESTABLE_STATUS_EVENTS: Partial<Record<number, 'submit' | 'send_back' | 'approve'>> = {
  [ReportStatus.WaitingForApproval]: 'submit',
  [ReportStatus.WaitingForCompletion]: 'send_back',
  [ReportStatus.Approved]: 'approve',
};

export function canUploadInStatus(status: number): boolean {
  return nextReportStatus(status, 'upload') !== null;
}

// ---------------------------------------------------------------------------------------------
// Wire schemas
// ---------------------------------------------------------------------------------------------
