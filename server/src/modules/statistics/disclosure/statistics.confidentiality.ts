import type { Coverage, FigureFlags, HiddenReason, StatisticsFigures, StatisticsRate } from '@mss/contracts/statistics';
import type { Db } from '../../../db/client.ts';
import { type Settings, settingsOf } from './statistics.access.ts';
import { type AggregateRow, ESTIMATED, REASON, type Role, type Selection } from '../figures/statistics.aggregate.ts';
import { coverageOf, type PeriodRow } from '../figures/statistics.periods.ts';
import { currentPublications, publishedCoverages } from './statistics.publications.ts';

/*
 * Statistical disclosure control (docs/architecture.md §8 "Confidentiality", docs/decisions.md "Disclosure
 * control"): the one place every answer (market, cluster, trend, company, and their downloads)
 * asks what the caller may see of a period's figures.
 *
 * - Which cells of a period are hidden is decided once, when the period is published, over
 *   everything published together (statistics.publications.ts, statistics.protection.ts): the
 *   pattern. Viewers and members read the period as it was published (`publication`), its hidden
 *   cells confidential, however the reports changed since.
 * - Every other figure is derived from those cells: a year to date adds up months, last year is
 *   another period, a trend lists periods, a cluster adds markets, a change and a share divide two
 *   cells. A derived figure is shown only when every cell it is made of is shown (the aggregate
 *   flags a row confidential when any cell it adds up is), so none tells more than the cells do.
 * - The market's approvers see every figure: a published period with its current approved figures
 *   (`pattern`: flagged where the publication hides them, or where they break the rules), an
 *   unpublished one provisionally from every report that holds rows (`live`: flagged where they
 *   break the rules; no pattern exists before publication).
 * - A confidential row sends no figure, share or contributor count; shares are withheld when the
 *   totals are confidential (a share and a figure give the total); a company's own figures stay
 *   visible to it, but its share of a confidential cell does not.
 */

/** Where a period's figures come from for this caller. */
export interface Source {
  publication: number | null;
  pattern: number | null;
  live: boolean;
}

/**
 * The source of each period for a caller who approves in its market or not (viewers only ever get
 * published periods, and a published period has a publication: statistics.periods.ts `viewable`).
 */
export async function sourcesOf(db: Db, periods: readonly PeriodRow[], approver: (period: PeriodRow) => boolean): Promise<Map<number, Source>> {
  const unique = [...new Map(periods.map((p) => [p.id, p])).values()];
  const publications = await currentPublications(
    db,
    unique.filter((p) => p.published).map((p) => p.id),
  );
  const out = new Map<number, Source>();
  for (const p of unique) {
    const publication = publications.get(p.id) ?? null;
    if (approver(p)) out.set(p.id, { publication: null, pattern: publication, live: publication === null });
    // Never the stored cells without a pattern: a viewer reads a publication or nothing.
    else if (publication === null) throw new Error(`The period ${p.id} has no publication to read`);
    else out.set(p.id, { publication, pattern: null, live: false });
  }
  return out;
}

/** A selection of the aggregate: a period in a role and bucket, read from its source. */
export const selectionOf = (bucket: number, period: PeriodRow, role: Role, rate: StatisticsRate | null | undefined, source: Source): Selection => ({
  bucket,
  periodId: period.id,
  role,
  rate: rate?.rate ?? null,
  publication: source.publication,
  pattern: source.pattern,
});

/**
 * What the caller is told of a period besides its figures: its coverage and the settings its
 * confidentiality was judged with, as published (viewers) or as they stand (approvers).
 */
export async function coverageSeen(db: Db, sources: Map<number, Source>): Promise<Map<number, Coverage>> {
  return new Map([...(await seenOf(db, sources))].map(([id, seen]) => [id, seen.coverage]));
}

async function seenOf(db: Db, sources: Map<number, Source>): Promise<Map<number, { coverage: Coverage; settings: Settings | null }>> {
  const published = await publishedCoverages(
    db,
    [...sources.values()].flatMap((s) => (s.publication === null ? [] : [s.publication])),
  );
  const current = await coverageOf(
    db,
    [...sources].filter(([, s]) => s.publication === null).map(([id]) => id),
  );
  return new Map(
    [...sources].map(([id, s]): [number, { coverage: Coverage; settings: Settings | null }] => {
      if (s.publication === null) return [id, { coverage: current.get(id)!, settings: null }];
      const { approved, expected, settings } = published.get(s.publication)!;
      return [id, { coverage: { approved, expected }, settings }];
    }),
  );
}

