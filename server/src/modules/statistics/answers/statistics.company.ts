import { sql } from 'drizzle-orm';
import type { CompanyStatistics, CompanyStatisticsRow } from '@mss/contracts/statistics';
import type { Db, Executor } from '../../../db/client.ts';
import { sqlArray } from '../../../db/sql-array.ts';
import { AppError, forbidden } from '../../../errors.ts';
import type { Principal } from '../../../auth/principal.ts';
import { accessIn, confidentialityOf, refuseMarket, type Settings, settingsOf } from '../disclosure/statistics.access.ts';
import { aggregate, type AggregateRow, type Role } from '../figures/statistics.aggregate.ts';
import { estimatedOf, flagContextOf, flagsOf, hiddenReasonOf, liveOf, periodSeen, selectionOf, sourcesOf } from '../disclosure/statistics.confidentiality.ts';
import {
  comparisonOf,
  keysOf,
  lastYearBreakOf,
  type MarketRow,
  marketSummary,
  type PeriodRow,
  periodColumns,
  periodSummary,
  periodsOf,
  ratesOf,
  rolesOf,
  findPeriodIn,
  viewable,
  ytdBreakOf,
} from '../figures/statistics.periods.ts';

type OwnFigures = { volume: string | null; value: string | null };

/**
 * GET /statistics/company: a company's report against its market (the /report-statistics screen):
 * the company's own figures (always its own to see) beside the market's cells as the market answer
 * shows them (statistics.confidentiality.ts), its share of each, and its share of the market total
 * over time.
 */
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
  const rates = await ratesOf(db, market, query.currency, periodsOf(period, comparison));
  const sources = await sourcesOf(db, periodsOf(period, comparison), () => access.approver);
  const settings = await settingsOf(db, market.organization_id);
  const roles = rolesOf(period, comparison);
  const marketCells = aggregate(db, {
    selections: roles.map(({ period: p, role }) => selectionOf(market.id, p, role, rates.get(p.id), sources.get(p.id)!)),
    live: liveOf(sources),
    dimensions: ['code', 'total'],
    settings,
  });
  // The company's own figures: its report's rows in the period and last year (whatever their status: its own).
  const ownPeriods = [period, ...(comparison.lastYear ? [comparison.lastYear] : [])];
  const ownRows = db.execute<{ dimension: string; key_id: number; role: Role } & OwnFigures>(sql`
    with sel (period_id, role, rate) as (
      select * from unnest(${sqlArray(
        ownPeriods.map((p) => p.id),
        'int',
      )}, ${sqlArray(
        ownPeriods.map((p) => (p.id === period.id ? 'p' : 'ly')),
        'text',
      )}, ${sqlArray(
        ownPeriods.map((p) => rates.get(p.id)?.rate ?? null),
        'numeric',
      )})
    ), rw as (
      select s.role, s.rate, rr.code_id, rr.volume, rr.value from sel s
      join reports r on r.period_id = s.period_id and r.company_id = ${company.id}
      join report_rows rr on rr.row_set_id = r.row_set_id
      where rr.volume is not null or rr.value is not null
    )
    select 'code' as dimension, code_id as key_id, role, volume::text as volume, round(value * coalesce(rate, 1), 4)::text as value from rw
    union all
    select 'total', 0, role, sum(volume)::text, round(sum(value * coalesce(rate, 1)), 4)::text from rw group by role`);
  // The market's cells, the company's own rows, its share over time and the period's coverage do
  // not depend on each other: side by side on the pool (one after another on the embedded database).
  const [marketRows, own, history, seen] = await Promise.all([
    marketCells,
    ownRows,
    shareHistory(db, market, period, company.id, access.approver, query.currency, settings),
    periodSeen(db, period, comparison.lastYear, sources, market.organization_id),
  ]);
  // By key: a company's report of 500 codes has about a thousand own rows to look up per cell.
  const ownByKey = new Map(own.rows.map((r) => [`${r.dimension}/${r.key_id}/${r.role}`, r]));
  const ownOf = (dimension: string, keyId: number, role: Role) => ownByKey.get(`${dimension}/${keyId}/${role}`);
  const codeRows = marketRows.filter((r) => !r.rollup && r.dimension === 'code');
  const codeRowOf = new Map(codeRows.map((r) => [r.key_id, r]));
  const totalsRow = marketRows.find((r) => !r.rollup && r.dimension === 'total') ?? null;
  const keyIds = [...new Set([...codeRows.map((r) => r.key_id), ...own.rows.filter((r) => r.dimension === 'code').map((r) => r.key_id)])];
  const keys = await keysOf(db, 'code', keyIds);
  const apply = !access.approver;
  const percent = await percentages(db, keyIds.map((id) => [id, codeRowOf.get(id) ?? null] as const).concat([[0, totalsRow]]), (id) => ({
    p: ownOf(id === 0 ? 'total' : 'code', id, 'p'),
    ly: ownOf(id === 0 ? 'total' : 'code', id, 'ly'),
  }));
  const lastYearBreak = lastYearBreakOf(comparison, seen.coverage, seen.lastYearCoverage);
  const context = flagContextOf(sources, roles, { changeBreak: lastYearBreak !== null, ytdBreak: false, reasons: access.approver });
  const rowOf = (keyId: number, cell: AggregateRow | null): Omit<CompanyStatisticsRow, 'key'> => {
    const confidential = cell?.confidential ?? false;
    const hide = apply && confidential;
    const pct = percent.get(keyId)!;
    const flags = estimatedOf(cell, hide || !cell);
    const figureFlags = flagsOf(cell, hide, context);
    const dimension = keyId === 0 ? 'total' : 'code';
    return {
      own_volume: ownOf(dimension, keyId, 'p')?.volume ?? null,
      own_value: ownOf(dimension, keyId, 'p')?.value ?? null,
      own_volume_last_year: ownOf(dimension, keyId, 'ly')?.volume ?? null,
      own_value_last_year: ownOf(dimension, keyId, 'ly')?.value ?? null,
      own_volume_change_pct: pct.own_volume_change_pct,
      own_value_change_pct: pct.own_value_change_pct,
      volume: hide ? null : (cell?.volume ?? null),
      value: hide ? null : (cell?.value ?? null),
      volume_last_year: hide ? null : (cell?.volume_last_year ?? null),
      value_last_year: hide ? null : (cell?.value_last_year ?? null),
      volume_change_pct: hide ? null : (cell?.volume_change_pct ?? null),
      value_change_pct: hide ? null : (cell?.value_change_pct ?? null),
      own_volume_share_pct: hide ? null : pct.own_volume_share_pct,
      own_value_share_pct: hide ? null : pct.own_value_share_pct,
      contributors: hide ? null : (cell?.contributors ?? null),
      confidential,
      estimated: flags.estimated,
      estimated_last_year: flags.estimated_last_year,
      flags: { period: figureFlags.period, last_year: figureFlags.last_year, change: figureFlags.change },
      hidden_reason: context.reasons && confidential ? hiddenReasonOf(cell?.reason ?? 0) : null,
    };
  };
  const rows = keyIds
    .filter((id) => keys.has(id))
    .sort((a, b) => keys.get(a)!.sort.localeCompare(keys.get(b)!.sort) || a - b)
    .map((id) => ({ key: keys.get(id)!.key as CompanyStatisticsRow['key'], ...rowOf(id, codeRowOf.get(id) ?? null) }));
  return {
    company,
    market: marketSummary(market),
    period: periodSummary(period),
    report: report ? { uuid: report.uuid, status: report.status } : null,
    comparison: {
      last_year: comparison.lastYear ? periodSummary(comparison.lastYear) : null,
      last_year_coverage: seen.lastYearCoverage,
      ytd_periods: comparison.ytd.length,
      ytd_last_year_periods: comparison.ytdLastYear.length,
      last_year_break: lastYearBreak,
      ytd_break: ytdBreakOf(comparison),
    },
    rows,
    totals: rowOf(0, totalsRow),
    history: history.map((h) => ({ ...h, ...(apply && h.confidential ? { own_volume_share_pct: null, own_value_share_pct: null } : {}) })),
    coverage: seen.coverage,
    currency: query.currency ?? market.currency ?? '',
    rate: rates.get(period.id) ?? null,
    provisional: liveOf(sources).length > 0,
    confidentiality: confidentialityOf(seen.settings, apply),
  };
}

