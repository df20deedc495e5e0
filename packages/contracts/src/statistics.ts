import { z } from 'zod';
import { marketSummarySchema, refSchema } from './common.ts';
import { decimalStringSchema } from './decimal.ts';

/*
 * Statistics (docs/architecture.md §8): what the members get back. Every figure is an exact decimal string
 * ("1234.5000"), summed, converted and divided by the database; percentages are rounded half-up
 * to one decimal ("12.3", "-4.0") at the end. A confidential cell has every figure null and
 * `confidential: true` for everyone but the market's approvers (who see its figures, flagged); its
 * numbers never leave the server. Confidential are the cells the period's publication hides: those
 * with too few contributors or one dominant contributor, and the cells hidden with them so that no
 * one can work them out (docs/decisions.md "Disclosure control"); and every figure that adds up a
 * hidden cell (a year to date over a hidden month, a change against a hidden last year).
 */

export const STATISTICS_BREAKDOWNS = ['code', 'code_group', 'code_section', 'company', 'total'] as const;
export type StatisticsBreakdown = (typeof STATISTICS_BREAKDOWNS)[number];
/** The cluster adds the markets up: no breakdown by company; `market` puts one row per market. */
export const CLUSTER_BREAKDOWNS = ['code', 'code_group', 'code_section', 'market', 'total'] as const;
export type ClusterBreakdown = (typeof CLUSTER_BREAKDOWNS)[number];
/** `json` (default): the answer below; `xlsx` and `csv`: the same table as a download. */
export const STATISTICS_FORMATS = ['json', 'xlsx', 'csv'] as const;
export type StatisticsFormat = (typeof STATISTICS_FORMATS)[number];

/** An ISO 4217 currency code ("eur" is read as "EUR"). */
const currencyParam = z
  .string()
  .regex(/^[A-Za-z]{3}$/, 'currency')
  .transform((v) => v.toUpperCase());
/** Not z.uuid(): a malformed uuid is a period that does not exist (404), like an unknown one. */
const periodUuidParam = z.string().min(1).max(100);
const idParam = z.coerce.number().int().positive();
const formatParam = z.enum(STATISTICS_FORMATS).default('json');

// ---------------------------------------------------------------------------------------------
// Queries
// ---------------------------------------------------------------------------------------------

/** GET /statistics/market */
export const marketStatisticsQuerySchema = z.object({
  period_uuid: periodUuidParam,
  by: z.enum(STATISTICS_BREAKDOWNS).default('code'),
  /** Convert values to this currency (absent, or the market's own: no conversion, rate null). */
  currency: currencyParam.optional(),
  format: formatParam,
});
export type MarketStatisticsQuery = z.input<typeof marketStatisticsQuerySchema>;

/** GET /statistics/cluster: the cluster's markets, each with its period starting in `month`. */
export const clusterStatisticsQuerySchema = z.object({
  cluster_id: idParam,
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'month'),
  by: z.enum(CLUSTER_BREAKDOWNS).default('code'),
  /** Required: markets of a cluster may keep different currencies. */
  currency: currencyParam,
  format: formatParam,
});
export type ClusterStatisticsQuery = z.input<typeof clusterStatisticsQuerySchema>;

export const TREND_MAX_PERIODS = 60;
/** GET /statistics/trend: exactly one of market_id / cluster_id; at most one of code_id / code_group_id / code_section_id (none: the total). */
export const trendStatisticsQuerySchema = z
  .object({
    market_id: idParam.optional(),
    cluster_id: idParam.optional(),
    periods: z.coerce.number().int().min(1).max(TREND_MAX_PERIODS).default(24),
    code_id: idParam.optional(),
    code_group_id: idParam.optional(),
    code_section_id: idParam.optional(),
    /** Optional for a market; required for a cluster. */
    currency: currencyParam.optional(),
    format: formatParam,
  })
  .refine((q) => (q.market_id === undefined) !== (q.cluster_id === undefined), { path: ['market_id'], message: 'market_or_cluster' })
  .refine((q) => [q.code_id, q.code_group_id, q.code_section_id].filter((v) => v !== undefined).length <= 1, {
    path: ['code_id'],
    message: 'one_key',
  })
  .refine((q) => q.cluster_id === undefined || q.currency !== undefined, { path: ['currency'], message: 'required' });
export type TrendStatisticsQuery = z.input<typeof trendStatisticsQuerySchema>;

