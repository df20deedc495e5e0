// Benchmark: what estimates for missing reports save when a report comes late (docs/performance.md
// "Estimates for missing reports").
//
// A market of 60 companies and 300 codes in 20 overlapping groups and 5 sections, as the
// publishing market of bench/statistics.ts: a third of the codes rare (3 % of the companies), a
// third medium (15 %), the rest common (50 %), a tenth dominated by one company, every fiftieth a
// returns code. Last period (the source) every company reported and it was published; this period
// each code's figures changed by a few per cent, every company's by its own noise. This period is
// published with LATE companies missing, then again once their reports are in:
//   - without estimates: the second publication's difference from the first is the late
//     companies' own figures, which must stay uncertain cell by cell;
//   - with estimates: the first publication counts, for each late company, its last period's rows
//     times the respondents' change per code; the difference is report minus estimate, tied to
//     last period's figures, and the protection spans both periods.
// Printed: cells hidden in each publication and the time to decide each pattern. The pattern is
// decided as the app decides it (statistics.pattern.ts), without the database.
//
//   npm run bench:estimates
//   BENCH_LATE=2 npm run bench:estimates      # two late companies
//   BENCH_SEED=7 npm run bench:estimates      # another market
import { decidePattern, type PatternEstimate } from '../server/src/modules/statistics/disclosure/statistics.pattern.ts';
import { cellsOf, estimatesOf, type Figures, rowSetsOf, rowsOf, settingsOf, sourceSet, type World } from '../server/test/pattern-world.ts';

const COMPANIES = 60;
const CODES = 300;
const GROUPS = 20;
const SECTIONS = 5;
const LATE = Number(process.env.BENCH_LATE ?? 1);
let seed = Number(process.env.BENCH_SEED ?? 20261128);
/** mulberry32: a small seeded generator, so that every run builds the same market. */
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
  return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
};
const round = (n: number, decimals: number) => Math.round(n * 10 ** decimals) / 10 ** decimals;

// Which companies sell each code, how much, and whether one of them dominates it.
const share = Array.from({ length: CODES }, (_, k) => [0.03, 0.15, 0.5][k % 3]!);
const dominated = Array.from({ length: CODES }, () => random() < 0.1);
const returns = Array.from({ length: CODES }, (_, k) => k % 50 === 7);
const source: (Figures | null)[][] = Array.from({ length: COMPANIES }, (_, c) =>
  Array.from({ length: CODES }, (_, k) => {
    if (random() >= share[k]!) return null;
    const big = dominated[k] && c % 60 === k % 60 ? 60 : 1;
    const sign = returns[k] ? -1 : 1;
    return { volume: sign * big * (Math.floor(random() * 997) + 1), value: sign * big * (Math.floor(random() * 99991) + 100) * 12.5 };
  }),
);
// This period: each code's change, each company's own noise on top; now and then a row more or less.
const change = Array.from({ length: CODES }, () => 0.9 + random() * 0.25);
const figures: (Figures | null)[][] = source.map((row) =>
  row.map((f, k) => {
    if (f === null) return random() < 0.02 ? { volume: 10, value: 1000 } : null;
    if (random() < 0.02) return null;
    const noise = change[k]! * (0.85 + random() * 0.3);
    return { volume: round(f.volume! * noise, 0), value: round(f.value! * noise, 2) };
  }),
);
const groups = Array.from({ length: GROUPS }, () => Array.from({ length: CODES }, (_, k) => k).filter(() => random() < 0.2));
const sections = Array.from({ length: SECTIONS }, (_, s) => Array.from({ length: CODES / SECTIONS }, (_, i) => s * (CODES / SECTIONS) + i));
const late = Array.from({ length: LATE }, (_, i) => i * 7);
const all = Array.from({ length: COMPANIES }, (_, c) => c);
const onTime = all.filter((c) => !late.includes(c));

/**
 * The respondents' change per code and measure: what the companies on time sold now over what
 * they sold then, of the code (1 where they sold nothing of it then, or the signs disagree).
 */
