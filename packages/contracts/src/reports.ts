import { z } from 'zod';
import { ReportStatus } from './enums.ts';
import { listOf, listQuerySchema, marketSummarySchema, refSchema } from './common.ts';
import { decimalStringSchema } from './decimal.ts';
import { PERIOD_STATUSES } from './periods.ts';
import { preflightSchema } from './preflight.ts';

// ---------------------------------------------------------------------------------------------
// The report status machine (DESIGN §5), shared by the server (which enforces it, in one place:
// server/src/modules/reports/reports.workflow.ts) and the web (which offers only the actions it
// allows).
// ---------------------------------------------------------------------------------------------

export type ReportEvent =
  'create' | 'upload' | 'file_invalid' | 'file_valid' | 'rows_stored' | 'restart' | 'give_up' | 'copy_previous' | 'submit' | 'send_back' | 'approve';

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
  'send_back',
  'approve',
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
  send_back: { from: [ReportStatus.WaitingForApproval], to: ReportStatus.WaitingForCompletion },
  approve: { from: [ReportStatus.WaitingForApproval], to: ReportStatus.Approved },
};

/**
 * The status after `event`, or null when the event is not allowed in `from` (null: no report
 * yet). `before` is the status the report had when its last file was uploaded (20 or 50), for
 * the events that go 'back' from a processing or invalid status (`rows_stored`, `copy_previous`).
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
 *      existing report;
 *   4. the transition table (409): "This report already exists." for `create`, "Report file
 *      cannot be uploaded due to the report status." for `upload`, otherwise "Report has invalid
 *      status for this action.".
 * So an approved report of a closed period answers the closed-period message.
 */
