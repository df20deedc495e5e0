import { z } from 'zod';
import { listOf, listQuerySchema, marketSummarySchema, refSchema } from './common.ts';
import { decimalStringSchema } from './decimal.ts';
import { PERIOD_STATUSES } from './periods.ts';
import { preflightSchema } from './preflight.ts';

// The report status machine lives in report-workflow.ts (no schemas: the web's first screens load it without zod).
export * from './report-workflow.ts';

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
  period: z.object({
    uuid: z.string(),
    title: z.string(),
    status: z.enum(PERIOD_STATUSES),
    deadline: z.string().nullable(),
    /** Published for viewers: undoing an approval publishes it again. */
    published: z.boolean(),
  }),
  submitted_at: z.string().nullable(),
  approved_at: z.string().nullable(),
  row_count: z.number().int(),
  preflight_severity: z.number().int().nullable(),
  /** The approver's comment of the last send-back (to 50), until the report is submitted again; else null. */
  sent_back_comment: z.string().nullable(),
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
 *   reports as deviations. `volume_deviates` and `value_deviates` say which of the two did, so
 *   that only that change stands out.
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
  volume_deviates: z.boolean(),
  value_deviates: z.boolean(),
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
  /**
   * The import whose result describes the report now: its latest, unless the rows were replaced
   * after it ended (copy from previous period). Older imports are history (GET /imports).
   */
  current_import: z.object({ uuid: z.string(), status: z.string() }).nullable(),
});
export type Report = z.infer<typeof reportSchema>;

/**
 * GET /reports/{uuid}/copy-previous: what "Copy from previous period" would do, asked for before
 * the screen asks the user: the previous period's title, how many of its report's rows would be
 * copied and how many left out (codes inactive or no longer the company's in the market, rows
 * whose only figure is in a disabled column). Null when the market has no previous period;
 * `row_count` null when the company has no report in it.
 */
export const copyPreviewSchema = z.object({ period_title: z.string(), row_count: z.number().int().nullable(), left_out: z.number().int() }).nullable();
export type CopyPreview = z.infer<typeof copyPreviewSchema>;

export const reportCreateSchema = z.strictObject({ company_id: z.number().int().positive(), period_uuid: z.string().uuid() });
export const reportStatusInputSchema = z.strictObject({ status: z.number().int(), comment: z.string().trim().max(2000).nullish() });
/** POST /reports/{uuid}/withdraw: the reporter takes a submission back; the reason goes into the history. */
export const reportWithdrawInputSchema = z.strictObject({ comment: z.string().trim().max(2000).nullish() });
/**
 * POST /reports/{uuid}/unapprove: an approver undoes an approval. In a published period only with
 * `republish: true` (409 otherwise): the period is published again without the report.
 */
export const reportUnapproveInputSchema = z.strictObject({ comment: z.string().trim().max(2000).nullish(), republish: z.boolean().default(false) });
/** Query arrays come in bracket form (status[]=20&status[]=50); one value is an array of one. */
const intArray = z.preprocess((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]), z.array(z.coerce.number().int()).max(20));

/** Columns GET /report-history sorts by; the first (newest period first with direction=desc) is the default. */
export const REPORT_HISTORY_SORTS = ['period', 'company', 'status', 'submitted_at', 'approved_at', 'row_count'] as const;
/**
 * Query of GET /report-history (the report history screen): the list conventions (page,
 * per_page, sort, direction, search longer than 2 characters on period title and company) in
 * one market, optionally one company's reports.
 */
export const reportHistoryQuerySchema = listQuerySchema.omit({ organization_id: true }).extend({
  market_id: z.coerce.number().int().positive(),
  company_id: z.coerce.number().int().positive().optional(),
  direction: z.enum(['asc', 'desc']).default('desc'),
});
export type ReportHistoryQuery = z.input<typeof reportHistoryQuerySchema>;

export const reportListQuerySchema = z.object({
  period_uuid: z.string().uuid().optional(),
  company_id: z.coerce.number().int().positive().optional(),
  market_id: z.coerce.number().int().positive().optional(),
  status: intArray.optional(),
  /** Only reports of periods in this state (the dashboard asks for open ones). */
  period_status: z.enum(PERIOD_STATUSES).optional(),
});
