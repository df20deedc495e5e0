import fc from 'fast-check';
import type { CellDimension, PatternCell } from '../src/modules/statistics/statistics.pattern.ts';

/*
 * Random markets for the pattern tests (statistics.pattern.test.ts): companies' figures per code,
 * overlapping groups and sections, and the companies each publication of one period counts. The
 * cells and the rules are worked out here, apart from the app's code.
 */

export type Figures = { volume: number; value: number };
export interface World {
  minContributors: number;
  dominance: number;
  protection: number;
  /** figures[company][code], null: no row. */
  figures: (Figures | null)[][];
  groups: number[][];
  sections: number[][];
  /** The companies each publication counts, in order. */
  publications: number[][];
}

const figure = fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 4000 }), fc.constant(0));
export const worldArbitrary: fc.Arbitrary<World> = fc
  .record({ companies: fc.integer({ min: 2, max: 6 }), codes: fc.integer({ min: 2, max: 7 }) })
  .chain(({ companies, codes }) =>
    fc.record({
      minContributors: fc.integer({ min: 2, max: 4 }),
      dominance: fc.constantFrom(60, 75, 85, 95),
      protection: fc.constantFrom(5, 10, 20),
      figures: fc.array(fc.array(fc.option(fc.record({ volume: figure, value: figure }), { nil: null, freq: 3 }), { minLength: codes, maxLength: codes }), {
        minLength: companies,
        maxLength: companies,
      }),
      groups: fc.array(fc.uniqueArray(fc.integer({ min: 0, max: codes - 1 }), { minLength: 1, maxLength: codes }), { maxLength: 3 }),
      sections: fc.array(fc.uniqueArray(fc.integer({ min: 0, max: codes - 1 }), { minLength: 1, maxLength: codes }), { maxLength: 2 }),
      publications: fc.array(fc.uniqueArray(fc.integer({ min: 0, max: companies - 1 }), { minLength: 1, maxLength: companies }), {
        minLength: 1,
        maxLength: 3,
      }),
    }),
  );

export const code = (k: number) => k + 1;
export const company = (c: number) => c + 1;
export const text = (n: number) => `${n}.0000`;

export interface Cell extends PatternCell {
  codes: number[];
}

/** The cells a publication counting `counted` shows (those with rows), the rules judged here. */
export function cellsOf(world: World, counted: readonly number[]): Cell[] {
  const present = [...new Set(counted.flatMap((c) => world.figures[c]!.flatMap((f, k) => (f ? [k] : []))))].sort((a, b) => a - b);
  const out: Cell[] = [];
  const add = (dimension: CellDimension, key: number, codes: number[], codeIds: number[] | null) => {
    if (codes.length === 0) return;
    out.push({ dimension, key_id: key, code_ids: codeIds, codes, primary_confidential: breaks(world, counted, codes) });
  };
  for (const k of present) add('code', code(k), [k], null);
  world.groups.forEach((g, i) => {
    const codes = g.filter((k) => present.includes(k)).sort((a, b) => a - b);
    add('code_group', i + 1, codes, codes.map(code));
  });
  world.sections.forEach((s, i) => {
    const codes = s.filter((k) => present.includes(k)).sort((a, b) => a - b);
    add('code_section', i + 1, codes, codes.map(code));
  });
  add('total', 0, present, null);
  return out;
}

/** Fewer than min contributors, or the largest above the dominance percentage (volume or value). */
export function breaks(world: World, companies: readonly number[], codes: readonly number[]): boolean {
  const per = companies
    .map((c) => codes.map((k) => world.figures[c]![k]).filter((f): f is Figures => f !== null))
    .filter((list) => list.length > 0)
    .map((list) => ({ volume: list.reduce((s, f) => s + f.volume, 0), value: list.reduce((s, f) => s + f.value, 0) }));
  if (per.length === 0) return false;
  if (per.length < world.minContributors) return true;
  return (['volume', 'value'] as const).some((m) => {
    const total = per.reduce((s, f) => s + f[m], 0);
    return total > 0 && Math.max(...per.map((f) => f[m])) * 100 > world.dominance * total;
  });
}
