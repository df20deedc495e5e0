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
 * A sensitive sum s with value v is protected when an intruder who knows every shown cell (and, as
 * a company, its own figures) cannot narrow it to within ±q·v. That holds when there is a change y
 * of the atoms that leaves every shown cell as it is, moves s by at least q·v, and keeps every atom
 * within what the intruder cannot rule out (|y_a| ≤ cap_a, so that both v + y and v − y are
 * possible worlds): the intruder cannot tell the true figures from figures moved by ±y. One LP per
 * sensitive sum and measure finds the cheapest such y, where moving a cell that is still shown
 * costs what hiding it costs (its share of the table, plus a little for each cell) and moving a
 * hidden cell costs nothing; the cells it moves are hidden. Hiding more never weakens a protection
 * already found, so the sums are protected one after another, largest first.
 *
 * The caps make the protection hold against each company at once (one LP, not one per company):
 * outside s an atom may move by what is not its largest relevant contributor's (a partner that one
 * company holds protects nothing against that company; a zero or tiny partner protects nothing at
 * all), and inside s by what keeps the scaled change within every company's unknown part (for a
 * company c holding own_c of s, y·(v − own_c)/v is then a change that protects its competitors'
 * part by ±q). Figures here are floating point, for the solver only: the published figures stay
 * the database's exact decimals, and the target carries a 1 % margin over q.
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
  /** Time spent at most on giving back secondary cells that turn out not to be needed (the pattern is safe either way). */
  cleanupMs?: number;
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

let runtime: Promise<Highs> | null = null;
const loadHighs = () => (runtime ??= highsLoader());

interface Target {
  atoms: readonly number[];
  /** Its row in the LP. */
  row: number;
  /** The cell it is, for a primary cell. */
  cell: number | null;
}

/** Who a change protects a target from: everyone at once, an outsider (null), or one company. */
type Intruder = 'all' | null | number;

interface Witness {
  target: number;
  measure: Measure;
  intruder: Intruder;
  /** Cells the change moves. */
  cells: Set<number>;
}

