import highsLoader, { type Highs, type Model, type ModelStatusCode } from 'highs';
import { add, cmp, isZero, mul, neg, rat, sub, toNumber, toString, type Rational } from './rational.ts';

/*
 * An independent disclosure auditor (tests only). It plays an intruder who holds every published
 * figure, written as linear facts over the unknown company figures, and asks of each confidential
 * cell: can it be worked out exactly (linear algebra over the rationals), or pinned into a range
 * narrower than the required protection (linear programming)? It knows nothing of how the app
 * decides what to hide, so it can catch what the suppression code overlooks.
 */

/**
 * One unknown: one company's figure (a volume or a value) for one code in one period. The
 * intruder knows its sign: `sign` 1 (the default) says it is >= 0, -1 that it is <= 0 (a returns
 * code, a correction), 0 that it is 0 (the intruder knows who sold nothing: known like its own
 * figures). Nothing else bounds it: figures have no upper limit.
 */
export interface Unknown {
  key: string;
  company: number;
  truth: Rational;
  sign?: 1 | -1 | 0;
}
/**
 * A published figure: lo <= sum(coef * x) <= hi. lo === hi (same value) is an equation (a figure
 * shown exactly); lo < hi an interval (e.g. from a percentage rounded to one decimal); null an
 * open side (e.g. part - 12.35 % * whole <= 0 when the whole is not shown).
 */
export interface Fact {
  terms: ReadonlyMap<string, Rational>;
  lo: Rational | null;
  hi: Rational | null;
  source: string;
}
/**
 * A confidential cell: a sum of unknowns (coefficients are normally 1) that must stay uncertain by
 * the protection times its magnitude: the sum, over the companies the intruder is not, of the
 * absolute value of each company's part (so a cell of +100 and -100 is not safe for adding up to 0,
 * and for figures of one sign it is the cell's own absolute value).
 */
export interface Target {
  terms: ReadonlyMap<string, Rational>;
  source: string;
}
/** Who attacks: `company: null` an outsider (viewer); a company knows its own unknowns exactly. */
export interface Intruder {
  name: string;
  company: number | null;
}
export interface Finding {
  target: string; // Target.source
  intruder: string; // Intruder.name
  kind: 'determined' | 'narrowed';
  truth: string; // the protected part's true value, decimal text
  magnitude: string; // what the protection is measured on (Target), decimal text
  interval: [number, number]; // the LP's tightest interval for the protected part (NaN when not computed)
}
export interface AuditInput {
  unknowns: readonly Unknown[];
  facts: readonly Fact[];
  targets: readonly Target[];
  intruders: readonly Intruder[];
  /** Required protection, e.g. rat(10, 100) for ±10 %. */
  protection: Rational;
}

/*
 * Tolerance of the LP verdict. HiGHS works in doubles with absolute feasibility and optimality
 * tolerances of 1e-7 on the scaled model (below), so an optimum can be off a little either way:
 * over random systems with figures up to 1e10 its min and max of determined cells strayed from
 * the truth by up to 1.6e-8 in scaled units. A cell whose bound sits exactly on the protection
 * threshold must not flip to "narrowed" on such noise, so a bound counts only when it beats the
 * threshold by more than
 *   REL_TOL * max(|truth|, 1)  +  ABS_TOL * scale
 * scale being the power of two the model's figures were divided by: the second term is the
 * solver's absolute tolerance brought back to the figures' units, with a margin of 10 (60 over
 * the worst noise seen). With totals of 1e11 it comes to about 0.13, so a cell is never called
 * narrowed over less than that (and one below about 1.3 never at ±10 %); exact determination
 * does not depend on it.
 */
const REL_TOL = 1e-7;
const ABS_TOL = 1e-6;
/**
 * Figures are divided by a power of two (exact in floating point) so that the largest bound is
 * about this: on a synthetic system with bounds near 3e8, warm-started solves ended "infeasible"
 * or "unknown"; near 1e6 they did not. Smaller would widen ABS_TOL * scale for nothing.
 */
const SCALED_MAGNITUDE = 2 ** 20;
/** HiGHS `simplex_strategy` values (types.d.ts declares the enum but the runtime does not export it). */
const highsSimplex = { dual: 1, primal: 4 } as const;

