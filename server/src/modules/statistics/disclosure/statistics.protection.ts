import { Worker } from 'node:worker_threads';
import highsLoader, { type Highs, type Model } from 'highs';

/*
 * Which cells of a publication to hide (docs/decisions.md "Disclosure control"): secondary cell
 * suppression over linked tables by linear programming, after tau-Argus's and sdcTable's
 * protection-level approach (Fischetti & Salazar), with one LP per sensitive cell.
 *
 * The unknowns are *atoms*: the figures of one code held by one group of companies (one period's
 * code cell; when a period is published again, the companies counted in the same publications
 * form one group, so that the difference of two publications is a sum of atoms too). Every cell
 * a publication shows (a code, a code group, a code section, the total) is a sum of atoms, and
 * so is every sum that must stay uncertain: a primary cell, an earlier publication's primary cell,
 * the companies that one publication adds to another.
 *
 * A sensitive sum s is protected when an intruder who knows every shown cell (and, as a company,
 * its own figures) cannot narrow it to within ±q·M, M being its magnitude: each company's part of
 * s in absolute value, added up (for figures of one sign, |s|; a cell of +100 and -100 is not safe
 * for adding up to 0). That holds when there is a change y of the atoms that leaves every shown
 * cell as it is, moves s by at least q·M, and keeps every atom within what the intruder cannot
 * rule out (both truth + y and truth - y are possible worlds): the intruder cannot tell the true
 * figures from figures moved by ±y. One LP per sensitive sum and measure finds the cheapest such
 * y, where moving a cell that is still shown costs what hiding it costs (its share of the table,
 * plus a little for each cell) and moving a hidden cell costs nothing; the cells it moves are
 * hidden. Hiding more never weakens a protection already found, so the sums are protected one
 * after another, largest first.
 *
 * What the intruder cannot rule out (`box`): it knows the sign of every figure (a returns code's
 * are below zero), so a figure above zero may fall to 0 and rise without bound, one below zero the
 * other way round, and a zero does not move at all (who sold nothing is taken as known). An atom
 * moves as far as its figures that the intruder does not know allow.
 *
 * The bounds make the protection hold against each company at once (one LP, not one per
 * company): a change y that moves s by q·M protects it from a company c holding own_c of it when y
 * scaled by (M - |own_c|)/M stays within c's bounds (it then moves the part of s that c does not
 * know by q times that part's magnitude), so each atom's bound is the least over the outsider and
 * its companies of theirs divided by that scale. Figures here are floating point, for the solver
 * only: the published figures stay the database's exact decimals, and the target carries a 1 %
 * margin over q.
 */

export interface Contribution {
  company: number;
  volume: number;
  value: number;
}
export interface Atom {
  contributions: readonly Contribution[];
}
export interface Sum {
  /** Atom indexes, each once. */
  atoms: readonly number[];
  /**
   * Each atom's coefficient in the sum, per measure (1 when left out). An estimate for a missing
   * report is an earlier period's figure times the respondents' change: a publication that shows
   * it holds that earlier atom times the change (statistics.pattern.ts).
   */
  coef?: { readonly volume: readonly number[]; readonly value: readonly number[] };
}
export interface ProtectionProblem {
  atoms: readonly Atom[];
  /** The cells this publication may show; primary cells are hidden and protected. */
  cells: readonly (Sum & { primary: boolean })[];
  /** Cells an earlier publication showed: they stay known, so the atoms may not move their sums. */
  shown?: readonly Sum[];
  /** Further sums to protect: earlier publications' primary cells, what one publication adds to another. */
  sensitive?: readonly Sum[];
  /** Required protection as a fraction (0.1: ±10 %). */
  protection: number;
  /**
   * LPs solved at most in giving back secondary cells that turn out not to be needed (the pattern
   * is safe either way): by default half as many as the pattern took, at least 10 and at most 30
   * (about 300 ms on the largest markets). A count, not a time: the same problem always gives the
   * same pattern, however busy the machine (the publication preview foretells it exactly).
   */
  cleanupLps?: number;
}
export interface ProtectionResult {
  /** Per cell: hidden in the pattern. */
  hidden: boolean[];
  primary: number;
  secondary: number;
  /** Sensitive sums (index into primaries then `sensitive`) that no pattern protects: an earlier publication gave them away. */
  unprotectable: number[];
  /** Secondary cells given back by the clean-up. */
  released: number;
  lps: number;
}

type Measure = 'value' | 'volume';
const MEASURES: readonly Measure[] = ['value', 'volume'];
/** The target is q·v times this: the solver's tolerances never eat into the protection. */
const MARGIN = 1.01;
/** A cell moved by less than this (relative to the protected sum) is not moved. */
const MOVED = 1e-9;
/** What hiding a cell costs besides its share: a pattern with fewer cells is better too. */
const PER_CELL = 0.02;
/**
 * Whether a sum of figures (four decimals at most) is 0, in floating point: below half the last
 * decimal, plus the rounding its terms (`gross`: their absolute values added up) can leave.
 */
