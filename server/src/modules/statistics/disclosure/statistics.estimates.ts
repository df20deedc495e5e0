import { sql } from 'drizzle-orm';
import type { Executor } from '../../../db/client.ts';
import { sqlArray } from '../../../db/sql-array.ts';
import { countedCompany } from '../figures/statistics.cells.ts';

/*
 * Estimates for missing reports (docs/decisions.md "Estimates for missing reports"). When an
 * organization publishes with estimates, a publication of a period that is not complete counts,
 * for each company expected in it without an approved report, an estimate: per code, the company's
 * figure in its last published report (the latest earlier period of the market, published now,
 * whose latest publication counts it) times the change of the companies that reported in both periods, per
 * measure (their figures of the code now over then; where that has no meaning, the same over all
 * codes; failing that, 1). An estimate is made once and kept: every later publication of the period
 * that still misses the report counts the same figures, and the report replaces it when approved.
 *
 * A period with no approved report gets no estimates: with no respondents there is no change.
 *
 * An estimate ties its period to the period it was made from (the intruder knows how it is made),
 * so the periods tied together, either way and in turn, are protected as one problem
 * (statistics.pattern.ts `linked`). To keep that problem small, no estimate is made that would tie
 * more than LINK_LIMIT periods together; the company's report is then left out, as without estimates.
 */

export const LINK_LIMIT = 6;

export type EstimateRow = {
  code_id: number;
  volume: string | null;
  value: string | null;
  volume_ratio: string;
  value_ratio: string;
};

/** An estimate a publication counts: stored (`id`), or to be made when the publication is written (`id` null). */
export interface Estimate {
  id: number | null;
  company_id: number;
  source_period_id: number;
  source_row_set_id: number;
  rows: EstimateRow[];
}

/** Whether the organization publishes incomplete periods with estimates (its setting `estimate_missing_reports`). */
export async function estimatesOn(db: Executor, organizationId: number): Promise<boolean> {
  const rows = await db.execute<{ value: string }>(
    sql`select value from organization_settings where organization_id = ${organizationId} and key = 'estimate_missing_reports'`,
  );
  return Number(rows.rows[0]?.value ?? 0) === 1;
}

/** Stored estimates with their rows, by id. */
export async function storedEstimates(db: Executor, ids: readonly number[]): Promise<Map<number, Estimate>> {
  const out = new Map<number, Estimate>();
  if (ids.length === 0) return out;
  const heads = await db.execute<Omit<Estimate, 'rows'> & { id: number }>(sql`
    select id, company_id, source_period_id, source_row_set_id from statistics_estimates where id = any(${sqlArray(ids, 'int')})`);
  for (const h of heads.rows) out.set(h.id, { ...h, rows: [] });
  const rows = await db.execute<EstimateRow & { estimate_id: number }>(sql`
    select estimate_id, code_id, volume::text as volume, value::text as value, volume_ratio::text as volume_ratio, value_ratio::text as value_ratio
    from statistics_estimate_rows where estimate_id = any(${sqlArray(ids, 'int')}) order by estimate_id, code_id`);
  for (const { estimate_id, ...r } of rows.rows) out.get(estimate_id)?.rows.push(r);
  return out;
}

/**
 * The estimates a publication of the period made now counts (none when the organization does not
 * publish with estimates): for each company expected in it whose report is not among `counted`,
 * its stored estimate, or one planned from its last published report. `counted`: the reports the
 * publication counts (their companies are the respondents whose change the estimates take).
 */
