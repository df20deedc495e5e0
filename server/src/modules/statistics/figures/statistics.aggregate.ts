import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../../db/client.ts';
import { sqlArray } from '../../../db/sql-array.ts';
import { type Dimension, ensureCells, liveCells, lockPeriodsShared } from './statistics.cells.ts';
import { breaksRules, tooFewContributors } from '../disclosure/statistics.rules.ts';

/*
 * One SQL statement that turns cells into the figures of an answer (docs/architecture.md §8): the period,
 * last year's, the year to date and last year's year to date, each period's values converted at
 * its own rate, summed per key (and per bucket: a market of a cluster, a point of a trend, and
 * with `rollup` over the buckets), with changes and shares rounded half-up to one decimal at the
 * end. Every figure comes back as the database's decimal text. A period's cells come from one of
 * three sources, chosen per selection by statistics.confidentiality.ts: a publication (what viewers
 * see: the figures as published, confidential where its pattern hides them), the stored cells (an
 * approver's published period: the current approved figures, confidential where they break the
 * rules or the publication's pattern hides them), or the rows themselves (an approver's unpublished
 * period, provisional). A row is confidential when any cell it adds up is (every period of it, in
 * every bucket): a figure derived from a hidden cell is hidden too.
 *
 * A bucket's figures add up to 26 periods' cells per key (the period, last year's, both years to
 * date). When none of them is counted live, they are kept (`statistics_sums`, one row per key) on
 * their first read and read back after that; a change to any cell they count deletes them
 * (migration 0013), and their signature holds everything else they depend on (the periods and
 * their rates, the breakdowns, a key filter, the confidentiality settings). So a cluster of five
 * markets reads ~2,500 kept rows instead of adding up ~65,000 cells.
 */

export type Role = 'p' | 'ly' | 'ytd' | 'ytdly';

export interface Selection {
  /** What the figures are grouped by besides the key: the market, or the point of a trend. */
  bucket: number;
  periodId: number;
  role: Role;
  /** Multiplier of values into the answer's currency; null: no conversion. */
  rate: string | null;
  /** Read the period as this publication showed it (viewers). */
  publication: number | null;
  /** Stored cells, flagged confidential where this publication hides them too (approvers of a published period). */
  pattern: number | null;
}

export interface AggregateInput {
  selections: readonly Selection[];
  /** Periods counted from their rows with every report that holds rows (an approver's provisional view). */
  live: readonly number[];
  dimensions: readonly Dimension[];
  /** Only this key of a dimension (trend of one code, group or section). */
  key?: { dimension: Dimension; id: number };
  /** `dominancePercentage`: exact decimal text, compared in SQL. */
  settings: { minContributors: number; dominancePercentage: string };
  /** A company's own figures of each bucket's period ('p'), from its counted report. */
  ownCompanyId?: number;
  /**
   * Also the sums over the buckets (rows with `rollup: true`, bucket null). A bucket's own rows then
   * carry only volume, value, contributors and confidential (the rest null), except its totals: a
   * cluster shows each market's cells by volume and value, and its figures over the rollup.
   */
  rollup?: boolean;
}

export type AggregateRow = {
  rollup: boolean;
  bucket: number | null;
  dimension: Dimension;
  key_id: number;
  volume: string | null;
  value: string | null;
  volume_last_year: string | null;
  value_last_year: string | null;
  volume_change_pct: string | null;
  value_change_pct: string | null;
  ytd_volume: string | null;
  ytd_value: string | null;
  ytd_volume_last_year: string | null;
  ytd_value_last_year: string | null;
  ytd_volume_change_pct: string | null;
  ytd_value_change_pct: string | null;
  volume_share_pct: string | null;
  value_share_pct: string | null;
  own_volume: string | null;
  own_value: string | null;
  own_volume_share_pct: string | null;
  own_value_share_pct: string | null;
  contributors: number | null;
  /** Some cell of the row, in some period it adds up, is confidential (hidden by the pattern, or breaking the rules). */
  confidential: boolean;
  /** Which of its figures hold an estimate for a missing report (ESTIMATED bits: the period, last year, year to date, last year's year to date). */
  estimated: number;
  /** Which of its figures differ from their period's first publication (ESTIMATED bits). */
  revised: number;
  /** Why it is confidential (REASON bits: the period's own cell, and DERIVED when a cell of another period or bucket is). */
  reason: number;
  /** 1 = the smallest (by the period's value, then volume) of its breakdown: companies are listed largest first. */
  rank: number;
};

