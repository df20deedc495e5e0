import fc from 'fast-check';
import type { CellDimension, PatternCell, PatternEstimate, PatternRow } from '../src/modules/statistics/disclosure/statistics.pattern.ts';

/*
 * Random markets for the pattern tests (statistics.pattern.test.ts): companies' figures per code,
 * overlapping groups and sections, and the companies each publication of one period counts. The
 * cells and the rules are worked out here, apart from the app's code.
 *
 * Members' figures are not all positive: some codes are returns (every figure <= 0), a sales code
 * may hold a correction (one negative figure), rows hold zeros and empty values, and figures come
 * from a small set of round numbers often enough that a company holds exactly the dominance
 * share (85 of 100). Publications drop companies and count them again (a removed, re-added one).
 *
 * A world may have an earlier period (`source`) that estimates for missing reports are made from:
 * a publication of this period that does not count an `estimated` company counts its estimate
 * instead, per code its row in the source times the code's change (`ratios`). The source is
 * published before this period, and may be published once more after it (a late report there).
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
  /** The earlier period the estimates are made from: its figures, its publications, and one more after this period's (`after`). */
  source?: { figures: (Figures | null)[][]; publications: number[][]; after: number[] | null };
  /** Companies estimated where a publication does not count them. */
  estimated?: number[];
  /** Per code, the change the estimates take (what the respondents sold now over then). */
  ratios?: { volume: number; value: number }[];
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

/** A world with an earlier period, estimates made from it, and sometimes a late report there after this period is published. */
const ratio = fc.constantFrom(0.5, 0.75, 1, 1.25, 2);
export const estimatesWorldArbitrary: fc.Arbitrary<World> = worldArbitrary.chain((world) => {
  const companies = world.figures.length;
  const codes = world.figures[0]!.length;
  const counted = fc.uniqueArray(fc.integer({ min: 0, max: companies - 1 }), { minLength: 1, maxLength: companies });
  return fc
    .record({
      source: fc.record({
        figures: fc.array(
          fc.tuple(
            ...(world.signs ?? []).map((sign) =>
              fc.option(fc.record({ volume: sign < 0 ? returns : sales, value: sign < 0 ? returns : sales }), { nil: null, freq: 3 }),
            ),
          ),
          { minLength: companies, maxLength: companies },
        ),
        publications: fc.array(counted, { minLength: 1, maxLength: 2 }),
        after: fc.option(counted, { nil: null }),
      }),
      estimated: fc.uniqueArray(fc.integer({ min: 0, max: companies - 1 }), { minLength: 1, maxLength: companies }),
      ratios: fc.array(fc.record({ volume: ratio, value: ratio }), { minLength: codes, maxLength: codes }),
    })
    .map((linked) => ({ ...world, ...linked }));
});

export const code = (k: number) => k + 1;
export const company = (c: number) => c + 1;
/** Row set ids: a report of this period is its company's number, an estimate 100 more, a report of the source 200 more. */
export const estimateSet = (c: number) => 100 + company(c);
export const sourceSet = (c: number) => 200 + company(c);
/** A row with both values empty is no row (the import keeps none). */
export const hasRow = (f: Figures | null): f is Figures => f !== null && (f.volume !== null || f.value !== null);
/**
 * What the intruder knows of a figure: its sign, and that a 0 or an empty value is 0 (who sells
 * nothing of a code is no secret in a small market; the protection assumes it known).
 */
export const signOf = (n: number | null): 1 | -1 | 0 => (n === null || n === 0 ? 0 : n > 0 ? 1 : -1);
export const text = (n: number | null) => (n === null ? null : n.toFixed(4));

/** Company c's estimate for code k: its row in the source times the code's change (null: no row to make it from). */
export function estimateOf(world: World, c: number, k: number): Figures | null {
  const f = world.source?.figures[c]![k] ?? null;
  if (!hasRow(f)) return null;
  const r = world.ratios![k]!;
  return { volume: f.volume === null ? null : f.volume * r.volume, value: f.value === null ? null : f.value * r.value };
}

/** Who a publication counting `counted` holds figures of: the companies counted, and estimates for the estimated others. */
export interface Member {
  company: number;
  estimate: boolean;
}
export const membersOf = (world: World, counted: readonly number[]): Member[] => [
  ...counted.map((c) => ({ company: c, estimate: false })),
  ...(world.estimated ?? []).filter((c) => !counted.includes(c)).map((c) => ({ company: c, estimate: true })),
];
export const figureOf = (world: World, m: Member, k: number): Figures | null =>
  m.estimate ? estimateOf(world, m.company, k) : (world.figures[m.company]![k] ?? null);
/** The row sets a publication counting `counted` counts: reports and estimates. */
export const rowSetsOf = (world: World, counted: readonly number[]) =>
  membersOf(world, counted).map((m) => (m.estimate ? estimateSet(m.company) : company(m.company)));

export interface Cell extends PatternCell {
  codes: number[];
}

/** The cells a publication counting `counted` (and estimating the estimated others) shows (those with rows), the rules judged here. */
export function cellsOf(world: World, counted: readonly number[]): Cell[] {
  const members = membersOf(world, counted);
  const codes = world.figures[0]!.length;
  const present = Array.from({ length: codes }, (_, k) => k).filter((k) => members.some((m) => hasRow(figureOf(world, m, k))));
  const out: Cell[] = [];
  const add = (dimension: CellDimension, key: number, codes: number[], codeIds: number[] | null) => {
    if (codes.length === 0) return;
    out.push({ dimension, key_id: key, code_ids: codeIds, codes, primary_confidential: breaks(world, members, codes) });
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
export function breaks(world: World, members: readonly Member[], codes: readonly number[]): boolean {
  return (['volume', 'value'] as const).some((m) => {
    const parts = members.map((c) => Math.abs(codes.reduce((s, k) => s + (figureOf(world, c, k)?.[m] ?? 0), 0))).filter((part) => part !== 0);
    if (parts.length === 0) return false;
    if (parts.length < world.minContributors) return true;
    const total = parts.reduce((s, part) => s + part, 0);
    return Math.max(...parts) * 100 >= world.dominance * total;
  });
}

/** The world's rows as the pattern reads them: each company's report is its own row set (`set`). */
export const rowsOf = (world: World, figures = world.figures, set = company): PatternRow[] =>
  figures.flatMap((row, c) =>
    row.flatMap((f, k) => (hasRow(f) ? [{ row_set_id: set(c), company_id: company(c), code_id: code(k), volume: text(f.volume), value: text(f.value) }] : [])),
  );

/** The world's estimates as the pattern reads them, made from the source (`source`: its index among the periods). */
export const estimatesOf = (world: World, source: number): PatternEstimate[] =>
  (world.estimated ?? []).flatMap((c) =>
    world.figures[0]!.flatMap((_, k) => {
      const e = estimateOf(world, c, k);
      return e
        ? [
            {
              row_set_id: estimateSet(c),
              company_id: company(c),
              code_id: code(k),
              volume: text(e.volume),
              value: text(e.value),
              source: { period: source, row_set_id: sourceSet(c) },
              ratio: world.ratios![k]!,
            },
          ]
        : [];
    }),
  );

/** The world's confidentiality settings as the pattern reads them. */
export const settingsOf = (world: World) => ({
  minContributors: world.minContributors,
  dominancePercentage: String(world.dominance),
  protectionPercentage: String(world.protection),
});
