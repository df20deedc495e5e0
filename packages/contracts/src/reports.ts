import { z } from 'zod';
import { ReportStatus } from './enums.ts';
import { isoDateSchema, marketSummarySchema, refSchema } from './common.ts';
import { decimalStringSchema } from './decimal.ts';

// ---------------------------------------------------------------------------------------------
// The report status machine (DESIGN §5), shared by the server (which enforces it) and the web
// (which offers only the actions it allows).
// ---------------------------------------------------------------------------------------------

export type ReportEvent = 'upload' | 'file_invalid' | 'file_valid' | 'rows_stored' | 'submit' | 'send_back' | 'approve';

const TRANSITIONS: Record<ReportEvent, { from: readonly ReportStatus[]; to: ReportStatus | 'back' }> = {
  upload: { from: [ReportStatus.Ongoing, ReportStatus.InvalidFile, ReportStatus.WaitingForCompletion], to: ReportStatus.ProcessingFile },
  file_invalid: { from: [ReportStatus.ProcessingFile], to: ReportStatus.InvalidFile },
  file_valid: { from: [ReportStatus.ProcessingFile], to: ReportStatus.ProcessingData },
  // Rows stored: back to Ongoing, or to Waiting for completion when the upload came from there.
  rows_stored: { from: [ReportStatus.ProcessingData], to: 'back' },
  submit: { from: [ReportStatus.Ongoing, ReportStatus.WaitingForCompletion], to: ReportStatus.WaitingForApproval },
  send_back: { from: [ReportStatus.WaitingForApproval], to: ReportStatus.WaitingForCompletion },
  approve: { from: [ReportStatus.WaitingForApproval], to: ReportStatus.Approved },
};

/**
 * The status after `event`, or null when the event is not allowed in `from`. `before` is the
 * status the report had when the file was uploaded (20 or 50), for `rows_stored`.
 */
export function nextReportStatus(from: number, event: ReportEvent, before?: number): ReportStatus | null {
  const rule = TRANSITIONS[event];
  if (!(rule.from as readonly number[]).includes(from)) return null;
  if (rule.to !== 'back') return rule.to;
  return before === ReportStatus.WaitingForCompletion ? ReportStatus.WaitingForCompletion : ReportStatus.Ongoing;
}

/** The statuses a user may ask for with POST /reports/{uuid}/status, and the event each means. */
export const REQUESTABLE_STATUS_EVENTS: Partial<Record<number, ReportEvent>> = {
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

export const PERIOD_STATUSES = ['draft', 'open', 'closed'] as const;
export type PeriodStatus = (typeof PERIOD_STATUSES)[number];

export const periodSchema = z.object({
  uuid: z.string(),
  title: z.string(),
  market: marketSummarySchema,
  starts_on: z.string(),
  ends_on: z.string(),
  deadline: z.string().nullable(),
  status: z.enum(PERIOD_STATUSES),
  published: z.boolean(),
  opened_at: z.string().nullable(),
  closed_at: z.string().nullable(),
  published_at: z.string().nullable(),
  report_count: z.number().int(),
});
export type Period = z.infer<typeof periodSchema>;

export const periodInputSchema = z
  .object({
    market_id: z.number().int().positive(),
    title: z.string().trim().min(1).max(50),
    starts_on: isoDateSchema,
    ends_on: isoDateSchema,
    deadline: isoDateSchema.nullish(),
  })
  .refine((p) => p.ends_on >= p.starts_on, { path: ['ends_on'], message: 'ends_on' });
export type PeriodInput = z.infer<typeof periodInputSchema>;

export const periodListQuerySchema = z.object({
  market_id: z.coerce.number().int().positive().optional(),
  cluster: z.enum(['0', '1']).optional(),
});

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

export const reportRowSchema = z.object({
  code_id: z.number().int(),
  code: z.string(),
  name: z.string(),
  volume: decimalStringSchema.nullable(),
  value: decimalStringSchema.nullable(),
});

export const preflightResultSchema = z.object({
  severity: z.number().int(),
  key: z.string(),
  params: z.record(z.string(), z.union([z.string(), z.number()])),
  message: z.string(),
});
export const preflightSchema = z.object({
  severity: z.number().int(),
  results: z.array(preflightResultSchema),
  created_at: z.string(),
});
export type Preflight = z.infer<typeof preflightSchema>;

export const reportSchema = reportSummarySchema.extend({
  rows: z.array(reportRowSchema),
  /** Summed by the database (numeric), exact. */
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

export const bulkStatusInputSchema = z.object({
  uuids: z.array(z.string().uuid()).min(1).max(500),
  status: z.number().int(),
  comment: z.string().trim().max(2000).nullish(),
});
export const bulkStatusResultSchema = z.object({
  changed: z.array(z.string()),
  refused: z.array(z.object({ uuid: z.string(), message: z.string() })),
});

export const IMPORT_STATUSES = ['queued', 'processing', 'invalid', 'done', 'failed'] as const;
export const importSchema = z.object({
  uuid: z.string(),
  status: z.enum(IMPORT_STATUSES),
  report: z.object({ uuid: z.string(), status: z.number().int() }),
  company: refSchema,
  market: marketSummarySchema,
  period: z.object({ uuid: z.string(), title: z.string() }),
  user: refSchema.nullable(),
  file_name: z.string(),
  file_size: z.number().int(),
  row_count: z.number().int().nullable(),
  error_count: z.number().int(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type Import = z.infer<typeof importSchema>;
export const importErrorSchema = z.object({ row: z.number().int().nullable(), code: z.string().nullable(), message: z.string() });
export const importDetailSchema = importSchema.extend({ errors: z.array(importErrorSchema), errors_truncated: z.boolean() });
export type ImportDetail = z.infer<typeof importDetailSchema>;
export const importListQuerySchema = z.object({ report_uuid: z.string().uuid().optional() });
