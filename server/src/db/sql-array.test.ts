import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { sqlArray } from './sql-array.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('sqlArray', () => {
  it('when texts hold commas, quotes, braces, backslashes or NULL, then each arrives as one element, as it was', async () => {
    const values = ['a,b', 'say "hi"', '{x}', 'back\\slash', 'NULL', '', 'Škoda 日本'];
    const rows = await t.db.execute<{ v: string; i: number }>(
      sql`select v, i::int from unnest(${sqlArray([...values, null], 'text')}) with ordinality as x(v, i)`,
    );
    expect(rows.rows.map((r) => r.v)).toEqual([...values, null]);
  });

  it('when numbers, decimals and dates are passed, then they arrive typed, and an empty list is an empty array', async () => {
    const rows = await t.db.execute<{ n: number; d: string; day: string; empty: number }>(sql`
      select (${sqlArray([1, 2, 3], 'int')})[3] as n, ((${sqlArray(['12.3400', null], 'numeric')})[1])::text as d,
        ((${sqlArray(['2026-02-28'], 'date')})[1] + 1)::text as day, cardinality(${sqlArray([], 'int')})::int as empty`);
    expect(rows.rows[0]).toEqual({ n: 3, d: '12.3400', day: '2026-03-01', empty: 0 });
  });
});