/** The bits of `AggregateRow.estimated`. */
export const ESTIMATED = { p: 1, ly: 2, ytd: 4, ytdly: 8 } as const;
/** The bits of `AggregateRow.reason`. */
export const REASON = { contributors: 1, dominance: 2, protection: 4, derived: 8, unprotectable: 16 } as const;
/** A published cell's stored reason as REASON bits. */
const reasonBits = (column: string) =>
  sql.raw(
    `case ${column} when 'unprotectable' then ${REASON.unprotectable} when 'contributors' then ${REASON.contributors} when 'dominance' then ${REASON.dominance} when 'protection' then ${REASON.protection} else 0 end`,
  );
/**
 * A cell that differs from its period's first publication (`f`, none: not published yet): a key it
 * did not have, or other figures. The company breakdown is never published: never revised.
 */
const revisedSql = (first: string, cell: string, x: string) =>
  sql.raw(
    `(${first}.id is not null and ${x}.dimension <> 'company' and (${cell}.key_id is null or ${cell}.volume is distinct from ${x}.volume or ${cell}.value is distinct from ${x}.value))`,
  );
/** The bit of a role in ESTIMATED and `revised`. */
const ROLE_BIT = sql.raw(`case c.role when 'p' then 1 when 'ly' then 2 when 'ytd' then 4 else 8 end`);

const intArray = (values: readonly (number | null)[]) => sqlArray(values, 'int');
const textArray = (values: readonly string[]) => sqlArray(values, 'text');

/** (a - b) / |b| in percent, rounded half-up (away from zero) to one decimal; null without a base. */
const change = (a: string, b: string) =>
  sql.raw(`case when ${a} is null or ${b} is null or ${b} = 0 then null else round((${a} - ${b}) * 100 / abs(${b}), 1)::text end`);
/** a of t in percent, rounded half-up to one decimal. */
const share = (a: string, t: string) => sql.raw(`case when ${a} is null or ${t} is null or ${t} = 0 then null else round(${a} * 100 / ${t}, 1)::text end`);

/** A bucket whose figures come from stored cells only: summed once, then read from `statistics_sums`. */
interface Kept {
  bucket: number;
  signature: string;
  selections: Selection[];
}

/** Which buckets are summed from the cells in the statement (those counting a live period), and which are kept. */
function planOf(input: AggregateInput, live: Set<number>): { direct: Selection[]; kept: Kept[] } {
  const buckets = new Map<number, Selection[]>();
  for (const s of input.selections) {
    const group = buckets.get(s.bucket);
    if (group) group.push(s);
    else buckets.set(s.bucket, [s]);
  }
  const direct: Selection[] = [];
  const kept: Kept[] = [];
  for (const [bucket, group] of buckets) {
    if (group.some((s) => live.has(s.periodId))) {
      direct.push(...group);
      continue;
    }
    const selections = [...group].sort((a, b) => a.periodId - b.periodId || a.role.localeCompare(b.role));
    // Everything the figures depend on besides the cells (whose changes delete them).
    const signature = createHash('sha256')
      .update(
        JSON.stringify([
          selections.map((s) => [s.role, s.periodId, s.rate, s.publication, s.pattern]),
          [...input.dimensions].sort(),
          input.key ? [input.key.dimension, input.key.id] : null,
          [input.settings.minContributors, input.settings.dominancePercentage],
        ]),
      )
      .digest('hex');
    kept.push({ bucket, signature, selections });
  }
  return { direct, kept };
}

const FIGURES = ['volume', 'value', 'volume_ly', 'value_ly', 'ytd_volume', 'ytd_value', 'ytd_volume_ly', 'ytd_value_ly'] as const;

/** Which buckets the statement sums from the cells, and which it reads kept (see `planOf`). */
type Plan = ReturnType<typeof planOf>;

/** What every part of an answer's statement reads (see `aggregate`). */
interface Statement {
  input: AggregateInput;
  live: Set<number>;
  /** The periods read from their stored cells. */
  stored: number[];
  /** The dimensions asked for, as a SQL array. */
  dims: SQL;
  keyFilter: SQL;
}

