import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../../db/client.ts';
import { sqlArray } from '../../../db/sql-array.ts';

/*
 * Pre-aggregated statistics cells (docs/performance.md "Statistics"). A cell is one period's sum
 * over one key of one breakdown (a code, code group, code section, company, or the total), with
 * how many companies contribute to it and the largest company's figures (for the dominance rule).
 *
 * - `statistics_cells` holds the cells of the periods listed in `statistics_periods`, over their
 *   approved reports (status 60) of companies not disabled at the period's end.
 * - Approving a report adds it to its period's cells (`addApprovedReport`, called by the workflow):
 *   one statement of some 500 upserts, since an approved report never changes.
 * - Anything else the cells depend on (a company's disabled_at, code groups and sections, a
 *   code's text, a period's end) deletes the period's `statistics_periods` row (triggers of
 *   migration 0011); `ensureCells` rebuilds such periods from their rows on the next read.
 * - `liveCells` computes the same cells straight from the rows, for what is not stored: an
 *   approver's provisional view (every report that holds rows counts) and one company's own cells.
 */

export type Dimension = 'code' | 'code_group' | 'code_section' | 'company' | 'total';
export const DIMENSIONS: readonly Dimension[] = ['code', 'code_group', 'code_section', 'company', 'total'];

/** A transaction-scoped lock per period: building and growing a period's cells never interleave. */
const LOCK_SPACE = 74110;
export const lockPeriod = (db: Executor, periodId: number) => db.execute(sql`select pg_advisory_xact_lock(${LOCK_SPACE}, ${periodId})`);
/**
 * The same locks, shared, for a reader that keeps sums of these periods' cells (statistics.aggregate.ts):
 * an approval or a build waits until those sums are committed, and then deletes them with its change.
 */
export const lockPeriodsShared = (db: Executor, periodIds: readonly number[]) =>
  db.execute(sql`select pg_advisory_xact_lock_shared(${LOCK_SPACE}, id) from unnest(${sqlArray(periodIds, 'int')}) as p(id) order by id`);

/** A company counts in a period unless it was disabled by the period's end (docs/product.md §3 disabled_at). */
export const countedCompany = (company: SQL, period: SQL) =>
  sql`(${company}.disabled_at is null or ${company}.disabled_at >= ((${period}.ends_on + 1)::timestamp at time zone 'UTC'))`;

/** The sections a code belongs to: numeric code ranges of its organization shown in the market (docs/decisions.md). */
export const sectionOf = (codeId: SQL, organizationId: SQL, marketId: SQL) => sql`
  select s.id from codes c
  join code_sections s on s.organization_id = ${organizationId}
  where c.id = ${codeId} and c.code ~ '^[0-9]{1,15}$' and c.code::bigint between s.start and s.start + s.length - 1
    and (exists (select 1 from code_section_markets sm where sm.code_section_id = s.id and sm.market_id = ${marketId})
      or not exists (select 1 from code_section_markets sm where sm.code_section_id = s.id))`;

export interface LiveOptions {
  periodIds: readonly number[];
  dimensions: readonly Dimension[];
  /**
   * `approved`: status 60 only (the stored cells); `all`: every report holding rows (provisional);
   * `{ rowSets }`: exactly these row sets, each counted as its company's in the (one) period: a
   * publication's counted reports, or with a missing company's earlier report in its place (what a
   * later publication would show, statistics.preview.ts), and `estimates`: rows of estimates for
   * missing reports counted as their companies' (statistics.estimates.ts).
   */
  reports:
    | 'approved'
    | 'all'
    | {
        rowSets: readonly { rowSetId: number; companyId: number }[];
        estimates?: readonly { companyId: number; codeId: number; volume: string | null; value: string | null }[];
      };
  /** Only this company's figures (its own cells). */
  companyId?: number;
}

/**
 * The cells of the periods computed from their rows: (period_id, dimension, key_id, volume, value,
 * contributors, volume_contributors, value_contributors, abs_volume, abs_value, max_volume,
 * max_value), exactly what `statistics_cells` holds for them.
 */