/**
 * One period's coverage and confidentiality settings as the caller sees them (the market and
 * company answers), and the coverage of the period it is compared with (last year's), if any.
 */
export async function periodSeen(
  db: Db,
  period: PeriodRow,
  lastYear: PeriodRow | null,
  sources: Map<number, Source>,
  organizationId: number,
): Promise<{ coverage: Coverage; lastYearCoverage: Coverage | null; settings: Settings }> {
  const wanted = new Map([[period.id, sources.get(period.id)!]]);
  if (lastYear) wanted.set(lastYear.id, sources.get(lastYear.id)!);
  const seen = await seenOf(db, wanted);
  const own = seen.get(period.id)!;
  return {
    coverage: own.coverage,
    lastYearCoverage: lastYear ? seen.get(lastYear.id)!.coverage : null,
    settings: own.settings ?? (await settingsOf(db, organizationId)),
  };
}

/** The periods counted from their rows (an approver's provisional view). */
export const liveOf = (sources: Map<number, Source>) => [...sources].filter(([, s]) => s.live).map(([id]) => id);

/** The figures of a cell, in the order the tables show them (statistics.sheets.ts too). */
export const FIGURE_FIELDS = [
  'volume',
  'value',
  'volume_last_year',
  'value_last_year',
  'volume_change_pct',
  'value_change_pct',
  'ytd_volume',
  'ytd_value',
  'ytd_volume_last_year',
  'ytd_value_last_year',
  'ytd_volume_change_pct',
  'ytd_value_change_pct',
  'volume_share_pct',
  'value_share_pct',
] as const;
/** A reporter's or company user's own figures and shares. */
export const OWN_FIELDS = ['own_volume', 'own_value', 'own_volume_share_pct', 'own_value_share_pct'] as const;

/** What the aggregate query answered for a cell (statistics.aggregate.ts). */
export type Figured = Pick<
  AggregateRow,
  (typeof FIGURE_FIELDS)[number] | (typeof OWN_FIELDS)[number] | 'contributors' | 'confidential' | 'estimated' | 'revised' | 'reason'
>;

/**
 * What the flags of an answer's figures depend on besides the row (docs/architecture.md §8 "Flags"):
 * which of the periods it compares are read provisionally, whether its comparisons are like with
 * like, and whether the caller is told why a row is hidden.
 */
export interface FlagContext {
  /** The period, last year's, a period of the year to date, of last year's year to date: read provisionally (an approver's unpublished period). */
  provisional: { p: boolean; ly: boolean; ytd: boolean; ytdly: boolean };
  /** The change against last year compares unlike periods (flag `b`). */
  changeBreak: boolean;
  /** ... and is withheld (null): a cluster whose sums a year earlier hold fewer markets. */
  changeWithheld?: boolean;
  /** Last year's figures are no base at all (a cluster month a year earlier holding fewer markets): withheld with the change, flagged `b`. */
  lastYearWithheld?: boolean;
  /** The period's figures break the series from the point before (a trend's `breaks`): flagged `b`. */
  periodBreak?: boolean;
  /** The year-to-date change compares unlike months: withheld (null) and flagged `b`. */
  ytdBreak: boolean;
  /** Tell why a row is confidential (the market's approvers). */
  reasons: boolean;
}

/** The flag context of an answer comparing `period` with its comparison's periods, read from these sources. */
export function flagContextOf(
  sources: Map<number, Source>,
  roles: readonly { period: PeriodRow; role: Role }[],
  options: Omit<FlagContext, 'provisional'>,
): FlagContext {
  const provisional = { p: false, ly: false, ytd: false, ytdly: false };
  for (const { period, role } of roles) if (sources.get(period.id)?.live) provisional[role] = true;
  return { provisional, ...options };
}

