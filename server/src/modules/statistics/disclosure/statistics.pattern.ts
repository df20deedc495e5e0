import { decimalUnits, FIGURE_LIMITS } from '@mss/contracts/decimal';
import type { Settings } from './statistics.access.ts';
import { type Atom, type Contribution, protectOffThread, type Sum } from './statistics.protection.ts';
import { sumBreaksRules } from './statistics.rules.ts';

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
 *
 * Estimates for missing reports tie periods together: an estimate is the company's row of an
 * earlier period times the respondents' change, and the intruder knows how it is made, so a
 * publication that counts it holds that earlier row (an atom of its own there) times the change.
 * The periods tied so, either way, are one problem (`linked`): their publications' shown cells are
 * fixed sums, their confidential sums targets, and the new publication's pattern keeps them all.
 */

export type CellDimension = 'code' | 'code_group' | 'code_section' | 'total';

export interface PatternCell {
  dimension: CellDimension;
  key_id: number;
  primary_confidential: boolean;
  /** The codes a group or section adds up (null for a code and the total). */
  code_ids: readonly number[] | null;
}

/** A report's row as stored (decimal text). */
export interface PatternRow {
  row_set_id: number;
  company_id: number;
  code_id: number;
  volume: string | null;
  value: string | null;
}

/**
 * An estimate for a row of a missing report (docs/decisions.md "Estimates for missing reports"):
 * its figures as stored, in the estimate's own row set (which a publication counts like a report),
 * made from the company's row of the same code in a linked period (`source.period`: 0 this
 * period, i the i-th of `linked`) times the respondents' change (`ratio`, per measure). An
 * intruder knows how estimates are made: the change, and that the estimate is that row times it.
 */
export interface PatternEstimate extends PatternRow {
  source: { period: number; row_set_id: number };
  ratio: { volume: number; value: number };
}

/** A publication already made: the row sets it counted (reports and estimates), its cells and pattern. */
export interface PatternPublication {
  rowSetIds: readonly number[];
  cells: readonly (PatternCell & { hidden: boolean })[];
}

/** Another period tied to this one by estimates: its rows, estimates and publications, oldest first. */
export interface PatternPeriod {
  rows: readonly PatternRow[];
  estimates?: readonly PatternEstimate[];
  publications: readonly PatternPublication[];
}

export interface PatternInput {
  /** The figures of every report any of the publications counts (decimal text, as stored). */
  rows: readonly PatternRow[];
  /** The estimates any of the publications counts. */
  estimates?: readonly PatternEstimate[];
  /** The earlier publications of the period, oldest first: the row sets they counted, their cells and pattern. */
  previous: readonly PatternPublication[];
  /** The row sets (reports, estimates) the new publication counts. */
  counted: readonly number[];
  /** The new publication's cells, the rules judged. */
  cells: readonly PatternCell[];
  settings: Settings;
  /**
   * The periods tied to this one by estimates, either way (this period's are made from theirs, or
   * theirs from this one's), and the periods tied to those: every publication of each is known
   * to the intruder, and the new publication may not narrow any of their confidential sums.
   */
  linked?: readonly PatternPeriod[];
}

/** Less protection than this cannot be asked for: 0 % still has to mean "not exactly". */
const MIN_PROTECTION = 0.1;

/** A report figure (four decimals at most) as ten-thousandths: exact, for judging the rules. */
const units = (text: string | null) => (text === null ? 0n : decimalUnits(text, FIGURE_LIMITS.scale));

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
  /** A linked period's sum (the i-th of `linked`); left out for this period's. */
  period?: number;
}

/** A publication as the problem sees it: the row sets it counted, its cells and (an earlier one's) pattern. */
type Publication = { rowSets: Set<number>; cells: readonly (PatternCell & { hidden?: boolean })[] };
/** A period of the problem (this one first, then the linked ones): its rows, estimates and publications. */
type Period = { rows: readonly PatternRow[]; estimates: readonly PatternEstimate[]; publications: Publication[] };
/** Each company's exact figures (ten-thousandths). */
type Exact = Map<number, { volume: bigint; value: bigint }>;
/** Per period and code: the atoms and estimates of the code, each with the publications that count it and its coefficients. */
type Entry = { atom: number; mask: number; coef: { volume: number; value: number } | null; exact: Exact };