const isZero = (x: number, gross: number) => Math.abs(x) <= 0.5e-4 + gross * 1e-12;

let runtime: Promise<Highs> | null = null;
const loadHighs = () => (runtime ??= highsLoader());

interface Target extends Sum {
  /** Its row in the LP. */
  row: number;
  /** The cell it is, for a primary cell. */
  cell: number | null;
}

/** Who a change protects a target from: everyone at once, an outsider (null), or one company. */
type Intruder = 'all' | 'others' | null | number;

/**
 * A change of some atoms: `coef[i]` of atom `atoms[i]`; `cells`: the cells it moves in `measure`.
 * One that moves no atom a sum holds with a coefficient other than 1 (`linked` false) moves the
 * same cells in both measures.
 */
interface Direction {
  atoms: readonly number[];
  coef: readonly number[];
  cells?: Set<number>;
  measure?: Measure;
  linked?: boolean;
}

/** A sum's coefficient of its i-th atom in measure m. */
const weight = (s: Sum, m: Measure, i: number) => (s.coef ? s.coef[m][i]! : 1);
/** A sum without the atoms `drop` says. */
const without = (s: Sum, drop: (a: number) => boolean): Sum => {
  const keep = s.atoms.map((a, i) => (drop(a) ? -1 : i)).filter((i) => i >= 0);
  if (keep.length === s.atoms.length) return s;
  const coef = s.coef;
  return {
    atoms: keep.map((i) => s.atoms[i]!),
    ...(coef && { coef: { volume: keep.map((i) => coef.volume[i]!), value: keep.map((i) => coef.value[i]!) } }),
  };
};

/** How a change moves its target: both ways at once, one way, or just at all (see `solve`). */
type Mode = 'both' | 'up' | 'down' | 'least';

interface Witness {
  target: number;
  measure: Measure;
  intruder: Intruder;
  mode: Mode;
  /** Cells the change moves. */
  cells: Set<number>;
}

/** What an atom's figures above and below zero add up to, and how many there are. */
interface Signs {
  positive: number;
  negative: number;
  positives: number;
  negatives: number;
}

/** Per measure and atom: its figures as the LPs see them (see `atomFigures`). */
interface AtomFigures {
  gross: Record<Measure, number[]>;
  parts: Record<Measure, Map<number, number>[]>;
  signs: Record<Measure, Signs[]>;
}

/** Bounds of the atoms, and the shift needed, for one target, measure and intruder (see `bounds`). */
type Bounds = { upper: Float64Array; down: Float64Array; up: Float64Array; shift: number };

/** The LP's data besides its matrix (see `lpOf`). */
interface Lp {
  /** The number of atoms (its first columns). */
  A: number;
  /** What its rows hold: the cells, the shown sums that still say something, the targets. */
  cells: ProtectionProblem['cells'];
  kept: readonly Sum[];
  targets: readonly Target[];
  numCols: number;
  numRows: number;
  colCost: Float64Array;
  colUpper: Float64Array;
  rowLower: Float64Array;
  rowUpper: Float64Array;
}

/** The state of one `protect`: the problem as the LPs see it, the pattern so far and the changes found. */
interface Engine {
  problem: ProtectionProblem;
  highs: Highs;
  inf: number;
  /** The number of atoms. */
  A: number;
  /** Atoms that cannot move at all (see `fixedAtoms`). */
  fixed: Uint8Array;
  /** Atoms some sum holds with a coefficient other than 1 (see `linkedAtoms`). */
  linked: Uint8Array;
  targets: Target[];
  parts: AtomFigures['parts'];
  signs: AtomFigures['signs'];
  /** Per cell: what hiding it costs. */
  cost: number[];
  /** Per cell: hidden in the pattern so far. */
  hidden: boolean[];
  models: Record<Measure, Model>;
  distinct: Model[];
  /** LPs solved so far. */
  lps: number;
  /** Targets that no pattern protects (see `ProtectionResult`). */
  unprotectable: number[];
  witnesses: Witness[];
  /** The last bounds computed (a target is asked for them several times in a row). */
  cached: { t: Target; m: Measure; intruder: Intruder; b: Bounds | null } | null;
  /** The last change `solve` found, in units of its target's magnitude. */
  lastChange: Float64Array | null;
  /** The last change found (by `solve` or `freePair`), as a direction over the atoms. */
  lastDirection: Direction | null;
  /** Changes found so far that keep every shown cell as it is (for every intruder): one may protect a later target too. */
  directions: Direction[];
  /** Per atom: the cells it is part of (see `atomsIn`). */
  cellsOfAtom: number[][];
  /** Per atom: the shown sums of earlier publications it is part of. */
  shownOfAtom: number[][];
  /** The intruders to protect a target from one by one: the outsider, and every company with figures. */
  intruders: Intruder[];
}