/** GET /statistics/company: one company's figures per code against its market. */
export const companyStatisticsQuerySchema = z.object({
  company_id: idParam,
  period_uuid: periodUuidParam,
  currency: currencyParam.optional(),
  format: formatParam,
});
export type CompanyStatisticsQuery = z.input<typeof companyStatisticsQuerySchema>;

// ---------------------------------------------------------------------------------------------
// Answers
// ---------------------------------------------------------------------------------------------

const figure = decimalStringSchema.nullable();
/** A percentage rounded half-up to one decimal ("12.3"); null when it has no meaning (no base, base 0) or is confidential. */
const percent = decimalStringSchema.nullable();

/** The key of a breakdown row: `{id, code, name}` a code, `{id, title}` a code group, `{id, name}` a section, company or market. */
export const codeKeySchema = z.object({ id: z.number().int(), code: z.string(), name: z.string() });
export const codeGroupKeySchema = z.object({ id: z.number().int(), title: z.string() });
export const statisticsKeySchema = z.union([codeKeySchema, codeGroupKeySchema, refSchema]);
export type StatisticsKey = z.infer<typeof statisticsKeySchema>;

/**
 * The figures of one cell (docs/architecture.md §8). `*_last_year`: the market's period whose starts_on is 12
 * months earlier (null when there is none). `ytd_*`: the market's periods of the same calendar year
 * up to this one; `ytd_*_last_year`: the same months a year earlier. `*_change_pct`: change against
 * last year. `*_share_pct`: share of the breakdown's total. `contributors`: companies whose figures
 * the cell holds (null when confidential). `own_*`: only for reporter and company users, their
 * company's figures and share (their own figures are never hidden from them; the share is null
 * when the market cell is confidential). `estimated`, `estimated_last_year`, `ytd_estimated`,
 * `ytd_estimated_last_year`: the period's figures (and their share), last year's, the year to date,
 * last year's year to date hold an estimate for a missing report (a change holds one when either
 * side does); false where the figures are withheld.
 */
/**
 * The flags of a figure (docs/architecture.md §8 "Flags"), modelled on Eurostat's and SDMX's observation
 * flags, in this order: `c` confidential (withheld from viewers), `p` provisional (figures not yet
 * published, or reports not yet approved: an approver's view), `r` revised (differs from the
 * period's first publication), `e` estimated (holds an estimate for a missing report), `b` break
 * (compared with a base that is not like with like; the answer's `comparison` says why).
 */
export const FIGURE_FLAGS = ['c', 'p', 'r', 'e', 'b'] as const;
export type FigureFlag = (typeof FIGURE_FLAGS)[number];
const flagsSchema = z.string().regex(/^c?p?r?e?b?$/);
/** Which figures each set of flags is for: `period` the period's volume and value and their shares, `change` the change against last year. */
export const FLAG_GROUPS = ['period', 'last_year', 'change', 'ytd', 'ytd_last_year', 'ytd_change'] as const;
export type FlagGroup = (typeof FLAG_GROUPS)[number];
export const figureFlagsSchema = z.object({
  period: flagsSchema,
  last_year: flagsSchema,
  change: flagsSchema,
  ytd: flagsSchema,
  ytd_last_year: flagsSchema,
  ytd_change: flagsSchema,
});
export type FigureFlags = z.infer<typeof figureFlagsSchema>;
/** The flags that apply to a figure of a row (its name in the answer). */
export const flagGroupOf = (figure: string): FlagGroup => {
  const ytd = figure.startsWith('ytd_');
  if (figure.endsWith('_change_pct')) return ytd ? 'ytd_change' : 'change';
  if (figure.endsWith('_last_year')) return ytd ? 'ytd_last_year' : 'last_year';
  return ytd ? 'ytd' : 'period';
};
/**
 * Why a row is confidential, told to the market's approvers and administrators only:
 * `contributors` too few companies, `dominance` one company holds too much of it, `protection`
 * hidden to protect another cell, `derived` it adds up a hidden cell (another period's, or a
 * market's in a cluster), `unprotectable` hidden, but an earlier publication already narrowed it
 * beyond any pattern's protection.
 */
export const HIDDEN_REASONS = ['contributors', 'dominance', 'protection', 'derived', 'unprotectable'] as const;
export type HiddenReason = (typeof HIDDEN_REASONS)[number];

