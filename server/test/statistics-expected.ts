import { sql } from 'drizzle-orm';
import type { Db } from '../src/db/client.ts';

/*
 * An independent recomputation of the statistics (tests only): the stored rows read with plain
 * SQL (no aggregate, no cell table), and every sum, conversion, change and share done here in
 * exact integer arithmetic (BigInt), following docs/architecture.md §8 as written. The endpoints must answer
 * the same strings, character for character.
 */

export interface Fact {
  company: number;
  period: string;
  endsOn: string;
  published: boolean;
  status: number;
  disabledAt: string | null;
  code: string;
  codeId: number;
  volume: bigint | null;
  value: bigint | null;
}

/** "12.3400" → 123400n (units of 10^-scale). */
export function units(text: string | null, scale = 4): bigint | null {
  if (text === null) return null;
  const negative = text.startsWith('-');
  const [i = '0', f = ''] = (negative ? text.slice(1) : text).split('.');
  const u = BigInt(i + f.padEnd(scale, '0').slice(0, scale));
  return negative ? -u : u;
}

export function format(u: bigint, scale: number): string {
  const negative = u < 0n;
  const s = (negative ? -u : u).toString().padStart(scale + 1, '0');
  const body = scale ? `${s.slice(0, -scale)}.${s.slice(-scale)}` : s;
  return negative && u !== 0n ? `-${body}` : body;
}

/** num / den rounded half away from zero to an integer. */
export function divRound(num: bigint, den: bigint): bigint {
  if (den < 0n) return divRound(-num, -den);
  const q = num / den;
  const r = num - q * den;
  if (2n * (r < 0n ? -r : r) >= den) return q + (num < 0n ? -1n : 1n);
  return q;
}

export async function loadFacts(db: Db, marketId: number): Promise<Fact[]> {
  const rows = await db.execute<{
    company: number;
    period: string;
    ends_on: string;
    published: boolean;
    status: number;
    disabled_at: string | null;
    code: string;
    code_id: number;
    volume: string | null;
    value: string | null;
  }>(sql`
    select r.company_id as company, p.title as period, p.ends_on::text as ends_on, p.published_at is not null as published, r.status,
      to_char(co.disabled_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS') as disabled_at, c.code, c.id as code_id, rr.volume::text as volume, rr.value::text as value
    from report_rows rr
    join reports r on r.row_set_id = rr.row_set_id
    join periods p on p.id = r.period_id
    join companies co on co.id = r.company_id
    join codes c on c.id = rr.code_id
    where p.market_id = ${marketId}`);
  return rows.rows.map((r) => ({
    company: r.company,
    period: r.period,
    endsOn: r.ends_on,
    published: r.published,
    status: r.status,
    disabledAt: r.disabled_at,
    code: r.code,
    codeId: r.code_id,
    volume: units(r.volume),
    value: units(r.value),
  }));
}

export interface Rules {
  /** Keys of a fact's code in the breakdown. */
  keysOf: (fact: Fact) => number[];
  /** Value multiplier per period title, in units of 10^-10 (null: no conversion). */
  rate: (period: string) => bigint | null;
  /** Periods where every report holding rows counts (an approver's provisional view). */
  live: Set<string>;
  minContributors: number;
  dominance: number;
}

const dayAfter = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86400000).toISOString().slice(0, 19);

export function counted(f: Fact, live: Set<string>): boolean {
  if (!(f.status === 60 || live.has(f.period))) return false;
  if (f.disabledAt !== null && f.disabledAt < dayAfter(f.endsOn)) return false;
  return f.volume !== null || f.value !== null;
}

export interface Cell {
  volume: bigint | null;
  /** Unconverted, scale 4. */
  value: bigint | null;
  contributors: number;
  /** Companies whose volume (value) in the cell is neither empty nor 0. */
  volumeContributors: number;
  valueContributors: number;
  maxVolume: bigint | null;
  maxValue: bigint | null;
}

const add = (a: bigint | null, b: bigint | null) => (a === null ? b : b === null ? a : a + b);
const max = (a: bigint | null, b: bigint | null) => (a === null ? b : b === null ? a : a > b ? a : b);

/** Cells of one period: key → cell. */
export function cellsOf(facts: readonly Fact[], period: string, rules: Rules): Map<number, Cell> {
  const perCompany = new Map<string, { key: number; volume: bigint | null; value: bigint | null }>();
  for (const f of facts) {
    if (f.period !== period || !counted(f, rules.live)) continue;
    for (const key of rules.keysOf(f)) {
      const id = `${key}/${f.company}`;
      const c = perCompany.get(id) ?? { key, volume: null, value: null };
      c.volume = add(c.volume, f.volume);
      c.value = add(c.value, f.value);
      perCompany.set(id, c);
    }
  }
  const out = new Map<number, Cell>();
  for (const c of perCompany.values()) {
    const cell = out.get(c.key) ?? { volume: null, value: null, contributors: 0, volumeContributors: 0, valueContributors: 0, maxVolume: null, maxValue: null };
    cell.volume = add(cell.volume, c.volume);
    cell.value = add(cell.value, c.value);
    cell.contributors += 1;
    if (c.volume !== null && c.volume !== 0n) cell.volumeContributors += 1;
    if (c.value !== null && c.value !== 0n) cell.valueContributors += 1;
    cell.maxVolume = max(cell.maxVolume, c.volume);
    cell.maxValue = max(cell.maxValue, c.value);
    out.set(c.key, cell);
  }
  return out;
}

export function fails(cell: Cell, rules: Rules): boolean {
  const d = BigInt(Math.round(rules.dominance * 1000));
  const dominant = (m: bigint | null, total: bigint | null) => total !== null && m !== null && total > 0n && m * 100000n > d * total;
  return cell.contributors < rules.minContributors || dominant(cell.maxVolume, cell.volume) || dominant(cell.maxValue, cell.value);
}

/** Fewer companies than the minimum have a volume, or a value, other than 0 in the cell. */
export function tooFew(cell: Cell, rules: Rules): boolean {
  const few = (n: number) => n > 0 && n < rules.minContributors;
  return few(cell.volumeContributors) || few(cell.valueContributors);
}

/** Sums over periods: volume at scale 4, value at scale 14 (converted, or ×10^10). */
export function sumOf(cellsByPeriod: Map<string, Map<number, Cell>>, periods: readonly string[], key: number, rules: Rules) {
  let volume: bigint | null = null;
  let value: bigint | null = null;
  for (const p of periods) {
    const cell = cellsByPeriod.get(p)?.get(key);
    if (!cell) continue;
    volume = add(volume, cell.volume);
    const rate = rules.rate(p) ?? 10000000000n;
    value = add(value, cell.value === null ? null : cell.value * rate);
  }
  return { volume, value };
}

export const showVolume = (u: bigint | null) => (u === null ? null : format(u, 4));
export const showValue = (u14: bigint | null) => (u14 === null ? null : format(divRound(u14, 10000000000n), 4));
/** (a - b) / |b| in percent, one decimal, half away from zero. */
export function changePct(a: bigint | null, b: bigint | null): string | null {
  if (a === null || b === null || b === 0n) return null;
  return format(divRound((a - b) * 1000n, b < 0n ? -b : b), 1);
}
export function sharePct(a: bigint | null, total: bigint | null): string | null {
  if (a === null || total === null || total === 0n) return null;
  return format(divRound(a * 1000n, total), 1);
}
