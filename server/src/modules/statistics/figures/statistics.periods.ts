import { type SQL, sql } from 'drizzle-orm';
import {
  type Coverage,
  coverageDiffers,
  type LastYearBreak,
  type StatisticsKey,
  type StatisticsPeriod,
  type StatisticsRate,
  type YtdBreak,
} from '@mss/contracts/statistics';
import type { Db, Executor } from '../../../db/client.ts';
import { sqlArray } from '../../../db/sql-array.ts';
import { periodNotFound, validationError } from '../../../errors.ts';
import type { Principal } from '../../../auth/principal.ts';
import { inOrganization } from '../../../auth/policy.ts';
import type { Role } from './statistics.aggregate.ts';
import { countedCompany, type Dimension } from './statistics.cells.ts';
import { isUuid } from '../../../lib/uuid.ts';

/*
 * What every statistics answer shares: periods and their comparisons (docs/architecture.md §8 "Comparisons"),
 * markets, conversion rates (docs/architecture.md §8 "Currency"), coverage, and the keys of a breakdown.
 */

export type PeriodRow = {
  id: number;
  uuid: string;
  title: string;
  starts_on: string;
  ends_on: string;
  published: boolean;
  status: string;
  market_id: number;
};

export type MarketRow = {
  id: number;
  organization_id: number;
  international_name: string;
  local_name: string;
  iso_code: string;
  currency_id: number | null;
  currency: string | null;
};

/**
 * A period is published for viewing when it is marked published and its publication exists.
 * Publishing writes both in one transaction; a period marked published before publications
 * existed has none until the job that publishes such periods once (publishOutstanding) has run,
 * and meanwhile it is not published for viewing. No read publishes.
 */
export const viewable = (p: SQL) => sql`(${p}.published_at is not null and exists (select 1 from statistics_publications vs where vs.period_id = ${p}.id))`;

export const periodColumns = sql`p.id, p.uuid::text as uuid, p.title, p.starts_on::text as starts_on, p.ends_on::text as ends_on,
  ${viewable(sql`p`)} as published, p.status, p.market_id`;

export async function marketRow(db: Executor, marketId: number): Promise<MarketRow | null> {
  return (await marketRows(db, [marketId])).get(marketId) ?? null;
}

/** Several markets in one query. */
export async function marketRows(db: Executor, marketIds: readonly number[]): Promise<Map<number, MarketRow>> {
  const rows = await db.execute<MarketRow>(sql`
    select m.id, m.organization_id, m.international_name, m.local_name, m.iso_code, m.currency_id, c.iso_code as currency
    from markets m left join currencies c on c.id = m.currency_id where m.id = any(${sqlArray(marketIds, 'int')})`);
  return new Map(rows.rows.map((m) => [m.id, m]));
}

export const marketSummary = (m: MarketRow) => ({ id: m.id, international_name: m.international_name, local_name: m.local_name, iso_code: m.iso_code });
export const periodSummary = (p: PeriodRow): StatisticsPeriod => ({
  uuid: p.uuid,
  title: p.title,
  starts_on: p.starts_on,
  ends_on: p.ends_on,
  published: p.published,
});

/** The period (404 when unknown or another organization's; `periodNotFound`: never a uuid as its title) and its market. */
export async function findPeriodIn(db: Db, principal: Principal, uuid: string): Promise<{ period: PeriodRow; market: MarketRow }> {
  const rows = isUuid(uuid) ? await db.execute<PeriodRow>(sql`select ${periodColumns} from periods p where p.uuid = ${uuid}::uuid`) : { rows: [] };
  const period = rows.rows[0];
  const market = period ? await marketRow(db, period.market_id) : null;
  if (!period || !market || !inOrganization(principal, market.organization_id)) throw periodNotFound(uuid);
  return { period, market };
}

/** The periods a comparison adds up, among those the caller may use (viewers: published ones). */
export interface Comparison {
  lastYear: PeriodRow | null;
  /** A period a year earlier exists (`lastYear` is null when the caller may not use it: not published). */
  lastYearExists: boolean;
  ytd: PeriodRow[];
  ytdLastYear: PeriodRow[];
}