export async function protect(problem: ProtectionProblem): Promise<ProtectionResult> {
  const highs = await loadHighs();
  const { atoms, cells } = problem;
  const shown = problem.shown ?? [];
  const A = atoms.length;
  const J = cells.length;
  const { fixed, kept } = fixedAtoms(A, shown);
  const linked = linkedAtoms(problem);
  const K = kept.length;
  const targets = targetsOf(problem, J + K);
  const { gross, parts, signs } = atomFigures(atoms);
  const inf = highs.infinity;
  const cost = costsOf(cells, gross);
  const hidden = cells.map((c) => c.primary);
  const lp = lpOf({ A, cells, kept, targets }, cost, hidden, inf);

  // One model serves both measures unless some sum has coefficients.
  const twoModels = [...cells, ...shown, ...(problem.sensitive ?? [])].some((sum) => sum.coef);
  const first: Model = highs.createModel();
  const models: Record<Measure, Model> = { value: first, volume: twoModels ? highs.createModel() : first };
  const distinct = twoModels ? [models.value, models.volume] : [first];
  const e: Engine = {
    problem,
    highs,
    inf,
    A,
    fixed,
    linked,
    targets,
    parts,
    signs,
    cost,
    hidden,
    models,
    distinct,
    lps: 0,
    unprotectable: [],
    witnesses: [],
    cached: null,
    lastChange: null,
    lastDirection: null,
    directions: [],
    ...atomsIn(A, cells, shown),
    intruders: [null, ...new Set(atoms.flatMap((a) => a.contributions.map((c) => c.company)))],
  };
  try {
    passModels(lp, models, twoModels ? MEASURES : ['value']);
    protectTargets(e);
    const released = cleanUp(e);
    const primary = cells.filter((c) => c.primary).length;
    return { hidden, primary, secondary: hidden.filter(Boolean).length - primary, unprotectable: e.unprotectable, released, lps: e.lps };
  } finally {
    for (const model of distinct) model.dispose();
  }
}

/** The atoms that cannot move at all, and the shown sums of earlier publications that still say something (`kept`). */
function fixedAtoms(A: number, shown: readonly Sum[]): { fixed: Uint8Array; kept: readonly Sum[] } {
  // An atom alone in a shown sum of an earlier publication (once the atoms fixed so far are left
  // out) cannot move at all: it is fixed, and a sum left with no atom says nothing more. Usually
  // most of them: a code's old cell holds only the atom of the companies counted both times.
  const fixed = new Uint8Array(A);
  let kept: readonly Sum[] = shown;
  for (let changed = true; changed;) {
    changed = false;
    kept = kept.map((sum) => without(sum, (a) => fixed[a] === 1)).filter((sum) => sum.atoms.length > 0);
    for (const sum of kept)
      if (sum.atoms.length === 1 && MEASURES.every((m) => weight(sum, m, 0) !== 0)) {
        fixed[sum.atoms[0]!] = 1;
        changed = true;
      }
  }
  return { fixed, kept };
}

/** Atoms some sum holds with a coefficient other than 1 (an estimate's source): no free pair moves them. */
function linkedAtoms(problem: ProtectionProblem): Uint8Array {
  const linked = new Uint8Array(problem.atoms.length);
  for (const sum of [...problem.cells, ...(problem.shown ?? []), ...(problem.sensitive ?? [])])
    if (sum.coef) sum.atoms.forEach((a, i) => MEASURES.some((m) => weight(sum, m, i) !== 1) && (linked[a] = 1));
  return linked;
}

/** The sums to protect: the primary cells, then `sensitive`; their rows in the LP follow the `row` rows of the cells and shown sums. */
function targetsOf(problem: ProtectionProblem, row: number): Target[] {
  const targets: Target[] = [];
  problem.cells.forEach((c, j) => c.primary && targets.push({ atoms: c.atoms, ...(c.coef && { coef: c.coef }), row: 0, cell: j }));
  for (const s of problem.sensitive ?? []) targets.push({ atoms: s.atoms, ...(s.coef && { coef: s.coef }), row: 0, cell: null });
  targets.forEach((t, i) => (t.row = row + i));
  return targets;
}

function atomFigures(atoms: readonly Atom[]): AtomFigures {
  /** Per atom and measure: its figures in absolute value, added up (what hiding it withholds). */
  const atomGross = (m: Measure) => atoms.map((a) => a.contributions.reduce((sum, c) => sum + Math.abs(c[m]), 0));
  const gross = { value: atomGross('value'), volume: atomGross('volume') };
  /** Per atom and measure: each company's figure in it (summed, should a company hold it twice), zeros left out. */
  const byCompany = (m: Measure) =>
    atoms.map((atom) => {
      const out = new Map<number, number>();
      const gross = new Map<number, number>();
      for (const c of atom.contributions) {
        out.set(c.company, (out.get(c.company) ?? 0) + c[m]);
        gross.set(c.company, (gross.get(c.company) ?? 0) + Math.abs(c[m]));
      }
      for (const [company, x] of out) if (isZero(x, gross.get(company)!)) out.delete(company);
      return out;
    });
  const parts = { value: byCompany('value'), volume: byCompany('volume') };
  /** Per atom and measure: what its figures above and below zero add up to, and how many there are. */
  const signsOf = (m: Measure) =>
    parts[m].map((list) => {
      const out = { positive: 0, negative: 0, positives: 0, negatives: 0 };
      for (const x of list.values()) {
        if (x > 0) {
          out.positive += x;
          out.positives++;
        } else {
          out.negative -= x;
          out.negatives++;
        }
      }
      return out;
    });
  const signs = { value: signsOf('value'), volume: signsOf('volume') };
  return { gross, parts, signs };
}

