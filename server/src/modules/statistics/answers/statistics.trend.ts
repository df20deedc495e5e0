import { sql } from 'drizzle-orm';
import { type Coverage, coverageDiffers, type StatisticsRate, type TrendBreak, type TrendPoint, type TrendStatistics } from '@mss/contracts/statistics';
import type { Db } from '../../../db/client.ts';
import { sqlArray } from '../../../db/sql-array.ts';
import { AppError, forbidden } from '../../../errors.ts';
import type { Principal } from '../../../auth/principal.ts';
import { accessIn, confidentialityOf, refuseMarket, settingsOf } from '../disclosure/statistics.access.ts';
import { aggregate, type AggregateRow, type Selection } from '../figures/statistics.aggregate.ts';
import { countedCompany, type Dimension } from '../figures/statistics.cells.ts';
import { coverageSeen, figuresOf, flagContextOf, liveOf, selectionOf, type Source, sourcesOf } from '../disclosure/statistics.confidentiality.ts';
import { keysOf, type MarketRow, marketRow, marketRows, marketSummary, type PeriodRow, periodColumns, ratesOfMarkets } from '../figures/statistics.periods.ts';
import { authorize, inOrganization, maySomewhere } from '../../../auth/policy.ts';

/** One point of a trend: a market's period, or for a cluster a month with its markets' periods. */
interface Point {
  title: string;
  uuid: string | null;
  starts_on: string;
  ends_on: string;
  periods: PeriodRow[];
  lastYear: PeriodRow[];
}

type TrendQuery = {
  market_id?: number;
  cluster_id?: number;
  periods: number;
  code_id?: number;
  code_group_id?: number;
  code_section_id?: number;
  currency?: string;
};

/**
 * GET /statistics/trend: a market's (or cluster's) latest periods for the total or one code, group
 * or section, each against the same period a year earlier. A point is each period's cell as the
 * market answer shows it (statistics.confidentiality.ts): confidential when the cell or last
 * year's is hidden, so a trend never tells more than the periods' tables do.
 */