export const statisticsFiguresSchema = z.object({
  volume: figure,
  value: figure,
  volume_last_year: figure,
  value_last_year: figure,
  volume_change_pct: percent,
  value_change_pct: percent,
  ytd_volume: figure,
  ytd_value: figure,
  ytd_volume_last_year: figure,
  ytd_value_last_year: figure,
  ytd_volume_change_pct: percent,
  ytd_value_change_pct: percent,
  volume_share_pct: percent,
  value_share_pct: percent,
  contributors: z.number().int().nullable(),
  confidential: z.boolean(),
  estimated: z.boolean(),
  estimated_last_year: z.boolean(),
  ytd_estimated: z.boolean(),
  ytd_estimated_last_year: z.boolean(),
  flags: figureFlagsSchema,
  /** Why the row is confidential (approvers of the market only; null for everyone else and for rows shown). */
  hidden_reason: z.enum(HIDDEN_REASONS).nullable(),
  /**
   * A revised row's volume and value as the period's first publication showed them (market answers;
   * null when not revised, when the first publication had no such row, and for viewers when it hid it).
   */
  first_published: z.object({ volume: figure, value: figure }).nullable(),
  own_volume: figure.optional(),
  own_value: figure.optional(),
  own_volume_share_pct: percent.optional(),
  own_value_share_pct: percent.optional(),
});
export type StatisticsFigures = z.infer<typeof statisticsFiguresSchema>;

export const statisticsRowSchema = statisticsFiguresSchema.extend({ key: statisticsKeySchema });
export type StatisticsRow = z.infer<typeof statisticsRowSchema>;

/** How many of the companies expected to report in the period (not disabled at its end) are approved. */
export const coverageSchema = z.object({ approved: z.number().int(), expected: z.number().int() });
export type Coverage = z.infer<typeof coverageSchema>;

/** Whether two coverages differ (approved or expected): a comparison between them is not like with like. */
export const coverageDiffers = (a: Coverage, b: Coverage | null) => b !== null && (a.approved !== b.approved || a.expected !== b.expected);

/**
 * The conversion applied: `rate` multiplies the market's currency into `to`. `inverse`: only the
 * reverse pair was stored, and `rate` is 1 / its rate (rounded to 10 decimals, and that rounded
 * rate is the one applied). Only values are converted; volumes are quantities.
 */
export const statisticsRateSchema = z.object({
  from: z.string(),
  to: z.string(),
  rate: decimalStringSchema,
  valid_from: z.string(),
  inverse: z.boolean(),
});
export type StatisticsRate = z.infer<typeof statisticsRateSchema>;

export const statisticsPeriodSchema = z.object({
  uuid: z.string(),
  title: z.string(),
  starts_on: z.string(),
  ends_on: z.string(),
  published: z.boolean(),
});
export type StatisticsPeriod = z.infer<typeof statisticsPeriodSchema>;

/**
 * Why the change against last year is flagged `b`: `missing` there is no period a year earlier,
 * `unpublished` there is one but it is not published for viewing (both: no change), `coverage` the
 * two periods count different shares of their companies (the change is shown, marked).
 */
export const lastYearBreakSchema = z.enum(['missing', 'unpublished', 'coverage']);
export type LastYearBreak = z.infer<typeof lastYearBreakSchema>;
/**
 * Why the year-to-date change is withheld (null) and flagged `b`: the two years to date do not
 * cover the same months. `months`: this year's months; `matching`: how many of them last year's
 * has; `last_year_months`: how many last year's has in all (more than `matching` when it holds
 * months this year's does not, a month not yet published this year, say).
 */
export const ytdBreakSchema = z.object({ months: z.number().int(), matching: z.number().int(), last_year_months: z.number().int() });
export type YtdBreak = z.infer<typeof ytdBreakSchema>;

/**
 * The periods the comparisons used: last year's, and how many periods each year to date adds up.
 * `last_year_coverage`: last year's coverage as the caller sees it; where it differs from the
 * period's own (`coverage`), a change compares unequal sets of companies and the screens say so.
 */
export const statisticsComparisonSchema = z.object({
  last_year: statisticsPeriodSchema.nullable(),
  last_year_coverage: coverageSchema.nullable(),
  ytd_periods: z.number().int(),
  ytd_last_year_periods: z.number().int(),
  last_year_break: lastYearBreakSchema.nullable(),
  ytd_break: ytdBreakSchema.nullable(),
});

/**
 * Settings the confidentiality was judged with (the organization's). `applied`: figures of
 * confidential cells are withheld (everyone but the market's approvers).
 */
export const confidentialitySchema = z.object({
  min_contributors: z.number(),
  dominance_percentage: z.number(),
  protection_percentage: z.number(),
  applied: z.boolean(),
});

