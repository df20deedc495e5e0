import { sql } from 'drizzle-orm';
import type { ClusterBreakdown, ClusterStatistics, StatisticsRate } from '@mss/contracts/statistics';
import type { Db } from '../../../db/client.ts';
import { sqlArray } from '../../../db/sql-array.ts';
import { AppError, forbidden } from '../../../errors.ts';
import type { Principal } from '../../../auth/principal.ts';
import { accessIn, confidentialityOf, type Settings, settingsOf } from '../disclosure/statistics.access.ts';
import { aggregate, type AggregateRow, type Selection } from '../figures/statistics.aggregate.ts';
import type { Dimension } from '../figures/statistics.cells.ts';
import {
  coverageSeen,
  type FlagContext,
  figuresOf,
  flagContextOf,
  liveOf,
  selectionOf,
  type Source,
  sourcesOf,
} from '../disclosure/statistics.confidentiality.ts';
import {
  type Comparison,
  comparisonsOf,
  coverageOf,
  keysOf,
  lastYearBreakOf,
  type MarketRow,
  marketRows,
  marketSummary,
  ordered,
  type PeriodRow,
  periodColumns,
  periodSummary,
  periodsOf,
  ratesOfMarkets,
  rolesOf,
  sharesOverlap,
  ytdBreakOf,
} from '../figures/statistics.periods.ts';
import { authorize, inOrganization, maySomewhere } from '../../../auth/policy.ts';

/** A market of the cluster with a period the figures hold: its comparison, and the rates of its periods. */
interface Prepared {
  period: PeriodRow;
  market: MarketRow;
  comparison: Comparison;
  rates: Map<number, StatisticsRate | null>;
}

/**
 * GET /statistics/cluster: the cluster's markets, each with its period starting in the month, side
 * by side and added up in one currency. Each market's cells are what that market's answer shows
 * the caller (a cluster of one market answers exactly what the market answers); a sum over the
 * markets is confidential when any cell it adds up is (statistics.confidentiality.ts).
 */
export async function findClusterStatistics(
  db: Db,
  principal: Principal,
  query: { cluster_id: number; month: string; by: ClusterBreakdown; currency: string },
): Promise<ClusterStatistics> {
  const { cluster, marketIds } = await clusterOf(db, principal, query.cluster_id);
  const companyId = principal.companyId;
  const first = `${query.month}-01`;
  const candidates = await db.execute<PeriodRow>(sql`
    select distinct on (p.market_id) ${periodColumns} from periods p
    where p.market_id = any(${sqlArray(marketIds, 'int')})
      and p.starts_on >= ${first}::date and p.starts_on < (${first}::date + interval '1 month')
    order by p.market_id, p.starts_on`);
  const settings = await settingsOf(db, cluster.organization_id);
  const approver = (marketId: number) => accessIn(principal, marketId, companyId).approver;
  const { prepared, absent, unpublished } = await marketsOf(db, marketIds, candidates.rows, approver, query.currency);
  const { sources, selections, columns } = await columnsOf(db, prepared, approver);
  // Approvers of every market see everything; anyone else sees the cluster with confidentiality.
  const apply = columns.length === 0 || prepared.some(({ market }) => !approver(market.id));
  // A cluster's comparison is like with like when every market's is; without a year-earlier period
  // of some market, the sums a year earlier hold fewer markets: no change.
  const changeWithheld = prepared.some(({ comparison }) => !comparison.lastYear);
  const { flags, flagsOfBucket } = flagsOfCluster(prepared, columns, sources, { apply, changeWithheld });
  const { rows, totals, overlap } = await rowsOf(db, query.by, { selections, sources, settings, columns, apply, flags, flagsOfBucket });
  return {
    cluster: { id: cluster.id, name: cluster.name },
    month: query.month,
    by: query.by,
    markets: columns,
    rows,
    totals,
    absent,
    // The reports expected this month in every market with a period, approved in the markets the figures hold.
    coverage: [
      ...columns.map((c) => c.coverage),
      ...(
        await coverageOf(
          db,
          unpublished.map((p) => p.id),
        )
      ).values(),
    ].reduce((sum, c, i) => ({ approved: sum.approved + (i < columns.length ? c.approved : 0), expected: sum.expected + c.expected }), {
      approved: 0,
      expected: 0,
    }),
    change_withheld: changeWithheld && columns.length > 0,
    currency: query.currency,
    rate: null,
    provisional: columns.some((c) => c.provisional),
    confidentiality: confidentialityOf(settings, apply),
    shares_overlap: overlap,
  };
}