export async function aggregate(db: Executor, input: AggregateInput): Promise<AggregateRow[]> {
  const { selections } = input;
  if (selections.length === 0) return [];
  const live = new Set(input.live);
  const stored = [...new Set(selections.filter((s) => s.publication === null && !live.has(s.periodId)).map((s) => s.periodId))];
  await ensureCells(db, stored);
  const dims = textArray(input.dimensions);
  const keyFilter = input.key ? sql`and (dimension <> ${input.key.dimension} or key_id = ${input.key.id})` : sql``;
  const st: Statement = { input, live, stored, dims, keyFilter };
  const plan = planOf(input, live);
  const parts = { ownSource: ownSourceOf(st), rollup: rollupOf(input) };
  return (await answer(db, st, plan, parts, true)) ?? (await answer(db, st, plan, parts, false))!;
}

const breaks = (st: Statement, alias: string) => breaksRules(alias, st.input.settings);
/** The REASON bits of a cell judged by the rules (and hidden by a pattern's `hidden`, when given). */
const judged = (st: Statement, alias: string, hidden: SQL = sql`false`) =>
  sql`case when ${tooFewContributors(alias, st.input.settings)} then ${REASON.contributors} when ${breaks(st, alias)} then ${REASON.dominance} when ${hidden} then ${REASON.protection} else 0 end`;
const selTable = (list: readonly Selection[]) => sql`
    select * from unnest(${intArray(list.map((s) => s.bucket))}, ${intArray(list.map((s) => s.periodId))},
      ${textArray(list.map((s) => s.role))}, ${sqlArray(
        list.map((s) => s.rate),
        'numeric',
      )}, ${intArray(list.map((s) => s.publication))}, ${intArray(list.map((s) => s.pattern))})`;