/** Own change against last year, and own share of the market cell, computed by the database. */
async function percentages(
  db: Executor,
  cells: readonly (readonly [number, AggregateRow | null])[],
  ownOf: (id: number) => { p?: OwnFigures; ly?: OwnFigures },
) {
  const out = new Map<
    number,
    { own_volume_change_pct: string | null; own_value_change_pct: string | null; own_volume_share_pct: string | null; own_value_share_pct: string | null }
  >();
  if (cells.length === 0) return out;
  const numbers = (values: (string | null | undefined)[]) =>
    sqlArray(
      values.map((v) => v ?? null),
      'numeric',
    );
  const own = cells.map(([id]) => ownOf(id));
  const rows = await db.execute<{ id: number; a: string | null; b: string | null; c: string | null; d: string | null }>(sql`
    select id,
      case when ov is null or olv is null or olv = 0 then null else round((ov - olv) * 100 / abs(olv), 1)::text end as a,
      case when oval is null or olval is null or olval = 0 then null else round((oval - olval) * 100 / abs(olval), 1)::text end as b,
      case when ov is null or mv is null or mv = 0 then null else round(ov * 100 / mv, 1)::text end as c,
      case when oval is null or mval is null or mval = 0 then null else round(oval * 100 / mval, 1)::text end as d
    from unnest(${sqlArray(
      cells.map(([id]) => id),
      'int',
    )}, ${numbers(own.map((o) => o.p?.volume))}, ${numbers(own.map((o) => o.ly?.volume))},
      ${numbers(own.map((o) => o.p?.value))}, ${numbers(own.map((o) => o.ly?.value))},
      ${numbers(cells.map(([, m]) => m?.volume))}, ${numbers(cells.map(([, m]) => m?.value))}) as x(id, ov, olv, oval, olval, mv, mval)`);
  for (const r of rows.rows) out.set(r.id, { own_volume_change_pct: r.a, own_value_change_pct: r.b, own_volume_share_pct: r.c, own_value_share_pct: r.d });
  return out;
}

/** The company's share of the market total in each period it may see, up to this one (24 at most), as the market answer shows the total. */
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
      where p.market_id = ${market.id} and p.starts_on <= ${period.starts_on}::date and p.status <> 'draft' and (${approver} or ${viewable(sql`p`)})
      order by p.starts_on desc limit 24`)
  ).rows.reverse();
  if (periods.length === 0) return [];
  const rates = await ratesOf(db, market, currency, periods);
  const sources = await sourcesOf(db, periods, () => approver);
  // The approver's history counts approved reports only (no provisional view of past periods).
  const selections = periods.map((p, index) => selectionOf(index, p, 'p', rates.get(p.id), { ...sources.get(p.id)!, live: false }));
  const rows = await aggregate(db, { selections, live: [], dimensions: ['total'], settings, ownCompanyId: companyId });
  return periods.map((p, index) => {
    const row = rows.find((r) => !r.rollup && r.bucket === index) ?? null;
    return {
      period: periodSummary(p),
      own_volume: row?.own_volume ?? null,
      own_value: row?.own_value ?? null,
      own_volume_share_pct: row?.own_volume_share_pct ?? null,
      own_value_share_pct: row?.own_value_share_pct ?? null,
      confidential: row?.confidential ?? false,
    };
  });
}