let runtime: Promise<Highs> | undefined;
function loadHighs(): Promise<Highs> {
  // One Wasm instance for the whole test process: loading compiles the binary.
  runtime ??= highsLoader();
  return runtime;
}

/** A sparse vector over unknown indices. */
type Vec = Map<number, Rational>;

const ZERO = rat(0);

interface IndexedFact {
  vec: Vec;
  lo: Rational | null;
  hi: Rational | null;
  source: string;
}

interface IndexedTarget {
  vec: Vec;
  source: string;
}

function indexTerms(terms: ReadonlyMap<string, Rational>, index: ReadonlyMap<string, number>, what: string): Vec {
  const vec: Vec = new Map();
  for (const [key, coef] of terms) {
    const i = index.get(key);
    if (i === undefined) throw new Error(`${what} references an unknown that does not exist: "${key}"`);
    if (!isZero(coef)) vec.set(i, coef);
  }
  return vec;
}

function dot(vec: Vec, unknowns: readonly Unknown[]): Rational {
  let s = ZERO;
  for (const [i, coef] of vec) s = add(s, mul(coef, unknowns[i]!.truth));
  return s;
}

/** A sparse vector with integer entries (a rational vector times a common denominator). */
type IntVec = Map<number, bigint>;

function gcd(a: bigint, b: bigint): bigint {
  if (a < 0n) a = -a;
  if (b < 0n) b = -b;
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

/** Divides out the entries' common factor, so repeated combinations do not grow the integers. */
function primitive(x: IntVec): IntVec {
  // Starting from the smallest entry makes every later gcd step cheap (a big % small), and
  // entries of ±1, the common case, end it at once.
  let g = 0n;
  for (const v of x.values()) {
    const m = v < 0n ? -v : v;
    if (m === 1n) return x;
    if (g === 0n || m < g) g = m;
  }
  for (const v of x.values()) if ((g = gcd(g, v)) === 1n) return x;
  if (g > 1n) for (const [c, v] of x) x.set(c, v / g);
  return x;
}

/**
 * The row space of the equations, kept in reduced echelon form: every row has a pivot column that
 * no other row contains. A vector lies in the row space exactly when cancelling, for each of its
 * pivot columns, that column with the pivot row leaves nothing.
 *
 * Rows are integer vectors (fraction-free elimination, each row divided by its content): it is
 * as exact as rationals, but rational entries need a gcd on every operation, and on systems of
 * many overlapping totals that took 6 times as long.
 */
class RowSpace {
  private readonly rows: IntVec[] = [];
  private readonly pivots: number[] = [];
  private readonly pivotRow = new Map<number, number>();
  /** For each non-pivot column, the rows that contain it (so a new pivot is cleared without a scan). */
  private readonly rowsWith = new Map<number, Set<number>>();

  /** What is left of `vec` (scaled) after removing its component in the row space: only non-pivot columns. */
  reduce(vec: Vec): IntVec {
    let lcm = 1n;
    for (const v of vec.values()) lcm = (lcm / gcd(lcm, v.d)) * v.d;
    const x: IntVec = new Map();
    for (const [c, v] of vec) x.set(c, (v.n * lcm) / v.d);
    for (const col of vec.keys()) {
      const r = this.pivotRow.get(col);
      // A pivot row holds no other pivot column, so x gains none while it is reduced.
      if (r !== undefined) this.cancel(x, col, this.rows[r]!);
    }
    return primitive(x);
  }

  add(vec: Vec): void {
    const x = this.reduce(vec);
    if (x.size === 0) return;
    // Fill-in: clearing the pivot column touches every row holding it, so take the rarest column.
    let pivot = -1;
    let best = Infinity;
    for (const col of x.keys()) {
      const count = this.rowsWith.get(col)?.size ?? 0;
      if (count < best) [pivot, best] = [col, count];
    }
    const holders = this.rowsWith.get(pivot) ?? new Set<number>();
    this.rowsWith.delete(pivot);
    for (const r of holders) {
      const row = this.rows[r]!;
      const before = new Set(row.keys());
      this.cancel(row, pivot, x);
      primitive(row);
      for (const col of before) if (!row.has(col) && col !== this.pivots[r]) this.rowsWith.get(col)?.delete(r);
      for (const col of row.keys()) if (!before.has(col)) this.holders(col).add(r);
    }
    const r = this.rows.length;
    this.rows.push(x);
    this.pivots.push(pivot);
    this.pivotRow.set(pivot, r);
    for (const col of x.keys()) if (col !== pivot) this.holders(col).add(r);
  }

  private holders(col: number): Set<number> {
    let set = this.rowsWith.get(col);
    if (!set) this.rowsWith.set(col, (set = new Set()));
    return set;
  }

  /** y := a*y - b*x with a, b chosen so that y's entry in column `col` (x's pivot) becomes 0. */
  private cancel(y: IntVec, col: number, x: IntVec): void {
    const p = x.get(col)!;
    const e = y.get(col)!;
    const g = gcd(p, e);
    const a = p / g;
    const b = e / g;
    if (a !== 1n) for (const [c, v] of y) y.set(c, a * v);
    for (const [c, v] of x) {
      const w = (y.get(c) ?? 0n) - b * v;
      if (w === 0n) y.delete(c);
      else y.set(c, w);
    }
  }
}

/** Model status codes by value, for error messages. */
function statusName(highs: Highs, status: ModelStatusCode): string {
  const entry = Object.entries(highs.constants.modelStatus).find(([, v]) => v === status);
  return entry ? `${entry[0]} (${status})` : String(status);
}

/** A fact as one intruder sees it: over classes (below), with the intruder's own figures moved into the bounds. */
interface Row {
  vec: Vec;
  lo: Rational | null;
  hi: Rational | null;
}

/** A target's protected part as one intruder sees it. */
interface Protected {
  t: number;
  source: string;
  vec: Vec;
  truth: Rational;
  /** The sum of the absolute values of each unknown company's part: the protection is measured on it. */
  magnitude: Rational;
}

/**
 * Unknowns that occur in exactly the same facts and targets with the same coefficients (typically
 * the companies of one code: every published figure sums them all) can only ever be told apart
 * as their sum. Working on one column per such class is exact for both questions: a vector in the
 * row space has equal coefficients on equal columns, and unknowns of one sign with equal columns
 * range over exactly what their sum of that sign does (unknowns of different signs are never
 * merged). It makes the systems several times smaller.
 */
function classify(unknowns: readonly Unknown[], facts: readonly IndexedFact[], targets: readonly IndexedTarget[]): Int32Array {
  const unknownCount = unknowns.length;
  const occurs: string[][] = Array.from({ length: unknownCount }, (_, u) => [`s${signOf(unknowns[u]!)}`]);
  facts.forEach((f, i) => {
    for (const [u, coef] of f.vec) occurs[u]!.push(`f${i}:${coef.n}/${coef.d}`);
  });
  targets.forEach((t, i) => {
    for (const [u, coef] of t.vec) occurs[u]!.push(`t${i}:${coef.n}/${coef.d}`);
  });
  const classOf = new Int32Array(unknownCount).fill(-1);
  const ids = new Map<string, number>();
  occurs.forEach((o, u) => {
    if (o.length === 1) return; // in no fact and no target (only its sign): nothing to learn or protect
    const signature = o.join(' ');
    let id = ids.get(signature);
    if (id === undefined) ids.set(signature, (id = ids.size));
    classOf[u] = id;
  });
  return classOf;
}

const signOf = (u: Unknown): 1 | -1 | 0 => u.sign ?? 1;

/**
 * Every finding, for every intruder and target: "determined" when the equations alone (exactly,
 * over the rationals) give the protected part's value, else "narrowed" when the LP bounds it
 * within the protection (see REL_TOL). Sorted by target, then intruder, both in input order.
 * Throws on input that cannot be right: an unknown key, a repeated unknown or one whose truth has
 * the other sign than it is said to have, a fact
 * with lo > hi or that the true figures do not satisfy (checked exactly, naming the fact), and
 * when HiGHS cannot solve an intruder's model (naming the intruder).
 */
export async function audit(input: AuditInput): Promise<Finding[]> {
  const highs = await loadHighs();
  const { unknowns, intruders, protection } = input;

  const index = new Map<string, number>();
  unknowns.forEach((u, i) => {
    if (index.has(u.key)) throw new Error(`unknown "${u.key}" is listed twice`);
    if (signOf(u) === 0 ? !isZero(u.truth) : cmp(u.truth, ZERO) * signOf(u) < 0)
      throw new Error(`unknown "${u.key}" has the truth ${toString(u.truth)}, against its sign ${signOf(u)}`);
    index.set(u.key, i);
  });
  const facts: IndexedFact[] = input.facts.map((f) => {
    const vec = indexTerms(f.terms, index, `fact "${f.source}"`);
    const range = `[${f.lo === null ? '-∞' : toString(f.lo)}, ${f.hi === null ? '∞' : toString(f.hi)}]`;
    if (f.lo !== null && f.hi !== null && cmp(f.lo, f.hi) > 0) throw new Error(`fact "${f.source}" has lo > hi: ${range}`);
    // Exactly, before any floating point: a fact that the true figures break was built wrongly.
    const value = dot(vec, unknowns);
    if ((f.lo !== null && cmp(value, f.lo) < 0) || (f.hi !== null && cmp(value, f.hi) > 0))
      throw new Error(`fact "${f.source}" contradicts the true figures: they give ${toString(value)}, outside ${range}`);
    return { vec, lo: f.lo, hi: f.hi, source: f.source };
  });
  const targets: IndexedTarget[] = input.targets.map((t) => ({ vec: indexTerms(t.terms, index, `target "${t.source}"`), source: t.source }));
  const classOf = classify(unknowns, facts, targets);

  const found: { t: number; i: number; finding: Finding }[] = [];
  intruders.forEach((intruder, i) => {
    const report = (p: Protected, kind: Finding['kind'], interval: [number, number]): void => {
      found.push({
        t: p.t,
        i,
        finding: { target: p.source, intruder: intruder.name, kind, truth: toString(p.truth), magnitude: toString(p.magnitude), interval },
      });
    };
    const known = (u: number): boolean => signOf(unknowns[u]!) === 0 || (intruder.company !== null && unknowns[u]!.company === intruder.company);
    /** `vec` over the classes of the unknowns the intruder does not know, and what the known ones add up to. */
    const split = (vec: Vec): [Vec, Rational] => {
      const rest: Vec = new Map();
      let sum = ZERO;
      for (const [u, coef] of vec) {
        if (known(u)) sum = add(sum, mul(coef, unknowns[u]!.truth));
        else rest.set(classOf[u]!, coef);
      }
      return [rest, sum];
    };

    const protectedParts: Protected[] = [];
    targets.forEach((target, t) => {
      const [vec, knownSum] = split(target.vec);
      const truth = sub(dot(target.vec, unknowns), knownSum);
      // Each unknown company's part, in absolute value: a part of 0 (no figure, or only zeros) has nothing to protect.
      const parts = new Map<number, Rational>();
      for (const [u, coef] of target.vec)
        if (!known(u)) parts.set(unknowns[u]!.company, add(parts.get(unknowns[u]!.company) ?? ZERO, mul(coef, unknowns[u]!.truth)));
      let magnitude = ZERO;
      for (const part of parts.values()) magnitude = add(magnitude, cmp(part, ZERO) < 0 ? neg(part) : part);
      if (vec.size > 0 && !isZero(magnitude)) protectedParts.push({ t, source: target.source, vec, truth, magnitude });
    });
    if (protectedParts.length === 0) return;

    const rows: Row[] = [];
    for (const f of facts) {
      const [vec, knownSum] = split(f.vec);
      const shift = (b: Rational | null): Rational | null => (b === null ? null : sub(b, knownSum));
      if (vec.size > 0 && (f.lo !== null || f.hi !== null)) rows.push({ vec, lo: shift(f.lo), hi: shift(f.hi) });
    }

    const space = new RowSpace();
    // Short equations first: their pivots cause the least fill-in in the rows that follow.
    const equations = rows.filter((r) => r.lo !== null && r.hi !== null && cmp(r.lo, r.hi) === 0).sort((a, b) => a.vec.size - b.vec.size);
    for (const r of equations) space.add(r.vec);
    const open: Protected[] = [];
    for (const p of protectedParts) {
      if (space.reduce(p.vec).size === 0) report(p, 'determined', [NaN, NaN]);
      else open.push(p);
    }
    if (open.length === 0) return;

    const signs = new Map<number, 1 | -1 | 0>();
    unknowns.forEach((u, i) => classOf[i]! >= 0 && signs.set(classOf[i]!, signOf(u)));
    for (const [p, interval] of narrowed(highs, intruder, rows, open, protection, signs)) report(p, 'narrowed', interval);
  });
  // Targets in input order, and for each the intruders in input order (the sort is stable).
  return found.sort((x, y) => x.t - y.t || x.i - y.i).map((f) => f.finding);
}

/**
 * The protected parts that the facts pin into less than the protection, each with its tightest
 * interval: the min and max over every fact, every unknown of its sign. One model per intruder: the
 * constraints are the same for all targets, so only the objective changes between solves and the
 * simplex restarts from the previous optimal basis.
 */
function narrowed(
  highs: Highs,
  intruder: Intruder,
  rows: readonly Row[],
  open: readonly Protected[],
  protection: Rational,
  signs: ReadonlyMap<number, 1 | -1 | 0>,
): [Protected, [number, number]][] {
  // The same vector in several facts (a cell's share of several totals) is one row with the
  // tightest bounds; exact, and it spares the simplex degenerate duplicates.
  const merged = new Map<string, Row>();
  for (const r of rows) {
    const entries = [...r.vec].sort((a, b) => a[0] - b[0]);
    const key = entries.map(([c, v]) => `${c}:${v.n}/${v.d}`).join(' ');
    const seen = merged.get(key);
    if (!seen) merged.set(key, { vec: new Map(entries), lo: r.lo, hi: r.hi });
    else {
      if (r.lo !== null && (seen.lo === null || cmp(r.lo, seen.lo) > 0)) seen.lo = r.lo;
      if (r.hi !== null && (seen.hi === null || cmp(r.hi, seen.hi) < 0)) seen.hi = r.hi;
    }
  }
  const lpRows = [...merged.values()];

  const colOf = new Map<number, number>();
  const column = (cls: number): number => {
    let c = colOf.get(cls);
    if (c === undefined) colOf.set(cls, (c = colOf.size));
    return c;
  };
  const starts = [0];
  const indices: number[] = [];
  const values: number[] = [];
  for (const r of lpRows) {
    for (const [cls, coef] of r.vec) {
      indices.push(column(cls));
      values.push(toNumber(coef));
    }
    starts.push(indices.length);
  }
  /** Each open part with its objective: (column, coefficient) pairs. */
  const objectives = open.map((p) => ({ p, terms: [...p.vec].map(([cls, coef]): [number, number] => [column(cls), toNumber(coef)]) }));
  const numCols = colOf.size;
  const numRows = lpRows.length;
  const classes = [...colOf.keys()];

  let largest = 1;
  for (const r of lpRows) for (const b of [r.lo, r.hi]) if (b !== null) largest = Math.max(largest, Math.abs(toNumber(b)));
  for (const p of open) largest = Math.max(largest, Math.abs(toNumber(p.truth)), toNumber(p.magnitude));
  const scale = 2 ** Math.max(0, Math.ceil(Math.log2(largest / SCALED_MAGNITUDE)));

  const { optimal, infeasible, unbounded, unboundedOrInfeasible } = highs.constants.modelStatus;
  const who = `intruder "${intruder.name}"`;
  return highs.withModel((m: Model): [Protected, [number, number]][] => {
    m.options.set({ output_flag: false, log_to_console: false });
    m.passModel({
      numCols,
      numRows,
      sense: highs.constants.objectiveSense.minimize,
      colCost: new Float64Array(numCols),
      colLower: Float64Array.from(classes, (cls) => (signs.get(cls) === -1 ? -highs.infinity : 0)),
      colUpper: Float64Array.from(classes, (cls) => (signs.get(cls) === -1 ? 0 : highs.infinity)),
      rowLower: Float64Array.from(lpRows, (r) => (r.lo === null ? -highs.infinity : toNumber(r.lo) / scale)),
      rowUpper: Float64Array.from(lpRows, (r) => (r.hi === null ? highs.infinity : toNumber(r.hi) / scale)),
      matrix: { format: 'csr', numRows, numCols, starts, indices, values },
    });
    /*
     * Only the objective changes between solves, so the last optimal basis stays primal feasible
     * and primal simplex carries on from it (measured: ~5x faster than dual simplex here). From
     * scratch, HiGHS's default (presolve, dual simplex) is the robust choice: primal simplex after
     * presolve once called a system with many overlapping equations infeasible. A solve that ends
     * in anything but an optimum or unboundedness gets one cold retry the default way.
     */
    const warm = { simplex_strategy: highsSimplex.primal, presolve: 'off' };
    const cold = { simplex_strategy: highsSimplex.dual, presolve: 'choose' };
    const solve = (): ModelStatusCode => {
      const status = m.run().modelStatus;
      if (status === optimal || status === unbounded) return status;
      m.clearSolver();
      m.options.set(cold);
      const retried = m.run().modelStatus;
      m.options.set(warm);
      return retried;
    };
    // Feasibility first, with a zero objective: "unbounded or infeasible" can then only mean
    // infeasible, and in the solves that follow only unbounded.
    m.options.set(cold);
    const first = m.run().modelStatus;
    m.options.set(warm);
    // The true figures were checked against every fact exactly, so this is the solver failing.
    if (first === infeasible || first === unboundedOrInfeasible)
      throw new Error(`${who}: HiGHS finds the facts (with the intruder's own figures put in) infeasible, though the true figures satisfy them`);
    if (first !== optimal) throw new Error(`${who}: HiGHS could not settle feasibility: model status ${statusName(highs, first)}`);

    /*
     * Every optimum found is a feasible point. Kept, they often show already that a later part can
     * reach past both thresholds, which spares its two solves (each a millisecond or a few in
     * Wasm); they are as exact as the LP's own bounds, so the same tolerance applies.
     */
    const pool: Float64Array[] = [m.getSolution().colValue];
    let previous: readonly [number, number][] = [];
    /** The min over the model of sign * the objective, in the figures' units (-Infinity when unbounded). */
    const minimize = (p: Protected, terms: readonly [number, number][], sign: 1 | -1): number => {
      const costs = new Map<number, number>(previous.map(([c]) => [c, 0]));
      for (const [c, coef] of terms) costs.set(c, sign * coef);
      const set = [...costs.keys()].sort((x, y) => x - y);
      m.changeColsCost(
        { kind: 'set', indices: set },
        set.map((c) => costs.get(c)!),
      );
      previous = terms;
      const status = solve();
      if (status === optimal) {
        pool.push(m.getSolution().colValue);
        return m.getObjectiveValue() * scale;
      }
      if (status === unbounded || status === unboundedOrInfeasible) return -Infinity;
      throw new Error(`${who}, target "${p.source}": HiGHS ended with model status ${statusName(highs, status)}`);
    };

    const found: [Protected, [number, number]][] = [];
    for (const { p, terms } of objectives) {
      const truth = toNumber(p.truth);
      const margin = toNumber(mul(protection, p.magnitude));
      const tol = REL_TOL * Math.max(Math.abs(truth), 1) + ABS_TOL * scale;
      /** Narrowed when the max is below `above` or the min is over `below`. */
      const above = truth + margin - tol;
      const below = truth - margin + tol;
      let high = -Infinity;
      let low = Infinity;
      for (const x of pool) {
        let v = 0;
        for (const [c, coef] of terms) v += coef * x[c]!; // a column of the model: within the solution
        high = Math.max(high, v * scale);
        low = Math.min(low, v * scale);
      }
      if (high >= above && low <= below) continue;
      const min = minimize(p, terms, 1);
      const max = -minimize(p, terms, -1);
      if (max < above || min > below) found.push([p, [min, max]]);
    }
    return found;
  });
}
