import { z } from 'zod';
import { listQuerySchema, marketSummarySchema, refSchema } from './common.ts';
import { preflightSchema } from './preflight.ts';

// Imports of report files: wire schemas.

export const IMPORT_STATUSES = ['queued', 'processing', 'invalid', 'done', 'failed'] as const;
export type ImportStatus = (typeof IMPORT_STATUSES)[number];
/** Where an import's rows came from: a file uploaded (the app, POST /reports/{uuid}/file), or PUT /reports/{uuid}/rows. */
export const IMPORT_SOURCES = ['upload', 'api'] as const;
export const importSchema = z.object({
  uuid: z.string(),
  status: z.enum(IMPORT_STATUSES),
  source: z.enum(IMPORT_SOURCES),
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
/** A row error: its message key and parameters (for clients that branch on them), and the message in the request's language. */
export const importErrorSchema = z.object({
  row: z.number().int().nullable(),
  code: z.string().nullable(),
  /** Null only for an error stored before keys were (its message is as it was stored). */
  key: z.string().nullable(),
  params: z.record(z.string(), z.union([z.string(), z.number()])),
  message: z.string(),
  /**
   * Where in the row: the column's letter (A code, B volume, C value), its name (the file's header,
   * or the template's name of the column), and the cell as read ("12,5 st"). Null for errors about
   * the whole file or row.
   */
  column: z.object({ letter: z.enum(['A', 'B', 'C']), name: z.string(), cell: z.string().nullable() }).nullable(),
});
/**
 * One import with its first 100 errors (`errors`); `error_count` counts every error of the file,
 * `errors_listed` those in the error sheet (at most 50,000), `errors_truncated` says the screen's
 * list is not all of them, and `errors_note` where the sheet's list stops, when it was cut.
 */
export const importDetailSchema = importSchema.extend({
  /**
   * A refused file's message, above its row errors (docs/product.md §8 "The file :file_name could not be
   * uploaded due to containing invalid data."), in the request's language; null unless `invalid`.
   */
  message: z.string().nullable(),
  errors: z.array(importErrorSchema),
  errors_listed: z.number().int(),
  errors_truncated: z.boolean(),
  errors_note: z.string().nullable(),
});
export type ImportDetail = z.infer<typeof importDetailSchema>;

/**
 * The answer of PUT /reports/{uuid}/rows: with `dry_run`, what the rows would give (nothing
 * stored, no import); otherwise the import it made, done or invalid, with the report's preflight.
 */
export const rowsImportSchema = z.object({
  dry_run: z.boolean(),
  /** The rows pass every rule (with dry_run: would be stored). */
  valid: z.boolean(),
  /** The import, listed in the import history with source "api"; null for a dry run. */
  import: importSchema.nullable(),
  /** Rows holding a figure that are (or would be) stored; 0 when the rows are refused. */
  rows_accepted: z.number().int(),
  /** Every error of the rows; `errors` holds the first 100, with row and field. */
  error_count: z.number().int(),
  errors: z.array(importErrorSchema),
  /** The report's preflight after the rows were stored; null for a dry run or refused rows. */
  preflight: preflightSchema.nullable(),
});
export type RowsImport = z.infer<typeof rowsImportSchema>;
/** Columns GET /imports sorts by; the first (newest first with direction=desc) is the default. */
export const IMPORT_SORTS = ['created_at', 'file_name', 'status', 'company', 'market', 'period', 'user', 'row_count', 'error_count'] as const;
/**
 * Query of GET /imports: the list conventions of every list (page, per_page, sort, direction,
 * search longer than 2 characters on file name, company, period and user), and one report's imports.
 */
export const importListQuerySchema = listQuerySchema
  .omit({ organization_id: true })
  .extend({ report_uuid: z.string().uuid().optional(), direction: z.enum(['asc', 'desc']).default('desc') });
export type ImportListQuery = z.input<typeof importListQuerySchema>;
