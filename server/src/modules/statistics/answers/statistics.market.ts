import { sql } from 'drizzle-orm';
import type { MarketStatistics, StatisticsBreakdown, StatisticsFigures } from '@mss/contracts/statistics';
import type { Db } from '../../../db/client.ts';
import { forbidden } from '../../../errors.ts';
import type { Principal } from '../../../auth/principal.ts';
import { accessIn, confidentialityOf, refuseMarket, settingsOf } from '../disclosure/statistics.access.ts';
import { aggregate, type AggregateRow, ESTIMATED } from '../figures/statistics.aggregate.ts';
import type { Dimension } from '../figures/statistics.cells.ts';
import { figuresOf, flagContextOf, liveOf, periodSeen, selectionOf, sourcesOf } from '../disclosure/statistics.confidentiality.ts';
import { firstPublished } from '../disclosure/statistics.publications.ts';
import {
  comparisonOf,
  findPeriodIn,
  keysOf,
  lastYearBreakOf,
  marketSummary,
  ordered,
  periodSummary,
  periodsOf,
  ratesOf,
  rolesOf,
  sharesOverlap,
  ytdBreakOf,
} from '../figures/statistics.periods.ts';

/** GET /statistics/market: one market and period by a breakdown, against last year and year to date. */
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
  const rates = await ratesOf(db, market, query.currency, periodsOf(period, comparison));
  const sources = await sourcesOf(db, periodsOf(period, comparison), () => access.approver);
  const settings = await settingsOf(db, market.organization_id);
  const dimensions: Dimension[] = query.by === 'total' ? ['total'] : [query.by, 'total'];
  const roles = rolesOf(period, comparison);
  const rows = await aggregate(db, {
    selections: roles.map(({ period: p, role }) => selectionOf(market.id, p, role, rates.get(p.id), sources.get(p.id)!)),
    live: liveOf(sources),
    dimensions,
    settings,
    ownCompanyId,
  });
  const breakdown = rows.filter((r) => !r.rollup && r.dimension === query.by && query.by !== 'total');
  const totalsRow = rows.find((r) => !r.rollup && r.dimension === 'total') ?? null;
  const keys = await keysOf(
    db,
    query.by,
    breakdown.map((r) => r.key_id),
  );
  const apply = !access.approver;
  const totalsConfidential = totalsRow?.confidential ?? false;
  const seen = await periodSeen(db, period, comparison.lastYear, sources, market.organization_id);
  const lastYearBreak = lastYearBreakOf(comparison, seen.coverage, seen.lastYearCoverage);
  const ytdBreak = ytdBreakOf(comparison);
  const flags = flagContextOf(sources, roles, { changeBreak: lastYearBreak !== null, ytdBreak: ytdBreak !== null, reasons: access.approver });
  // What a revised figure was first published as: for approvers, and for viewers where the first publication showed it.
  const revised = [...breakdown, totalsRow].some((r) => r !== null && (r.revised & ESTIMATED.p) !== 0);
  const first = revised ? await firstPublished(db, period.id, dimensions, rates.get(period.id)?.rate ?? null) : new Map();
  const show = (row: AggregateRow | null): StatisticsFigures => {
    const figures = figuresOf(row, { apply, totalsConfidential, own: access.member, flags });
    const was = row && figures.flags.period.includes('r') ? first.get(`${row.dimension}/${row.key_id}`) : undefined;
    if (was && (access.approver || !was.hidden)) figures.first_published = { volume: was.volume, value: was.value };
    return figures;
  };
  return {
    market: marketSummary(market),
    period: periodSummary(period),
    by: query.by,
    comparison: {
      last_year: comparison.lastYear ? periodSummary(comparison.lastYear) : null,
      last_year_coverage: seen.lastYearCoverage,
      ytd_periods: comparison.ytd.length,
      ytd_last_year_periods: comparison.ytdLastYear.length,
      last_year_break: lastYearBreak,
      ytd_break: ytdBreak,
    },
    rows: ordered(breakdown, keys, query.by)
      .filter((r) => keys.has(r.key_id))
      .map((r) => ({ key: keys.get(r.key_id)!.key, ...show(r) })),
    totals: show(totalsRow),
    coverage: seen.coverage,
    currency: query.currency ?? market.currency ?? '',
    rate: rates.get(period.id) ?? null,
    provisional: liveOf(sources).length > 0,
    confidentiality: confidentialityOf(seen.settings, apply),
    shares_overlap: await sharesOverlap(db, query.by, [...keys.keys()]),
  };
}
