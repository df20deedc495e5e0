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
  /** Confidential sums that no pattern could protect, because an earlier publication of the period had already narrowed them (`publication-preview` says which). */
  unprotectable: z.number().int(),
  changed: z.boolean(),
});
export type PeriodPublication = z.infer<typeof periodPublicationSchema>;

export const PUBLISHED_DIMENSIONS = ['code', 'code_group', 'code_section', 'total'] as const;

/**
 * A confidential sum that no pattern of the publication protects, because an earlier publication
 * of the period already showed figures that narrow it (hiding more now cannot undo that): a cell
 * of this publication (`cell`), a cell confidential in an earlier one (`earlier`, `publication`
 * its number), or the figures of the companies publication `publication` counts and publication
 * `without` does not (`difference`). `name`: the code ("1001 Cars"), group or section; null for
 * the total. `period`: another period's sum (tied to this one by estimates), by title.
 */
export const unprotectableSchema = z.object({
  kind: z.enum(['cell', 'earlier', 'difference']),
  dimension: z.enum(PUBLISHED_DIMENSIONS),
  key_id: z.number().int(),
  name: z.string().nullable(),
  publication: z.number().int(),
  without: z.number().int().nullable(),
  /** The title of another period the sum is of (tied to this one by estimates for missing reports); null: this period's. */
  period: z.string().nullable(),
});
export type UnprotectableSum = z.infer<typeof unprotectableSchema>;

/** What viewers would see of a publication: its cells and how many of them are hidden, by breakdown. */
export const publicationPatternSchema = z.object({
  cells: z.number().int(),
  hidden: z.number().int(),
  /** Hidden because they break the rules themselves; the rest of `hidden` protects them. */
  primary: z.number().int(),
  by_dimension: z.array(z.object({ dimension: z.enum(PUBLISHED_DIMENSIONS), cells: z.number().int(), hidden: z.number().int() })),
  total_hidden: z.boolean(),
  unprotectable: z.array(unprotectableSchema),
});
export type PublicationPattern = z.infer<typeof publicationPatternSchema>;

/**
 * What publishing (or publishing again) a period would show viewers, decided as publishing would
 * but written nowhere (`GET /periods/{uuid}/publication-preview`, for those who manage the
 * market's periods). `changed`: publishing now makes a new publication (false: viewers keep the
 * latest, `now` is it). `later`: for a period whose reports are not all approved, what publishing
 * again would show once the missing ones are, each simulated by its company's latest approved
 * report of an earlier period of the market (`simulated`; `unknown`: missing companies with no
 * such report, left out). `advice` is `wait` when that later publication would hide the total
 * or more than half of the cells. `estimated`: the missing reports `now` counts as estimates (the
 * organization's setting estimate_missing_reports; they stay in `later` for the companies not simulated).
 */
export const publicationPreviewSchema = z.object({
  number: z.number().int(),
  changed: z.boolean(),
  estimated: z.number().int(),
  coverage: z.object({ approved: z.number().int(), expected: z.number().int() }),
  now: publicationPatternSchema,
  later: z
    .object({
      simulated: z.number().int(),
      unknown: z.number().int(),
      pattern: publicationPatternSchema,
    })
    .nullable(),
  advice: z.enum(['wait']).nullable(),
});
export type PublicationPreview = z.infer<typeof publicationPreviewSchema>;

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

/*
 * The completeness overview (GET /completeness): for each opened period of a range of months,
 * per market, the companies expected to report (those not disabled at the period's end, as
 * statistics count them), how many have submitted (waiting for approval or approved), approved,
 * and are missing (not submitted), with overdue marked (the period is open, its deadline has
 * passed and some are missing). Read from counts kept with the reports, never recounted.
 */
const YEAR_MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
export const COMPLETENESS_STATES = ['all', 'missing', 'overdue', 'waiting', 'complete'] as const;
export type CompletenessState = (typeof COMPLETENESS_STATES)[number];
/** The longest range one answer covers (10 years of months). */
export const COMPLETENESS_MAX_MONTHS = 120;

export const completenessQuerySchema = z.object({
  /** First month (YYYY-MM) of the range, by the period's start; default January of this year. */
  from: z.string().regex(YEAR_MONTH).optional(),
  /** Last month (YYYY-MM) of the range; default December of the year of `from`. */
  to: z.string().regex(YEAR_MONTH).optional(),
  market_id: z.coerce.number().int().positive().optional(),
  /** missing: some company has not submitted; overdue: that, past the deadline; waiting: all submitted, some not approved; complete: all approved. */
  status: z.enum(COMPLETENESS_STATES).default('all'),
  format: z.enum(['json', 'csv', 'xlsx']).default('json'),
});
export type CompletenessQuery = z.infer<typeof completenessQuerySchema>;

const completenessCountsSchema = z.object({
  expected: z.number().int(),
  submitted: z.number().int(),
  approved: z.number().int(),
  missing: z.number().int(),
});

export const completenessRowSchema = completenessCountsSchema.extend({
  period: z.object({
    uuid: z.string(),
    title: z.string(),
    starts_on: z.string(),
    ends_on: z.string(),
    deadline: z.string().nullable(),
    status: z.enum(PERIOD_STATUSES),
    published: z.boolean(),
  }),
  market: marketSummarySchema,
  /** Submitted and waiting for approval. */
  waiting: z.number().int(),
  overdue: z.boolean(),
  /** The reports of the expected companies by report status (the status filter of Reporting companies). */
  by_status: z.array(z.object({ status: z.number().int(), count: z.number().int() })),
});
export type CompletenessRow = z.infer<typeof completenessRowSchema>;

export const completenessSchema = z.object({
  from: z.string(),
  to: z.string(),
  /** Today as the server judges overdue (UTC). */
  today: z.string(),
  rows: z.array(completenessRowSchema),
  /** The sums of all rows of the range and market, whatever the status filter. */
  totals: completenessCountsSchema.extend({ periods: z.number().int(), overdue: z.number().int() }),
  /** How many rows each status filter shows. */
  // Every state named (not a record: the API document then lists each key, and clients get them typed).
  states: z.object({ all: z.number().int(), missing: z.number().int(), overdue: z.number().int(), waiting: z.number().int(), complete: z.number().int() }),
});
export type Completeness = z.infer<typeof completenessSchema>;