/** Why a row is confidential, from its REASON bits (statistics.aggregate.ts): the period's own cell first, else derived. */
export function hiddenReasonOf(bits: number): HiddenReason | null {
  if (bits & REASON.unprotectable) return 'unprotectable';
  if (bits & REASON.contributors) return 'contributors';
  if (bits & REASON.dominance) return 'dominance';
  if (bits & REASON.protection) return 'protection';
  if (bits & REASON.derived) return 'derived';
  return null;
}

/**
 * The flags of a row's figures: `c` on every figure of a confidential row; `p` where a period it
 * counts is read provisionally; `r` and `e` where a period it counts is revised or estimated (not
 * on withheld figures: they would tell something of them); `b` on a change that is not like with like.
 */
export function flagsOf(row: Pick<AggregateRow, 'confidential' | 'estimated' | 'revised'> | null, withheld: boolean, context: FlagContext): FigureFlags {
  const bits = (field: number) => (withheld || !row ? 0 : field);
  const estimated = bits(row?.estimated ?? 0);
  const revised = bits(row?.revised ?? 0);
  const c = row?.confidential ?? false;
  const { provisional: p } = context;
  const flags = (mask: number, provisional: boolean, brk = false) =>
    `${c ? 'c' : ''}${provisional ? 'p' : ''}${revised & mask ? 'r' : ''}${estimated & mask ? 'e' : ''}${brk ? 'b' : ''}`;
  const [P, LY, YTD, YTDLY] = [ESTIMATED.p, ESTIMATED.ly, ESTIMATED.ytd, ESTIMATED.ytdly];
  return {
    period: flags(P, p.p, context.periodBreak),
    last_year: flags(LY, p.ly, context.lastYearWithheld),
    change: flags(P | LY, p.p || p.ly, context.changeBreak),
    ytd: flags(YTD, p.ytd),
    ytd_last_year: flags(YTDLY, p.ytdly),
    ytd_change: flags(YTD | YTDLY, p.ytd || p.ytdly, context.ytdBreak),
  };
}

/** Which figures of a row hold an estimate for a missing report (statistics.aggregate.ts ESTIMATED), none when withheld. */
export const estimatedOf = (row: Pick<AggregateRow, 'estimated'> | null, withheld: boolean) => {
  const bits = withheld ? 0 : (row?.estimated ?? 0);
  return {
    estimated: (bits & ESTIMATED.p) !== 0,
    estimated_last_year: (bits & ESTIMATED.ly) !== 0,
    ytd_estimated: (bits & ESTIMATED.ytd) !== 0,
    ytd_estimated_last_year: (bits & ESTIMATED.ytdly) !== 0,
  };
};

/**
 * The figures of a row as sent: withheld when confidential and `apply`; shares withheld when the
 * totals are confidential; own figures only when `own`.
 */
export function figuresOf(row: Figured | null, options: { apply: boolean; totalsConfidential: boolean; own: boolean; flags: FlagContext }): StatisticsFigures {
  const confidential = row?.confidential ?? false;
  const hide = options.apply && confidential;
  const out = {
    contributors: row?.contributors ?? null,
    confidential,
    ...estimatedOf(row, hide || !row),
    flags: flagsOf(row, hide, options.flags),
    hidden_reason: options.flags.reasons && confidential ? hiddenReasonOf(row?.reason ?? 0) : null,
    first_published: null,
  } as StatisticsFigures;
  for (const name of FIGURE_FIELDS) out[name] = hide || !row ? null : row[name];
  if (options.flags.lastYearWithheld) {
    out.volume_last_year = null;
    out.value_last_year = null;
  }
  if (options.flags.changeWithheld || options.flags.lastYearWithheld) {
    out.volume_change_pct = null;
    out.value_change_pct = null;
  }
  // A year-to-date change over other months than last year's is no change: withheld, flagged `b`.
  if (options.flags.ytdBreak) {
    out.ytd_volume_change_pct = null;
    out.ytd_value_change_pct = null;
  }
  if (options.apply && options.totalsConfidential) {
    out.volume_share_pct = null;
    out.value_share_pct = null;
  }
  if (hide) out.contributors = null;
  if (options.own) {
    out.own_volume = row?.own_volume ?? null;
    out.own_value = row?.own_value ?? null;
    out.own_volume_share_pct = hide ? null : (row?.own_volume_share_pct ?? null);
    out.own_value_share_pct = hide ? null : (row?.own_value_share_pct ?? null);
  }
  return out;
}