/** A sum's figures in absolute value, added up, in measure m (`gross`: the atoms'). */
const grossOf = (gross: AtomFigures['gross'], m: Measure, sum: Sum) => sum.atoms.reduce((s, a, i) => s + Math.abs(weight(sum, m, i)) * gross[m][a]!, 0);
/** How much a change y of the atoms moves a sum in measure m. */
const moves = (sum: Sum, m: Measure, y: ArrayLike<number>) => sum.atoms.reduce((s, a, i) => s + weight(sum, m, i) * y[a]!, 0);

/**
 * How far atom a may move down and up in measure m for an intruder who knows the figure `known`
 * in it (0: none) and the sign of every figure: a figure above zero may fall to 0 and rise
 * without bound, one below zero the other way round; a zero cannot move (a zero protects
 * nothing, whatever the intruder takes its sign to be).
 */
function box(e: Engine, a: number, m: Measure, known: number): { down: number; up: number } {
  const s = e.signs[m][a]!;
  const positives = s.positives - (known > 0 ? 1 : 0);
  const negatives = s.negatives - (known < 0 ? 1 : 0);
  return {
    down: negatives > 0 ? e.inf : Math.max(0, s.positive - Math.max(0, known)),
    up: positives > 0 ? e.inf : Math.max(0, s.negative + Math.min(0, known)),
  };
}

/** A target's magnitude: each company's part of it in absolute value, added up (what its protection is measured on). */
function owns(e: Engine, t: Target, m: Measure) {
  const own = new Map<number, number>();
  const gross = new Map<number, number>();
  t.atoms.forEach((a, i) => {
    const w = weight(t, m, i);
    for (const [company, x] of e.parts[m][a]!) {
      own.set(company, (own.get(company) ?? 0) + w * x);
      gross.set(company, (gross.get(company) ?? 0) + Math.abs(w * x));
    }
  });
  let magnitude = 0;
  for (const [company, x] of own) {
    // A company whose figures in the target cancel out (sales and returns) has no part of it.
    if (isZero(x, gross.get(company)!)) own.set(company, 0);
    else magnitude += Math.abs(x);
  }
  return { own, magnitude };
}
const magnitudeOf = (e: Engine, t: Target, m: Measure) => owns(e, t, m).magnitude;

/** Per cell: what hiding it costs. */
function costsOf(cells: ProtectionProblem['cells'], gross: AtomFigures['gross']): number[] {
  // Cost of hiding a cell: its share of the publication (both measures), plus PER_CELL. The share
  // is of the largest cell (the total), not of every atom: atoms of linked periods, or of companies
  // an earlier publication counted, are not this publication's figures.
  const largest = (m: Measure) => cells.reduce((most, c) => Math.max(most, grossOf(gross, m, c)), 0) || 1;
  const totals = { value: largest('value'), volume: largest('volume') };
  return cells.map((c) => PER_CELL + (grossOf(gross, 'value', c) / totals.value + grossOf(gross, 'volume', c) / totals.volume) / 2);
}

/**
 * The LP, one per measure (an estimate's coefficients differ between them): columns y (atoms),
 * then a slack pair (up, down) per cell; rows: cells, shown sums, targets.
 */
function lpOf(rows: Pick<Lp, 'A' | 'cells' | 'kept' | 'targets'>, cost: readonly number[], hidden: readonly boolean[], inf: number): Lp {
  const { A } = rows;
  const J = rows.cells.length;
  const K = rows.kept.length;
  const numCols = A + 2 * J;
  const numRows = J + K + rows.targets.length;
  const colCost = new Float64Array(numCols);
  const colUpper = new Float64Array(numCols).fill(inf);
  rows.cells.forEach((_, j) => {
    const c = hidden[j] ? 0 : cost[j]!;
    colCost[A + 2 * j] = c;
    colCost[A + 2 * j + 1] = c;
  });
  for (let a = 0; a < A; a++) colUpper[a] = 0;
  const rowLower = new Float64Array(numRows);
  const rowUpper = new Float64Array(numRows);
  for (let r = J + K; r < numRows; r++) {
    rowLower[r] = -inf;
    rowUpper[r] = inf;
  }
  return { ...rows, numCols, numRows, colCost, colUpper, rowLower, rowUpper };
}

/** The LP's matrix in measure m. */
function matrixOf(lp: Lp, m: Measure) {
  const { A, numRows, numCols } = lp;
  const starts: number[] = [0];
  const indices: number[] = [];
  const values: number[] = [];
  const addRow = (sum: Sum, slack: number | null) => {
    sum.atoms.forEach((a, i) => {
      indices.push(a);
      values.push(weight(sum, m, i));
    });
    if (slack !== null) {
      indices.push(A + 2 * slack, A + 2 * slack + 1);
      values.push(-1, 1);
    }
    starts.push(indices.length);
  };
  lp.cells.forEach((c, j) => addRow(c, j));
  lp.kept.forEach((sum) => addRow(sum, null));
  lp.targets.forEach((t) => addRow(t, null));
  return { format: 'csr' as const, numRows, numCols, starts, indices, values };
}

