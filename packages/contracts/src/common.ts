import { z } from 'zod';
import { MAX_PER_PAGE } from './constants.ts';

export { API_PREFIX, DEFAULT_API_VERSION, MAX_PER_PAGE, MIN_SEARCH_LENGTH, REQUESTED_WITH_HEADER, REQUESTED_WITH_VALUE } from './constants.ts';

export const errorBodySchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const dataOf = <T extends z.ZodType>(schema: T) => z.object({ data: schema });

export const listMetaSchema = z.object({ page: z.number().int(), per_page: z.number().int(), total: z.number().int() });
export const listOf = <T extends z.ZodType>(schema: T) => z.object({ data: z.array(schema), meta: listMetaSchema });

/**
 * Query of every list endpoint: server-side pagination, sorting and search (longer than 2
 * characters, docs/product.md §5). Each endpoint names the columns it sorts by; `organization_id` narrows
 * a super-admin's lists to one organization.
 */
export const listQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(MAX_PER_PAGE).default(25),
  sort: z.string().max(50).optional(),
  direction: z.enum(['asc', 'desc']).default('asc'),
  search: z.string().max(200).optional(),
  organization_id: z.coerce.number().int().positive().optional(),
});
export type ListQuery = z.infer<typeof listQuerySchema>;
export type ListMeta = z.infer<typeof listMetaSchema>;

export const idParamsSchema = z.object({ id: z.coerce.number().int().positive() });

/**
 * A calendar date on the wire: YYYY-MM-DD, a day that exists (not 2026-02-30). Empty is "required"
 * (a cleared date input sends ""), not "not a valid date". The messages are catalogue keys
 * (server/src/app.ts reads them).
 */
export const isoDateSchema = z
  .string()
  .min(1, { abort: true })
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'validation.date', abort: true })
  .refine((v) => {
    const date = new Date(`${v}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === v;
  }, 'validation.date');

export const refSchema = z.object({ id: z.number().int(), name: z.string() });
export const marketSummarySchema = z.object({
  id: z.number().int(),
  international_name: z.string(),
  local_name: z.string(),
  iso_code: z.string(),
});
export const currencyRefSchema = z.object({ id: z.number().int(), iso_code: z.string() });