export async function protect(problem: ProtectionProblem): Promise<ProtectionResult> {
  const highs = await loadHighs();
  const { atoms, cells } = problem;
  const shown = problem.shown ?? [];
  const A = atoms.length;
  const J = cells.length;
  const K = shown.length;
  const targets: Target[] = [];
  cells.forEach((c, j) => c.primary && targets.push({ atoms: c.atoms, row: 0, cell: j }));
  for (const s of problem.sensitive ?? []) targets.push({ atoms: s.atoms, row: 0, cell: null });
  targets.forEach((t, i) => (t.row = J + K + i));

  const atomValue = (m: Measure) => atoms.map((a) => a.contributions.reduce((sum, c) => sum + c[m], 0));
  const values = { value: atomValue('value'), volume: atomValue('volume') };
  const sumOf = (m: Measure, list: readonly number[]) => list.reduce((s, a) => s + values[m][a]!, 0);

  // Cost of hiding a cell: its share of the market (both measures), plus PER_CELL.
  const totals = { value: values.value.reduce((s, v) => s + Math.abs(v), 0) || 1, volume: values.volume.reduce((s, v) => s + Math.abs(v), 0) || 1 };
  const cost = cells.map((c) => PER_CELL + (Math.abs(sumOf('value', c.atoms)) / totals.value + Math.abs(sumOf('volume', c.atoms)) / totals.volume) / 2);
  const hidden = cells.map((c) => c.primary);

  // The LP: columns y (atoms), then a slack pair (up, down) per cell; rows: cells, shown sums, targets.
  const numCols = A + 2 * J;
  const numRows = J + K + targets.length;
  const starts: number[] = [0];
  const indices: number[] = [];
  const coefficients: number[] = [];
  const addRow = (list: readonly number[], slack: number | null) => {
    for (const a of list) {
      indices.push(a);
      coefficients.push(1);
    }
    if (slack !== null) {
      indices.push(A + 2 * slack, A + 2 * slack + 1);
      coefficients.push(-1, 1);
    }
    starts.push(indices.length);
  };
  cells.forEach((c, j) => addRow(c.atoms, j));
  shown.forEach((s) => addRow(s.atoms, null));
  targets.forEach((t) => addRow(t.atoms, null));
  const inf = highs.infinity;
  const colCost = new Float64Array(numCols);
  const colUpper = new Float64Array(numCols).fill(inf);
  cells.forEach((_, j) => {
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

  const model: Model = highs.createModel();
  let lps = 0;
  const unprotectable: number[] = [];
  const witnesses: Witness[] = [];
  try {
    model.options.set({ output_flag: false, presolve: 'off' });
    model.passModel({
      numCols,
      numRows,
      colCost,
      colLower: new Float64Array(numCols),
      colUpper,
      rowLower,
      rowUpper,
      matrix: { format: 'csr', numRows, numCols, starts, indices, values: coefficients },
    });
    const pair = (j: number) => ({ kind: 'range' as const, from: A + 2 * j, to: A + 2 * j + 1 });
    const hide = (j: number) => {
      if (hidden[j]) return;
      hidden[j] = true;
      model.changeColsCost(pair(j), [0, 0]);
    };

    /**
     * Bounds of the atoms, and the shift needed, for protecting target t in measure m against an
     * intruder, in units of the target's value v. `all`: every intruder at once (the caps above);
     * `null`: an outsider; a company: what it does not know of each atom (its own figures aside).
     */
    const bounds = (t: Target, m: Measure, v: number, intruder: Intruder): { upper: Float64Array; shift: number } | null => {
      const own = new Map<number, number>();
      for (const a of t.atoms) for (const c of atoms[a]!.contributions) own.set(c.company, (own.get(c.company) ?? 0) + c[m]);
      const inside = new Set(t.atoms);
      const upper = new Float64Array(A);
      if (intruder !== 'all') {
        const part = intruder === null ? v : v - (own.get(intruder) ?? 0);
        // Nothing of the sum is the intruder's to learn: it is all its own.
        if (part <= v * MOVED) return null;
        for (let a = 0; a < A; a++) {
          const total = values[m][a]!;
          const mine = intruder === null ? 0 : (atoms[a]!.contributions.find((c) => c.company === intruder)?.[m] ?? 0);
          upper[a] = Math.max(0, total - Math.max(0, mine)) / v;
        }
        return { upper, shift: (problem.protection * MARGIN * part) / v };
      }
      // Companies with nothing of the sum left to learn (its sole contributor) are no intruders here.
      const relevant = (company: number) => v - (own.get(company) ?? 0) > v * MOVED;
      for (let a = 0; a < A; a++) {
        const total = values[m][a]!;
        if (total <= 0) continue;
        let cap = total;
        if (inside.has(a)) {
          for (const c of atoms[a]!.contributions) {
            if (c[m] <= 0 || !relevant(c.company)) continue;
            cap = Math.min(cap, (v * (total - c[m])) / (v - own.get(c.company)!));
          }
        } else {
          let largest = 0;
          for (const c of atoms[a]!.contributions) if (c[m] > largest && relevant(c.company)) largest = c[m];
          cap = total - largest;
        }
        upper[a] = Math.max(0, cap) / v;
      }
      return { upper, shift: problem.protection * MARGIN };
    };

    /** Solves for target t in measure m against an intruder: the cells the cheapest change moves; null when none protects it. */
    const solve = (ti: number, m: Measure, intruder: Intruder, least = false): Set<number> | null => {
      const t = targets[ti]!;
      const v = sumOf(m, t.atoms);
      if (!(v > 0)) return new Set();
      const b = bounds(t, m, v, intruder);
      if (b === null) return new Set();
      model.changeColsBounds(
        { kind: 'range', from: 0, to: A - 1 },
        b.upper.map((u) => -u),
        b.upper,
      );
      // `least`: any change at all, so that the sum is at least not worked out exactly.
      model.changeRowBounds(t.row, least ? Math.min(b.shift, 1e-6) : b.shift, inf);
      lps++;
      const status = model.run().modelStatus;
      const y = status === highs.constants.modelStatus.optimal ? model.getSolution().colValue : null;
      model.changeRowBounds(t.row, -inf, inf);
      if (status === highs.constants.modelStatus.infeasible) return null;
      if (!y) throw new Error(`The protection LP ended with status ${status}`);
      const moved = new Set<number>();
      cells.forEach((c, j) => {
        let change = 0;
        for (const a of c.atoms) change += y[a]!;
        if (Math.abs(change) > MOVED) moved.add(j);
      });
      return moved;
    };

    /** The intruders to protect a target from one by one: the outsider, and every company with figures. */
    const intruders: Intruder[] = [null, ...new Set(atoms.flatMap((a) => a.contributions.map((c) => c.company)))];
    const protectTarget = (ti: number, m: Measure) => {
      const moved = solve(ti, m, 'all');
      if (moved !== null) {
        for (const j of moved) hide(j);
        witnesses.push({ target: ti, measure: m, intruder: 'all', cells: moved });
        return;
      }
      // No one change protects it from everyone at once: one per intruder (their union protects it from each).
      for (const intruder of intruders) {
        let each = solve(ti, m, intruder);
        if (each === null) {
          // This intruder narrows it whatever is hidden now (an earlier publication showed too much):
          // at least it is not to work it out exactly.
          if (!unprotectable.includes(ti)) unprotectable.push(ti);
          each = solve(ti, m, intruder, true);
          if (each === null) continue;
        }
        for (const j of each) hide(j);
        witnesses.push({ target: ti, measure: m, intruder, cells: each });
      }
    };

    // Largest first: a large cell's partners often protect the smaller ones.
    const order = targets.map((_, i) => i).sort((a, b) => sumOf('value', targets[b]!.atoms) - sumOf('value', targets[a]!.atoms) || a - b);
    for (const ti of order) for (const m of MEASURES) protectTarget(ti, m);

    // Clean-up: a secondary cell stays hidden only if some target cannot do without it.
    let released = 0;
    const deadline = Date.now() + (problem.cleanupMs ?? 1000);
    const secondary = cells.map((_, j) => j).filter((j) => hidden[j] && !cells[j]!.primary && !isTargetCell(targets, j));
    secondary.sort((a, b) => cost[b]! - cost[a]! || a - b);
    for (const j of secondary) {
      if (Date.now() > deadline) break;
      const using = witnesses.filter((w) => w.cells.has(j));
      // Shown: its slack pair may not move; the others' witnesses must do without it at no cost.
      model.changeColsBounds(pair(j), [0, 0], [0, 0]);
      const replaced: Set<number>[] = [];
      let ok = true;
      for (const w of using) {
        const moved = solve(w.target, w.measure, w.intruder);
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
        model.changeColsBounds(pair(j), [0, 0], [inf, inf]);
      }
    }

    const primary = cells.filter((c) => c.primary).length;
    return { hidden, primary, secondary: hidden.filter(Boolean).length - primary, unprotectable, released, lps };
  } finally {
    model.dispose();
  }
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