/** The cluster, and those of its markets the caller sees (404 for another organization's, 403 without access). */
async function clusterOf(db: Db, principal: Principal, clusterId: number) {
  const clusters = await db.execute<{ id: number; name: string; organization_id: number }>(
    sql`select id, name, organization_id from clusters where id = ${clusterId}`,
  );
  const cluster = clusters.rows[0];
  if (!cluster || !inOrganization(principal, cluster.organization_id)) throw new AppError('not_found', 'generic.not_found');
  authorize(maySomewhere(principal, 'view-cluster-statistics'), 'statistics.no_access');
  const companyId = principal.companyId;
  const marketIds = (
    await db.execute<{ market_id: number }>(sql`select market_id from cluster_markets where cluster_id = ${cluster.id} order by market_id`)
  ).rows
    .map((r) => r.market_id)
    .filter((id) => accessIn(principal, id, companyId).sees);
  if (marketIds.length === 0) throw forbidden('statistics.no_access');
  return { cluster, marketIds };
}

/** The markets whose periods the figures hold (`prepared`), those they do not hold and why (`absent`), and the periods not shown (`unpublished`). */
async function marketsOf(
  db: Db,
  marketIds: readonly number[],
  candidates: readonly PeriodRow[],
  approver: (marketId: number) => boolean,
  currency: string,
): Promise<{ prepared: Prepared[]; absent: ClusterStatistics['absent']; unpublished: PeriodRow[] }> {
  // Every market's period, comparison and rates in three queries; the first market in order whose
  // comparison has no rate fails the request, as if they were asked one by one.
  const visible = candidates.filter((period) => approver(period.market_id) || period.published);
  const marketsById = await marketRows(db, marketIds);
  // The markets the figures do not hold, and why.
  const absent = marketIds
    .filter((id) => !visible.some((p) => p.market_id === id) && marketsById.has(id))
    .map((id) => ({
      market: marketSummary(marketsById.get(id)!),
      state: candidates.some((p) => p.market_id === id) ? ('unpublished' as const) : ('no_period' as const),
    }));
  const unpublished = candidates.filter((p) => !visible.includes(p));
  const comparisons = await comparisonsOf(
    db,
    visible.map((period) => ({ period, approver: approver(period.market_id) })),
  );
  const ratesByMarket = await ratesOfMarkets(
    db,
    visible.map((period) => ({ market: marketsById.get(period.market_id)!, periods: periodsOf(period, comparisons.get(period.id)!) })),
    currency,
  );
  const prepared = visible.map((period) => ({
    period,
    market: marketsById.get(period.market_id)!,
    comparison: comparisons.get(period.id)!,
    rates: ratesByMarket.get(period.market_id)!,
  }));
  return { prepared, absent, unpublished };
}

/** Where each period's figures come from, the selections of every market's periods, and the markets' columns. */
async function columnsOf(db: Db, prepared: readonly Prepared[], approver: (marketId: number) => boolean) {
  const sources = await sourcesOf(
    db,
    prepared.flatMap(({ period, comparison }) => periodsOf(period, comparison)),
    (p) => approver(p.market_id),
  );
  const selections: Selection[] = [];
  const columns: ClusterStatistics['markets'] = [];
  const coverage = await coverageSeen(
    db,
    new Map(
      prepared.flatMap(({ period, comparison }) =>
        [period, ...(comparison.lastYear ? [comparison.lastYear] : [])].map((p) => [p.id, sources.get(p.id)!] as [number, Source]),
      ),
    ),
  );
  for (const { period, market, comparison, rates } of prepared) {
    selections.push(...rolesOf(period, comparison).map(({ period: p, role }) => selectionOf(market.id, p, role, rates.get(p.id), sources.get(p.id)!)));
    columns.push({
      market: marketSummary(market),
      period: periodSummary(period),
      currency: market.currency ?? '',
      rate: rates.get(period.id) ?? null,
      coverage: coverage.get(period.id)!,
      last_year: comparison.lastYear ? periodSummary(comparison.lastYear) : null,
      last_year_coverage: comparison.lastYear ? coverage.get(comparison.lastYear.id)! : null,
      provisional: periodsOf(period, comparison).some((p) => sources.get(p.id)!.live),
    });
  }
  return { sources, selections, columns };
}