/** CTEs c, r and b over the selections in CTE `sel`: each bucket's figures per key (b). */
function figuresOf(st: Statement, withLive: boolean) {
  const { input, live, dims, keyFilter } = st;
  const sum = (column: 'volume' | 'value', role: Role) =>
    column === 'value' ? sql.raw(`sum(c.converted) filter (where c.role = '${role}')`) : sql.raw(`sum(c.volume) filter (where c.role = '${role}')`);
  const liveSource: SQL =
    withLive && live.size
      ? sql`union all
      select s.bucket, s.role, l.dimension, l.key_id, l.volume, case when s.rate is null then l.value else l.value * s.rate end, l.contributors, ${breaks(st, 'l')}, false,
        ${judged(st, 'l')}, false
      from sel s join (${liveCells({ periodIds: [...live], dimensions: input.dimensions, reports: 'all' })}) l on l.period_id = s.period_id
      where s.publication is null and l.dimension = any(${dims}) ${keyFilter}`
      : sql``;
  return sql`c as (
      -- One index range per selected period (a join on the unnest was planned as a nested loop over every cell).
      -- Only what the sums need, the rules judged per cell here: narrow rows to group.
      select s.bucket, s.role, x.dimension, x.key_id, x.volume, case when s.rate is null then x.value else x.value * s.rate end as converted,
        x.contributors, ${breaks(st, 'x')} or coalesce(pc.hidden, false) as breaks, false as estimated,
        case when pc.reason = 'unprotectable' then ${REASON.unprotectable} else ${judged(st, 'x', sql`coalesce(pc.hidden, false)`)} end as reason,
        ${revisedSql('f', 'fc', 'x')} as revised
      from sel s cross join lateral (
        select period_id, dimension, key_id, volume, value, contributors, volume_contributors, value_contributors, abs_volume, abs_value,
          max_volume, max_value from statistics_cells x
        where x.period_id = s.period_id and x.dimension = any(${dims}) ${keyFilter}
      ) x
      left join statistics_publication_cells pc on pc.publication_id = s.pattern and pc.dimension = x.dimension and pc.key_id = x.key_id
      -- The approver's current figures against what the period was first published with.
      left join statistics_publications f on s.pattern is not null and f.period_id = s.period_id and f.number = 1
      left join statistics_publication_cells fc on fc.publication_id = f.id and fc.dimension = x.dimension and fc.key_id = x.key_id
      where s.publication is null and s.period_id = any(${intArray(st.stored)})
      union all
      -- What a publication showed: its figures, confidential where its pattern hides them.
      select s.bucket, s.role, x.dimension, x.key_id, x.volume, case when s.rate is null then x.value else x.value * s.rate end,
        x.contributors, x.hidden, x.estimated, ${reasonBits('x.reason')}, ${revisedSql('f', 'fc', 'x')}
      from sel s cross join lateral (
        select dimension, key_id, volume, value, contributors, hidden, estimated, reason from statistics_publication_cells x
        where x.publication_id = s.publication and x.dimension = any(${dims}) ${keyFilter}
      ) x
      -- What the period was first published with (none when this is its first publication).
      left join statistics_publications sp on sp.id = s.publication
      left join statistics_publications f on sp.number > 1 and f.period_id = sp.period_id and f.number = 1
      left join statistics_publication_cells fc on fc.publication_id = f.id and fc.dimension = x.dimension and fc.key_id = x.key_id
      where s.publication is not null
      ${liveSource}
    ), r as (
      -- Per role first (two sums a cell, not eight filtered ones), then the roles side by side.
      select c.bucket, c.role, c.dimension, c.key_id, sum(c.volume) as volume, sum(c.converted) as converted,
        sum(c.contributors) as contributors, bool_or(c.breaks) as breaks, bool_or(c.estimated) as estimated,
        bit_or(c.reason) as reason, bool_or(c.revised) as revised
      from c group by c.bucket, c.role, c.dimension, c.key_id
    ), b as (
      select c.bucket, c.dimension, c.key_id,
        ${sum('volume', 'p')} as volume, ${sum('value', 'p')} as value,
        ${sum('volume', 'ly')} as volume_ly, ${sum('value', 'ly')} as value_ly,
        ${sum('volume', 'ytd')} as ytd_volume, ${sum('value', 'ytd')} as ytd_value,
        ${sum('volume', 'ytdly')} as ytd_volume_ly, ${sum('value', 'ytdly')} as ytd_value_ly,
        (sum(c.contributors) filter (where c.role = 'p'))::int as contributors,
        coalesce(bool_or(c.breaks), false) as confidential,
        coalesce(bit_or(case when c.estimated then ${ROLE_BIT} else 0 end), 0)::smallint as estimated,
        coalesce(bit_or(case when c.revised then ${ROLE_BIT} else 0 end), 0)::smallint as revised,
        -- The period's own cell's reason; a hidden cell of another period makes the row derived.
        coalesce(bit_or(case when c.role = 'p' then c.reason when c.breaks then ${REASON.derived} else 0 end), 0)::smallint as reason
      from r c group by c.bucket, c.dimension, c.key_id
    )`;
}

/**
 * A company's own figures beside a cell: of a period read as published, its report as the
 * publication counted it, over the codes each published cell holds (a group edited since still
 * divides the company's figures over the codes it added up then: the share is of the cell shown);
 * a company the publication does not count has none there. Of a period read as it stands (an
 * approver's), its approved report over today's groups and sections.
 */
function ownSourceOf(st: Statement): SQL {
  const { input, dims, keyFilter } = st;
  const { selections } = input;
  const ownPeriods = [...new Set(selections.filter((s) => s.role === 'p' && s.publication === null).map((s) => s.periodId))];
  const published = selections.some((s) => s.role === 'p' && s.publication !== null);
  const none = sql`select null::int as bucket, null::text as dimension, null::int as key_id, null::numeric as volume, null::numeric as value where false`;
  return input.ownCompanyId === undefined
    ? none
    : sql`${
        ownPeriods.length
          ? sql`select s.bucket, o.dimension, o.key_id, o.volume, o.value * coalesce(s.rate, 1) as value
          from all_sel s join (${liveCells({ periodIds: ownPeriods, dimensions: input.dimensions, reports: 'approved', companyId: input.ownCompanyId })}) o
          on o.period_id = s.period_id where s.role = 'p' and s.publication is null`
          : none
      }
        ${
          published
            ? sql`union all
          select s.bucket, m.dimension, m.key_id, sum(rr.volume), sum(rr.value) * coalesce(s.rate, 1)
          from all_sel s
          join statistics_publications sp on sp.id = s.publication
          cross join lateral unnest(sp.row_set_ids, sp.company_ids) as x(row_set_id, company_id)
          join report_rows rr on rr.row_set_id = x.row_set_id and (rr.volume is not null or rr.value is not null)
          cross join lateral (
            select 'code'::text as dimension, rr.code_id as key_id
            union all
            select pc.dimension, pc.key_id from statistics_publication_cells pc
            where pc.publication_id = sp.id and pc.dimension in ('code_group', 'code_section') and rr.code_id = any(pc.code_ids)
            union all
            select 'total', 0
          ) m
          where s.role = 'p' and s.publication is not null and x.company_id = ${input.ownCompanyId} and m.dimension = any(${dims}) ${keyFilter}
          group by s.bucket, s.rate, m.dimension, m.key_id`
            : sql``
        }`;
}

