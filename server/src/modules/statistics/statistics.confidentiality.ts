import type { StatisticsFigures } from '@mss/contracts/statistics';
import type { AggregateRow } from './statistics.aggregate.ts';

/*
 * Statistical disclosure control (DESIGN §8 "Confidentiality"), applied to the rows the aggregate
 * query answered, before anything is sent:
 *   1. primary: a row is confidential when any cell it adds up (the period, last year's, and every
 *      period of both years to date, in every market of a cluster) has fewer than min_contributors
 *      companies or a largest company above dominance_percentage (judged by the query);
 *   2. complementary: when exactly one row of a breakdown is confidential, the next smallest (by
 *      the period's value, then volume) is suppressed too; when there is no other row, the totals;
 *   3. a confidential row sends no figure, share or contributor count; shares of the other rows
 *      are withheld when the totals are confidential (a share and a figure give the total); a
 *      company's own figures stay visible to it, but its share of a confidential cell does not.
 * For the market's approvers nothing is withheld (`applied: false`); the flags still say which
 * cells the others do not see.
 */

export interface Judged {
  primary_confidential: boolean;
  rank: number;
}

/** The rows of one breakdown and its totals: which are confidential after complementary suppression. */
export function suppress<R extends Judged>(rows: readonly R[], totals: R | null): { rows: Set<R>; totals: boolean } {
  const confidential = new Set(rows.filter((r) => r.primary_confidential));
  let totalsConfidential = totals?.primary_confidential ?? false;
  if (confidential.size === 1) {
    const next = rows.filter((r) => !confidential.has(r)).sort((a, b) => a.rank - b.rank)[0];
    if (next) confidential.add(next);
    else totalsConfidential = true;
  }
  return { rows: confidential, totals: totalsConfidential };
}

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

/** The figures of a cell as the contract sends them. */
export type Figures = StatisticsFigures;

/** What the aggregate query answered for a cell (statistics.aggregate.ts). */
export type Source = Judged & Pick<AggregateRow, (typeof FIGURE_FIELDS)[number] | (typeof OWN_FIELDS)[number] | 'contributors'>;

/**
 * The figures of a row as sent: withheld when `confidential` and `apply`; shares withheld when the
 * totals are confidential; own figures only when `own`.
 */
export function figuresOf(row: Source | null, options: { confidential: boolean; apply: boolean; totalsConfidential: boolean; own: boolean }): Figures {
  const out = { contributors: row?.contributors ?? null, confidential: options.confidential } as Figures;
  const hide = options.apply && options.confidential;
  for (const name of FIGURE_FIELDS) out[name] = hide || !row ? null : row[name];
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