/** Passes the LP to the models of `measures` (one model serves both unless some sum has coefficients). */
function passModels(lp: Lp, models: Record<Measure, Model>, measures: readonly Measure[]) {
  const { numCols, numRows, colCost, colUpper, rowLower, rowUpper } = lp;
  for (const m of measures) {
    models[m].options.set({ output_flag: false, presolve: 'off' });
    models[m].passModel({
      numCols,
      numRows,
      colCost,
      colLower: new Float64Array(numCols),
      colUpper,
      rowLower,
      rowUpper,
      matrix: matrixOf(lp, m),
    });
  }
}

/** The slack pair of cell j. */
const pair = (A: number, j: number) => ({ kind: 'range' as const, from: A + 2 * j, to: A + 2 * j + 1 });
function hide(e: Engine, j: number) {
  if (e.hidden[j]) return;
  e.hidden[j] = true;
  for (const model of e.distinct) model.changeColsCost(pair(e.A, j), [0, 0]);
}

/**
 * Bounds of the atoms, and the shift needed, for protecting target t in measure m against an
 * intruder, in units of the target's magnitude M. `down` and `up`: how far each atom may move
 * either way in a one-way change (`box`); `upper`: how far both ways at once. `all`: every
 * intruder at once: a change y protects the target from a company c holding own_c of it when
 * y scaled by s_c = (M - |own_c|) / M stays within c's bounds, so an atom's bound is the least
 * over the outsider and its companies of theirs over s_c (s_c = 1 for a company with nothing
 * in the target); `others`: the outsider and every company with no figures in the target;
 * `null`: an outsider; a company: what it does not know of each atom (its own figures aside),
 * with the shift scaled to the part of the target it does not know.
 */
function bounds(e: Engine, t: Target, m: Measure, intruder: Intruder): Bounds | null {
  const cached = e.cached;
  if (cached && cached.t === t && cached.m === m && cached.intruder === intruder) return cached.b;
  const b = boundsOf(e, t, m, intruder);
  if (b) for (let a = 0; a < e.A; a++) if (e.fixed[a]) b.upper[a] = b.down[a] = b.up[a] = 0;
  e.cached = { t, m, intruder, b };
  return b;
}
function boundsOf(e: Engine, t: Target, m: Measure, intruder: Intruder): Bounds | null {
  const { A, problem } = e;
  const { own, magnitude: M } = owns(e, t, m);
  const down = new Float64Array(A);
  const up = new Float64Array(A);
  /** Each atom's bounds as the least over the outsider and its companies that `counts`, each scaled by its s_c. */
  const least = (counts: (company: number) => number | null) => {
    for (let a = 0; a < A; a++) {
      const outsider = box(e, a, m, 0);
      let d = outsider.down;
      let u = outsider.up;
      for (const [company, x] of e.parts[m][a]!) {
        const scale = counts(company);
        if (scale === null) continue;
        const b = box(e, a, m, x);
        d = Math.min(d, b.down / scale);
        u = Math.min(u, b.up / scale);
      }
      down[a] = d / M;
      up[a] = u / M;
    }
  };
  const done = (shift: number): Bounds => ({ upper: down.map((d, a) => Math.min(d, up[a]!)), down, up, shift });
  if (intruder === 'others') {
    least((company) => (own.has(company) ? null : 1));
    return done(problem.protection * MARGIN);
  }
  if (intruder !== 'all') {
    const known = intruder === null ? 0 : Math.abs(own.get(intruder) ?? 0);
    // Nothing of the sum is the intruder's to learn: it is all its own.
    if (M - known <= M * MOVED) return null;
    least((company) => (company === intruder ? 1 : null));
    return done((problem.protection * MARGIN * (M - known)) / M);
  }
  // Companies with nothing of the sum left to learn (its sole contributor) are no intruders here.
  least((company) => {
    const part = M - Math.abs(own.get(company) ?? 0);
    return part > M * MOVED ? part / M : null;
  });
  return done(problem.protection * MARGIN);
}

/** A change found before that protects target t in measure m as well (scaled as far as the caps allow): the cells it moves. */
function reused(e: Engine, ti: number, m: Measure): Set<number> | null {
  const t = e.targets[ti]!;
  if (!(magnitudeOf(e, t, m) > 0)) return new Set();
  const b = bounds(e, t, m, 'all')!;
  const y = new Float64Array(e.A);
  for (const d of e.directions) {
    // A change with coefficients found for the other measure may move other cells in this one.
    if (d.linked && d.measure !== m) continue;
    d.atoms.forEach((a, i) => (y[a] = d.coef[i]!));
    const along = moves(t, m, y);
    d.atoms.forEach((a) => (y[a] = 0));
    if (fitsScaled(d.atoms, d.coef, along, b)) return d.cells!;
  }
  return null;
}
/**
 * Whether a change (coefficients `coef` of `list`, moving the target by `along`) scaled to
 * move it by the shift stays within the bounds. A move of the target that is rounding noise
 * beside the change's own size is none: scaled up, it would take atoms the bounds allow to be
 * infinite, and the components the change dropped as too small, far beyond anything found.
 */