// Over the buckets (a cluster's markets): the sums of the buckets' sums.
const rollupOf = (input: AggregateInput) =>
  input.rollup
    ? sql.raw(`union all
      select true, null, b.dimension, b.key_id, ${FIGURES.map((f) => `sum(b.${f})`).join(', ')},
        sum(b.contributors)::int, bool_or(b.confidential), bit_or(b.estimated)::smallint, bit_or(b.revised)::smallint,
        -- A sum over several markets is hidden because a market's cell is; over one it is that cell.
        (case when count(*) = 1 then bit_or(b.reason) when bool_or(b.confidential) then ${REASON.derived} else 0 end)::smallint
      from fig b group by b.dimension, b.key_id`)
    : sql``;

/** The kept figures of `plan.kept` by signature, built here when missing (under shared locks on their periods). */
async function keptSums(tx: Executor, st: Statement, plan: Plan): Promise<Map<string, number>> {
  const signatures = [...new Set(plan.kept.map((k) => k.signature))];
  if (signatures.length === 0) return new Map();
  await lockPeriodsShared(tx, [...new Set(plan.kept.flatMap((k) => k.selections.map((s) => s.periodId)))]);
  const find = async () =>
    new Map(
      (
        await tx.execute<{ id: number; signature: string }>(sql`select id, signature from statistics_sums where signature = any(${textArray(signatures)})`)
      ).rows.map((r) => [r.signature, r.id]),
    );
  const found = await find();
  const missing = signatures.filter((sig) => !found.has(sig)).map((sig) => plan.kept.find((k) => k.signature === sig)!);
  if (missing.length === 0) return found;
  const rows = missing.flatMap((k, n) => k.selections.map((s) => ({ ...s, bucket: n })));
  // Each missing set is a bucket `n` of its own here. A concurrent reader may have built the same
  // set: its insert wins and this one adds nothing.
  await tx.execute(sql`
      with sel (bucket, period_id, role, rate, publication, pattern) as (${selTable(rows)}), ${figuresOf(st, false)}, sets (n, signature) as (
        select * from unnest(${intArray(missing.map((_, n) => n))}, ${textArray(missing.map((k) => k.signature))})
      ), ins as (
        insert into statistics_sums (signature, period_ids)
        select sets.signature, array(select distinct sel.period_id from sel where sel.bucket = sets.n order by sel.period_id) from sets
        on conflict (signature) do nothing
        returning id, signature
      )
      insert into statistics_sum_cells (sum_id, dimension, key_id, ${sql.raw(FIGURES.join(', '))}, contributors, confidential, estimated, revised, reason)
      select ins.id, b.dimension, b.key_id, ${sql.raw(FIGURES.map((f) => `b.${f}`).join(', '))}, b.contributors, b.confidential, b.estimated, b.revised, b.reason
      from b join sets on sets.n = b.bucket join ins on ins.signature = sets.signature`);
  return find();
}

/**
 * The answer, with the kept figures when `useKept`. Null when a kept set it read was deleted
 * meanwhile (a conversion or a setting changed as it was read: those deletions take no period
 * lock), so that the caller asks again without them.
 */