export async function findTrendStatistics(db: Db, principal: Principal, query: TrendQuery): Promise<TrendStatistics> {
  const companyId = principal.companyId;
  const keyType: TrendStatistics['key_type'] =
    query.code_id !== undefined ? 'code' : query.code_group_id !== undefined ? 'code_group' : query.code_section_id !== undefined ? 'code_section' : 'total';
  const keyId = query.code_id ?? query.code_group_id ?? query.code_section_id ?? 0;

  const { organizationId, markets, cluster } = await scopeOf(db, principal, query);
  // The key must be the organization's (another organization's code: 404).
  if (keyType !== 'total') {
    const table = keyType === 'code' ? sql`codes` : keyType === 'code_group' ? sql`code_groups` : sql`code_sections`;
    const found = await db.execute(sql`select 1 from ${table} where id = ${keyId} and organization_id = ${organizationId}`);
    if (found.rows.length === 0) throw new AppError('not_found', 'generic.not_found');
  }
  const settings = await settingsOf(db, organizationId);

  const approverOf = new Map(markets.map((m) => [m.id, accessIn(principal, m.id, companyId).approver]));
  const points = await pointsOf(db, markets, approverOf, cluster !== null, query.periods);
  const sources = await sourcesOf(
    db,
    points.flatMap((p) => [...p.periods, ...p.lastYear]),
    (p) => approverOf.get(p.market_id) ?? false,
  );
  // A member's own figures, for a market: when the company reports there.
  const ownCompanyId = markets.length === 1 && accessIn(principal, markets[0]!.id, companyId).member ? companyId! : undefined;
  const { selections, rateOfPoint } = await selectionsOf(db, markets, points, sources, query.currency);
  const dimension: Dimension = keyType;
  const rows = await aggregate(db, {
    selections,
    live: liveOf(sources),
    dimensions: [dimension],
    key: keyType === 'total' ? undefined : { dimension, id: keyId },
    settings,
    ownCompanyId,
  });
  const coverage = await coverageSeen(db, new Map(points.flatMap((p) => [...p.periods, ...p.lastYear].map((x) => [x.id, sources.get(x.id)!] as const))));
  const apply = markets.some((m) => !approverOf.get(m.id));
  const keys = await keysOf(db, dimension, keyType === 'total' ? [] : [keyId]);
  const breaks = await breaksOf(db, points, sources, keyType === 'total' ? null : { dimension: keyType, id: keyId });
  const out: TrendPoint[] = points.map((point, index) =>
    trendPoint(point, {
      row: rows.find((r) => !r.rollup && r.bucket === index && r.key_id === keyId) ?? null,
      coverage,
      sources,
      cluster: cluster !== null,
      apply,
      own: ownCompanyId !== undefined,
      breaks: breaks[index]!,
      rate: rateOfPoint[index] ?? null,
    }),
  );
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

/** The market asked for, or the cluster and those of its markets the caller sees, and their organization (404, 403 as for their answers). */
async function scopeOf(
  db: Db,
  principal: Principal,
  query: TrendQuery,
): Promise<{ organizationId: number; markets: MarketRow[]; cluster: { id: number; name: string } | null }> {
  const companyId = principal.companyId;
  if (query.market_id !== undefined) {
    const market = await marketRow(db, query.market_id);
    if (!market || !inOrganization(principal, market.organization_id)) throw new AppError('not_found', 'generic.not_found');
    if (!accessIn(principal, market.id, companyId).sees) refuseMarket(principal, companyId);
    return { organizationId: market.organization_id, markets: [market], cluster: null };
  }
  const rows = await db.execute<{ id: number; name: string; organization_id: number }>(
    sql`select id, name, organization_id from clusters where id = ${query.cluster_id!}`,
  );
  const found = rows.rows[0];
  if (!found || !inOrganization(principal, found.organization_id)) throw new AppError('not_found', 'generic.not_found');
  authorize(maySomewhere(principal, 'view-cluster-statistics'), 'statistics.no_access');
  const cluster = { id: found.id, name: found.name };
  const organizationId = found.organization_id;
  const ids = (await db.execute<{ market_id: number }>(sql`select market_id from cluster_markets where cluster_id = ${found.id} order by market_id`)).rows
    .map((r) => r.market_id)
    .filter((id) => accessIn(principal, id, companyId).sees);
  if (ids.length === 0) throw forbidden('statistics.no_access');
  const byId = await marketRows(db, ids);
  const markets = ids.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
  return { organizationId, markets, cluster };
}

/** The trend's points (the latest `count`), each with its periods and their year-earlier ones. */
async function pointsOf(db: Db, markets: readonly MarketRow[], approverOf: Map<number, boolean>, isCluster: boolean, count: number): Promise<Point[]> {
  // Points: for a market its latest visible periods; for a cluster the latest months with a visible period.
  const visible: PeriodRow[] = [];
  const all: PeriodRow[] = [];
  for (const market of markets) {
    const rows = await db.execute<PeriodRow>(
      sql`select ${periodColumns} from periods p where p.market_id = ${market.id} and p.status <> 'draft' order by p.starts_on`,
    );
    all.push(...rows.rows);
    visible.push(...rows.rows.filter((p) => approverOf.get(market.id) || p.published));
  }
  const lastYearOf = (p: PeriodRow) => {
    const [y, m, d] = p.starts_on.split('-');
    const target = `${Number(y) - 1}-${m}-${d}`;
    return all.find((x) => x.market_id === p.market_id && x.starts_on === target && visible.includes(x)) ?? null;
  };
  if (isCluster) {
    const months = [...new Set(visible.map((p) => p.starts_on.slice(0, 7)))].sort().slice(-count);
    return months.map((month) => {
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
  }
  return visible.slice(-count).map((p) => ({
    title: p.title,
    uuid: p.uuid,
    starts_on: p.starts_on,
    ends_on: p.ends_on,
    periods: [p],
    lastYear: [lastYearOf(p)].filter((x): x is PeriodRow => !!x),
  }));
}

/** The selections of every point's periods (the point is their bucket), and each point's rate (for a market). */
async function selectionsOf(
  db: Db,
  markets: readonly MarketRow[],
  points: readonly Point[],
  sources: Map<number, Source>,
  currency: string | undefined,
): Promise<{ selections: Selection[]; rateOfPoint: (StatisticsRate | null)[] }> {
  const selections: Selection[] = [];
  const rateOfPoint: (StatisticsRate | null)[] = [];
  // Every rate in one query; a market's periods latest first, so a missing rate names the latest date.
  const ratesByMarket = await ratesOfMarkets(
    db,
    markets.map((market) => ({
      market,
      periods: points.flatMap((point) => [...point.periods, ...point.lastYear]).filter((p) => p.market_id === market.id),
    })),
    currency,
  );
  for (const [index, point] of points.entries()) {
    let pointRate: StatisticsRate | null = null;
    for (const market of markets) {
      const mine = point.periods.filter((p) => p.market_id === market.id);
      const lastYear = point.lastYear.filter((p) => p.market_id === market.id);
      if (mine.length === 0) continue;
      const rates = ratesByMarket.get(market.id)!;
      for (const p of mine) selections.push(selectionOf(index, p, 'p', rates.get(p.id), sources.get(p.id)!));
      for (const p of lastYear) selections.push(selectionOf(index, p, 'ly', rates.get(p.id), sources.get(p.id)!));
      if (markets.length === 1) pointRate = rates.get(mine[0]!.id) ?? null;
    }
    rateOfPoint.push(pointRate);
  }
  return { selections, rateOfPoint };
}

/** One point of the answer: its figures (`row`), flags, breaks, coverage and rate. */
function trendPoint(
  point: Point,
  context: {
    row: AggregateRow | null;
    coverage: Map<number, Coverage>;
    sources: Map<number, Source>;
    cluster: boolean;
    apply: boolean;
    own: boolean;
    breaks: TrendBreak[];
    rate: StatisticsRate | null;
  },
): TrendPoint {
  const { row, coverage, sources, apply, own } = context;
  const coverageOfAll = (periods: PeriodRow[]) =>
    periods.reduce((sum, p) => ({ approved: sum.approved + coverage.get(p.id)!.approved, expected: sum.expected + coverage.get(p.id)!.expected }), {
      approved: 0,
      expected: 0,
    });
  const cover = coverageOfAll(point.periods);
  const lastYearCover = point.lastYear.length ? coverageOfAll(point.lastYear) : null;
  // Like with like: every period of the point has its year-earlier one, over the same coverage.
  const withLastYear = new Set(point.lastYear.map((p) => p.market_id));
  // A cluster's month a year earlier that holds fewer markets is no base: withheld, flagged b.
  const fewerMarkets = context.cluster && point.lastYear.length > 0 && point.periods.some((p) => !withLastYear.has(p.market_id));
  const flags = flagContextOf(
    sources,
    [...point.periods.map((p) => ({ period: p, role: 'p' as const })), ...point.lastYear.map((p) => ({ period: p, role: 'ly' as const }))],
    {
      changeBreak: point.periods.some((p) => !withLastYear.has(p.market_id)) || coverageDiffers(cover, lastYearCover),
      lastYearWithheld: fewerMarkets,
      periodBreak: context.breaks.length > 0,
      ytdBreak: false,
      reasons: !apply,
    },
  );
  const figures = figuresOf(row, { apply, totalsConfidential: false, own, flags });
  return {
    period: { uuid: point.uuid, title: point.title, starts_on: point.starts_on, ends_on: point.ends_on, published: point.periods.every((p) => p.published) },
    volume: figures.volume,
    value: figures.value,
    volume_last_year: figures.volume_last_year,
    value_last_year: figures.value_last_year,
    volume_change_pct: figures.volume_change_pct,
    value_change_pct: figures.value_change_pct,
    contributors: figures.contributors,
    confidential: figures.confidential,
    estimated: figures.estimated,
    estimated_last_year: figures.estimated_last_year,
    flags: { period: figures.flags.period, last_year: figures.flags.last_year, change: figures.flags.change },
    hidden_reason: figures.hidden_reason,
    breaks: context.breaks,
    coverage: cover,
    // No coverage to compare with where last year's figures are withheld.
    last_year_coverage: fewerMarkets ? null : lastYearCover,
    rate: context.rate,
    provisional: point.periods.some((p) => sources.get(p.id)!.live),
    ...(own
      ? {
          own_volume: figures.own_volume,
          own_value: figures.own_value,
          own_volume_share_pct: figures.own_volume_share_pct,
          own_value_share_pct: figures.own_value_share_pct,
        }
      : {}),
  };
}

/**
 * Where the series breaks: what each point holds that the point before did not (other markets,
 * other companies expected to report, other codes in the group or section as published). The
 * first point breaks from nothing. Codes are compared where both points are read from
 * publications (an approver's current figures count today's groups and sections in every period).
 */
async function breaksOf(
  db: Db,
  points: readonly Point[],
  sources: Map<number, Source>,
  key: { dimension: 'code' | 'code_group' | 'code_section'; id: number } | null,
): Promise<TrendBreak[][]> {
  const periodIds = points.flatMap((p) => p.periods.map((x) => x.id));
  const companies = new Map<number, string>();
  if (periodIds.length) {
    const rows = await db.execute<{ period_id: number; companies: string }>(sql`
      select r.period_id, string_agg(r.company_id::text, ',' order by r.company_id) as companies
      from reports r join periods p on p.id = r.period_id join companies co on co.id = r.company_id
      where r.period_id = any(${sqlArray(periodIds, 'int')}) and ${countedCompany(sql`co`, sql`p`)}
      group by r.period_id`);
    for (const r of rows.rows) companies.set(r.period_id, r.companies);
  }
  const publications = [...sources.values()].flatMap((s) => (s.publication === null ? [] : [s.publication]));
  const codes = new Map<number, string>();
  if (key && key.dimension !== 'code' && publications.length) {
    const rows = await db.execute<{ publication_id: number; code_ids: number[] | null }>(sql`
      select publication_id, code_ids from statistics_publication_cells
      where publication_id = any(${sqlArray(publications, 'int')}) and dimension = ${key.dimension} and key_id = ${key.id}`);
    for (const r of rows.rows) codes.set(r.publication_id, (r.code_ids ?? []).join(','));
  }
  const describe = (point: Point) => {
    const periods = [...point.periods].sort((a, b) => a.market_id - b.market_id);
    const published = periods.every((p) => sources.get(p.id)?.publication != null);
    return {
      markets: periods.map((p) => p.market_id).join(),
      companies: periods.map((p) => `${p.market_id}:${companies.get(p.id) ?? ''}`).join(';'),
      codes:
        published && key && key.dimension !== 'code'
          ? periods.map((p) => `${p.market_id}:${codes.get(sources.get(p.id)!.publication!) ?? ''}`).join(';')
          : null,
    };
  };
  const described = points.map(describe);
  return described.map((now, i) => {
    const before = described[i - 1];
    if (!before) return [];
    const out: TrendBreak[] = [];
    if (now.markets !== before.markets) out.push('markets');
    if (now.companies !== before.companies) out.push('companies');
    if (now.codes !== null && before.codes !== null && now.codes !== before.codes) out.push('codes');
    return out;
  });
}