function fitsScaled(list: ArrayLike<number>, coef: ArrayLike<number>, along: number, b: Bounds) {
  let largest = 0;
  for (let i = 0; i < list.length; i++) largest = Math.max(largest, Math.abs(coef[i]!));
  if (!(Math.abs(along) > largest * 1e-6)) return false;
  const lambda = b.shift / Math.abs(along);
  for (let i = 0; i < list.length; i++) if (lambda * Math.abs(coef[i]!) > b.upper[list[i]!]!) return false;
  return true;
}
/**
 * Solves for target t in measure m against an intruder: the cells the cheapest change moves;
 * null when none protects it. `both`: one change that moves the sum up and, negated, down;
 * `up`/`down`: a change that moves it one way only (atoms may then grow without bound, but
 * shrink only by what the intruder does not know); `least`: any change at all, so that the sum
 * is at least not worked out exactly.
 */
function solve(e: Engine, ti: number, m: Measure, intruder: Intruder, mode: Mode = 'both'): Set<number> | null {
  const { A, inf, highs } = e;
  const t = e.targets[ti]!;
  if (!(magnitudeOf(e, t, m) > 0)) return new Set();
  const b = bounds(e, t, m, intruder);
  if (b === null) return new Set();
  const oneWay = mode === 'up' || mode === 'down';
  const model = e.models[m];
  model.changeColsBounds(
    { kind: 'range', from: 0, to: A - 1 },
    (oneWay ? b.down : b.upper).map((d) => -d),
    oneWay ? b.up : b.upper,
  );
  if (mode === 'down') model.changeRowBounds(t.row, -inf, -b.shift);
  else model.changeRowBounds(t.row, mode === 'least' ? Math.min(b.shift, 1e-6) : b.shift, inf);
  e.lps++;
  const status = model.run().modelStatus;
  const y = status === highs.constants.modelStatus.optimal ? model.getSolution().colValue : null;
  model.changeRowBounds(t.row, -inf, inf);
  if (status === highs.constants.modelStatus.infeasible) return null;
  if (!y) throw new Error(`The protection LP ended with status ${status}`);
  e.lastChange = y.slice(0, A);
  const moving: number[] = [];
  for (let a = 0; a < A; a++) if (Math.abs(y[a]!) > MOVED) moving.push(a);
  e.lastDirection = { atoms: moving, coef: moving.map((a) => y[a]!), measure: m, linked: moving.some((a) => e.linked[a]) };
  const moved = new Set<number>();
  e.problem.cells.forEach((c, j) => {
    if (Math.abs(moves(c, m, y)) > MOVED) moved.add(j);
  });
  return moved;
}

function atomsIn(A: number, cells: ProtectionProblem['cells'], shown: readonly Sum[]) {
  // Which cells and which shown sums of earlier publications each atom is part of (for the pairs below).
  const cellsOfAtom: number[][] = Array.from({ length: A }, () => []);
  cells.forEach((c, j) => c.atoms.forEach((a) => cellsOfAtom[a]!.push(j)));
  const shownOfAtom: number[][] = Array.from({ length: A }, () => []);
  shown.forEach((sum, k) => sum.atoms.forEach((a) => shownOfAtom[a]!.push(k)));
  return { cellsOfAtom, shownOfAtom };
}
/** The elements of exactly one of two sorted lists. */
function eitherOf(x: readonly number[], y: readonly number[]) {
  const out: number[] = [];
  let i = 0;
  let k = 0;
  while (i < x.length || k < y.length) {
    if (k >= y.length || (i < x.length && x[i]! < y[k]!)) out.push(x[i++]!);
    else if (i >= x.length || y[k]! < x[i]!) out.push(y[k++]!);
    else {
      i++;
      k++;
    }
  }
  return out;
}

/**
 * A change that costs nothing, when there is one: one atom of the target moved against one
 * outside it (or alone), both able to move far enough, every cell that holds only one of them
 * hidden already and no shown sum of an earlier publication touched. Most targets after the
 * first few are protected so, by cells already hidden; the LP is for the others.
 */
