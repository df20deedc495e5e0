import { decimalUnits, FIGURE_LIMITS } from '@mss/contracts/decimal';
import type { Settings } from './statistics.access.ts';
import { type Atom, type Contribution, protectOffThread, type Sum } from './statistics.protection.ts';

/*
 * The pattern of a publication (docs/decisions.md "Disclosure control"): which of its cells to hide,
 * written as a protection problem over atoms (statistics.protection.ts). Pure: the caller reads the
 * rows, cells and earlier publications from the database (statistics.publications.ts); the tests
 * build them by hand.
 *
 * An atom is one code's figures held by the companies counted in the same publications of the
 * period (a mask over the publications), so that every cell of every publication, and every
 * difference of two publications, is a sum of atoms:
 * - the new publication's cells are to be decided (its primary cells hidden and protected);
 * - an earlier publication's shown cells are known for good (fixed sums), its primary cells must
 *   stay protected;
 * - what one publication adds to another (the companies counted in one and not the other) is a
 *   table of its own: its cells that break the rules (a single late company's figures always do)
 *   are protected too, so that the difference of two downloads gives no company away.
 */

export type CellDimension = 'code' | 'code_group' | 'code_section' | 'total';

export interface PatternCell {
  dimension: CellDimension;
  key_id: number;
  primary_confidential: boolean;
  /** The codes a group or section adds up (null for a code and the total). */
  code_ids: readonly number[] | null;
}

export interface PatternInput {
  /** The figures of every report any of the publications counts (decimal text, as stored). */
  rows: readonly { row_set_id: number; company_id: number; code_id: number; volume: string | null; value: string | null }[];
  /** The earlier publications of the period, oldest first: the reports they counted, their cells and pattern. */
  previous: readonly { rowSetIds: readonly number[]; cells: readonly (PatternCell & { hidden: boolean })[] }[];
  /** The reports (row sets) the new publication counts. */
  counted: readonly number[];
  /** The new publication's cells, the rules judged. */
  cells: readonly PatternCell[];
  settings: Settings;
}

/** Less protection than this cannot be asked for: 0 % still has to mean "not exactly". */
const MIN_PROTECTION = 0.1;

/** A report figure (four decimals at most) as ten-thousandths: exact, for judging the rules. */
const units = (text: string | null) => (text === null ? 0n : decimalUnits(text, FIGURE_LIMITS.scale));

/**
 * Whether a sum of companies' figures breaks the rules (the same rules as the cells', `breaksRules`
 * in SQL), exactly, in volume or in value, on magnitudes: a company whose figures in the sum add up
 * to 0 (or are empty) does not contribute to that measure; of the others there are fewer than
 * min_contributors, or the largest in absolute value holds at least dominance_percentage of their
 * absolute values.
 */