export function reportEventRefusal(state: { status: number | null; periodStatus: string }, event: ReportEvent, mayAct = true): ReportEventRefusal | null {
  const worker = WORKER_EVENTS.includes(event);
  if (!worker && !mayAct) return 'report_status.no_access';
  if (!worker && state.periodStatus === 'closed') return 'report_status.period_closed';
  if (event !== 'create' && state.status === ReportStatus.Approved) return 'report_status.already_approved';
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

export const statusChangeSchema = z.object({
  from_status: z.number().int().nullable(),
  to_status: z.number().int(),
  comment: z.string().nullable(),
  user: refSchema.nullable(),
  created_at: z.string(),
});

export const reportSummarySchema = z.object({
  uuid: z.string(),
  status: z.number().int(),
  company: refSchema,
  market: marketSummarySchema,
  period: z.object({ uuid: z.string(), title: z.string(), status: z.enum(PERIOD_STATUSES), deadline: z.string().nullable() }),
  submitted_at: z.string().nullable(),
  approved_at: z.string().nullable(),
  row_count: z.number().int(),
  preflight_severity: z.number().int().nullable(),
  updated_at: z.string(),
});
export type ReportSummary = z.infer<typeof reportSummarySchema>;

/** A change in percent, rounded half-up to one decimal at the end, as text ("-92.0"); null without a base. */
const changePctSchema = z
  .string()
  .regex(/^-?\d+\.\d$/)
  .nullable();

/**
 * One row of GET /reports/{uuid}/rows, with the same company's row for the same code in the
 * periods it is compared with ("What changed, for the approver"): the previous period of the
 * market (the period before this one by `starts_on`) and the same period a year earlier (the
 * market's period whose `starts_on` is 12 months earlier). Only the current rows of those reports
 * count, whatever their status (the answer's `comparison` names the periods and statuses).
 *
 * - `volume_previous`, `value_previous`, `volume_last_year`, `value_last_year`: the earlier
 *   figures, null where that report has no row for the code (or no such report or period).
 * - `volume_previous_change_pct`, `value_previous_change_pct`, `volume_last_year_change_pct`,
 *   `value_last_year_change_pct`: (now − then) / |then| × 100, computed in SQL and rounded half-up
 *   to one decimal ("-92.0"); null when either figure is missing or the earlier one is 0.
 * - `deviates`: the volume or the value changed against the previous period by more than the
 *   organization's `deviation_percentage` (exact, before rounding): the rows the preflight
 *   reports as deviations.
 */
export const reportRowSchema = z.object({
  code_id: z.number().int(),
  code: z.string(),
  name: z.string(),
  volume: decimalStringSchema.nullable(),
  value: decimalStringSchema.nullable(),
  volume_previous: decimalStringSchema.nullable(),
  value_previous: decimalStringSchema.nullable(),
  volume_previous_change_pct: changePctSchema,
  value_previous_change_pct: changePctSchema,
  volume_last_year: decimalStringSchema.nullable(),
  value_last_year: decimalStringSchema.nullable(),
  volume_last_year_change_pct: changePctSchema,
  value_last_year_change_pct: changePctSchema,
  deviates: z.boolean(),
});
export type ReportRow = z.infer<typeof reportRowSchema>;

/** A period a report is compared with, and the same company's report in it (null: none). */
export const comparedPeriodSchema = z.object({
  period: z.object({ uuid: z.string(), title: z.string() }),
  report: z.object({ uuid: z.string(), status: z.number().int() }).nullable(),
});
export type ComparedPeriod = z.infer<typeof comparedPeriodSchema>;

/**
 * Once per answer of GET /reports/{uuid}/rows: which periods the rows are compared with (null:
 * the market has no such period) and the organization's deviation threshold in percent. Codes of
 * the previous report missing from this one are not rows of it: the preflight names each one
 * (a Warning), beside the rows on the same screens (docs/decisions.md).
 */
export const reportRowsComparisonSchema = z.object({
  previous: comparedPeriodSchema.nullable(),
  last_year: comparedPeriodSchema.nullable(),
  deviation_percentage: z.string(),
});
export type ReportRowsComparison = z.infer<typeof reportRowsComparisonSchema>;

export const reportRowsPageSchema = listOf(reportRowSchema).extend({ comparison: reportRowsComparisonSchema });
export type ReportRowsPage = z.infer<typeof reportRowsPageSchema>;

/**
 * The columns GET /reports/{uuid}/rows sorts by; the first is the default. `volume_change` and
 * `value_change` sort by the size of the change against the previous period (|%|, largest first
 * with direction=desc); rows without a change come last either way.
 */
export const REPORT_ROW_SORTS = ['code', 'name', 'volume', 'value', 'volume_change', 'value_change'] as const;
/**
 * Query of GET /reports/{uuid}/rows: the list conventions of every list (page, per_page, search
 * longer than 2 characters on code or name, sort, direction), and `deviating=1` for only the rows
 * that deviate from the previous period.
 */
export const reportRowsQuerySchema = listQuerySchema.omit({ organization_id: true }).extend({ deviating: z.enum(['0', '1']).optional() });
export type ReportRowsQuery = z.input<typeof reportRowsQuerySchema>;

/**
 * One report without its rows (a report may hold 100,000 of them: GET /reports/{uuid}/rows pages
 * them); `row_count` counts them and `totals` sums all of them.
 */
export const reportSchema = reportSummarySchema.extend({
  /** Summed by the database (numeric) over every row, exact. */
  totals: z.object({ volume: decimalStringSchema, value: decimalStringSchema }),
  preflight: preflightSchema.nullable(),
  history: z.array(statusChangeSchema),
});
export type Report = z.infer<typeof reportSchema>;

export const reportCreateSchema = z.object({ company_id: z.number().int().positive(), period_uuid: z.string().uuid() });
export const reportStatusInputSchema = z.object({ status: z.number().int(), comment: z.string().trim().max(2000).nullish() });
/** Query arrays come in bracket form (status[]=20&status[]=50); one value is an array of one. */
const intArray = z.preprocess((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]), z.array(z.coerce.number().int()).max(20));

export const reportListQuerySchema = z.object({
  period_uuid: z.string().uuid().optional(),
  company_id: z.coerce.number().int().positive().optional(),
  market_id: z.coerce.number().int().positive().optional(),
  status: intArray.optional(),
  /** Only reports of periods in this state (the dashboard asks for open ones). */
  period_status: z.enum(PERIOD_STATUSES).optional(),
});