export function liveCells(options: LiveOptions): SQL {
  const ids = sqlArray(options.periodIds, 'int');
  const { reports } = options;
  const company = options.companyId === undefined ? sql`` : sql`and r.company_id = ${options.companyId}`;
  const rep =
    typeof reports === 'object'
      ? sql`select p.id as period_id, x.company_id, x.row_set_id, p.market_id, m.organization_id
      from unnest(${sqlArray(
        reports.rowSets.map((r) => r.rowSetId),
        'int',
      )}, ${sqlArray(
        reports.rowSets.map((r) => r.companyId),
        'int',
      )}) as x(row_set_id, company_id)
      join periods p on p.id = any(${ids}) join markets m on m.id = p.market_id
      ${options.companyId === undefined ? sql`` : sql`where x.company_id = ${options.companyId}`}`
      : sql`select r.period_id, r.company_id, r.row_set_id, p.market_id, m.organization_id
      from reports r
      join periods p on p.id = r.period_id
      join markets m on m.id = p.market_id
      join companies co on co.id = r.company_id
      where r.period_id = any(${ids}) and r.row_set_id is not null ${reports === 'approved' ? sql`and r.status = 60` : sql``} ${company}
        and ${countedCompany(sql`co`, sql`p`)}`;
  // Given row sets, their rows are looked up by them (the index), whatever the planner guesses of
  // the join: without it, a table of millions of rows not analyzed since a history import was
  // read whole for each publication.
  const rowSetFilter =
    typeof reports === 'object'
      ? sql`and rr.row_set_id = any(${sqlArray(
          reports.rowSets.map((r) => r.rowSetId),
          'int',
        )})`
      : sql``;
  const branches: SQL[] = [];
  for (const dimension of options.dimensions) {
    if (dimension === 'code') branches.push(sql`select period_id, company_id, 'code' as dimension, code_id as key_id, volume, value from rw`);
    if (dimension === 'code_group')
      branches.push(sql`select rw.period_id, rw.company_id, 'code_group', g.code_group_id, sum(rw.volume), sum(rw.value)
        from rw join code_group_codes g on g.code_id = rw.code_id group by rw.period_id, rw.company_id, g.code_group_id`);
    if (dimension === 'code_section')
      branches.push(sql`select rw.period_id, rw.company_id, 'code_section', cs.section_id, sum(rw.volume), sum(rw.value)
        from rw join code_section_of cs on cs.code_id = rw.code_id and cs.market_id = rw.market_id
        group by rw.period_id, rw.company_id, cs.section_id`);
    if (dimension === 'company')
      branches.push(sql`select period_id, company_id, 'company', company_id, sum(volume), sum(value) from rw group by period_id, company_id`);
    if (dimension === 'total') branches.push(sql`select period_id, company_id, 'total', 0, sum(volume), sum(value) from rw group by period_id, company_id`);
  }
  const sections = options.dimensions.includes('code_section')
    ? sql`, code_section_of as (
        select distinct x.code_id, x.market_id, s.id as section_id
        from (select distinct code_id, market_id, organization_id from rw) x
        cross join lateral (${sectionOf(sql`x.code_id`, sql`x.organization_id`, sql`x.market_id`)}) s
      )`
    : sql``;
  const estimates = typeof reports === 'object' && reports.estimates?.length ? reports.estimates : null;
  const estimateRows = estimates
    ? sql`union all
      select p.id, x.company_id, p.market_id, m.organization_id, x.code_id, x.volume, x.value
      from unnest(${sqlArray(
        estimates.map((e) => e.companyId),
        'int',
      )}, ${sqlArray(
        estimates.map((e) => e.codeId),
        'int',
      )}, ${sqlArray(
        estimates.map((e) => e.volume),
        'numeric',
      )}, ${sqlArray(
        estimates.map((e) => e.value),
        'numeric',
      )}) as x(company_id, code_id, volume, value)
      join periods p on p.id = any(${ids}) join markets m on m.id = p.market_id
      where (x.volume is not null or x.value is not null) ${options.companyId === undefined ? sql`` : sql`and x.company_id = ${options.companyId}`}`
    : sql``;
  return sql`
    with rep as (${rep}), rw as (
      select rep.period_id, rep.company_id, rep.market_id, rep.organization_id, rr.code_id, rr.volume, rr.value
      from rep join report_rows rr on rr.row_set_id = rep.row_set_id
      where (rr.volume is not null or rr.value is not null) ${rowSetFilter}
      ${estimateRows}
    )${sections}, per_company (period_id, company_id, dimension, key_id, volume, value) as (
      ${sql.join(branches, sql` union all `)}
    )
    select period_id, dimension, key_id, sum(volume) as volume, sum(value) as value, count(*)::int as contributors,
      (count(*) filter (where volume <> 0))::int as volume_contributors, (count(*) filter (where value <> 0))::int as value_contributors,
      sum(abs(volume)) as abs_volume, sum(abs(value)) as abs_value, max(abs(volume)) as max_volume, max(abs(value)) as max_value
    from per_company group by period_id, dimension, key_id`;
}