export async function comparisonOf(db: Executor, period: PeriodRow, approver: boolean): Promise<Comparison> {
  return (await comparisonsOf(db, [{ period, approver }])).get(period.id)!;
}

/** The comparisons of several periods (a cluster's markets) in one query. */
export async function comparisonsOf(db: Executor, items: readonly { period: PeriodRow; approver: boolean }[]): Promise<Map<number, Comparison>> {
  const out = new Map<number, Comparison>();
  if (items.length === 0) return out;
  const rows = await db.execute<PeriodRow & { of: number; ly_start: string; ly_exists: boolean }>(sql`
    with me as (
      select x.id, x.approver, q.market_id, q.starts_on, (q.starts_on - interval '12 months')::date as ly_start from unnest(${sqlArray(
        items.map((i) => i.period.id),
        'int',
      )}, ${sqlArray(
        items.map((i) => String(i.approver)),
        'text',
      )}::boolean[]) as x(id, approver)
      join periods q on q.id = x.id
    )
    select ${periodColumns}, me.id as of, me.ly_start::text as ly_start,
      exists (select 1 from periods y where y.market_id = me.market_id and y.starts_on = me.ly_start and y.status <> 'draft') as ly_exists
    from me join periods p on p.market_id = me.market_id
      and p.starts_on >= make_date(extract(year from me.starts_on)::int - 1, 1, 1) and p.starts_on <= me.starts_on
      and (me.approver or ${viewable(sql`p`)} or p.id = me.id)
    order by p.starts_on`);
  for (const { period } of items) {
    const mine = rows.rows.filter((r) => r.of === period.id);
    const year = period.starts_on.slice(0, 4);
    const lyStart = mine[0]?.ly_start ?? '';
    const lastYearYear = String(Number(year) - 1);
    out.set(period.id, {
      lastYear: mine.find((p) => p.starts_on === lyStart) ?? null,
      lastYearExists: mine[0]?.ly_exists ?? false,
      ytd: mine.filter((p) => p.starts_on.startsWith(year) && p.starts_on <= period.starts_on),
      ytdLastYear: mine.filter((p) => p.starts_on.startsWith(lastYearYear) && p.starts_on <= lyStart),
    });
  }
  return out;
}

/**
 * Why the change against last year is not like with like (flag `b`), if it is not: no period a
 * year earlier, one the caller may not use, or one counting a different share of its companies.
 */
export function lastYearBreakOf(comparison: Comparison, coverage: Coverage, lastYearCoverage: Coverage | null): LastYearBreak | null {
  if (!comparison.lastYear) return comparison.lastYearExists ? 'unpublished' : 'missing';
  return coverageDiffers(coverage, lastYearCoverage) ? 'coverage' : null;
}

/** Why the year-to-date change is withheld (flag `b`), if it is: the two years to date do not hold the same months. */
export function ytdBreakOf(comparison: Comparison): YtdBreak | null {
  const monthOf = (p: PeriodRow) => p.starts_on.slice(5);
  const lastYear = new Set(comparison.ytdLastYear.map(monthOf));
  const months = comparison.ytd.length;
  const matching = comparison.ytd.filter((p) => lastYear.has(monthOf(p))).length;
  if (matching === months && lastYear.size === months) return null;
  return { months, matching, last_year_months: lastYear.size };
}

export const periodsOf = (period: PeriodRow, c: Comparison) => [period, ...(c.lastYear ? [c.lastYear] : []), ...c.ytd, ...c.ytdLastYear];

/** The comparison's periods by the role they play in a market answer: the period, last year's, and both years to date. */
export function rolesOf(period: PeriodRow, comparison: Comparison): { period: PeriodRow; role: Role }[] {
  return [
    { period, role: 'p' },
    ...(comparison.lastYear ? [{ period: comparison.lastYear, role: 'ly' as const }] : []),
    ...comparison.ytd.map((p) => ({ period: p, role: 'ytd' as const })),
    ...comparison.ytdLastYear.map((p) => ({ period: p, role: 'ytdly' as const })),
  ];
}

