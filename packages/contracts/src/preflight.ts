import { z } from 'zod';

// The preflight of a report (docs/architecture.md §5): findings with their message key, rendered in the reader's language.

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
