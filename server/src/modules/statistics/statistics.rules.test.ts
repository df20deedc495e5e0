import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decimalUnits, FIGURE_LIMITS } from '@mss/contracts/decimal';
import { openDatabase, type Database } from '../../db/client.ts';
import { sqlArray } from '../../db/sql-array.ts';
import { breaksRules, sumBreaksRules } from './disclosure/statistics.rules.ts';

/*
 * The primary rule is judged in SQL over stored cells (the answers) and exactly in TypeScript over
 * companies' figures (a publication's pattern): both must say the same of every cell, returns
 * (figures below zero), zeros and empty figures included.
 */

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ inMemory: true });
});
afterAll(async () => {
  await database?.close();
});

/** A company's figure in a cell: four decimals, below zero, zero or empty too. */
const figure = fc.oneof(
  fc.constant(null),
  fc.constant('0.0000'),
  fc
    .integer({ min: -2_000_000, max: 2_000_000 })
    .map((n) => `${n < 0 ? '-' : ''}${Math.floor(Math.abs(n) / 10000)}.${String(Math.abs(n) % 10000).padStart(4, '0')}`),
);
const cell = fc.array(fc.record({ volume: figure, value: figure }), { minLength: 1, maxLength: 6 });
const settings = fc.record({
  minContributors: fc.integer({ min: 1, max: 5 }),
  dominancePercentage: fc.constantFrom('50', '75.5', '85', '99.99', '100'),
});

describe('the primary rule, in SQL and in TypeScript', () => {
  it('when 300 random cells of up to six companies are judged both ways (seed 20261128), then they agree on every one', async () => {
    const samples = fc.sample(fc.tuple(cell, settings), { numRuns: 300, seed: 20261128 });
    for (const [companies, rules] of samples) {
      // The cell as statistics.cells.ts stores it: companies with a figure other than 0, magnitudes, the largest.
      const rows = await database.db.execute<{ breaks: boolean }>(sql`
        with x as (
          select * from unnest(${sqlArray(
            companies.map((c) => c.volume),
            'numeric',
          )}, ${sqlArray(
            companies.map((c) => c.value),
            'numeric',
          )}) as x(volume, value)
        ), c as (
          select count(*) filter (where coalesce(volume, 0) <> 0)::int as volume_contributors, count(*) filter (where coalesce(value, 0) <> 0)::int as value_contributors,
            coalesce(sum(abs(volume)), 0) as abs_volume, coalesce(sum(abs(value)), 0) as abs_value,
            coalesce(max(abs(volume)), 0) as max_volume, coalesce(max(abs(value)), 0) as max_value
          from x
        )
        select ${breaksRules('c', rules)} as breaks from c`);
      const exact = new Map(
        companies.map((c, i) => [
          i,
          {
            volume: c.volume === null ? 0n : decimalUnits(c.volume, FIGURE_LIMITS.scale),
            value: c.value === null ? 0n : decimalUnits(c.value, FIGURE_LIMITS.scale),
          },
        ]),
      );
      expect(rows.rows[0]!.breaks, JSON.stringify({ companies, rules })).toBe(sumBreaksRules(exact, rules));
    }
  });
});
