import { z } from 'zod';

export const errorBodySchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const dataOf = <T extends z.ZodType>(schema: T) => z.object({ data: schema });

export const listMetaSchema = z.object({ page: z.number().int(), per_page: z.number().int(), total: z.number().int() });
export const listOf = <T extends z.ZodType>(schema: T) => z.object({ data: z.array(schema), meta: listMetaSchema });

/** The header that state-changing requests from the web app carry (CSRF defence, DESIGN §4). */
export const REQUESTED_WITH_HEADER = 'X-Requested-With';
export const REQUESTED_WITH_VALUE = 'XMLHttpRequest';

export const API_PREFIX = '/api';
export const DEFAULT_API_VERSION = 1;