/**
 * The rate of each period into `target` (docs/architecture.md §8 "Currency"): the conversion valid at the period's
 * ends_on (latest valid_from on or before it), else the inverse of the reverse pair (1 / rate,
 * rounded to 10 decimals, which is the rate applied). No rate: 422 naming the pair and the date.
 */
export async function ratesOf(
  db: Executor,
  market: MarketRow,
  target: string | undefined,
  periods: readonly PeriodRow[],
): Promise<Map<number, StatisticsRate | null>> {
  return (await ratesOfMarkets(db, [{ market, periods }], target)).get(market.id)!;
}

/**
 * The rates of several markets' periods (a cluster's) in one query; the first market in the list
 * with a period without a rate fails the request, as if they were asked one by one.
 */
export async function ratesOfMarkets(
  db: Executor,
  items: readonly { market: MarketRow; periods: readonly PeriodRow[] }[],
  target: string | undefined,
): Promise<Map<number, Map<number, StatisticsRate | null>>> {
  const out = new Map<number, Map<number, StatisticsRate | null>>();
  const converted = items.filter(({ market }) => target && target !== market.currency);
  for (const { market, periods } of items) out.set(market.id, new Map(periods.map((p) => [p.id, null])));
  if (converted.length === 0) return out;
  const currency = await db.execute<{ id: number }>(sql`select id from currencies where iso_code = ${target!}`);
  const targetId = currency.rows[0]?.id;
  if (targetId === undefined) throw validationError('currency', 'statistics.unknown_currency', { currency: target! });
  // Per market, its periods latest first: a period without a rate names the latest such date.
  const asked = converted.flatMap(({ market, periods }) =>
    [...new Map(periods.map((p) => [p.id, p])).values()].sort((a, b) => (a.ends_on < b.ends_on ? 1 : -1)).map((p) => ({ market, p })),
  );
  if (asked.length === 0) return out;
  const rows = await db.execute<{ n: number; rate: string | null; valid_from: string | null; inverse: boolean }>(sql`
    select x.n, coalesce(d.rate, round(1 / i.rate, 10))::text as rate,
      coalesce(d.valid_from, i.valid_from)::text as valid_from, d.rate is null and i.rate is not null as inverse
    from unnest(${sqlArray(
      asked.map((_, n) => n),
      'int',
    )}, ${sqlArray(
      asked.map((a) => a.p.ends_on),
      'date',
    )}, ${sqlArray(
      asked.map((a) => a.market.currency_id ?? -1),
      'int',
    )}) as x(n, ends_on, from_id)
    left join lateral (select rate, valid_from from currency_conversions
      where from_currency_id = x.from_id and to_currency_id = ${targetId} and valid_from <= x.ends_on
      order by valid_from desc limit 1) d on true
    left join lateral (select rate, valid_from from currency_conversions
      where from_currency_id = ${targetId} and to_currency_id = x.from_id and valid_from <= x.ends_on
      order by valid_from desc limit 1) i on true
    order by x.n`);
  for (const row of rows.rows) {
    const { market, p } = asked[row.n]!;
    if (row.rate === null || row.valid_from === null) {
      throw validationError('currency', 'statistics.no_rate', { from: market.currency ?? market.iso_code, to: target!, date: p.ends_on });
    }
    out.get(market.id)!.set(p.id, { from: market.currency ?? '', to: target!, rate: row.rate, valid_from: row.valid_from, inverse: row.inverse });
  }
  return out;
}