function freePair(e: Engine, ti: number, m: Measure, any = false): Set<number> | null {
  const { A, hidden, cost, linked, cellsOfAtom, shownOfAtom } = e;
  const t = e.targets[ti]!;
  if (!(magnitudeOf(e, t, m) > 0)) return new Set();
  const b = bounds(e, t, m, 'all')!;
  const need = b.shift;
  const inside = new Set(t.atoms);
  const price = (list: readonly number[]) => list.reduce((sum, j) => sum + (hidden[j] ? 0 : cost[j]!), 0);
  let best: { cost: number; moved: number[]; pair: [number, number | null] } | null = null;
  const consider = (moved: number[], pair: [number, number | null]) => {
    const c = price(moved);
    if (!best || c < best.cost) best = { cost: c, moved, pair };
    return c === 0;
  };
  for (const a of t.atoms) {
    if (b.upper[a]! < need || linked[a]) continue;
    if (shownOfAtom[a]!.length === 0 && consider(cellsOfAtom[a]!, [a, null])) break;
    let done = false;
    for (let j = 0; j < A && !done; j++) {
      if (inside.has(j) || b.upper[j]! < need || linked[j]) continue;
      if (eitherOf(shownOfAtom[a]!, shownOfAtom[j]!).length) continue;
      done = consider(eitherOf(cellsOfAtom[a]!, cellsOfAtom[j]!), [a, j]);
    }
    if (done) break;
  }
  const found = best as { cost: number; moved: number[]; pair: [number, number | null] } | null;
  if (!found || (found.cost !== 0 && !any)) return null;
  e.lastDirection = found.pair[1] === null ? { atoms: [found.pair[0]], coef: [1] } : ({ atoms: found.pair, coef: [1, -1] } as Direction);
  return new Set(found.moved);
}

function protectTarget(e: Engine, ti: number, m: Measure) {
  const again = reused(e, ti, m);
  if (again !== null) {
    // Its cells are hidden already; the clean-up must know that this target needs them too.
    e.witnesses.push({ target: ti, measure: m, intruder: 'all', mode: 'both', cells: again });
    return;
  }
  // A sum that is no cell (an earlier publication's cell, a difference of two) moves with its
  // cheapest partner, if it has one: its cells are mostly hidden anyway, the LP rarely does better.
  const moved = freePair(e, ti, m, e.targets[ti]!.cell === null) ?? solve(e, ti, m, 'all');
  if (moved !== null) {
    for (const j of moved) hide(e, j);
    e.witnesses.push({ target: ti, measure: m, intruder: 'all', mode: 'both', cells: moved });
    e.directions.push({ ...e.lastDirection!, cells: moved });
    return;
  }
  // No change both ways (a partner that is 0 can only grow): one up and one down.
  if (oneWay(e, ti, m, 'all')) return;
  // No one change protects it from everyone at once: one per intruder.
  protectFromEach(e, ti, m);
}

/**
 * Protects target t in measure m where no one change protects it from everyone at once: one
 * change per intruder (their union protects it from each). First one for the outsider and every company without figures in the sum at
 * once, then one for each company with figures in it; only if the first does not exist, one
 * for the outsider and each of the other companies too. A change found for one intruder often
 * protects the sum from another as well (scaled as far as that one's bounds allow): such an
 * intruder needs no LP of its own, only a witness for the clean-up.
 */
function protectFromEach(e: Engine, ti: number, m: Measure) {
  const { A, witnesses } = e;
  const t = e.targets[ti]!;
  const insiders = new Set(t.atoms.flatMap((a) => e.problem.atoms[a]!.contributions.map((c) => c.company)));
  const queue: Intruder[] = ['others', ...insiders];
  const found: { y: Float64Array; cells: Set<number> }[] = [];
  const coveredBy = (intruder: Intruder) => {
    const b = bounds(e, t, m, intruder);
    if (b === null) return new Set<number>();
    for (const f of found) {
      const moving: number[] = [];
      for (let a = 0; a < A; a++) if (Math.abs(f.y[a]!) > MOVED) moving.push(a);
      const along = moves(t, m, f.y);
      if (
        fitsScaled(
          moving,
          moving.map((a) => f.y[a]!),
          along,
          b,
        )
      )
        return f.cells;
    }
    return null;
  };
  for (const intruder of queue) {
    const covered = coveredBy(intruder);
    if (covered !== null) {
      witnesses.push({ target: ti, measure: m, intruder, mode: 'both', cells: covered });
      continue;
    }
    const each = solve(e, ti, m, intruder);
    if (each !== null) {
      found.push({ y: e.lastChange!, cells: each });
      for (const j of each) hide(e, j);
      witnesses.push({ target: ti, measure: m, intruder, mode: 'both', cells: each });
      continue;
    }
    if (intruder === 'others') {
      queue.push(...e.intruders.filter((i) => i === null || !insiders.has(i as number)));
      continue;
    }
    if (oneWay(e, ti, m, intruder)) continue;
    // This intruder narrows it whatever is hidden now (an earlier publication showed too much):
    // at least it is not to work it out exactly.
    if (!e.unprotectable.includes(ti)) e.unprotectable.push(ti);
    const least = solve(e, ti, m, intruder, 'least');
    if (least === null) continue;
    for (const j of least) hide(e, j);
    witnesses.push({ target: ti, measure: m, intruder, mode: 'least', cells: least });
  }
}

/** Protects target t in measure m from an intruder with a change up and another down; false when one of them does not exist. */
function oneWay(e: Engine, ti: number, m: Measure, intruder: Intruder): boolean {
  const up = solve(e, ti, m, intruder, 'up');
  const down = up === null ? null : solve(e, ti, m, intruder, 'down');
  if (up === null || down === null) return false;
  for (const [mode, moved] of [
    ['up', up],
    ['down', down],
  ] as const) {
    for (const j of moved) hide(e, j);
    e.witnesses.push({ target: ti, measure: m, intruder, mode, cells: moved });
  }
  return true;
}

