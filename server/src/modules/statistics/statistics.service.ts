import { sql } from 'drizzle-orm';
import { canInMarket, canSomewhere } from '@mss/contracts/abilities';
import { ORGANIZATION_SETTINGS } from '@mss/contracts/admin';
import type {
  ClusterBreakdown,
  ClusterStatistics,
  CompanyStatistics,
  CompanyStatisticsRow,
  Coverage,
  MarketStatistics,
  StatisticsBreakdown,
  StatisticsKey,
  StatisticsPeriod,
  StatisticsRate,
  TrendPoint,
  TrendStatistics,
} from '@mss/contracts/statistics';
import type { Db, Executor } from '../../db/client.ts';
import { AppError, forbidden, validationError } from '../../errors.ts';
import { normalizeDecimal } from '@mss/contracts/decimal';
import type { Principal } from '../../auth/principal.ts';
import { aggregate, type AggregateRow, type Role, type Selection } from './statistics.aggregate.ts';
import { countedCompany, type Dimension } from './statistics.cells.ts';
import { figuresOf, suppress, type Figures } from './statistics.confidentiality.ts';

/*
 * Statistics (DESIGN §8). Every function starts by deciding what the caller may see (the table
 * "Who sees what"), in the caller's organization (another organization's period, market, cluster
 * or company: 404), then asks the database for the figures (statistics.aggregate.ts) and withholds
 * confidential cells (statistics.confidentiality.ts) before anything leaves the server.
 */

// ---------------------------------------------------------------------------------------------
// Who sees what
// ---------------------------------------------------------------------------------------------

/** How the caller sees one market's statistics. */
interface MarketAccess {
  /** super-admin, admin, market-admin, cluster-admin of the market: every period, everything. */
  approver: boolean;
  /** reporter or company user of a company reporting in the market: own figures and share. */
  member: boolean;
  /** Sees the market's statistics at all. */
  sees: boolean;
}

const COMPANY_ABILITIES = ['upload-reports', 'view-company-reports'];

export function accessIn(principal: Principal, marketId: number, companyId: number | null): MarketAccess {
  const approver = canInMarket(principal.subject, 'approve-reports', marketId);
  const member = !approver && companyId !== null && COMPANY_ABILITIES.some((a) => canInMarket(principal.subject, a, marketId));
  return { approver, member, sees: approver || member || canInMarket(principal.subject, 'view-statistics', marketId) };
}

/** Refuses a market the caller does not see: a company user gets the spec's company message. */
function refuseMarket(principal: Principal, companyId: number | null): never {
  if (companyId !== null && COMPANY_ABILITIES.some((a) => canSomewhere(principal.subject, a))) throw forbidden('period.not_for_company');
  throw forbidden('statistics.no_access');
}

const inOrganization = (principal: Principal, organizationId: number) => principal.organizationId === null || principal.organizationId === organizationId;

interface Settings {
  minContributors: number;
  /** The dominance threshold as the exact decimal it is stored as: compared in SQL, never as a float. */
  dominancePercentage: string;
}

async function settingsOf(db: Executor, organizationId: number): Promise<Settings> {
  const rows = await db.execute<{ key: string; value: string }>(
    sql`select key, value from organization_settings where organization_id = ${organizationId} and key in ('min_contributors', 'dominance_percentage')`,
  );
  const stored = (key: 'min_contributors' | 'dominance_percentage') => normalizeDecimal(rows.rows.find((r) => r.key === key)?.value ?? '');
  const contributors = stored('min_contributors');
  return {
    minContributors: contributors !== null && /^\d+$/.test(contributors) ? Number(contributors) : ORGANIZATION_SETTINGS.min_contributors.default,
    dominancePercentage: stored('dominance_percentage') ?? String(ORGANIZATION_SETTINGS.dominance_percentage.default),
  };
}

const confidentialityOf = (settings: Settings, applied: boolean) => ({
  min_contributors: settings.minContributors,
  // The contract sends settings as numbers, as the settings screen edits them.
  dominance_percentage: Number(settings.dominancePercentage),
  applied,
});

// ---------------------------------------------------------------------------------------------
// Periods, markets, rates
// ---------------------------------------------------------------------------------------------

type PeriodRow = {
  id: number;
  uuid: string;
  title: string;
  starts_on: string;
  ends_on: string;
  published: boolean;
  status: string;
  market_id: number;
};

type MarketRow = {
  id: number;
  organization_id: number;
  international_name: string;
  local_name: string;
  iso_code: string;
  currency_id: number | null;
  currency: string | null;
};

const periodColumns = sql`p.id, p.uuid::text as uuid, p.title, p.starts_on::text as starts_on, p.ends_on::text as ends_on,
  p.published_at is not null as published, p.status, p.market_id`;

async function marketRow(db: Executor, marketId: number): Promise<MarketRow | null> {
  const rows = await db.execute<MarketRow>(sql`
    select m.id, m.organization_id, m.international_name, m.local_name, m.iso_code, m.currency_id, c.iso_code as currency
    from markets m left join currencies c on c.id = m.currency_id where m.id = ${marketId}`);
  return rows.rows[0] ?? null;
}

