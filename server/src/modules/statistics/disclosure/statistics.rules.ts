import { sql } from 'drizzle-orm';
import { decimalUnits } from '@mss/contracts/decimal';
import type { Settings } from './statistics.access.ts';

/*
 * The primary rule of disclosure control (docs/architecture.md §8 "Confidentiality"), in one place:
 * a cell is confidential when, in volume or in value, fewer than min_contributors companies have
 * a figure other than 0 in it, or the largest of them in absolute value holds at least
 * dominance_percentage of their absolute values. Judged twice, alike: in SQL over the stored cells
 * (`breaksRules`, the answers) and exactly over companies' figures (`sumBreaksRules`, the pattern
 * of a publication). statistics.pattern.test.ts checks that the two agree.
 */

/**
 * Whether a cell (a row with volume_contributors, value_contributors, abs_volume, abs_value,
 * max_volume and max_value, as `alias`) breaks the confidentiality rules in volume or in value,
 * judged on magnitudes (docs/architecture.md §8): of the companies whose figure is not 0 (nor
 * empty) there are fewer than min_contributors, or the largest in absolute value holds at least
 * dominance_percentage of their absolute values (exact decimal text, compared as numeric). A
 * measure in which no company has a figure other than 0 breaks nothing.
 */
export const breaksRules = (alias: string, settings: { minContributors: number; dominancePercentage: string }) => {
  const dominance = sql`${settings.dominancePercentage}::numeric`;
  const measure = (m: 'volume' | 'value') => {
    const [n, total, max] = [`${m}_contributors`, `abs_${m}`, `max_${m}`].map((c) => sql.raw(`${alias}.${c}`));
    return sql`(${n} > 0 and (${n} < ${settings.minContributors}::int or ${max} * 100 >= ${dominance} * ${total}))`;
  };
  return sql`(${measure('volume')} or ${measure('value')})`;
};

/** Whether a cell breaks the rules by its number of contributors alone (the rest of `breaksRules` is dominance). */
export const tooFewContributors = (alias: string, settings: { minContributors: number }) => {
  const measure = (m: 'volume' | 'value') => {
    const n = sql.raw(`${alias}.${m}_contributors`);
    return sql`(${n} > 0 and ${n} < ${settings.minContributors}::int)`;
  };
  return sql`(${measure('volume')} or ${measure('value')})`;
};

/**
 * Whether a sum of companies' figures breaks the rules (the same rules as the cells', `breaksRules`
 * in SQL), exactly, in volume or in value, on magnitudes: a company whose figures in the sum add up
 * to 0 (or are empty) does not contribute to that measure; of the others there are fewer than
 * min_contributors, or the largest in absolute value holds at least dominance_percentage of their
 * absolute values.
 */
export function sumBreaksRules(
  perCompany: Map<number, { volume: bigint; value: bigint }>,
  settings: Pick<Settings, 'minContributors' | 'dominancePercentage'>,
): boolean {
  const scale = settings.dominancePercentage.split('.')[1]?.length ?? 0;
  const dominance = decimalUnits(settings.dominancePercentage, scale);
  for (const measure of ['volume', 'value'] as const) {
    let contributors = 0;
    let total = 0n;
    let largest = 0n;
    for (const c of perCompany.values()) {
      const x = c[measure] < 0n ? -c[measure] : c[measure];
      if (x === 0n) continue;
      contributors++;
      total += x;
      if (x > largest) largest = x;
    }
    if (contributors === 0) continue;
    if (contributors < settings.minContributors) return true;
    if (largest * 100n * 10n ** BigInt(scale) >= dominance * total) return true;
  }
  return false;
}
