import { z } from 'zod';
import { isoDateSchema, marketSummarySchema } from './common.ts';

// Periods of a market (docs/architecture.md §5): wire schemas.

export const PERIOD_STATUSES = ['draft', 'open', 'closed'] as const;
export type PeriodStatus = (typeof PERIOD_STATUSES)[number];

/**
 * A published period's latest publication (docs/decisions.md "Disclosure control"), for those who
 * manage the market's periods: what viewers see is what it published; `changed` says that the
 * figures (a late approval, a company disabled, groups or sections) or the confidentiality
 * settings changed since, and that publishing again would show the new ones.
 */
export const periodPublicationSchema = z.object({
  number: z.number().int(),
  published_at: z.string(),
  primary_cells: z.number().int(),
  hidden_cells: z.number().int(),
  changed: z.boolean(),
});
export type PeriodPublication = z.infer<typeof periodPublicationSchema>;

/**
 * How complete a period is, for those who approve reports or manage periods in its market (null
 * for anyone else): its reports of companies counted in it (not disabled at its end), how many
 * are approved, and the others by status with their companies' names (statuses ascending, names
 * in alphabetical order).
 */
export const periodCoverageSchema = z.object({
  approved: z.number().int(),
  expected: z.number().int(),
  missing: z.array(z.object({ status: z.number().int(), companies: z.array(z.string()) })),
});
export type PeriodCoverage = z.infer<typeof periodCoverageSchema>;

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
  coverage: periodCoverageSchema.nullable(),
  /** Null when not published, or for those who do not manage the market's periods. */
  publication: periodPublicationSchema.nullable(),
});
export type Period = z.infer<typeof periodSchema>;

export const periodInputSchema = z
  .strictObject({
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