/** The flags of each market's figures (by market id), and of the sums over the markets. */
function flagsOfCluster(
  prepared: readonly Prepared[],
  columns: ClusterStatistics['markets'],
  sources: Map<number, Source>,
  { apply, changeWithheld }: { apply: boolean; changeWithheld: boolean },
) {
  const flagsOfMarket = prepared.map(({ period, comparison }) => {
    const c = columns.find((x) => x.period.uuid === period.uuid)!;
    return flagContextOf(sources, rolesOf(period, comparison), {
      changeBreak: lastYearBreakOf(comparison, c.coverage, c.last_year_coverage) !== null,
      ytdBreak: ytdBreakOf(comparison) !== null,
      reasons: !apply,
    });
  });
  const flags: FlagContext = {
    provisional: {
      p: flagsOfMarket.some((f) => f.provisional.p),
      ly: flagsOfMarket.some((f) => f.provisional.ly),
      ytd: flagsOfMarket.some((f) => f.provisional.ytd),
      ytdly: flagsOfMarket.some((f) => f.provisional.ytdly),
    },
    changeBreak: flagsOfMarket.some((f) => f.changeBreak),
    changeWithheld,
    ytdBreak: flagsOfMarket.some((f) => f.ytdBreak),
    reasons: !apply,
  };
  const flagsOfBucket = new Map(prepared.map(({ market }, i) => [market.id, flagsOfMarket[i]!]));
  return { flags, flagsOfBucket };
}

/** The answer's rows and totals: the figures over the markets, with each market's beside them (one row per market when `by` is market). */
async function rowsOf(
  db: Db,
  by: ClusterBreakdown,
  context: {
    selections: Selection[];
    sources: Map<number, Source>;
    settings: Settings;
    columns: ClusterStatistics['markets'];
    apply: boolean;
    flags: FlagContext;
    flagsOfBucket: Map<number, FlagContext>;
  },
): Promise<{ rows: ClusterStatistics['rows']; totals: ClusterStatistics['totals']; overlap: boolean }> {
  const { selections, sources, settings, columns, apply, flags, flagsOfBucket } = context;
  const dimension: Dimension = by === 'market' ? 'total' : by;
  const rows = await aggregate(db, {
    selections,
    live: liveOf(sources),
    dimensions: dimension === 'total' ? ['total'] : [dimension, 'total'],
    settings,
    rollup: true,
  });
  const byKey = new Map<string, AggregateRow[]>();
  for (const x of rows) if (!x.rollup) byKey.set(`${x.dimension}/${x.key_id}`, [...(byKey.get(`${x.dimension}/${x.key_id}`) ?? []), x]);
  const marketOrder = columns.map((c) => c.market.id);
  const totalsRow = rows.find((r) => r.rollup && r.dimension === 'total') ?? null;
  const totalsConfidential = totalsRow?.confidential ?? false;
  // A market's cell as that market's own answer shows it (its share of its own total).
  const marketTotals = new Map(rows.filter((r) => !r.rollup && r.dimension === 'total').map((r) => [r.bucket!, r]));
  const perMarket = (r: AggregateRow) =>
    marketOrder.map((marketId) => {
      const cell = byKey.get(`${r.dimension}/${r.key_id}`)?.find((x) => x.bucket === marketId) ?? null;
      const f = figuresOf(cell, {
        apply,
        totalsConfidential: marketTotals.get(marketId)?.confidential ?? false,
        own: false,
        flags: flagsOfBucket.get(marketId)!,
      });
      return {
        market_id: marketId,
        volume: f.volume,
        value: f.value,
        contributors: f.contributors,
        confidential: f.confidential,
        estimated: f.estimated,
        flags: { period: f.flags.period },
      };
    });
  let outRows: ClusterStatistics['rows'];
  let overlap = false;
  if (by === 'market') {
    // One row per market: the markets' totals side by side, as rows.
    const keys = await keysOf(db, 'market', marketOrder);
    outRows = marketOrder
      .map((id) => rows.find((r) => !r.rollup && r.dimension === 'total' && r.bucket === id))
      .filter((r): r is AggregateRow => !!r)
      .map((r) => ({
        key: keys.get(r.bucket!)!.key,
        ...figuresOf(r, { apply, totalsConfidential, own: false, flags: flagsOfBucket.get(r.bucket!)! }),
        markets: [],
      }));
  } else {
    const breakdown = rows.filter((r) => r.rollup && r.dimension === dimension && by !== 'total');
    const keys = await keysOf(
      db,
      dimension,
      breakdown.map((r) => r.key_id),
    );
    overlap = await sharesOverlap(db, dimension, [...keys.keys()]);
    outRows = ordered(breakdown, keys, dimension)
      .filter((r) => keys.has(r.key_id))
      .map((r) => ({ key: keys.get(r.key_id)!.key, ...figuresOf(r, { apply, totalsConfidential, own: false, flags }), markets: perMarket(r) }));
  }
  const totals = { ...figuresOf(totalsRow, { apply, totalsConfidential, own: false, flags }), markets: totalsRow ? perMarket(totalsRow) : [] };
  return { rows: outRows, totals, overlap };
}