const marketSummary = (m: MarketRow) => ({ id: m.id, international_name: m.international_name, local_name: m.local_name, iso_code: m.iso_code });
const periodSummary = (p: PeriodRow): StatisticsPeriod => ({
  uuid: p.uuid,
  title: p.title,
  starts_on: p.starts_on,
  ends_on: p.ends_on,
  published: p.published,
});

/** The period (404 "The period (:title) does not exist." when unknown or another organization's) and its market. */
async function findPeriodIn(db: Db, principal: Principal, uuid: string): Promise<{ period: PeriodRow; market: MarketRow }> {
  const rows = /^[0-9a-f-]{36}$/i.test(uuid)
    ? await db.execute<PeriodRow>(sql`select ${periodColumns} from periods p where p.uuid = ${uuid}::uuid`)
    : { rows: [] };
  const period = rows.rows[0];
  const market = period ? await marketRow(db, period.market_id) : null;
  if (!period || !market || !inOrganization(principal, market.organization_id)) throw new AppError('not_found', 'period.not_found', { title: uuid });
  return { period, market };
}

/** The periods a comparison adds up, among those the caller may use (viewers: published ones). */
interface Comparison {
  lastYear: PeriodRow | null;
  ytd: PeriodRow[];
  ytdLastYear: PeriodRow[];
}

async function comparisonOf(db: Executor, period: PeriodRow, approver: boolean): Promise<Comparison> {
  const rows = await db.execute<PeriodRow & { ly_start: string }>(sql`
    with me as (select starts_on, (starts_on - interval '12 months')::date as ly_start from periods where id = ${period.id})
    select ${periodColumns}, me.ly_start::text as ly_start from periods p, me
    where p.market_id = ${period.market_id}
      and p.starts_on >= make_date(extract(year from me.starts_on)::int - 1, 1, 1) and p.starts_on <= me.starts_on
      and (${approver} or p.published_at is not null or p.id = ${period.id})
    order by p.starts_on`);
  const year = period.starts_on.slice(0, 4);
  const lyStart = rows.rows[0]?.ly_start ?? '';
  const lastYearYear = String(Number(year) - 1);
  return {
    lastYear: rows.rows.find((p) => p.starts_on === lyStart) ?? null,
    ytd: rows.rows.filter((p) => p.starts_on.startsWith(year) && p.starts_on <= period.starts_on),
    ytdLastYear: rows.rows.filter((p) => p.starts_on.startsWith(lastYearYear) && p.starts_on <= lyStart),
  };
}

/**
 * The rate of each period into `target` (DESIGN §8 Currency): the conversion valid at the period's
 * ends_on (latest valid_from on or before it), else the inverse of the reverse pair (1 / rate,
 * rounded to 10 decimals, which is the rate applied). No rate: 422 naming the pair and the date.
 */
async function ratesOf(
  db: Executor,
  market: MarketRow,
  target: string | undefined,
  periods: readonly PeriodRow[],
): Promise<Map<number, StatisticsRate | null>> {
  const out = new Map<number, StatisticsRate | null>();
  if (!target || target === market.currency) {
    for (const p of periods) out.set(p.id, null);
    return out;
  }
  const currency = await db.execute<{ id: number }>(sql`select id from currencies where iso_code = ${target}`);
  const targetId = currency.rows[0]?.id;
  if (targetId === undefined) throw validationError('currency', 'statistics.unknown_currency', { currency: target });
  const unique = [...new Map(periods.map((p) => [p.id, p])).values()].sort((a, b) => (a.ends_on < b.ends_on ? 1 : -1));
  if (unique.length === 0) return out;
  const rows = await db.execute<{ id: number; ends_on: string; rate: string | null; valid_from: string | null; inverse: boolean }>(sql`
    select p.id, p.ends_on::text as ends_on, coalesce(d.rate, round(1 / i.rate, 10))::text as rate,
      coalesce(d.valid_from, i.valid_from)::text as valid_from, d.rate is null and i.rate is not null as inverse
    from unnest(${`{${unique.map((p) => p.id).join(',')}}`}::int[], ${`{${unique.map((p) => p.ends_on).join(',')}}`}::date[]) as p(id, ends_on)
    left join lateral (select rate, valid_from from currency_conversions
      where from_currency_id = ${market.currency_id ?? -1} and to_currency_id = ${targetId} and valid_from <= p.ends_on
      order by valid_from desc limit 1) d on true
    left join lateral (select rate, valid_from from currency_conversions
      where from_currency_id = ${targetId} and to_currency_id = ${market.currency_id ?? -1} and valid_from <= p.ends_on
      order by valid_from desc limit 1) i on true
    order by p.ends_on desc`);
  for (const row of rows.rows) {
    if (row.rate === null || row.valid_from === null) {
      throw validationError('currency', 'statistics.no_rate', { from: market.currency ?? market.iso_code, to: target, date: row.ends_on });
    }
    out.set(row.id, { from: market.currency ?? '', to: target, rate: row.rate, valid_from: row.valid_from, inverse: row.inverse });
  }
  return out;
}