function breaksRules(perCompany: Map<number, { volume: bigint; value: bigint }>, settings: Settings): boolean {
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

/**
 * A sum no pattern of the new publication protects (an earlier publication already narrowed it):
 * a cell of the new publication (`publication` its number), a confidential cell of an earlier one,
 * or the figures of the companies one publication counts and another does not (`without`).
 * Publications are numbered from 1, the new one last.
 */
export interface Unprotectable {
  kind: 'cell' | 'earlier' | 'difference';
  dimension: CellDimension;
  key_id: number;
  publication: number;
  without: number | null;
}

export async function decidePattern(input: PatternInput): Promise<{ hidden: boolean[]; unprotectable: Unprotectable[]; secondary: number }> {
  const { settings } = input;
  const publications: { rowSets: Set<number>; cells: readonly (PatternCell & { hidden?: boolean })[] }[] = [
    ...input.previous.map((p) => ({ rowSets: new Set(p.rowSetIds), cells: p.cells })),
    { rowSets: new Set(input.counted), cells: input.cells },
  ];
  const n = publications.length - 1;

  // Atoms: a code's figures held by the companies counted in the same publications (a mask).
  const maskOf = (rowSet: number) => publications.reduce((mask, p, i) => (p.rowSets.has(rowSet) ? mask | (1 << i) : mask), 0);
  const atomIndex = new Map<string, number>();
  const atoms: { code: number; mask: number; contributions: Contribution[]; exact: Map<number, { volume: bigint; value: bigint }> }[] = [];
  for (const r of input.rows) {
    if (r.volume === null && r.value === null) continue;
    const mask = maskOf(r.row_set_id);
    if (mask === 0) continue;
    const id = `${r.code_id}/${mask}`;
    let index = atomIndex.get(id);
    if (index === undefined) {
      index = atoms.length;
      atomIndex.set(id, index);
      atoms.push({ code: r.code_id, mask, contributions: [], exact: new Map() });
    }
    const atom = atoms[index]!;
    // Floating point for the solver only (it decides which cells to hide; no published figure is computed here).
    atom.contributions.push({ company: r.company_id, volume: Number(r.volume ?? 0), value: Number(r.value ?? 0) });
    atom.exact.set(r.company_id, { volume: units(r.volume), value: units(r.value) });
  }
  const atomsOfCode = new Map<number, number[]>();
  atoms.forEach((a, i) => {
    const list = atomsOfCode.get(a.code);
    if (list) list.push(i);
    else atomsOfCode.set(a.code, [i]);
  });

  /** The codes a cell of a publication adds up. */
  const codesOf = (p: (typeof publications)[number], cell: PatternCell): readonly number[] => {
    if (cell.dimension === 'code') return [cell.key_id];
    if (cell.dimension === 'total') return p.cells.filter((c) => c.dimension === 'code').map((c) => c.key_id);
    return cell.code_ids ?? [];
  };
  /** The atoms of those codes held by companies whose mask passes. */
  const atomsFor = (codes: readonly number[], passes: (mask: number) => boolean) =>
    codes.flatMap((code) => (atomsOfCode.get(code) ?? []).filter((a) => passes(atoms[a]!.mask)));
  const inPub = (i: number) => (mask: number) => (mask & (1 << i)) !== 0;

  const cells: (Sum & { primary: boolean })[] = input.cells.map((c) => ({
    atoms: atomsFor(codesOf(publications[n]!, c), inPub(n)),
    primary: c.primary_confidential,
  }));
  const shown: Sum[] = [];
  const sensitive: Sum[] = [];
  /** What each sum of `sensitive` is, to tell an administrator which could not be protected. */
  const sensitiveOf: Unprotectable[] = [];
  input.previous.forEach((_, i) => {
    const p = publications[i]!;
    for (const cell of p.cells) {
      const sum = { atoms: atomsFor(codesOf(p, cell), inPub(i)) };
      if (!cell.hidden) shown.push(sum);
      if (cell.primary_confidential) {
        sensitive.push(sum);
        sensitiveOf.push({ kind: 'earlier', dimension: cell.dimension, key_id: cell.key_id, publication: i + 1, without: null });
      }
    }
  });
  // What one publication adds to or takes from another, cell by cell: protected where it breaks the rules.
  for (let j = 1; j <= n; j++) {
    for (let i = 0; i < j; i++) {
      const differences: [number, (mask: number) => boolean][] = [
        [j, (mask) => inPub(j)(mask) && !inPub(i)(mask)],
        [i, (mask) => inPub(i)(mask) && !inPub(j)(mask)],
      ];
      for (const [from, passes] of differences) {
        const p = publications[from]!;
        const other = from === j ? i : j;
        for (const cell of p.cells) {
          const list = atomsFor(codesOf(p, cell), passes);
          const perCompany = new Map<number, { volume: bigint; value: bigint }>();
          for (const a of list)
            for (const [company, f] of atoms[a]!.exact) {
              const sum = perCompany.get(company) ?? { volume: 0n, value: 0n };
              perCompany.set(company, { volume: sum.volume + f.volume, value: sum.value + f.value });
            }
          if (breaksRules(perCompany, settings)) {
            sensitive.push({ atoms: list });
            sensitiveOf.push({ kind: 'difference', dimension: cell.dimension, key_id: cell.key_id, publication: from + 1, without: other + 1 });
          }
        }
      }
    }
  }
  const protection = Math.max(Number(settings.protectionPercentage), MIN_PROTECTION) / 100;
  const result = await protectOffThread({
    atoms: atoms.map((a): Atom => ({ contributions: a.contributions })),
    cells,
    shown,
    sensitive,
    protection,
  });
  const primaries = input.cells.filter((c) => c.primary_confidential);
  const unprotectable = result.unprotectable.map((ti): Unprotectable =>
    ti < primaries.length
      ? { kind: 'cell', dimension: primaries[ti]!.dimension, key_id: primaries[ti]!.key_id, publication: n + 1, without: null }
      : sensitiveOf[ti - primaries.length]!,
  );
  return { hidden: result.hidden, unprotectable, secondary: result.secondary };
}
