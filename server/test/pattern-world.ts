import fc from 'fast-check';
import type { CellDimension, PatternCell } from '../src/modules/statistics/statistics.pattern.ts';

/*
 * Random markets for the pattern tests (statistics.pattern.test.ts): companies' figures per code,
 * overlapping groups and sections, and the companies each publication of one period counts. The
 * cells and the rules are worked out here, apart from the app's code.
 *
 * Members' figures are not all positive: some codes are returns (every figure <= 0), a sales code
 * may hold a correction (one negative figure), rows hold zeros and empty values, and figures come
 * from a small set of round numbers often enough that a company holds exactly the dominance
 * share (85 of 100). Publications drop companies and count them again (a removed, re-added one).
 */

/** A row's figures; null: the value is empty. */
export type Figures = { volume: number | null; value: number | null };
export interface World {
  minContributors: number;
  dominance: number;
  protection: number;
  /** figures[company][code], null: no row. */
  figures: (Figures | null)[][];
  /** Per code, -1 for a returns code (its figures are <= 0), else 1. */
  signs?: (1 | -1)[];
  groups: number[][];
  sections: number[][];
  /** The companies each publication counts, in order. */
  publications: number[][];
}

const magnitude = fc.oneof(
  fc.integer({ min: 0, max: 40 }),
  fc.integer({ min: 0, max: 4000 }),
  fc.constant(0),
  fc.constantFrom(15, 25, 40, 60, 75, 85, 100, 300),
);
const figure = fc.oneof({ weight: 6, arbitrary: magnitude }, { weight: 1, arbitrary: fc.constant(null) });
/** A sales code's figure; now and then a correction below zero. */
const sales = fc.oneof({ weight: 12, arbitrary: figure }, { weight: 1, arbitrary: magnitude.map((n) => -n) });
const returns = figure.map((n) => (n === null || n === 0 ? n : -n));

/** Larger worlds on request (PATTERN_COMPANIES, PATTERN_CODES): slower, for a long run by hand. */
const MAX_COMPANIES = Number(process.env.PATTERN_COMPANIES ?? 6);
const MAX_CODES = Number(process.env.PATTERN_CODES ?? 7);

export const worldArbitrary: fc.Arbitrary<World> = fc
  .record({
    companies: fc.integer({ min: 2, max: MAX_COMPANIES }),
    codes: fc.integer({ min: 2, max: MAX_CODES }),
    signs: fc.array(fc.constantFrom<1 | -1>(1, 1, 1, -1), { minLength: MAX_CODES, maxLength: MAX_CODES }),
  })
  .chain(({ companies, codes, signs }) =>
    fc.record({
      minContributors: fc.integer({ min: 2, max: 4 }),
      dominance: fc.constantFrom(60, 75, 85, 95),
      protection: fc.constantFrom(5, 10, 20),
      signs: fc.constant(signs.slice(0, codes)),
      figures: fc.array(
        fc.tuple(
          ...signs
            .slice(0, codes)
            .map((sign) => fc.option(fc.record({ volume: sign < 0 ? returns : sales, value: sign < 0 ? returns : sales }), { nil: null, freq: 3 })),
        ),
        { minLength: companies, maxLength: companies },
      ),
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
/** A row with both values empty is no row (the import keeps none). */
export const hasRow = (f: Figures | null): f is Figures => f !== null && (f.volume !== null || f.value !== null);
/**
 * What the intruder knows of a figure: its sign, and that a 0 or an empty value is 0 (who sells
 * nothing of a code is no secret in a small market; the protection assumes it known).
 */
export const signOf = (n: number | null): 1 | -1 | 0 => (n === null || n === 0 ? 0 : n > 0 ? 1 : -1);
export const text = (n: number | null) => (n === null ? null : `${n}.0000`);

export interface Cell extends PatternCell {
  codes: number[];
}

/** The cells a publication counting `counted` shows (those with rows), the rules judged here. */
export function cellsOf(world: World, counted: readonly number[]): Cell[] {
  const present = [...new Set(counted.flatMap((c) => world.figures[c]!.flatMap((f, k) => (hasRow(f) ? [k] : []))))].sort((a, b) => a - b);
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

/**
 * Whether a cell breaks the rules, in volume or in value, judged on magnitudes: a company whose
 * figures in it add up to 0 (or are empty) does not contribute; of the others there are fewer than
 * min contributors, or the largest in absolute value holds at least the dominance percentage of
 * their absolute values.
 */
export function breaks(world: World, companies: readonly number[], codes: readonly number[]): boolean {
  return (['volume', 'value'] as const).some((m) => {
    const parts = companies.map((c) => Math.abs(codes.reduce((s, k) => s + (world.figures[c]![k]?.[m] ?? 0), 0))).filter((part) => part !== 0);
    if (parts.length === 0) return false;
    if (parts.length < world.minContributors) return true;
    const total = parts.reduce((s, part) => s + part, 0);
    return Math.max(...parts) * 100 >= world.dominance * total;
  });
}

/** The world's rows as the pattern reads them: each company's report is its own row set. */
export const rowsOf = (world: World) =>
  world.figures.flatMap((row, c) =>
    row.flatMap((f, k) =>
      hasRow(f) ? [{ row_set_id: company(c), company_id: company(c), code_id: code(k), volume: text(f.volume), value: text(f.value) }] : [],
    ),
  );

/** The world's confidentiality settings as the pattern reads them. */
export const settingsOf = (world: World) => ({
  minContributors: world.minContributors,
  dominancePercentage: String(world.dominance),
  protectionPercentage: String(world.protection),
});