/** Approved of expected: reports of the period of companies not disabled at its end. */
async function coverageOf(db: Executor, periodIds: readonly number[]): Promise<Map<number, Coverage>> {
  const out = new Map<number, Coverage>(periodIds.map((id) => [id, { approved: 0, expected: 0 }]));
  if (periodIds.length === 0) return out;
  const rows = await db.execute<{ period_id: number; approved: number; expected: number }>(sql`
    select r.period_id, (count(*) filter (where r.status = 60))::int as approved, count(*)::int as expected
    from reports r join periods p on p.id = r.period_id join companies co on co.id = r.company_id
    where r.period_id = any(${`{${periodIds.join(',')}}`}::int[]) and ${countedCompany(sql`co`, sql`p`)}
    group by r.period_id`);
  for (const row of rows.rows) out.set(row.period_id, { approved: row.approved, expected: row.expected });
  return out;
}

/** The selections of one market's period: the period, last year's, and both years to date. */
function selectionsOf(bucket: number, period: PeriodRow, comparison: Comparison, rates: Map<number, StatisticsRate | null>): Selection[] {
  const rate = (p: PeriodRow) => rates.get(p.id)?.rate ?? null;
  const out: Selection[] = [{ bucket, periodId: period.id, role: 'p', rate: rate(period) }];
  if (comparison.lastYear) out.push({ bucket, periodId: comparison.lastYear.id, role: 'ly', rate: rate(comparison.lastYear) });
  const add = (role: Role, list: PeriodRow[]) => list.forEach((p) => out.push({ bucket, periodId: p.id, role, rate: rate(p) }));
  add('ytd', comparison.ytd);
  add('ytdly', comparison.ytdLastYear);
  return out;
}

const periodsOf = (period: PeriodRow, c: Comparison) => [period, ...(c.lastYear ? [c.lastYear] : []), ...c.ytd, ...c.ytdLastYear];

// ---------------------------------------------------------------------------------------------
// Keys
// ---------------------------------------------------------------------------------------------

interface KeyInfo {
  key: StatisticsKey;
  sort: string;
}