function answer(db: Executor, st: Statement, plan: Plan, parts: { ownSource: SQL; rollup: SQL }, useKept: boolean) {
  const { input } = st;
  // With a rollup, a bucket's rows other than its totals need only volume and value (see `rollup`).
  const wide = (expr: SQL) => (input.rollup ? sql`case when g.rollup or g.dimension = 'total' then ${expr} end` : expr);
  // Enough memory for a cluster's tens of thousands of cells to be summed without spilling to disk.
  return db.transaction(async (tx): Promise<AggregateRow[] | null> => {
    await tx.execute(sql`set local work_mem = '32MB'`);
    const sums = useKept ? await keptSums(tx, st, plan) : new Map<string, number>();
    const kept = plan.kept.filter((k) => sums.has(k.signature)).map((k) => ({ bucket: k.bucket, sumId: sums.get(k.signature)! }));
    const result = await tx.execute<AggregateRow>(sql`
    with all_sel (bucket, period_id, role, rate, publication, pattern) as (${selTable(input.selections)}),
    sel as (select * from all_sel where bucket <> all(${intArray(kept.map((k) => k.bucket))})),
    ${figuresOf(st, true)}, fig as (
      select * from b
      union all
      select k.bucket, x.dimension, x.key_id, ${sql.raw(FIGURES.map((f) => `x.${f}`).join(', '))}, x.contributors, x.confidential, x.estimated,
        x.revised, x.reason
      from unnest(${intArray(kept.map((k) => k.bucket))}, ${intArray(kept.map((k) => k.sumId))}) as k(bucket, sum_id)
      cross join lateral (select * from statistics_sum_cells x where x.sum_id = k.sum_id) x
    ), own as (${parts.ownSource}), g (rollup, bucket, dimension, key_id, volume, value, volume_ly, value_ly, ytd_volume, ytd_value, ytd_volume_ly, ytd_value_ly,
        contributors, confidential, estimated, revised, reason) as (
      select false, fig.* from fig
      ${parts.rollup}
    ), t as (
      -- Each row beside its breakdown's total (a window, not a self-join: a cluster has thousands of rows).
      select g.*, max(g.volume) filter (where g.dimension = 'total') over w as total_volume,
        max(g.value) filter (where g.dimension = 'total') over w as total_value,
        (row_number() over (partition by g.rollup, g.bucket, g.dimension order by coalesce(g.value, g.volume) nulls first, g.key_id))::int as rank
      from g window w as (partition by g.rollup, g.bucket)
    )
    select g.rollup, g.bucket, g.dimension, g.key_id,
      g.volume::text as volume, round(g.value, 4)::text as value,
      ${wide(sql`g.volume_ly::text`)} as volume_last_year, ${wide(sql`round(g.value_ly, 4)::text`)} as value_last_year,
      ${wide(change('g.volume', 'g.volume_ly'))} as volume_change_pct, ${wide(change('g.value', 'g.value_ly'))} as value_change_pct,
      ${wide(sql`g.ytd_volume::text`)} as ytd_volume, ${wide(sql`round(g.ytd_value, 4)::text`)} as ytd_value,
      ${wide(sql`g.ytd_volume_ly::text`)} as ytd_volume_last_year, ${wide(sql`round(g.ytd_value_ly, 4)::text`)} as ytd_value_last_year,
      ${wide(change('g.ytd_volume', 'g.ytd_volume_ly'))} as ytd_volume_change_pct, ${wide(change('g.ytd_value', 'g.ytd_value_ly'))} as ytd_value_change_pct,
      ${wide(share('g.volume', 'g.total_volume'))} as volume_share_pct, ${wide(share('g.value', 'g.total_value'))} as value_share_pct,
      o.volume::text as own_volume, round(o.value, 4)::text as own_value,
      ${share('o.volume', 'g.volume')} as own_volume_share_pct, ${share('o.value', 'g.value')} as own_value_share_pct,
      g.contributors, g.confidential, g.estimated::int as estimated, g.revised::int as revised, g.reason::int as reason, g.rank
    from t g
    left join own o on not g.rollup and o.bucket = g.bucket and o.dimension = g.dimension and o.key_id = g.key_id`);
    if (kept.length) {
      const ids = [...new Set(kept.map((k) => k.sumId))];
      const still = await tx.execute<{ n: number }>(sql`select count(*)::int as n from statistics_sums where id = any(${intArray(ids)})`);
      if (still.rows[0]!.n < ids.length) return null;
    }
    return result.rows;
  });
}