const ratios = Array.from({ length: CODES }, (_, k) => {
  const ratio = (m: keyof Figures) => {
    let now = 0;
    let then = 0;
    for (const c of onTime) {
      const a = figures[c]![k];
      const b = source[c]![k];
      if (!a || !b) continue;
      now += a[m] ?? 0;
      then += b[m] ?? 0;
    }
    const r = then === 0 ? 1 : now / then;
    return r > 0 ? round(r, 6) : 1;
  };
  return { volume: ratio('volume'), value: ratio('value') };
});

const base: World = {
  minContributors: 3,
  dominance: 85,
  protection: 10,
  figures,
  groups,
  sections,
  publications: [onTime, all],
  source: { figures: source, publications: [all], after: null },
  ratios,
};
const settings = settingsOf(base);
const sourceWorld: World = { ...base, figures: source, source: undefined, estimated: [], publications: [all] };
const sourceCells = cellsOf(sourceWorld, all);
const sourceRows = rowsOf(base, source, sourceSet);
const sourcePattern = await decidePattern({ rows: sourceRows, previous: [], counted: all.map(sourceSet), cells: sourceCells, settings });
const sourcePublication = { rowSetIds: all.map(sourceSet), cells: sourceCells.map((c, i) => ({ ...c, hidden: sourcePattern.hidden[i]! })) };
console.log(
  `${COMPANIES} companies × ${CODES} codes, ${groups.length} groups, ${SECTIONS} sections; last period published with ${sourcePattern.hidden.filter(Boolean).length} of ${sourceCells.length} cells hidden`,
);

async function run(estimates: boolean) {
  const world: World = { ...base, estimated: estimates ? late : [] };
  const list: PatternEstimate[] = estimates ? estimatesOf(world, 1) : [];
  const linked = estimates ? [{ rows: sourceRows, publications: [sourcePublication] }] : [];
  const rows = rowsOf(world);
  const published: { rowSetIds: number[]; cells: (ReturnType<typeof cellsOf>[number] & { hidden: boolean })[] }[] = [];
  const out: { hidden: number; cells: number; ms: number; unprotectable: number; total: boolean; sections: number }[] = [];
  for (const counted of world.publications) {
    const cells = cellsOf(world, counted);
    const start = performance.now();
    const pattern = await decidePattern({ rows, estimates: list, previous: published, counted: rowSetsOf(world, counted), cells, settings, linked });
    out.push({
      hidden: pattern.hidden.filter(Boolean).length,
      cells: cells.length,
      ms: performance.now() - start,
      unprotectable: pattern.unprotectable.length,
      total: cells.some((c, i) => c.dimension === 'total' && pattern.hidden[i]),
      sections: cells.filter((c, i) => c.dimension === 'code_section' && pattern.hidden[i]).length,
    });
    published.push({ rowSetIds: rowSetsOf(world, counted), cells: cells.map((c, i) => ({ ...c, hidden: pattern.hidden[i]! })) });
  }
  return out;
}

const without = await run(false);
const withEstimates = await run(true);
console.log(
  `\n| ${LATE} late report${LATE > 1 ? 's' : ''} | first publication (hidden of cells) | after the late report${LATE > 1 ? 's' : ''} | deciding (first, again) |`,
);
console.log('|---|---|---|---|');
for (const [name, r] of [
  ['without estimates', without],
  ['with estimates', withEstimates],
] as const)
  console.log(
    `| ${name} | ${r[0]!.hidden} of ${r[0]!.cells} | ${r[1]!.hidden} of ${r[1]!.cells}${r[1]!.total ? ', the total among them' : ''}, ${r[1]!.sections} of ${SECTIONS} sections${r[1]!.unprotectable ? ` (${r[1]!.unprotectable} unprotectable)` : ''} | ${r[0]!.ms.toFixed(0)} ms, ${r[1]!.ms.toFixed(0)} ms |`,
  );