/** Names of the keys of a breakdown, and the order rows are listed in. */
async function keysOf(db: Executor, dimension: Dimension | 'market', ids: readonly number[]): Promise<Map<number, KeyInfo>> {
  const out = new Map<number, KeyInfo>();
  if (ids.length === 0 || dimension === 'total') return out;
  const list = sql`${`{${ids.join(',')}}`}::int[]`;
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

/** Rows in key order; companies by value, largest first (their rank). */
function ordered<R extends { key_id: number; rank: number }>(rows: R[], keys: Map<number, KeyInfo>, dimension: string): R[] {
  if (dimension === 'company') return [...rows].sort((a, b) => b.rank - a.rank);
  return [...rows].sort((a, b) => (keys.get(a.key_id)?.sort ?? '').localeCompare(keys.get(b.key_id)?.sort ?? '') || a.key_id - b.key_id);
}

// ---------------------------------------------------------------------------------------------
// GET /statistics/market
// ---------------------------------------------------------------------------------------------

export async function findMarketStatistics(
  db: Db,
  principal: Principal,
  query: { period_uuid: string; by: StatisticsBreakdown; currency?: string },
): Promise<MarketStatistics> {
  const { period, market } = await findPeriodIn(db, principal, query.period_uuid);
  const companyId = principal.companyId;
  const access = accessIn(principal, market.id, companyId);
  if (!access.sees) refuseMarket(principal, companyId);
  if (!access.approver && !period.published) throw forbidden('period.not_published');
  let ownCompanyId: number | undefined;
  if (access.member) {
    const report = await db.execute(sql`select 1 from reports where period_id = ${period.id} and company_id = ${companyId}`);
    if (report.rows.length === 0) throw forbidden('period.not_for_company');
    ownCompanyId = companyId!;
  }
  if (query.by === 'company' && !access.approver) throw forbidden('statistics.no_access');

  const comparison = await comparisonOf(db, period, access.approver);
  const involved = periodsOf(period, comparison);
  const rates = await ratesOf(db, market, query.currency, involved);
  const live = access.approver ? involved.filter((p) => !p.published).map((p) => p.id) : [];
  const settings = await settingsOf(db, market.organization_id);
  const dimensions: Dimension[] = query.by === 'total' ? ['total'] : [query.by, 'total'];
  const rows = await aggregate(db, {
    selections: selectionsOf(market.id, period, comparison, rates),
    live,
    dimensions,
    settings,
    ownCompanyId,
  });
  const coverage = (await coverageOf(db, [period.id])).get(period.id)!;
  const breakdown = rows.filter((r) => !r.rollup && r.dimension === query.by && query.by !== 'total');
  const totalsRow = rows.find((r) => !r.rollup && r.dimension === 'total') ?? null;
  const keys = await keysOf(
    db,
    query.by,
    breakdown.map((r) => r.key_id),
  );
  const judged = suppress(breakdown, totalsRow);
  const apply = !access.approver;
  const own = access.member;
  const show = (row: AggregateRow | null, confidential: boolean): Figures => figuresOf(row, { confidential, apply, totalsConfidential: judged.totals, own });
  return {
    market: marketSummary(market),
    period: periodSummary(period),
    by: query.by,
    comparison: {
      last_year: comparison.lastYear ? periodSummary(comparison.lastYear) : null,
      ytd_periods: comparison.ytd.length,
      ytd_last_year_periods: comparison.ytdLastYear.length,
    },
    rows: ordered(breakdown, keys, query.by)
      .filter((r) => keys.has(r.key_id))
      .map((r) => ({ key: keys.get(r.key_id)!.key, ...show(r, judged.rows.has(r)) })),
    totals: show(totalsRow, judged.totals),
    coverage,
    currency: query.currency ?? market.currency ?? '',
    rate: rates.get(period.id) ?? null,
    provisional: live.length > 0,
    confidentiality: confidentialityOf(settings, apply),
  };
}

// ---------------------------------------------------------------------------------------------
// GET /statistics/cluster
// ---------------------------------------------------------------------------------------------

export async function findClusterStatistics(
  db: Db,
  principal: Principal,
  query: { cluster_id: number; month: string; by: ClusterBreakdown; currency: string },
): Promise<ClusterStatistics> {
  const clusters = await db.execute<{ id: number; name: string; organization_id: number }>(
    sql`select id, name, organization_id from clusters where id = ${query.cluster_id}`,
  );
  const cluster = clusters.rows[0];
  if (!cluster || !inOrganization(principal, cluster.organization_id)) throw new AppError('not_found', 'generic.not_found');
  if (!canSomewhere(principal.subject, 'view-cluster-statistics')) throw forbidden('statistics.no_access');
  const companyId = principal.companyId;
  const marketIds = (
    await db.execute<{ market_id: number }>(sql`select market_id from cluster_markets where cluster_id = ${cluster.id} order by market_id`)
  ).rows
    .map((r) => r.market_id)
    .filter((id) => accessIn(principal, id, companyId).sees);
  if (marketIds.length === 0) throw forbidden('statistics.no_access');
  const first = `${query.month}-01`;
  const candidates = await db.execute<PeriodRow>(sql`
    select distinct on (p.market_id) ${periodColumns} from periods p
    where p.market_id = any(${`{${marketIds.join(',')}}`}::int[])
      and p.starts_on >= ${first}::date and p.starts_on < (${first}::date + interval '1 month')
    order by p.market_id, p.starts_on`);
  const settings = await settingsOf(db, cluster.organization_id);
  const selections: Selection[] = [];
  const live: number[] = [];
  const columns: ClusterStatistics['markets'] = [];
  let approverEverywhere = true;
  // Each market's period, comparison and rates at once (a PostgreSQL server answers them side by
  // side); the first market in order that fails, fails the request, as if asked one by one.
  const visible = candidates.rows.filter((period) => accessIn(principal, period.market_id, companyId).approver || period.published);
  const prepare = async (period: PeriodRow) => {
    const access = accessIn(principal, period.market_id, companyId);
    const market = (await marketRow(db, period.market_id))!;
    const comparison = await comparisonOf(db, period, access.approver);
    const involved = periodsOf(period, comparison);
    const rates = await ratesOf(db, market, query.currency, involved);
    return { period, access, market, comparison, involved, rates };
  };
  const prepared: Awaited<ReturnType<typeof prepare>>[] = [];
  for (const settled of await Promise.allSettled(visible.map(prepare))) {
    if (settled.status === 'rejected') throw settled.reason;
    prepared.push(settled.value);
  }
  for (const { period, access, market, comparison, involved, rates } of prepared) {
    approverEverywhere &&= access.approver;
    selections.push(...selectionsOf(market.id, period, comparison, rates));
    columns.push({
      market: marketSummary(market),
      period: periodSummary(period),
      currency: market.currency ?? '',
      rate: rates.get(period.id) ?? null,
      coverage: { approved: 0, expected: 0 },
      provisional: access.approver && involved.some((p) => !p.published),
    });
  }
  const coverage = await coverageOf(
    db,
    candidates.rows.filter((p) => columns.some((c) => c.period.uuid === p.uuid)).map((p) => p.id),
  );
  for (const column of columns) column.coverage = coverage.get(candidates.rows.find((p) => p.uuid === column.period.uuid)!.id)!;
  // Approvers of every market see everything; anyone else sees the cluster with confidentiality.
  const apply = !approverEverywhere || columns.length === 0;
  const dimension: Dimension = query.by === 'market' ? 'total' : query.by;
  const rows = await aggregate(db, {
    selections,
    live: [...new Set(live)],
    dimensions: dimension === 'total' ? ['total'] : [dimension, 'total'],
    settings,
    rollup: true,
  });
  const byKey = new Map<string, AggregateRow[]>();
  for (const x of rows) if (!x.rollup) byKey.set(`${x.dimension}/${x.key_id}`, [...(byKey.get(`${x.dimension}/${x.key_id}`) ?? []), x]);
  const cells = (r: AggregateRow) => byKey.get(`${r.dimension}/${r.key_id}`) ?? [];
  const marketOrder = columns.map((c) => c.market.id);
  const perMarket = (r: AggregateRow, confidential: boolean, totalsConfidential: boolean) =>
    marketOrder.map((marketId) => {
      const cell = cells(r).find((x) => x.bucket === marketId) ?? null;
      return {
        market_id: marketId,
        ...figuresOf(cell, { confidential: confidential || (cell?.primary_confidential ?? false), apply, totalsConfidential, own: false }),
      };
    });
  const totalsRow = rows.find((r) => r.rollup && r.dimension === 'total') ?? null;
  let outRows: ClusterStatistics['rows'];
  let totalsConfidential: boolean;
  if (query.by === 'market') {
    // One row per market: the markets' totals side by side, as rows.
    const marketRows = rows.filter((r) => !r.rollup && r.dimension === 'total');
    const judged = suppress(marketRows, totalsRow);
    totalsConfidential = judged.totals;
    const keys = await keysOf(
      db,
      'market',
      marketRows.map((r) => r.bucket!),
    );
    outRows = marketOrder
      .map((id) => marketRows.find((r) => r.bucket === id))
      .filter((r): r is AggregateRow => !!r)
      .map((r) => ({
        key: keys.get(r.bucket!)!.key,
        ...figuresOf(r, { confidential: judged.rows.has(r), apply, totalsConfidential, own: false }),
        markets: [],
      }));
  } else {
    const breakdown = rows.filter((r) => r.rollup && r.dimension === dimension && query.by !== 'total');
    const judged = suppress(breakdown, totalsRow);
    totalsConfidential = judged.totals;
    const keys = await keysOf(
      db,
      dimension,
      breakdown.map((r) => r.key_id),
    );
    outRows = ordered(breakdown, keys, dimension)
      .filter((r) => keys.has(r.key_id))
      .map((r) => {
        const confidential = judged.rows.has(r);
        return {
          key: keys.get(r.key_id)!.key,
          ...figuresOf(r, { confidential, apply, totalsConfidential, own: false }),
          markets: perMarket(r, confidential, totalsConfidential),
        };
      });
  }
  const totalCoverage = columns.reduce((sum, c) => ({ approved: sum.approved + c.coverage.approved, expected: sum.expected + c.coverage.expected }), {
    approved: 0,
    expected: 0,
  });
  return {
    cluster: { id: cluster.id, name: cluster.name },
    month: query.month,
    by: query.by,
    markets: columns,
    rows: outRows,
    totals: {
      ...figuresOf(totalsRow, { confidential: totalsConfidential, apply, totalsConfidential, own: false }),
      markets: totalsRow ? perMarket(totalsRow, totalsConfidential, totalsConfidential) : [],
    },
    coverage: totalCoverage,
    currency: query.currency,
    rate: null,
    provisional: columns.some((c) => c.provisional),
    confidentiality: confidentialityOf(settings, apply),
  };
}

// ---------------------------------------------------------------------------------------------
// GET /statistics/trend
// ---------------------------------------------------------------------------------------------

export async function findTrendStatistics(
  db: Db,
  principal: Principal,
  query: { market_id?: number; cluster_id?: number; periods: number; code_id?: number; code_group_id?: number; code_section_id?: number; currency?: string },
): Promise<TrendStatistics> {
  const companyId = principal.companyId;
  const keyType: TrendStatistics['key_type'] =
    query.code_id !== undefined ? 'code' : query.code_group_id !== undefined ? 'code_group' : query.code_section_id !== undefined ? 'code_section' : 'total';
  const keyId = query.code_id ?? query.code_group_id ?? query.code_section_id ?? 0;

  let organizationId: number;
  let markets: MarketRow[];
  let cluster: { id: number; name: string } | null = null;
  if (query.market_id !== undefined) {
    const market = await marketRow(db, query.market_id);
    if (!market || !inOrganization(principal, market.organization_id)) throw new AppError('not_found', 'generic.not_found');
    if (!accessIn(principal, market.id, companyId).sees) refuseMarket(principal, companyId);
    organizationId = market.organization_id;
    markets = [market];
  } else {
    const rows = await db.execute<{ id: number; name: string; organization_id: number }>(
      sql`select id, name, organization_id from clusters where id = ${query.cluster_id!}`,
    );
    const found = rows.rows[0];
    if (!found || !inOrganization(principal, found.organization_id)) throw new AppError('not_found', 'generic.not_found');
    if (!canSomewhere(principal.subject, 'view-cluster-statistics')) throw forbidden('statistics.no_access');
    cluster = { id: found.id, name: found.name };
    organizationId = found.organization_id;
    const ids = (await db.execute<{ market_id: number }>(sql`select market_id from cluster_markets where cluster_id = ${found.id} order by market_id`)).rows
      .map((r) => r.market_id)
      .filter((id) => accessIn(principal, id, companyId).sees);
    if (ids.length === 0) throw forbidden('statistics.no_access');
    markets = (await Promise.all(ids.map((id) => marketRow(db, id)))).filter((m): m is MarketRow => !!m);
  }
  // The key must be the organization's (another organization's code: 404).
  if (keyType !== 'total') {
    const table = keyType === 'code' ? sql`codes` : keyType === 'code_group' ? sql`code_groups` : sql`code_sections`;
    const found = await db.execute(sql`select 1 from ${table} where id = ${keyId} and organization_id = ${organizationId}`);
    if (found.rows.length === 0) throw new AppError('not_found', 'generic.not_found');
  }
  const settings = await settingsOf(db, organizationId);

  // Points: for a market its latest visible periods; for a cluster the latest months with a visible period.
  interface Point {
    title: string;
    uuid: string | null;
    starts_on: string;
    ends_on: string;
    periods: PeriodRow[];
    lastYear: PeriodRow[];
  }
  const visible: PeriodRow[] = [];
  const all: PeriodRow[] = [];
  const approverOf = new Map<number, boolean>();
  for (const market of markets) {
    const access = accessIn(principal, market.id, companyId);
    approverOf.set(market.id, access.approver);
    const rows = await db.execute<PeriodRow>(
      sql`select ${periodColumns} from periods p where p.market_id = ${market.id} and p.status <> 'draft' order by p.starts_on`,
    );
    all.push(...rows.rows);
    visible.push(...rows.rows.filter((p) => access.approver || p.published));
  }
  const lastYearOf = (p: PeriodRow) => {
    const [y, m, d] = p.starts_on.split('-');
    const target = `${Number(y) - 1}-${m}-${d}`;
    return all.find((x) => x.market_id === p.market_id && x.starts_on === target && visible.includes(x)) ?? null;
  };
  let points: Point[];
  if (cluster) {
    const months = [...new Set(visible.map((p) => p.starts_on.slice(0, 7)))].sort().slice(-query.periods);
    points = months.map((month) => {
      const periods = visible.filter((p) => p.starts_on.startsWith(month));
      return {
        title: month,
        uuid: null,
        starts_on: `${month}-01`,
        ends_on: periods
          .map((p) => p.ends_on)
          .sort()
          .at(-1)!,
        periods,
        lastYear: periods.map(lastYearOf).filter((p): p is PeriodRow => !!p),
      };
    });
  } else {
    points = visible.slice(-query.periods).map((p) => ({
      title: p.title,
      uuid: p.uuid,
      starts_on: p.starts_on,
      ends_on: p.ends_on,
      periods: [p],
      lastYear: [lastYearOf(p)].filter((x): x is PeriodRow => !!x),
    }));
  }
  // A member's own figures, for a market: when the company reports there.
  const ownCompanyId = markets.length === 1 && accessIn(principal, markets[0]!.id, companyId).member ? companyId! : undefined;
  const selections: Selection[] = [];
  const rateOfPoint: (StatisticsRate | null)[] = [];
  for (const [index, point] of points.entries()) {
    let pointRate: StatisticsRate | null = null;
    for (const market of markets) {
      const mine = point.periods.filter((p) => p.market_id === market.id);
      const lastYear = point.lastYear.filter((p) => p.market_id === market.id);
      if (mine.length === 0) continue;
      const rates = await ratesOf(db, market, query.currency, [...mine, ...lastYear]);
      for (const p of mine) selections.push({ bucket: index, periodId: p.id, role: 'p', rate: rates.get(p.id)?.rate ?? null });
      for (const p of lastYear) selections.push({ bucket: index, periodId: p.id, role: 'ly', rate: rates.get(p.id)?.rate ?? null });
      if (markets.length === 1) pointRate = rates.get(mine[0]!.id) ?? null;
    }
    rateOfPoint.push(pointRate);
  }
  const involved = [...new Set(selections.map((s) => s.periodId))];
  const live = involved.filter((id) => {
    const p = all.find((x) => x.id === id)!;
    return approverOf.get(p.market_id) && !p.published;
  });
  const dimension: Dimension = keyType;
  const rows = await aggregate(db, {
    selections,
    live,
    dimensions: [dimension],
    key: keyType === 'total' ? undefined : { dimension, id: keyId },
    settings,
    ownCompanyId,
  });
  const coverage = await coverageOf(
    db,
    points.flatMap((p) => p.periods.map((x) => x.id)),
  );
  const apply = markets.some((m) => !approverOf.get(m.id));
  const keys = await keysOf(db, dimension, keyType === 'total' ? [] : [keyId]);
  const out: TrendPoint[] = points.map((point, index) => {
    const row = rows.find((r) => !r.rollup && r.bucket === index && r.key_id === keyId) ?? null;
    const confidential = row?.primary_confidential ?? false;
    const figures = figuresOf(row, { confidential, apply, totalsConfidential: false, own: ownCompanyId !== undefined });
    const cover = point.periods.reduce(
      (sum, p) => ({ approved: sum.approved + coverage.get(p.id)!.approved, expected: sum.expected + coverage.get(p.id)!.expected }),
      {
        approved: 0,
        expected: 0,
      },
    );
    return {
      period: { uuid: point.uuid, title: point.title, starts_on: point.starts_on, ends_on: point.ends_on, published: point.periods.every((p) => p.published) },
      volume: figures.volume,
      value: figures.value,
      volume_last_year: figures.volume_last_year,
      value_last_year: figures.value_last_year,
      volume_change_pct: figures.volume_change_pct,
      value_change_pct: figures.value_change_pct,
      contributors: figures.contributors,
      confidential,
      coverage: cover,
      rate: rateOfPoint[index] ?? null,
      provisional: point.periods.some((p) => live.includes(p.id)),
      ...(ownCompanyId !== undefined
        ? {
            own_volume: figures.own_volume,
            own_value: figures.own_value,
            own_volume_share_pct: figures.own_volume_share_pct,
            own_value_share_pct: figures.own_value_share_pct,
          }
        : {}),
    };
  });
  return {
    market: cluster ? null : marketSummary(markets[0]!),
    cluster,
    key: keys.get(keyId)?.key ?? null,
    key_type: keyType,
    points: out,
    currency: query.currency ?? (markets.length === 1 ? (markets[0]!.currency ?? '') : ''),
    confidentiality: confidentialityOf(settings, apply),
  };
}

// ---------------------------------------------------------------------------------------------
// GET /statistics/company
// ---------------------------------------------------------------------------------------------

export async function findCompanyStatistics(
  db: Db,
  principal: Principal,
  query: { company_id: number; period_uuid: string; currency?: string },
): Promise<CompanyStatistics> {
  const { period, market } = await findPeriodIn(db, principal, query.period_uuid);
  const companies = await db.execute<{ id: number; name: string }>(sql`
    select c.id, c.name from companies c
    where c.id = ${query.company_id}
      and exists (select 1 from company_organizations co where co.company_id = c.id and co.organization_id = ${market.organization_id})`);
  const company = companies.rows[0];
  if (!company) throw new AppError('not_found', 'generic.not_found');
  const ownCompany = principal.companyId;
  const access = accessIn(principal, market.id, ownCompany);
  if (!access.approver) {
    if (!access.member || ownCompany !== company.id) {
      if (access.sees || ownCompany === null) throw forbidden('statistics.no_access');
      refuseMarket(principal, ownCompany);
    }
    if (!period.published) throw forbidden('period.not_published');
  }
  const reports = await db.execute<{ id: number; uuid: string; status: number }>(
    sql`select id, uuid::text as uuid, status from reports where period_id = ${period.id} and company_id = ${company.id}`,
  );
  const report = reports.rows[0] ?? null;
  if (!report && !access.approver) throw forbidden('period.not_for_company');

  const comparison = await comparisonOf(db, period, access.approver);
  const involved = periodsOf(period, comparison);
  const rates = await ratesOf(db, market, query.currency, involved);
  const live = access.approver ? involved.filter((p) => !p.published).map((p) => p.id) : [];
  const settings = await settingsOf(db, market.organization_id);
  const marketRows = await aggregate(db, { selections: selectionsOf(market.id, period, comparison, rates), live, dimensions: ['code', 'total'], settings });
  // The company's own figures: its report's rows in the period and last year (whatever their status: its own).
  const ownPeriods = [period, ...(comparison.lastYear ? [comparison.lastYear] : [])];
  const own = await db.execute<{ dimension: string; key_id: number; role: Role; volume: string | null; value: string | null }>(sql`
    with sel (period_id, role, rate) as (
      select * from unnest(${`{${ownPeriods.map((p) => p.id).join(',')}}`}::int[], ${`{${ownPeriods.map((p) => (p.id === period.id ? 'p' : 'ly')).join(',')}}`}::text[],
        ${`{${ownPeriods.map((p) => rates.get(p.id)?.rate ?? 'NULL').join(',')}}`}::numeric[])
    ), rw as (
      select s.role, s.rate, rr.code_id, rr.volume, rr.value from sel s
      join reports r on r.period_id = s.period_id and r.company_id = ${company.id}
      join report_rows rr on rr.row_set_id = r.row_set_id
      where rr.volume is not null or rr.value is not null
    )
    select 'code' as dimension, code_id as key_id, role, volume::text as volume, round(value * coalesce(rate, 1), 4)::text as value from rw
    union all
    select 'total', 0, role, sum(volume)::text, round(sum(value * coalesce(rate, 1)), 4)::text from rw group by role`);
  const ownOf = (dimension: string, keyId: number, role: Role) => own.rows.find((r) => r.dimension === dimension && r.key_id === keyId && r.role === role);
  const codeRows = marketRows.filter((r) => !r.rollup && r.dimension === 'code');
  const totalsRow = marketRows.find((r) => !r.rollup && r.dimension === 'total') ?? null;
  const keyIds = [...new Set([...codeRows.map((r) => r.key_id), ...own.rows.filter((r) => r.dimension === 'code').map((r) => r.key_id)])];
  const keys = await keysOf(db, 'code', keyIds);
  const judged = suppress(codeRows, totalsRow);
  const apply = !access.approver;
  const percent = await percentages(db, keyIds.map((id) => [id, codeRows.find((r) => r.key_id === id) ?? null] as const).concat([[0, totalsRow]]), (id) => ({
    p: ownOf(id === 0 ? 'total' : 'code', id, 'p'),
    ly: ownOf(id === 0 ? 'total' : 'code', id, 'ly'),
  }));
  const rowOf = (keyId: number, market: AggregateRow | null, confidential: boolean): Omit<CompanyStatisticsRow, 'key'> => {
    const hide = apply && confidential;
    const pct = percent.get(keyId)!;
    const dimension = keyId === 0 ? 'total' : 'code';
    return {
      own_volume: ownOf(dimension, keyId, 'p')?.volume ?? null,
      own_value: ownOf(dimension, keyId, 'p')?.value ?? null,
      own_volume_last_year: ownOf(dimension, keyId, 'ly')?.volume ?? null,
      own_value_last_year: ownOf(dimension, keyId, 'ly')?.value ?? null,
      own_volume_change_pct: pct.own_volume_change_pct,
      own_value_change_pct: pct.own_value_change_pct,
      volume: hide ? null : (market?.volume ?? null),
      value: hide ? null : (market?.value ?? null),
      volume_last_year: hide ? null : (market?.volume_last_year ?? null),
      value_last_year: hide ? null : (market?.value_last_year ?? null),
      volume_change_pct: hide ? null : (market?.volume_change_pct ?? null),
      value_change_pct: hide ? null : (market?.value_change_pct ?? null),
      own_volume_share_pct: hide ? null : pct.own_volume_share_pct,
      own_value_share_pct: hide ? null : pct.own_value_share_pct,
      contributors: hide ? null : (market?.contributors ?? null),
      confidential,
    };
  };
  const rows = keyIds
    .filter((id) => keys.has(id))
    .sort((a, b) => keys.get(a)!.sort.localeCompare(keys.get(b)!.sort) || a - b)
    .map((id) => {
      const market = codeRows.find((r) => r.key_id === id) ?? null;
      return { key: keys.get(id)!.key as CompanyStatisticsRow['key'], ...rowOf(id, market, market ? judged.rows.has(market) : false) };
    });
  const history = await shareHistory(db, market, period, company.id, access.approver, query.currency, settings);
  return {
    company,
    market: marketSummary(market),
    period: periodSummary(period),
    report: report ? { uuid: report.uuid, status: report.status } : null,
    comparison: {
      last_year: comparison.lastYear ? periodSummary(comparison.lastYear) : null,
      ytd_periods: comparison.ytd.length,
      ytd_last_year_periods: comparison.ytdLastYear.length,
    },
    rows,
    totals: rowOf(0, totalsRow, judged.totals),
    history: history.map((h) => ({ ...h, ...(apply && h.confidential ? { own_volume_share_pct: null, own_value_share_pct: null } : {}) })),
    coverage: (await coverageOf(db, [period.id])).get(period.id)!,
    currency: query.currency ?? market.currency ?? '',
    rate: rates.get(period.id) ?? null,
    provisional: live.length > 0,
    confidentiality: confidentialityOf(settings, apply),
  };
}

/** Own change against last year, and own share of the market cell, computed by the database. */
async function percentages(
  db: Executor,
  cells: readonly (readonly [number, AggregateRow | null])[],
  ownOf: (id: number) => { p?: { volume: string | null; value: string | null }; ly?: { volume: string | null; value: string | null } },
) {
  const out = new Map<
    number,
    { own_volume_change_pct: string | null; own_value_change_pct: string | null; own_volume_share_pct: string | null; own_value_share_pct: string | null }
  >();
  if (cells.length === 0) return out;
  const arr = (values: (string | null | undefined)[]) => `{${values.map((v) => v ?? 'NULL').join(',')}}`;
  const ids = cells.map(([id]) => id);
  const own = ids.map(ownOf);
  const rows = await db.execute<{ id: number; a: string | null; b: string | null; c: string | null; d: string | null }>(sql`
    select id,
      case when ov is null or olv is null or olv = 0 then null else round((ov - olv) * 100 / abs(olv), 1)::text end as a,
      case when oval is null or olval is null or olval = 0 then null else round((oval - olval) * 100 / abs(olval), 1)::text end as b,
      case when ov is null or mv is null or mv = 0 then null else round(ov * 100 / mv, 1)::text end as c,
      case when oval is null or mval is null or mval = 0 then null else round(oval * 100 / mval, 1)::text end as d
    from unnest(${`{${ids.join(',')}}`}::int[], ${arr(own.map((o) => o.p?.volume))}::numeric[], ${arr(own.map((o) => o.ly?.volume))}::numeric[],
      ${arr(own.map((o) => o.p?.value))}::numeric[], ${arr(own.map((o) => o.ly?.value))}::numeric[],
      ${arr(cells.map(([, m]) => m?.volume))}::numeric[], ${arr(cells.map(([, m]) => m?.value))}::numeric[]) as x(id, ov, olv, oval, olval, mv, mval)`);
  for (const r of rows.rows) out.set(r.id, { own_volume_change_pct: r.a, own_value_change_pct: r.b, own_volume_share_pct: r.c, own_value_share_pct: r.d });
  return out;
}

/** The company's share of the market total in each period it may see, up to this one (24 at most), from the stored cells. */
async function shareHistory(
  db: Db,
  market: MarketRow,
  period: PeriodRow,
  companyId: number,
  approver: boolean,
  currency: string | undefined,
  settings: Settings,
) {
  const periods = (
    await db.execute<PeriodRow>(sql`
      select ${periodColumns} from periods p
      where p.market_id = ${market.id} and p.starts_on <= ${period.starts_on}::date and p.status <> 'draft' and (${approver} or p.published_at is not null)
      order by p.starts_on desc limit 24`)
  ).rows.reverse();
  if (periods.length === 0) return [];
  const rates = await ratesOf(db, market, currency, periods);
  const selections: Selection[] = periods.map((p, index) => ({ bucket: index, periodId: p.id, role: 'p', rate: rates.get(p.id)?.rate ?? null }));
  const rows = await aggregate(db, { selections, live: [], dimensions: ['total'], settings, ownCompanyId: companyId });
  return periods.map((p, index) => {
    const row = rows.find((r) => !r.rollup && r.bucket === index) ?? null;
    return {
      period: periodSummary(p),
      own_volume: row?.own_volume ?? null,
      own_value: row?.own_value ?? null,
      own_volume_share_pct: row?.own_volume_share_pct ?? null,
      own_value_share_pct: row?.own_value_share_pct ?? null,
      confidential: row?.primary_confidential ?? false,
    };
  });
}
