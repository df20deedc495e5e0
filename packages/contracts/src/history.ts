import { z } from 'zod';
import { refSchema } from './common.ts';

// An association's history imported in one step: wire schemas (docs/decisions.md "History import").

export const HISTORY_STATUSES = [
  'queued',
  'checking',
  'checked',
  'invalid',
  'importing',
  'imported',
  'cancelled',
  'failed',
  'publishing',
  'published',
] as const;
export type HistoryStatus = (typeof HISTORY_STATUSES)[number];
/** Statuses in which a step runs (the screen follows them). */
export const HISTORY_RUNNING: readonly HistoryStatus[] = ['queued', 'checking', 'importing', 'publishing'];

/** The dry run's answer: per market and period, what the import would write. */
export const historyPlanSchema = z.object({
  format: z.enum(['xlsx', 'csv']),
  periods: z.array(
    z.object({
      market_id: z.number().int(),
      market: z.string(),
      /** "2016-01" */
      period: z.string(),
      /** The period exists (else the import creates it, closed). */
      exists: z.boolean(),
      rows: z.number().int(),
      companies: z.number().int(),
      /** Of those companies, how many have a report there already (replaced unless its rows already are the file's). */
      reports_existing: z.number().int(),
    }),
  ),
});
export type HistoryPlan = z.infer<typeof historyPlanSchema>;

/** What the import did. */
export const historyResultSchema = z.object({
  periods_created: z.number().int(),
  reports_created: z.number().int(),
  reports_replaced: z.number().int(),
  reports_unchanged: z.number().int(),
  /** The periods it created or changed (those publishing publishes). */
  period_ids: z.array(z.number().int()),
  /** Every period the file names. */
  all_period_ids: z.array(z.number().int()),
  periods_published: z.number().int(),
});
export type HistoryResult = z.infer<typeof historyResultSchema>;

export const historyImportSchema = z.object({
  uuid: z.string(),
  status: z.enum(HISTORY_STATUSES),
  file_name: z.string(),
  file_size: z.number().int(),
  user: refSchema.nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  /** Data rows of the file, and those holding a figure. */
  data_rows: z.number().int().nullable(),
  row_count: z.number().int().nullable(),
  error_count: z.number().int(),
  cancel_requested: z.boolean(),
  progress: z.object({
    /** Rows read (and checked) and rows written, of the running or last import. */
    rows_read: z.number().int(),
    rows_done: z.number().int(),
    periods_done: z.number().int(),
    periods_total: z.number().int(),
    /** Of the running step's work, 0 to 1000. */
    permille: z.number().int(),
    rows_per_second: z.number().int().nullable(),
    seconds_left: z.number().int().nullable(),
  }),
  plan: historyPlanSchema.nullable(),
  result: historyResultSchema.nullable(),
});
export type HistoryImport = z.infer<typeof historyImportSchema>;

export const historyErrorSchema = z.object({
  row: z.number().int().nullable(),
  key: z.string(),
  message: z.string(),
  /** The column's letter and header name in the file, and the cell as read. */
  column: z.object({ letter: z.string(), name: z.string(), cell: z.string().nullable() }).nullable(),
});
export type HistoryError = z.infer<typeof historyErrorSchema>;

/** One history import with its first 100 errors; `errors_listed` is how many the error sheet holds. */
export const historyImportDetailSchema = historyImportSchema.extend({
  errors: z.array(historyErrorSchema),
  errors_listed: z.number().int(),
});
export type HistoryImportDetail = z.infer<typeof historyImportDetailSchema>;