export async function plannedEstimates(db: Executor, periodId: number, counted: readonly { company_id: number; row_set_id: number }[]): Promise<Estimate[]> {
  const period = (
    await db.execute<{ organization_id: number; market_id: number; starts_on: string }>(sql`
      select m.organization_id, p.market_id, p.starts_on::text as starts_on from periods p join markets m on m.id = p.market_id where p.id = ${periodId}`)
  ).rows[0];
  // Without a single report there is no change to take: the "estimates" would be last period's
  // figures as they were, published as this period's.
  if (!period || counted.length === 0 || !(await estimatesOn(db, period.organization_id))) return [];
  const missing = await db.execute<{ company_id: number; estimate_id: number | null }>(sql`
    select r.company_id, e.id as estimate_id
    from reports r join periods p on p.id = r.period_id join companies co on co.id = r.company_id
    left join statistics_estimates e on e.period_id = r.period_id and e.company_id = r.company_id
    where r.period_id = ${periodId} and ${countedCompany(sql`co`, sql`p`)}
      and r.company_id <> all(${sqlArray(
        counted.map((c) => c.company_id),
        'int',
      )})
    order by r.company_id`);
  if (missing.rows.length === 0) return [];
  const stored = await storedEstimates(
    db,
    missing.rows.flatMap((m) => (m.estimate_id === null ? [] : [m.estimate_id])),
  );
  const out: Estimate[] = [];
  const toMake = missing.rows.filter((m) => m.estimate_id === null).map((m) => m.company_id);
  // Each company's last published report: the latest earlier period of the market whose latest publication counts it.
  const sources = toMake.length
    ? (
        await db.execute<{ company_id: number; source_period_id: number; source_row_set_id: number }>(sql`
          select distinct on (x.company_id) x.company_id, p.id as source_period_id, x.row_set_id as source_row_set_id
          from periods p
          cross join lateral (select sp.row_set_ids, sp.company_ids from statistics_publications sp where sp.period_id = p.id order by sp.number desc limit 1) lp
          cross join lateral unnest(lp.row_set_ids, lp.company_ids) as x(row_set_id, company_id)
          where p.market_id = ${period.market_id} and p.starts_on < ${period.starts_on}::date and p.published_at is not null
            and x.company_id = any(${sqlArray(toMake, 'int')})
          order by x.company_id, p.starts_on desc`)
      ).rows
    : [];
  const sourceOf = new Map(sources.map((s) => [s.company_id, s]));
  // What ties together now, and what each new estimate would add (see LINK_LIMIT).
  const component = await linkedComponent(db, [periodId]);
  for (const m of missing.rows) {
    if (m.estimate_id !== null) {
      const estimate = stored.get(m.estimate_id);
      if (estimate) out.push(estimate);
      continue;
    }
    const source = sourceOf.get(m.company_id);
    if (!source) continue;
    if (!component.has(source.source_period_id)) {
      const joined = await linkedComponent(db, [...component, source.source_period_id]);
      if (joined.size > LINK_LIMIT) continue;
      for (const id of joined) component.add(id);
    }
    out.push({
      id: null,
      company_id: m.company_id,
      source_period_id: source.source_period_id,
      source_row_set_id: source.source_row_set_id,
      rows: await estimateRows(db, source, counted),
    });
  }
  return out;
}

/**
 * A new estimate's rows: the source report's rows times the respondents' change per code and
 * measure, exactly (numeric; the change rounded to 6 decimals, the figures to 4 like a report's).
 */