/** GET /statistics/market */
export const marketStatisticsSchema = z.object({
  market: marketSummarySchema,
  period: statisticsPeriodSchema,
  by: z.enum(STATISTICS_BREAKDOWNS),
  comparison: statisticsComparisonSchema,
  rows: z.array(statisticsRowSchema),
  totals: statisticsFiguresSchema,
  coverage: coverageSchema,
  /** The currency of every value: the market's own, or the one asked for. */
  currency: z.string(),
  rate: statisticsRateSchema.nullable(),
  /** An approver looking at an unpublished period: reports not yet approved are counted too. */
  provisional: z.boolean(),
  confidentiality: confidentialitySchema,
  /** The breakdown's keys can hold the same code (overlapping groups or sections): the shares can add up to more than 100 %. */
  shares_overlap: z.boolean(),
});
export type MarketStatistics = z.infer<typeof marketStatisticsSchema>;

/**
 * One market's cell in a cluster row (side by side): its volume and value as that market's own answer
 * shows them. Last year, year to date, changes and shares are the cluster's (the row's own figures),
 * and the market's own answer has them for that market.
 */
export const clusterMarketFiguresSchema = statisticsFiguresSchema
  .pick({ volume: true, value: true, contributors: true, confidential: true, estimated: true })
  .extend({ market_id: z.number().int(), flags: figureFlagsSchema.pick({ period: true }) });
export const clusterStatisticsRowSchema = statisticsRowSchema.extend({ markets: z.array(clusterMarketFiguresSchema) });
export const clusterStatisticsSchema = z.object({
  cluster: refSchema,
  month: z.string(),
  by: z.enum(CLUSTER_BREAKDOWNS),
  /** The cluster's markets that have a period starting in the month, in column order. */
  markets: z.array(
    z.object({
      market: marketSummarySchema,
      period: statisticsPeriodSchema,
      currency: z.string(),
      rate: statisticsRateSchema.nullable(),
      coverage: coverageSchema,
      /** The market's period a year before (null: none the caller may see), and its coverage. */
      last_year: statisticsPeriodSchema.nullable(),
      last_year_coverage: coverageSchema.nullable(),
      provisional: z.boolean(),
    }),
  ),
  /**
   * The cluster's other markets the caller views, whose figures the answer does not hold, and why:
   * `unpublished` its period of the month is not published for viewing, `no_period` it has none.
   */
  absent: z.array(z.object({ market: marketSummarySchema, state: z.enum(['unpublished', 'no_period']) })),
  rows: z.array(clusterStatisticsRowSchema),
  totals: statisticsFiguresSchema.extend({ markets: z.array(clusterMarketFiguresSchema) }),
  /**
   * The cluster's: approved reports of the markets the figures hold, of the reports expected in
   * every market of the cluster with a period this month (so "3 of 17" when one market of four is published).
   */
  coverage: coverageSchema,
  /**
   * The cluster's change against last year is withheld (null, flagged `b`): a market of the figures
   * has no period a year earlier the caller may use, so the two sums would hold different markets.
   */
  change_withheld: z.boolean(),
  currency: z.string(),
  /** Null here: each market has its own rate (`markets[].rate`). */
  rate: statisticsRateSchema.nullable(),
  provisional: z.boolean(),
  confidentiality: confidentialitySchema,
  shares_overlap: z.boolean(),
});
export type ClusterStatistics = z.infer<typeof clusterStatisticsSchema>;

export const TREND_BREAKS = ['markets', 'companies', 'codes'] as const;
export type TrendBreak = (typeof TREND_BREAKS)[number];

/** One point of a trend: a period (a month, for a cluster) against the same period a year earlier. */
export const trendPointSchema = z.object({
  /** The market's period, or for a cluster the month ("2026-03") as title with the month's dates. */
  period: statisticsPeriodSchema.extend({ uuid: z.string().nullable() }),
  volume: figure,
  value: figure,
  volume_last_year: figure,
  value_last_year: figure,
  volume_change_pct: percent,
  value_change_pct: percent,
  contributors: z.number().int().nullable(),
  confidential: z.boolean(),
  /** The point's figures, last year's: hold an estimate for a missing report. */
  estimated: z.boolean(),
  estimated_last_year: z.boolean(),
  /**
   * `change` is flagged `b` when a period of the point has none a year earlier the caller may see,
   * or the coverages differ; `period` when the point breaks the series (`breaks`).
   */
  flags: figureFlagsSchema.pick({ period: true, last_year: true, change: true }),
  /**
   * What differs from the point before, so the series is not like with like across it (drawn
   * apart): `markets` other markets (a cluster's market joins or leaves), `companies` other
   * companies expected to report, `codes` other codes in the group or section.
   */
  breaks: z.array(z.enum(TREND_BREAKS)),
  hidden_reason: z.enum(HIDDEN_REASONS).nullable(),
  coverage: coverageSchema,
  /** The coverage of the periods a year earlier (null: none), to mark a point compared over unequal coverage. */
  last_year_coverage: coverageSchema.nullable(),
  rate: statisticsRateSchema.nullable(),
  provisional: z.boolean(),
  own_volume: figure.optional(),
  own_value: figure.optional(),
  own_volume_share_pct: percent.optional(),
  own_value_share_pct: percent.optional(),
});
export type TrendPoint = z.infer<typeof trendPointSchema>;