/** Approved of expected: reports of the period of companies not disabled at its end. */
export async function coverageOf(db: Executor, periodIds: readonly number[]): Promise<Map<number, Coverage>> {
  const out = new Map<number, Coverage>(periodIds.map((id) => [id, { approved: 0, expected: 0 }]));
  if (periodIds.length === 0) return out;
  const rows = await db.execute<{ period_id: number; approved: number; expected: number }>(sql`
    select r.period_id, (count(*) filter (where r.status = 60))::int as approved, count(*)::int as expected
    from reports r join periods p on p.id = r.period_id join companies co on co.id = r.company_id
    where r.period_id = any(${sqlArray(periodIds, 'int')}) and ${countedCompany(sql`co`, sql`p`)}
    group by r.period_id`);
  for (const row of rows.rows) out.set(row.period_id, { approved: row.approved, expected: row.expected });
  return out;
}

export interface KeyInfo {
  key: StatisticsKey;
  sort: string;
}

/** Names of the keys of a breakdown, and the order rows are listed in. */
export async function keysOf(db: Executor, dimension: Dimension | 'market', ids: readonly number[]): Promise<Map<number, KeyInfo>> {
  const out = new Map<number, KeyInfo>();
  if (ids.length === 0 || dimension === 'total') return out;
  const list = sqlArray(ids, 'int');
  if (dimension === 'code') {
    const rows = await db.execute<{ id: number; code: string; name: string }>(sql`select id, code, name from codes where id = any(${list})`);
    for (const r of rows.rows) out.set(r.id, { key: { id: r.id, code: r.code, name: r.name }, sort: r.code });
  } else if (dimension === 'code_group') {
    const rows = await db.execute<{ id: number; title: string }>(sql`select id, title from code_groups where id = any(${list})`);
    for (const r of rows.rows) out.set(r.id, { key: { id: r.id, title: r.title }, sort: r.title.toLowerCase() });
  } else if (dimension === 'code_section') {
    const rows = await db.execute<{ id: number; name: string; start: number }>(sql`select id, name, start from code_sections where id = any(${list})`);
    for (const r of rows.rows) out.set(r.id, { key: { id: r.id, name: r.name }, sort: String(r.start).padStart(16, '0') });
  } else if (dimension === 'company') {
    const rows = await db.execute<{ id: number; name: string }>(sql`select id, name from companies where id = any(${list})`);
    for (const r of rows.rows) out.set(r.id, { key: { id: r.id, name: r.name }, sort: r.name.toLowerCase() });
  } else {
    const rows = await db.execute<{ id: number; name: string }>(sql`select id, international_name as name from markets where id = any(${list})`);
    for (const r of rows.rows) out.set(r.id, { key: { id: r.id, name: r.name }, sort: r.name.toLowerCase() });
  }
  return out;
}

/**
 * Whether the keys of a breakdown can hold the same code (groups sharing a code, sections whose
 * ranges meet): then their shares can add up to more than 100 %, and the answer says so.
 */
export async function sharesOverlap(db: Executor, dimension: Dimension | 'market', ids: readonly number[]): Promise<boolean> {
  if (ids.length < 2 || (dimension !== 'code_group' && dimension !== 'code_section')) return false;
  const list = sqlArray(ids, 'int');
  const rows =
    dimension === 'code_group'
      ? await db.execute<{ overlap: boolean }>(sql`
          select exists (select 1 from code_group_codes where code_group_id = any(${list}) group by code_id having count(*) > 1) as overlap`)
      : await db.execute<{ overlap: boolean }>(sql`
          select exists (
            select 1 from code_sections a join code_sections b on a.id < b.id
            where a.id = any(${list}) and b.id = any(${list}) and a.start <= b.start + b.length - 1 and b.start <= a.start + a.length - 1
          ) as overlap`);
  return rows.rows[0]?.overlap ?? false;
}

/** Rows in key order; companies by value, largest first (their rank). */
export function ordered<R extends { key_id: number; rank: number }>(rows: R[], keys: Map<number, KeyInfo>, dimension: string): R[] {
  if (dimension === 'company') return [...rows].sort((a, b) => b.rank - a.rank);
  return [...rows].sort((a, b) => (keys.get(a.key_id)?.sort ?? '').localeCompare(keys.get(b.key_id)?.sort ?? '') || a.key_id - b.key_id);
}