async function estimateRows(
  db: Executor,
  source: { source_period_id: number; source_row_set_id: number },
  counted: readonly { company_id: number; row_set_id: number }[],
): Promise<EstimateRow[]> {
  const rows = await db.execute<EstimateRow>(sql`
    with lp as (
      select sp.row_set_ids, sp.company_ids from statistics_publications sp where sp.period_id = ${source.source_period_id} order by sp.number desc limit 1
    ), respondents as (
      select x.row_set_id as now_set, y.row_set_id as then_set
      from unnest(${sqlArray(
        counted.map((c) => c.row_set_id),
        'int',
      )}, ${sqlArray(
        counted.map((c) => c.company_id),
        'int',
      )}) as x(row_set_id, company_id)
      join (select u.row_set_id, u.company_id from lp cross join lateral unnest(lp.row_set_ids, lp.company_ids) as u(row_set_id, company_id)) y
        on y.company_id = x.company_id
    ), now as (
      select rr.code_id, sum(rr.volume) as volume, sum(rr.value) as value from respondents r join report_rows rr on rr.row_set_id = r.now_set group by rr.code_id
    ), then_ as (
      select rr.code_id, sum(rr.volume) as volume, sum(rr.value) as value from respondents r join report_rows rr on rr.row_set_id = r.then_set group by rr.code_id
    ), per_code as (
      select t.code_id,
        case when t.volume <> 0 and n.volume / t.volume > 0 then round(n.volume / t.volume, 6) end as volume_ratio,
        case when t.value <> 0 and n.value / t.value > 0 then round(n.value / t.value, 6) end as value_ratio
      from then_ t join now n on n.code_id = t.code_id
    ), overall as (
      select case when t.volume <> 0 and n.volume / t.volume > 0 then round(n.volume / t.volume, 6) else 1 end as volume_ratio,
        case when t.value <> 0 and n.value / t.value > 0 then round(n.value / t.value, 6) else 1 end as value_ratio
      from (select sum(volume) as volume, sum(value) as value from then_) t cross join (select sum(volume) as volume, sum(value) as value from now) n
    )
    select sr.code_id,
      round(sr.volume * coalesce(c.volume_ratio, o.volume_ratio), 4)::text as volume,
      round(sr.value * coalesce(c.value_ratio, o.value_ratio), 4)::text as value,
      coalesce(c.volume_ratio, o.volume_ratio)::text as volume_ratio,
      coalesce(c.value_ratio, o.value_ratio)::text as value_ratio
    from report_rows sr cross join overall o left join per_code c on c.code_id = sr.code_id
    where sr.row_set_id = ${source.source_row_set_id} and (sr.volume is not null or sr.value is not null)
    order by sr.code_id`);
  return rows.rows;
}

/** The periods tied to these by estimates, either way and in turn (these included). */
export async function linkedComponent(db: Executor, periodIds: readonly number[]): Promise<Set<number>> {
  const out = new Set(periodIds);
  for (let frontier = [...periodIds]; frontier.length > 0;) {
    const edges = await db.execute<{ period_id: number; source_period_id: number }>(sql`
      select distinct period_id, source_period_id from statistics_estimates
      where period_id = any(${sqlArray(frontier, 'int')}) or source_period_id = any(${sqlArray(frontier, 'int')})`);
    frontier = [];
    for (const e of edges.rows)
      for (const id of [e.period_id, e.source_period_id])
        if (!out.has(id)) {
          out.add(id);
          frontier.push(id);
        }
  }
  return out;
}

/** Writes the estimates still to be made (in the publishing transaction); their ids, in order of `estimates`. Null when one was made meanwhile. */
export async function writeEstimates(db: Executor, periodId: number, estimates: readonly Estimate[]): Promise<number[] | null> {
  const ids: number[] = [];
  for (const e of estimates) {
    if (e.id !== null) {
      ids.push(e.id);
      continue;
    }
    const inserted = await db.execute<{ id: number }>(sql`
      insert into statistics_estimates (period_id, company_id, source_period_id, source_row_set_id)
      values (${periodId}, ${e.company_id}, ${e.source_period_id}, ${e.source_row_set_id})
      on conflict (period_id, company_id) do nothing returning id`);
    const id = inserted.rows[0]?.id;
    if (id === undefined) return null;
    if (e.rows.length)
      await db.execute(sql`
        insert into statistics_estimate_rows (estimate_id, code_id, volume, value, volume_ratio, value_ratio)
        select ${id}, * from unnest(${sqlArray(
          e.rows.map((r) => r.code_id),
          'int',
        )}, ${sqlArray(
          e.rows.map((r) => r.volume),
          'numeric',
        )}, ${sqlArray(
          e.rows.map((r) => r.value),
          'numeric',
        )}, ${sqlArray(
          e.rows.map((r) => r.volume_ratio),
          'numeric',
        )}, ${sqlArray(
          e.rows.map((r) => r.value_ratio),
          'numeric',
        )})`);
    ids.push(id);
  }
  return ids;
}