export const trendStatisticsSchema = z.object({
  market: marketSummarySchema.nullable(),
  cluster: refSchema.nullable(),
  /** What the series adds up: a code, group or section, or null for the total. */
  key: statisticsKeySchema.nullable(),
  key_type: z.enum(['code', 'code_group', 'code_section', 'total']),
  /** Oldest first; the last is the latest period the caller may see. */
  points: z.array(trendPointSchema),
  currency: z.string(),
  confidentiality: confidentialitySchema,
});
export type TrendStatistics = z.infer<typeof trendStatisticsSchema>;

/** A code of a company's report against the market (the /report-statistics screen). */
export const companyStatisticsRowSchema = z.object({
  key: codeKeySchema,
  own_volume: figure,
  own_value: figure,
  own_volume_last_year: figure,
  own_value_last_year: figure,
  own_volume_change_pct: percent,
  own_value_change_pct: percent,
  /** The market's figures (confidentiality applied). */
  volume: figure,
  value: figure,
  volume_last_year: figure,
  value_last_year: figure,
  volume_change_pct: percent,
  value_change_pct: percent,
  own_volume_share_pct: percent,
  own_value_share_pct: percent,
  contributors: z.number().int().nullable(),
  confidential: z.boolean(),
  /** The market's figures, last year's: hold an estimate for a missing report. */
  estimated: z.boolean(),
  estimated_last_year: z.boolean(),
  /** The flags of the market's figures (the company's own are its report: none). */
  flags: figureFlagsSchema.pick({ period: true, last_year: true, change: true }),
  hidden_reason: z.enum(HIDDEN_REASONS).nullable(),
});
export type CompanyStatisticsRow = z.infer<typeof companyStatisticsRowSchema>;

export const companyShareHistoryPointSchema = z.object({
  period: statisticsPeriodSchema,
  own_volume: figure,
  own_value: figure,
  own_volume_share_pct: percent,
  own_value_share_pct: percent,
  confidential: z.boolean(),
});

/** GET /statistics/company */
export const companyStatisticsSchema = z.object({
  company: refSchema,
  market: marketSummarySchema,
  period: statisticsPeriodSchema,
  /** The company's report in the period (null: none). */
  report: z.object({ uuid: z.string(), status: z.number().int() }).nullable(),
  comparison: statisticsComparisonSchema,
  rows: z.array(companyStatisticsRowSchema),
  totals: companyStatisticsRowSchema.omit({ key: true }),
  /** The company's share of the market total in each visible period, oldest first (up to 24). */
  history: z.array(companyShareHistoryPointSchema),
  coverage: coverageSchema,
  currency: z.string(),
  rate: statisticsRateSchema.nullable(),
  provisional: z.boolean(),
  confidentiality: confidentialitySchema,
});
export type CompanyStatistics = z.infer<typeof companyStatisticsSchema>;

/**
 * GET /statistics/choices: what the statistics screens offer the caller to pick: the markets where
 * they view statistics (with the market's own currency), the clusters whose statistics they may
 * view (with the cluster's markets), and the currencies figures can be converted to.
 */
export const statisticsChoicesSchema = z.object({
  markets: z.array(marketSummarySchema.extend({ currency: z.string().nullable() })),
  clusters: z.array(
    refSchema.extend({
      markets: z.array(marketSummarySchema),
      latest_month: z
        .string()
        .nullable()
        .describe(
          'The latest month (YYYY-MM) with a period of one of its markets the caller may see (published, or any where they approve): the screen opens on it',
        ),
    }),
  ),
  currencies: z.array(z.object({ iso_code: z.string(), name: z.string() })),
});
export type StatisticsChoices = z.infer<typeof statisticsChoicesSchema>;