/** Builds the stored cells of those periods that are not built (or were invalidated). */
export async function ensureCells(db: Executor, periodIds: readonly number[]): Promise<void> {
  if (periodIds.length === 0) return;
  const ids = sqlArray(periodIds, 'int');
  const missing = await db.execute<{ id: number }>(
    sql`select p.id from unnest(${ids}) as p(id) where not exists (select 1 from statistics_periods sp where sp.period_id = p.id) order by p.id`,
  );
  for (const { id } of missing.rows) {
    await db.transaction(async (tx) => {
      await lockPeriod(tx, id);
      const built = await tx.execute(sql`select 1 from statistics_periods where period_id = ${id}`);
      if (built.rows.length) return;
      await tx.execute(sql`delete from statistics_cells where period_id = ${id}`);
      await tx.execute(sql`insert into statistics_cells (period_id, dimension, key_id, volume, value, contributors, volume_contributors,
        value_contributors, abs_volume, abs_value, max_volume, max_value)
        ${liveCells({ periodIds: [id], dimensions: DIMENSIONS, reports: 'approved' })}`);
      await tx.execute(sql`insert into statistics_periods (period_id) values (${id}) on conflict do nothing`);
    });
  }
  // Fresh statistics for the planner once cells were built: with the table's old estimate (a few
  // hundred cells where there are tens of thousands) a cluster's answer was sorted and grouped
  // instead of hashed, ~25 ms more on a PostgreSQL server. Building is rare (the first read after
  // an invalidation) and already costs far more than sampling the table.
  if (missing.rows.length) await db.execute(sql`analyze statistics_cells`);
}

/**
 * Adds a report that was just approved to its period's cells, when they are built (otherwise the
 * next read builds them with it). Called by the workflow in the approving transaction; a company
 * disabled by the period's end adds nothing.
 */
export async function addApprovedReport(db: Executor, reportId: number): Promise<void> {
  const [report] = (await db.execute<{ period_id: number }>(sql`select period_id from reports where id = ${reportId}`)).rows;
  if (!report) return;
  await lockPeriod(db, report.period_id);
  await db.execute(sql`
    with rep as (
      select r.period_id, r.company_id, r.row_set_id, p.market_id, m.organization_id
      from reports r join periods p on p.id = r.period_id join markets m on m.id = p.market_id join companies co on co.id = r.company_id
      where r.id = ${reportId} and r.row_set_id is not null and ${countedCompany(sql`co`, sql`p`)}
        and exists (select 1 from statistics_periods sp where sp.period_id = r.period_id)
    ), rw as (
      select rr.code_id, rr.volume, rr.value from rep join report_rows rr on rr.row_set_id = rep.row_set_id
      where rr.volume is not null or rr.value is not null
    ), own (dimension, key_id, volume, value) as (
      select 'code', code_id, volume, value from rw
      union all
      select 'code_group', g.code_group_id, sum(rw.volume), sum(rw.value) from rw join code_group_codes g on g.code_id = rw.code_id group by g.code_group_id
      union all
      select 'code_section', s.id, sum(rw.volume), sum(rw.value) from rw cross join rep
        cross join lateral (${sectionOf(sql`rw.code_id`, sql`rep.organization_id`, sql`rep.market_id`)}) s group by s.id
      union all
      select 'company', (select company_id from rep), sum(volume), sum(value) from rw having count(*) > 0
      union all
      select 'total', 0, sum(volume), sum(value) from rw having count(*) > 0
    )
    insert into statistics_cells as c (period_id, dimension, key_id, volume, value, contributors, volume_contributors, value_contributors,
      abs_volume, abs_value, max_volume, max_value)
    select (select period_id from rep), dimension, key_id, volume, value, 1, coalesce((volume <> 0)::int, 0), coalesce((value <> 0)::int, 0),
      abs(volume), abs(value), abs(volume), abs(value) from own
    on conflict (period_id, dimension, key_id) do update set
      volume = case when excluded.volume is null then c.volume else coalesce(c.volume, 0) + excluded.volume end,
      value = case when excluded.value is null then c.value else coalesce(c.value, 0) + excluded.value end,
      contributors = c.contributors + 1,
      volume_contributors = c.volume_contributors + excluded.volume_contributors,
      value_contributors = c.value_contributors + excluded.value_contributors,
      abs_volume = case when excluded.abs_volume is null then c.abs_volume else coalesce(c.abs_volume, 0) + excluded.abs_volume end,
      abs_value = case when excluded.abs_value is null then c.abs_value else coalesce(c.abs_value, 0) + excluded.abs_value end,
      max_volume = greatest(c.max_volume, excluded.max_volume),
      max_value = greatest(c.max_value, excluded.max_value)`);
}

/**
 * A report that is no longer approved (its approval undone): its period's cells are built again
 * without it on the next read. Called by the workflow in the same transaction.
 */
export async function removeApprovedReport(db: Executor, reportId: number): Promise<void> {
  const [report] = (await db.execute<{ period_id: number }>(sql`select period_id from reports where id = ${reportId}`)).rows;
  if (!report) return;
  await lockPeriod(db, report.period_id);
  await db.execute(sql`delete from statistics_periods where period_id = ${report.period_id}`);
}