function protectTargets(e: Engine) {
  const { targets } = e;
  // The publication's own primary cells first, then what earlier publications ask for (whose
  // changes mostly reuse the cells hidden by then); largest first: a large cell's partners often
  // protect the smaller ones.
  const rank = (i: number) => (targets[i]!.cell === null ? 1 : 0);
  const size = targets.map((t) => magnitudeOf(e, t, 'value'));
  const order = targets.map((_, i) => i).sort((a, b) => rank(a) - rank(b) || size[b]! - size[a]! || a - b);
  for (const ti of order) for (const m of MEASURES) protectTarget(e, ti, m);
}

/** Clean-up: a secondary cell stays hidden only if some target cannot do without it. Returns how many it gave back. */
function cleanUp(e: Engine): number {
  const { problem, hidden, cost, targets, distinct, inf } = e;
  const { cells } = problem;
  let released = 0;
  // A budget of LPs (see `cleanupLps`): it saves a few cells.
  const budget = e.lps + (problem.cleanupLps ?? Math.min(30, Math.max(10, Math.ceil(e.lps / 2))));
  const secondary = cells.map((_, j) => j).filter((j) => hidden[j] && !cells[j]!.primary && !isTargetCell(targets, j));
  secondary.sort((a, b) => cost[b]! - cost[a]! || a - b);
  for (const j of secondary) {
    if (e.lps >= budget) break;
    const using = e.witnesses.filter((w) => w.cells.has(j));
    // Shown: its slack pair may not move; the others' witnesses must do without it at no cost.
    for (const model of distinct) model.changeColsBounds(pair(e.A, j), [0, 0], [0, 0]);
    const replaced: Set<number>[] = [];
    let ok = true;
    for (const w of using) {
      const free = w.intruder === 'all' && w.mode === 'both' ? freePair(e, w.target, w.measure) : null;
      // Out of LPs halfway through this cell's witnesses: it stays hidden.
      if (free === null && e.lps >= budget) {
        ok = false;
        break;
      }
      const moved = free ?? solve(e, w.target, w.measure, w.intruder, w.mode);
      if (moved === null || [...moved].some((k) => !hidden[k] || k === j)) {
        ok = false;
        break;
      }
      replaced.push(moved);
    }
    if (ok) {
      hidden[j] = false;
      using.forEach((w, i) => (w.cells = replaced[i]!));
      released++;
    } else {
      for (const model of distinct) model.changeColsBounds(pair(e.A, j), [0, 0], [inf, inf]);
    }
  }
  return released;
}

const isTargetCell = (targets: readonly Target[], j: number) => targets.some((t) => t.cell === j);

/*
 * The same, in a worker thread (statistics.protection.worker.ts), so that the event loop keeps
 * answering other requests while a large pattern is decided. One worker, started on first use and
 * not keeping the process alive; it takes one problem at a time (publishing is rare). Where it
 * cannot start (a Node without type stripping), the problem is solved here instead.
 */
let worker: Worker | null = null;
let workerBroken = false;
let nextId = 0;
const pending = new Map<number, { resolve: (r: ProtectionResult) => void; reject: (e: Error) => void }>();

/** Answers of the worker; listened to only while a problem is out (a listener keeps the process alive). */
function onMessage({ id, result, error }: { id: number; result?: ProtectionResult; error?: string }) {
  const p = pending.get(id);
  pending.delete(id);
  if (pending.size === 0) worker?.off('message', onMessage);
  if (error !== undefined) p?.reject(new Error(error));
  else p?.resolve(result!);
}

function startWorker(): Worker {
  // Node 22.18 and 23.6+ strip types by default; 22.12–22.17 need the flag.
  const strip = (process.features as { typescript?: string }).typescript ? [] : ['--experimental-strip-types', '--no-warnings'];
  const w = new Worker(new URL('./statistics.protection.worker.ts', import.meta.url), { execArgv: [...process.execArgv, ...strip] });
  w.unref();
  const fail = (error: Error) => {
    for (const p of pending.values()) p.reject(error);
    pending.clear();
    w.off('message', onMessage);
    if (worker === w) worker = null;
  };
  w.on('error', (error) => {
    workerBroken = true;
    fail(error);
  });
  w.on('exit', () => fail(new Error('The protection worker stopped')));
  return w;
}

export async function protectOffThread(problem: ProtectionProblem): Promise<ProtectionResult> {
  if (workerBroken) return protect(problem);
  try {
    worker ??= startWorker();
    const id = nextId++;
    return await new Promise<ProtectionResult>((resolve, reject) => {
      if (pending.size === 0) worker!.on('message', onMessage);
      pending.set(id, { resolve, reject });
      worker!.postMessage({ id, problem });
    });
  } catch (error) {
    if (!workerBroken) throw error;
    return protect(problem);
  }
}