export async function decidePattern(input: PatternInput): Promise<{ hidden: boolean[]; unprotectable: Unprotectable[]; secondary: number }> {
  const { settings } = input;
  const periods = periodsOf(input);
  const n = periods[0]!.publications.length - 1;
  const { atoms, entries } = atomsOf(periods);

  const cells: (Sum & { primary: boolean })[] = input.cells.map((c) => ({
    ...sumOf(entriesFor(entries, 0, codesOf(periods[0]!.publications[n]!, c), inPub(n))),
    primary: c.primary_confidential,
  }));
  const { shown, sensitive, sensitiveOf } = shownAndSensitive(periods, entries, n, settings);
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

/** The periods of the problem: this one (its earlier publications, then the new one), then the linked ones. */
function periodsOf(input: PatternInput): Period[] {
  return [
    {
      rows: input.rows,
      estimates: input.estimates ?? [],
      publications: [
        ...input.previous.map((p) => ({ rowSets: new Set(p.rowSetIds), cells: p.cells })),
        { rowSets: new Set(input.counted), cells: input.cells },
      ],
    },
    ...(input.linked ?? []).map((q) => ({
      rows: q.rows,
      estimates: q.estimates ?? [],
      publications: q.publications.map((p) => ({ rowSets: new Set(p.rowSetIds), cells: p.cells })),
    })),
  ];
}

/** The publications of period q that count a row set, as a mask. */
const maskOf = (periods: readonly Period[], q: number, rowSet: number) =>
  periods[q]!.publications.reduce((mask, p, i) => (p.rowSets.has(rowSet) ? mask | (1 << i) : mask), 0);

/** The atoms of the problem, and per period and code its entries. */
function atomsOf(periods: readonly Period[]) {
  // Atoms: per period, a code's figures held by the companies counted in the same publications (a
  // mask). A row an estimate is made from is an atom of its own: the estimate is that atom times
  // the respondents' change.
  const sourced = new Set(periods.flatMap((q) => q.estimates.map((e) => `${e.source.period}/${e.source.row_set_id}/${e.code_id}`)));
  const atomIndex = new Map<string, number>();
  const atoms: { contributions: Contribution[]; exact: Exact }[] = [];
  const entries = periods.map(() => new Map<number, Entry[]>());
  const entry = (q: number, code: number, e: Entry) => {
    const list = entries[q]!.get(code);
    if (list) list.push(e);
    else entries[q]!.set(code, [e]);
  };
  const sourceAtom = new Map<string, number>();
  periods.forEach((q, qi) => {
    for (const r of q.rows) {
      if (r.volume === null && r.value === null) continue;
      const own = sourced.has(`${qi}/${r.row_set_id}/${r.code_id}`);
      const mask = maskOf(periods, qi, r.row_set_id);
      if (mask === 0 && !own) continue;
      const id = `${qi}/${r.code_id}/${mask}${own ? `/${r.row_set_id}` : ''}`;
      let index = atomIndex.get(id);
      if (index === undefined) {
        index = atoms.length;
        atomIndex.set(id, index);
        atoms.push({ contributions: [], exact: new Map() });
        entry(qi, r.code_id, { atom: index, mask, coef: null, exact: atoms[index]!.exact });
      }
      if (own) sourceAtom.set(`${qi}/${r.row_set_id}/${r.code_id}`, index);
      const atom = atoms[index]!;
      // Floating point for the solver only (it decides which cells to hide; no published figure is computed here).
      atom.contributions.push({ company: r.company_id, volume: Number(r.volume ?? 0), value: Number(r.value ?? 0) });
      atom.exact.set(r.company_id, { volume: units(r.volume), value: units(r.value) });
    }
  });
  periods.forEach((q, qi) => {
    for (const e of q.estimates) {
      const atom = sourceAtom.get(`${e.source.period}/${e.source.row_set_id}/${e.code_id}`);
      const mask = maskOf(periods, qi, e.row_set_id);
      // Made from an empty row, or counted by no publication: it adds nothing.
      if (atom === undefined || mask === 0) continue;
      entry(qi, e.code_id, {
        atom,
        mask,
        coef: e.ratio,
        exact: new Map([[e.company_id, { volume: units(e.volume), value: units(e.value) }]]),
      });
    }
  });
  return { atoms, entries };
}

/** The codes a cell of a publication adds up. */
const codesOf = (p: Publication, cell: PatternCell): readonly number[] => {
  if (cell.dimension === 'code') return [cell.key_id];
  if (cell.dimension === 'total') return p.cells.filter((c) => c.dimension === 'code').map((c) => c.key_id);
  return cell.code_ids ?? [];
};
/** The entries of a period's codes counted in the publications whose mask passes. */
const entriesFor = (entries: readonly Map<number, Entry[]>[], q: number, codes: readonly number[], passes: (mask: number) => boolean) =>
  codes.flatMap((code) => (entries[q]!.get(code) ?? []).filter((e) => passes(e.mask)));
/** Their sum over the atoms (an atom that two estimates are made from holds both coefficients). */
const sumOf = (list: readonly Entry[]): Sum => {
  const coef = new Map<number, { volume: number; value: number }>();
  for (const e of list) {
    const w = coef.get(e.atom) ?? { volume: 0, value: 0 };
    coef.set(e.atom, { volume: w.volume + (e.coef?.volume ?? 1), value: w.value + (e.coef?.value ?? 1) });
  }
  const ids = [...coef.keys()];
  if (ids.every((a) => coef.get(a)!.volume === 1 && coef.get(a)!.value === 1)) return { atoms: ids };
  return { atoms: ids, coef: { volume: ids.map((a) => coef.get(a)!.volume), value: ids.map((a) => coef.get(a)!.value) } };
};
const inPub = (i: number) => (mask: number) => (mask & (1 << i)) !== 0;

/**
 * The sums the earlier publications fix (`shown`) and those to protect besides the new
 * publication's primary cells (`sensitive`, each described in `sensitiveOf`).
 */
function shownAndSensitive(periods: readonly Period[], entries: readonly Map<number, Entry[]>[], n: number, settings: Settings) {
  const shown: Sum[] = [];
  const sensitive: Sum[] = [];
  /** What each sum of `sensitive` is, to tell an administrator which could not be protected. */
  const sensitiveOf: Unprotectable[] = [];
  periods.forEach((q, qi) => {
    const period = qi === 0 ? {} : { period: qi };
    const decided = qi === 0 ? n : q.publications.length;
    for (let i = 0; i < decided; i++) {
      const p = q.publications[i]!;
      for (const cell of p.cells) {
        const sum = sumOf(entriesFor(entries, qi, codesOf(p, cell), inPub(i)));
        if (!cell.hidden) shown.push(sum);
        if (cell.primary_confidential) {
          sensitive.push(sum);
          sensitiveOf.push({ kind: 'earlier', dimension: cell.dimension, key_id: cell.key_id, publication: i + 1, without: null, ...period });
        }
      }
    }
    // What one publication adds to or takes from another, cell by cell: protected where it breaks the rules.
    for (let j = 1; j < q.publications.length; j++) {
      for (let i = 0; i < j; i++) {
        const differences: [number, (mask: number) => boolean][] = [
          [j, (mask) => inPub(j)(mask) && !inPub(i)(mask)],
          [i, (mask) => inPub(i)(mask) && !inPub(j)(mask)],
        ];
        for (const [from, passes] of differences) {
          const p = q.publications[from]!;
          const other = from === j ? i : j;
          for (const cell of p.cells) {
            const list = entriesFor(entries, qi, codesOf(p, cell), passes);
            const perCompany = new Map<number, { volume: bigint; value: bigint }>();
            for (const e of list)
              for (const [company, f] of e.exact) {
                const sum = perCompany.get(company) ?? { volume: 0n, value: 0n };
                perCompany.set(company, { volume: sum.volume + f.volume, value: sum.value + f.value });
              }
            if (sumBreaksRules(perCompany, settings)) {
              sensitive.push(sumOf(list));
              sensitiveOf.push({ kind: 'difference', dimension: cell.dimension, key_id: cell.key_id, publication: from + 1, without: other + 1, ...period });
            }
          }
        }
      }
    }
  });
  return { shown, sensitive, sensitiveOf };
}
