import type { Locale } from '@mss/contracts/enums';
import { fillPlaceholders, type MessageParams } from '@mss/contracts/messages';
import { sheetTextsDkDK, sheetTextsFiFI, sheetTextsNoNO, sheetTextsSvSE } from './statistics.sheet-texts.locales.ts';

/*
 * The texts of the statistics downloads (xlsx and csv): the header block and the column titles.
 * Only the server writes them, so they live here and not in the shared catalogue the browser
 * loads with its first screen (docs/performance.md, the first-load budget).
 */
const enUS = {
  market: 'Market',
  cluster: 'Cluster',
  company: 'Company',
  period: 'Period',
  currency: 'Currency',
  rate: 'Rate',
  rate_value: ':rate (:from to :to, valid from :valid_from)',
  no_rate: 'None (the market currency)',
  coverage: 'Coverage',
  coverage_value: 'approved :approved of :expected',
  coverage_last_year: 'Coverage last year (:period)',
  coverage_last_year_column: 'Coverage last year',
  note: 'Note',
  note_coverage_differs: "The coverage differs from last year's: the changes compare figures of unequal sets of companies, not only a change in sales.",
  note_cluster_no_last_year:
    "Markets without a period a year earlier (:markets): the cluster's change against last year is not shown, as its two sums would hold different markets.",
  note_cluster_absent: 'Not in these figures: :markets.',
  absent_unpublished: ':market (not yet published)',
  absent_no_period: ':market (no period this month)',
  note_confidential: 'Confidential figures (too few companies, one dominant company, or figures from which such a figure could be worked out) are not shown.',
  note_provisional: 'Provisional: the period is not published, and reports not yet approved are counted.',
  note_estimated:
    "Estimated: figures marked in the column Estimated hold estimates for reports not yet in (each missing company's last published report times the change of the companies that reported in both periods).",
  note_flags:
    'Flags (the column after each figure): c confidential, p provisional, r revised since the first publication, e estimated, b break (not compared like with like).',
  note_last_year_missing: 'There is no period a year earlier: no change against last year.',
  note_last_year_unpublished: 'The period a year earlier is not published: no change against last year.',
  note_ytd_break: 'Year to date: :year has :matching of these :months months, so the change is not shown.',
  note_ytd_other_months: "Year to date: :year's year to date holds other months, so the change is not shown.",
  note_shares_overlap: 'Shares: the groups or sections overlap (a code can count in several), so the shares can add up to more than 100 %.',
  flags_of: ':figure flags',
  breaks: 'Break in the series',
  break_markets: 'other markets',
  break_companies: 'other companies expected to report',
  break_codes: 'other codes in the group or section',
  hidden_reason: 'Why confidential',
  reason_contributors: 'too few companies',
  reason_dominance: 'one company dominates',
  reason_protection: 'hidden to protect another cell',
  reason_derived: 'adds up a confidential cell',
  reason_unprotectable: 'an earlier publication already narrowed it',
  estimated: 'Estimated',
  estimated_period: 'period',
  estimated_last_year: 'last year',
  estimated_ytd: 'year to date',
  estimated_ytd_last_year: 'year to date last year',
  key: 'Key',
  code: 'Code',
  name: 'Name',
  volume: 'Volume',
  value: 'Value',
  volume_last_year: 'Volume last year',
  value_last_year: 'Value last year',
  volume_change_pct: 'Volume change %',
  value_change_pct: 'Value change %',
  ytd_volume: 'Volume year to date',
  ytd_value: 'Value year to date',
  ytd_volume_last_year: 'Volume year to date last year',
  ytd_value_last_year: 'Value year to date last year',
  ytd_volume_change_pct: 'Volume year to date change %',
  ytd_value_change_pct: 'Value year to date change %',
  volume_share_pct: 'Volume share %',
  value_share_pct: 'Value share %',
  contributors: 'Companies',
  confidential: 'Confidential',
  yes: 'yes',
  own_volume: 'Own volume',
  own_value: 'Own value',
  own_volume_last_year: 'Own volume last year',
  own_value_last_year: 'Own value last year',
  own_volume_change_pct: 'Own volume change %',
  own_value_change_pct: 'Own value change %',
  own_volume_share_pct: 'Own volume share %',
  own_value_share_pct: 'Own value share %',
  total: 'Total',
} as const;

export type SheetTextKey = keyof typeof enUS;

/** Each language's texts (statistics.sheet-texts.locales.ts, typed against en-US: a key missing does not compile). */
const catalogues: Record<Locale, Record<SheetTextKey, string>> = {
  'en-US': enUS,
  'sv-SE': sheetTextsSvSE,
  'fi-FI': sheetTextsFiFI,
  'dk-DK': sheetTextsDkDK,
  'no-NO': sheetTextsNoNO,
};

export function sheetText(locale: Locale, key: SheetTextKey, params?: MessageParams): string {
  return fillPlaceholders(catalogues[locale]?.[key] ?? enUS[key], params);
}
