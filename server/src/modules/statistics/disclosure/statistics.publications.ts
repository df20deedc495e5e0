import { sql } from 'drizzle-orm';
import type { HiddenReason } from '@mss/contracts/statistics';
import type { Db, Executor } from '../../../db/client.ts';
import { sqlArray } from '../../../db/sql-array.ts';
import { type Settings, settingsOf } from './statistics.access.ts';
import { countedCompany, liveCells, lockPeriod, sectionOf } from '../figures/statistics.cells.ts';
import { breaksRules, tooFewContributors } from './statistics.rules.ts';
import { type Estimate, linkedComponent, plannedEstimates, storedEstimates, writeEstimates } from './statistics.estimates.ts';
import type { CellDimension, PatternEstimate, PatternPeriod, PatternRow, Unprotectable } from './statistics.pattern.ts';
import { decidePattern } from './statistics.pattern.ts';

/*
 * Publications (docs/decisions.md "Disclosure control"): publishing a period keeps its figures as
 * they are and decides which cells viewers may not see, over everything the publication shows
 * together and everything earlier publications of the period showed.
 *
 * - The cells: every code, code group, code section and the total, over the approved reports of
 *   companies counted in the period (exactly the stored cells' arithmetic, statistics.cells.ts).
 * - Primary cells break the rules (fewer than min_contributors companies, or the largest above
 *   dominance_percentage); secondary cells are hidden so that no intruder narrows a primary cell
 *   to within ±protection_percentage (statistics.protection.ts).
 * - Published again (a late approval, a company disabled, new groups or settings), the period's
 *   earlier publications stay known: their shown cells are fixed equations, their primary cells
 *   stay protected, and what one publication adds to or removes from another (the difference of
 *   two downloads) is a table of its own whose primary cells are protected too.
 * Other periods need nothing: every figure that spans periods (year to date, last year, trends,
 * clusters) is shown only when every cell it adds up is (statistics.confidentiality.ts), so the
 * periods' patterns are independent and each is decided when its period is published.
 *
 * The pattern is decided outside any transaction (the embedded database has one connection, and
 * the solver runs up to a second or two on a large market); the publication is written in a short
 * transaction under the period's lock, after checking that the reports it counts are still those.
 */

const PUBLISHED_DIMENSIONS: readonly CellDimension[] = ['code', 'code_group', 'code_section', 'total'];

/**
 * The rules a new publication's pattern is decided by: 2 judges magnitudes (figures below zero,
 * zeros: docs/decisions.md "Disclosure control"). A publication by older rules counts as changed,
 * so that the period list offers to publish it again.
 */
export const PUBLICATION_RULES = 2;

type CellRow = {
  dimension: CellDimension;
  key_id: number;
  volume: string | null;
  value: string | null;
  contributors: number;
  max_volume: string | null;
  max_value: string | null;
  primary_confidential: boolean;
  /** It breaks the rules by too few contributors (else, when primary, by dominance). */
  too_few: boolean;
  code_ids: number[] | null;
  /** It holds an estimate for a missing report. */
  estimated: boolean;
};

export type Counted = {
  company_id: number;
  row_set_id: number;
};

export interface Previous {
  id: number;
  number: number;
  company_ids: number[];
  row_set_ids: number[];
  /** The estimates it counted (statistics_estimates); `estimates`, when given, are those (a publication not written yet: the preview's). */
  estimate_ids: number[];
  estimates?: readonly Estimate[];
  cells: { dimension: CellDimension; key_id: number; hidden: boolean; primary_confidential: boolean; code_ids: number[] | null }[];
}

export type Publication = {
  id: number;
  number: number;
  primary_cells: number;
  hidden_cells: number;
  decided_ms: number;
};

/** The approved reports of companies counted in the period (not disabled by its end), with rows. */
async function countedReports(db: Executor, periodId: number): Promise<Counted[]> {
  const rows = await db.execute<Counted>(sql`
    select r.company_id, r.row_set_id from reports r join periods p on p.id = r.period_id join companies co on co.id = r.company_id
    where r.period_id = ${periodId} and r.status = 60 and r.row_set_id is not null and ${countedCompany(sql`co`, sql`p`)}
    order by r.row_set_id`);
  return rows.rows;
}

/**
 * The cells a publication would show, over these reports and estimates, with the rules judged, the
 * codes each group and section adds up, and whether each holds an estimate.
 */
async function cellsOver(db: Executor, periodId: number, counted: readonly Counted[], estimates: readonly Estimate[], settings: Settings): Promise<CellRow[]> {
  if (counted.length === 0 && estimates.length === 0) return [];
  const rowSetIds = counted.map((c) => c.row_set_id);
  const rowSets = counted.map((c) => ({ rowSetId: c.row_set_id, companyId: c.company_id }));
  const estimateRows = estimates.flatMap((e) => e.rows.map((r) => ({ companyId: e.company_id, codeId: r.code_id, volume: r.volume, value: r.value })));
  const estimatedCodes = new Set(estimateRows.filter((r) => r.volume !== null || r.value !== null).map((r) => r.codeId));
  const rows = await db.execute<Omit<CellRow, 'estimated'>>(sql`
    with cells as (${liveCells({ periodIds: [periodId], dimensions: PUBLISHED_DIMENSIONS, reports: { rowSets, estimates: estimateRows } })}),
    present as (
      select distinct x.code_id, m.id as market_id, m.organization_id
      from (
        select rr.code_id from report_rows rr where rr.row_set_id = any(${sqlArray(rowSetIds, 'int')}) and (rr.volume is not null or rr.value is not null)
        union select unnest(${sqlArray([...estimatedCodes], 'int')})
      ) x join periods p on p.id = ${periodId} join markets m on m.id = p.market_id
    ), members as (
      select 'code_group' as dimension, g.code_group_id as key_id, array_agg(g.code_id order by g.code_id) as code_ids
      from code_group_codes g where g.code_id in (select code_id from present) group by g.code_group_id
      union all
      select 'code_section', s.id, array_agg(x.code_id order by x.code_id)
      from present x cross join lateral (${sectionOf(sql`x.code_id`, sql`x.organization_id`, sql`x.market_id`)}) s group by s.id
    )
    select c.dimension, c.key_id, c.volume::text as volume, c.value::text as value, c.contributors,
      c.max_volume::text as max_volume, c.max_value::text as max_value,
      ${breaksRules('c', settings)} as primary_confidential, ${tooFewContributors('c', settings)} as too_few,
      m.code_ids
    from cells c left join members m on m.dimension = c.dimension and m.key_id = c.key_id
    order by c.dimension, c.key_id`);
  return rows.rows.map((c) => ({
    ...c,
    estimated:
      estimatedCodes.size > 0 &&
      (c.dimension === 'total' || (c.dimension === 'code' ? estimatedCodes.has(c.key_id) : (c.code_ids ?? []).some((k) => estimatedCodes.has(k)))),
  }));
}

async function previousPublications(db: Executor, periodId: number): Promise<Previous[]> {
  const pubs = await db.execute<Omit<Previous, 'cells'>>(
    sql`select id, number, company_ids, row_set_ids, estimate_ids from statistics_publications where period_id = ${periodId} order by number`,
  );
  if (pubs.rows.length === 0) return [];
  const cells = await db.execute<Previous['cells'][number] & { publication_id: number }>(sql`
    select publication_id, dimension, key_id, hidden, primary_confidential, code_ids from statistics_publication_cells
    where publication_id = any(${sqlArray(
      pubs.rows.map((p) => p.id),
      'int',
    )})`);
  return pubs.rows.map((p) => ({ ...p, cells: cells.rows.filter((c) => c.publication_id === p.id) }));
}

export interface Decision {
  cells: CellRow[];
  hidden: boolean[];
  unprotectable: Unprotectable[];
  ms: number;
  /** The number of the latest publication of this period and of every period tied to it, as decided on (0: none). */
  linked: Map<number, number>;
}

/** The number of each period's latest publication. */
async function latestNumbers(db: Executor, periodIds: readonly number[]): Promise<Map<number, number>> {
  const rows = await db.execute<{ period_id: number; n: number }>(sql`
    select period_id, max(number)::int as n from statistics_publications where period_id = any(${sqlArray(periodIds, 'int')}) group by period_id`);
  return new Map(rows.rows.map((r) => [r.period_id, r.n]));
}

/** Stored estimates, every one: a publication's estimate that is gone would leave what it showed out of the pattern. */
async function estimatesOf(db: Executor, ids: readonly number[]): Promise<Estimate[]> {
  const found = await storedEstimates(db, ids);
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) throw new Error(`Estimates ${missing.join(', ')} counted by a publication are gone`);
  return ids.map((id) => found.get(id)!);
}

/** The rows of these row sets, each with its company. */
async function rowsOf(db: Executor, companyOf: ReadonlyMap<number, number>): Promise<PatternRow[]> {
  const ids = [...companyOf.keys()];
  if (ids.length === 0) return [];
  const rows = await db.execute<{ row_set_id: number; code_id: number; volume: string | null; value: string | null }>(sql`
    select row_set_id, code_id, volume::text as volume, value::text as value from report_rows
    where row_set_id = any(${sqlArray(ids, 'int')}) and (volume is not null or value is not null)`);
  return rows.rows.map((r) => ({ ...r, company_id: companyOf.get(r.row_set_id)! }));
}

/**
 * Decides the pattern of a new publication of the period over these reports and estimates, given
 * its earlier publications and the rows of every report any of them counts; and, when estimates
 * tie the period to others (statistics.estimates.ts), everything those published.
 */
export async function decide(
  db: Executor,
  periodId: number,
  counted: readonly Counted[],
  previous: readonly Previous[],
  settings: Settings,
  estimates: readonly Estimate[] = [],
): Promise<Decision> {
  const started = Date.now();
  const cells = await cellsOver(db, periodId, counted, estimates, settings);
  // The estimates each publication counts, and the periods they tie this one to.
  const counts = [...(await Promise.all(previous.map(async (p) => p.estimates ?? (await estimatesOf(db, p.estimate_ids))))), estimates];
  const component = await linkedComponent(db, [periodId, ...counts.flat().map((e) => e.source_period_id)]);
  // Nothing to protect: no cell breaks the rules, no earlier publication to differ from, no other period tied to this one.
  const linkedNumbers = new Map([[periodId, previous.at(-1)?.number ?? 0]]);
  if (previous.length === 0 && component.size === 1 && !cells.some((c) => c.primary_confidential))
    return { cells, hidden: cells.map(() => false), unprotectable: [], ms: Date.now() - started, linked: linkedNumbers };
  const order = [periodId, ...[...component].filter((id) => id !== periodId).sort((a, b) => a - b)];
  // An estimate's row set in the pattern: minus its id, or for one not written yet a number of its own.
  const keys = new Map<Estimate, number>();
  const keyOf = (e: Estimate) => {
    if (e.id !== null) return -e.id;
    if (!keys.has(e)) keys.set(e, -(2 ** 30 + keys.size));
    return keys.get(e)!;
  };
  const patternEstimates = (list: readonly Estimate[]): PatternEstimate[] => {
    const seen = new Set<number>();
    return list.flatMap((e) => {
      const key = keyOf(e);
      if (seen.has(key)) return [];
      seen.add(key);
      const source = order.indexOf(e.source_period_id);
      if (source < 0) throw new Error(`Estimate of company ${e.company_id} made from period ${e.source_period_id}, which is not tied to ${periodId}`);
      return e.rows.map((r) => ({
        row_set_id: key,
        company_id: e.company_id,
        code_id: r.code_id,
        volume: r.volume,
        value: r.value,
        source: { period: source, row_set_id: e.source_row_set_id },
        ratio: { volume: Number(r.volume_ratio), value: Number(r.value_ratio) },
      }));
    });
  };
  const companyOf = new Map<number, number>();
  for (const p of previous) p.row_set_ids.forEach((r, i) => companyOf.set(r, p.company_ids[i]!));
  for (const c of counted) companyOf.set(c.row_set_id, c.company_id);
  const linked: PatternPeriod[] = [];
  for (const id of order.slice(1)) {
    const pubs = await previousPublications(db, id);
    linkedNumbers.set(id, pubs.at(-1)?.number ?? 0);
    const theirs = await estimatesOf(db, [...new Set(pubs.flatMap((p) => p.estimate_ids))]);
    const companies = new Map<number, number>();
    for (const p of pubs) p.row_set_ids.forEach((r, i) => companies.set(r, p.company_ids[i]!));
    linked.push({
      rows: await rowsOf(db, companies),
      estimates: patternEstimates(theirs),
      publications: pubs.map((p) => ({ rowSetIds: [...p.row_set_ids, ...p.estimate_ids.map((e) => -e)], cells: p.cells })),
    });
  }
  const pattern = await decidePattern({
    rows: await rowsOf(db, companyOf),
    estimates: patternEstimates(counts.flat()),
    previous: previous.map((p, i) => ({ rowSetIds: [...p.row_set_ids, ...counts[i]!.map(keyOf)], cells: p.cells })),
    counted: [...counted.map((c) => c.row_set_id), ...estimates.map(keyOf)],
    cells,
    settings,
    linked,
  });
  // A linked period's sum is named by its period's id.
  const unprotectable = pattern.unprotectable.map((u) => (u.period === undefined ? u : { ...u, period: order[u.period]! }));
  return { cells, hidden: pattern.hidden, unprotectable, ms: Date.now() - started, linked: linkedNumbers };
}

const sameSettings = (a: Settings, b: { min_contributors: number; dominance_percentage: string; protection_percentage: string }) =>
  a.minContributors === b.min_contributors &&
  Number(a.dominancePercentage) === Number(b.dominance_percentage) &&
  Number(a.protectionPercentage) === Number(b.protection_percentage);

/**
 * Publishes the period's current figures: a new publication when anything changed since the
 * latest (its reports, its figures, the settings), else the latest as it is. `mark` also sets the
 * period published, in the same transaction.
 */
export async function publishPeriod(db: Db, periodId: number, options: { actorId: number | null; mark: boolean }): Promise<Publication> {
  for (let attempt = 0; ; attempt++) {
    // Read before anything is decided: a change to the groups or sections after this read moves
    // the version on, and the publication is then compared in full (publicationStates).
    const mappingVersion = await mappingVersionOf(db, periodId);
    const { settings, counted, previous, latest, changed, estimates } = await publishingState(db, periodId);
    if (latest && !changed) {
      if (options.mark) await markPublished(db, periodId);
      return publicationOf(db, latest.id);
    }
    const decision = await decide(db, periodId, counted, previous, settings, estimates);
    const written = await db.transaction(async (tx) => {
      // This period and those tied to it, in one order (two publishers lock them alike).
      for (const id of [...decision.linked.keys()].sort((a, b) => a - b)) await lockPeriod(tx, id);
      const now = await countedReports(tx, periodId);
      const numbers = await latestNumbers(tx, [...decision.linked.keys()]);
      // What ties to this period now (a period that made its first estimate from this one meanwhile, say).
      const tied = await linkedComponent(tx, [periodId, ...estimates.map((e) => e.source_period_id)]);
      // Someone approved or published (here or in a period tied to this one), or tied a period to
      // this one, meanwhile: decide again on what is there now.
      if (
        [...decision.linked].some(([id, n]) => (numbers.get(id) ?? 0) !== n) ||
        [...tied].some((id) => !decision.linked.has(id)) ||
        now.map((c) => c.row_set_id).join() !== counted.map((c) => c.row_set_id).join()
      )
        return null;
      const number = numbers.get(periodId) ?? 0;
      const estimateIds = await writeEstimates(tx, periodId, estimates);
      if (estimateIds === null) return null;
      const coverage = await coverageNow(tx, periodId);
      const primary = decision.cells.filter((c) => c.primary_confidential).length;
      const hidden = decision.hidden.filter(Boolean).length;
      const inserted = await tx.execute<{ id: number }>(sql`
        insert into statistics_publications (period_id, number, published_at, published_by, company_ids, row_set_ids, estimate_ids, min_contributors,
          dominance_percentage, protection_percentage, approved, expected, primary_cells, hidden_cells, unprotectable, unprotectable_cells, rules, decided_ms,
          mapping_version)
        values (${periodId}, ${number + 1},
          -- A period published before publications existed keeps the day it was published.
          ${options.mark ? sql`now()` : sql`(select coalesce(published_at, now()) from periods where id = ${periodId})`},
          ${options.actorId}, ${sqlArray(
            counted.map((c) => c.company_id),
            'int',
          )}, ${sqlArray(
            counted.map((c) => c.row_set_id),
            'int',
          )}, ${sqlArray(estimateIds, 'int')},
          ${settings.minContributors}, ${settings.dominancePercentage}::numeric, ${settings.protectionPercentage}::numeric,
          ${coverage.approved}, ${coverage.expected}, ${primary}, ${hidden}, ${decision.unprotectable.length},
          ${JSON.stringify(decision.unprotectable)}::jsonb, ${PUBLICATION_RULES}, ${decision.ms}, ${mappingVersion})
        returning id`);
      const id = inserted.rows[0]!.id;
      const c = decision.cells;
      const reasons = reasonsOf(decision);
      if (c.length) {
        await tx.execute(sql`
          insert into statistics_publication_cells (publication_id, dimension, key_id, volume, value, contributors, max_volume, max_value,
            primary_confidential, hidden, code_ids, estimated, reason)
          select ${id}, x.dimension, x.key_id, x.volume, x.value, x.contributors, x.max_volume, x.max_value, x.primary_confidential, x.hidden,
            case when x.codes = '' then null else string_to_array(x.codes, ',')::int[] end, x.estimated, nullif(x.reason, '')
          from unnest(${sqlArray(
            c.map((x) => x.dimension),
            'text',
          )}, ${sqlArray(
            c.map((x) => x.key_id),
            'int',
          )}, ${sqlArray(
            c.map((x) => x.volume),
            'numeric',
          )}, ${sqlArray(
            c.map((x) => x.value),
            'numeric',
          )}, ${sqlArray(
            c.map((x) => x.contributors),
            'int',
          )}, ${sqlArray(
            c.map((x) => x.max_volume),
            'numeric',
          )}, ${sqlArray(
            c.map((x) => x.max_value),
            'numeric',
          )}, ${sqlArray(
            c.map((x) => String(x.primary_confidential)),
            'text',
          )}::boolean[], ${sqlArray(decision.hidden.map(String), 'text')}::boolean[], ${sqlArray(
            c.map((x) => (x.code_ids ?? []).join(',')),
            'text',
          )}, ${sqlArray(
            c.map((x) => String(x.estimated)),
            'text',
          )}::boolean[], ${sqlArray(
            reasons.map((r) => r ?? ''),
            'text',
          )})
            as x(dimension, key_id, volume, value, contributors, max_volume, max_value, primary_confidential, hidden, codes, estimated, reason)`);
      }
      if (options.mark) await markPublished(tx, periodId);
      return id;
    });
    if (written !== null) return publicationOf(db, written);
    if (attempt >= 3) throw new Error(`The period ${periodId} kept changing while it was being published`);
  }
}

/**
 * Why each cell of a decision is hidden (null: shown): a cell no pattern protects is
 * `unprotectable`, a cell breaking the rules `contributors` or `dominance`, any other `protection`.
 */
export function reasonsOf(decision: Pick<Decision, 'cells' | 'hidden' | 'unprotectable'>): (HiddenReason | null)[] {
  const unprotectable = new Set(decision.unprotectable.filter((u) => u.kind === 'cell' && u.period === undefined).map((u) => `${u.dimension}/${u.key_id}`));
  return decision.cells.map((c, i) => {
    if (!decision.hidden[i]) return null;
    if (unprotectable.has(`${c.dimension}/${c.key_id}`)) return 'unprotectable';
    if (c.primary_confidential) return c.too_few ? 'contributors' : 'dominance';
    return 'protection';
  });
}

const markPublished = (db: Executor, periodId: number) =>
  db.execute(sql`update periods set published_at = coalesce(published_at, now()), updated_at = now() where id = ${periodId}`);

async function publicationOf(db: Executor, id: number): Promise<Publication> {
  const rows = await db.execute<Publication>(sql`select id, number, primary_cells, hidden_cells, decided_ms from statistics_publications where id = ${id}`);
  return rows.rows[0]!;
}

/**
 * What publishing the period now starts from: the organization's settings, the reports it would
 * count, the period's earlier publications, and whether publishing would make a new one (nothing
 * published yet, or something changed since the latest).
 */
export async function publishingState(db: Db, periodId: number) {
  const period = (
    await db.execute<{ organization_id: number }>(sql`select m.organization_id from periods p join markets m on m.id = p.market_id where p.id = ${periodId}`)
  ).rows[0];
  if (!period) throw new Error(`No period ${periodId}`);
  const settings = await settingsOf(db, period.organization_id);
  const counted = await countedReports(db, periodId);
  const previous = await previousPublications(db, periodId);
  const latest = previous.at(-1);
  const estimates = await plannedEstimates(db, periodId, counted);
  const changed =
    !latest || latest.estimate_ids.join() !== estimates.map((e) => e.id ?? 'new').join() || (await changedSince(db, periodId, latest, counted, settings));
  return { settings, counted, previous, latest, changed, estimates };
}

/** A period's coverage as a publication records it: its reports of companies counted in it, and how many are approved. */
export async function coverageNow(db: Executor, periodId: number): Promise<{ approved: number; expected: number }> {
  const rows = await db.execute<{ approved: number; expected: number }>(sql`
    select (count(*) filter (where r.status = 60))::int as approved, count(*)::int as expected
    from reports r join periods p on p.id = r.period_id join companies co on co.id = r.company_id
    where r.period_id = ${periodId} and ${countedCompany(sql`co`, sql`p`)}`);
  return rows.rows[0]!;
}

/** Whether the figures publishing now would show differ from the latest publication's. */
async function changedSince(db: Db, periodId: number, latest: Previous, counted: readonly Counted[], settings: Settings): Promise<boolean> {
  if (latest.row_set_ids.join() !== counted.map((c) => c.row_set_id).join()) return true;
  const states = await publicationStates(db, [periodId], settings);
  return states.get(periodId)?.changed ?? true;
}

export interface PublicationState {
  number: number;
  published_at: string;
  primary_cells: number;
  hidden_cells: number;
  unprotectable: number;
  /** The figures publishing now would show differ (a late approval, a company disabled, groups, sections or settings changed). */
  changed: boolean;
}

/** The latest publication of each period, and whether what publishing now would show differs (reports, groups and sections, settings). */
export async function publicationStates(db: Db, periodIds: readonly number[], settingsNow?: Settings): Promise<Map<number, PublicationState>> {
  const out = new Map<number, PublicationState>();
  if (periodIds.length === 0) return out;
  const latest = await db.execute<{
    id: number;
    period_id: number;
    organization_id: number;
    number: number;
    published_at: string;
    primary_cells: number;
    hidden_cells: number;
    unprotectable: number;
    rules: number;
    min_contributors: number;
    dominance_percentage: string;
    protection_percentage: string;
    reports_changed: boolean;
    mapping_version: number | null;
    mapping_now: number;
  }>(sql`
    select distinct on (s.period_id) s.id, s.period_id, m.organization_id, s.number,
      to_char(s.published_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as published_at, s.primary_cells,
      s.hidden_cells, s.unprotectable, s.rules, s.min_contributors, s.dominance_percentage::text as dominance_percentage, s.protection_percentage::text as protection_percentage,
      (select coalesce(array_agg(r.row_set_id order by r.row_set_id), '{}') from reports r join companies co on co.id = r.company_id
        where r.period_id = p.id and r.status = 60 and r.row_set_id is not null and ${countedCompany(sql`co`, sql`p`)})
        is distinct from (select coalesce(array_agg(x order by x), '{}') from unnest(s.row_set_ids) x) as reports_changed,
      s.mapping_version, coalesce(v.version, 0) as mapping_now
    from statistics_publications s join periods p on p.id = s.period_id join markets m on m.id = p.market_id
    left join code_mapping_versions v on v.organization_id = m.organization_id
    where s.period_id = any(${sqlArray(periodIds, 'int')})
    order by s.period_id, s.number desc`);
  if (latest.rows.length === 0) return out;
  // Approved reports never change, so with the same reports and settings the figures differ only
  // when a group or section adds up other codes now (compared without building any cells: after a
  // group is edited, every period's cells wait for their next read to be rebuilt). Only where the
  // organization's code mapping changed since the publication (its version moved on, or it was
  // published before versions were kept): the comparison is most of a period list's time.
  const toCompare = latest.rows.filter((r) => r.mapping_version === null || r.mapping_version !== r.mapping_now);
  const ids = sqlArray(
    toCompare.map((r) => r.id),
    'int',
  );
  const differing = !toCompare.length
    ? { rows: [] }
    : await db.execute<{ id: number }>(sql`
    with pub as (
      select s.id, p.market_id, m.organization_id from statistics_publications s join periods p on p.id = s.period_id
      join markets m on m.id = p.market_id where s.id = any(${ids})
    ), present as (
      select pub.id as pub_id, pub.market_id, pub.organization_id, pc.key_id as code_id
      from pub join statistics_publication_cells pc on pc.publication_id = pub.id and pc.dimension = 'code'
    ), now as (
      select x.pub_id, 'code_group' as dimension, g.code_group_id as key_id, array_agg(x.code_id order by x.code_id) as code_ids
      from present x join code_group_codes g on g.code_id = x.code_id group by x.pub_id, g.code_group_id
      union all
      select x.pub_id, 'code_section', s.id, array_agg(x.code_id order by x.code_id)
      from present x cross join lateral (${sectionOf(sql`x.code_id`, sql`x.organization_id`, sql`x.market_id`)}) s group by x.pub_id, s.id
    ), was as (
      select publication_id as pub_id, dimension, key_id, code_ids from statistics_publication_cells
      where publication_id = any(${ids}) and dimension in ('code_group', 'code_section')
    )
    select distinct coalesce(now.pub_id, was.pub_id) as id
    from now full join was on was.pub_id = now.pub_id and was.dimension = now.dimension and was.key_id = now.key_id
    where now.code_ids is distinct from was.code_ids`);
  const changedCells = new Set(differing.rows.map((r) => r.id));
  const settings = new Map<number, Settings>();
  for (const r of latest.rows) {
    if (!settings.has(r.organization_id)) settings.set(r.organization_id, settingsNow ?? (await settingsOf(db, r.organization_id)));
    out.set(r.period_id, {
      number: r.number,
      published_at: r.published_at,
      primary_cells: r.primary_cells,
      hidden_cells: r.hidden_cells,
      unprotectable: r.unprotectable,
      changed: r.reports_changed || changedCells.has(r.id) || !sameSettings(settings.get(r.organization_id)!, r) || r.rules < PUBLICATION_RULES,
    });
  }
  return out;
}

/** The code mapping version of the period's organization (code_mapping_versions; 0 before any change). */
async function mappingVersionOf(db: Executor, periodId: number): Promise<number> {
  const { rows } = await db.execute<{ version: number }>(sql`
    select coalesce(v.version, 0) as version from periods p join markets m on m.id = p.market_id
    left join code_mapping_versions v on v.organization_id = m.organization_id where p.id = ${periodId}`);
  return rows[0]?.version ?? 0;
}

/** The publication viewers see of each period: its latest (none before it is published). Reading never publishes. */
export async function currentPublications(db: Executor, periodIds: readonly number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (periodIds.length === 0) return out;
  const rows = await db.execute<{ period_id: number; id: number }>(sql`
    select distinct on (period_id) period_id, id from statistics_publications
    where period_id = any(${sqlArray(periodIds, 'int')}) order by period_id, number desc`);
  for (const r of rows.rows) out.set(r.period_id, r.id);
  return out;
}

/**
 * Publishes, once, every period marked published that has no publication (marked before
 * publications existed, or by hand in the database), oldest first so that an estimate finds its
 * source published. Run by the process that runs jobs when it starts; two processes doing it at
 * once publish each period once (publishPeriod locks the period and finds the other's
 * publication). Until then such a period is not published for viewing (statistics.periods.ts
 * `viewable`). Stops between two periods once `stop()` says so. Returns how many were published.
 */
export async function publishOutstanding(db: Db, stop: () => boolean = () => false): Promise<number> {
  const rows = await db.execute<{ id: number }>(sql`
    select p.id from periods p where p.published_at is not null
      and not exists (select 1 from statistics_publications s where s.period_id = p.id)
    order by p.starts_on, p.id`);
  let done = 0;
  for (const r of rows.rows) {
    if (stop()) break;
    await publishPeriod(db, r.id, { actorId: null, mark: false });
    done++;
  }
  return done;
}

/**
 * The cells of a period's first publication, by "dimension/key", values converted at `rate` and
 * rounded as the answers round them: what a revised figure was first published as.
 */
export async function firstPublished(
  db: Executor,
  periodId: number,
  dimensions: readonly string[],
  rate: string | null,
): Promise<Map<string, { volume: string | null; value: string | null; hidden: boolean }>> {
  const rows = await db.execute<{ dimension: string; key_id: number; volume: string | null; value: string | null; hidden: boolean }>(sql`
    select c.dimension, c.key_id, c.volume::text as volume, round(c.value * coalesce(${rate}::numeric, 1), 4)::text as value, c.hidden
    from statistics_publications s join statistics_publication_cells c on c.publication_id = s.id
    where s.period_id = ${periodId} and s.number = 1 and c.dimension = any(${sqlArray(dimensions, 'text')})`);
  return new Map(rows.rows.map((r) => [`${r.dimension}/${r.key_id}`, { volume: r.volume, value: r.value, hidden: r.hidden }]));
}

/** Coverage as each publication showed it (approved of expected reports at the time), and the settings it was decided with. */
export async function publishedCoverages(
  db: Executor,
  publicationIds: readonly number[],
): Promise<Map<number, { approved: number; expected: number; settings: Settings }>> {
  const out = new Map<number, { approved: number; expected: number; settings: Settings }>();
  if (publicationIds.length === 0) return out;
  const rows = await db.execute<{
    id: number;
    approved: number;
    expected: number;
    min_contributors: number;
    dominance_percentage: string;
    protection_percentage: string;
  }>(sql`select id, approved, expected, min_contributors, dominance_percentage::text as dominance_percentage,
      protection_percentage::text as protection_percentage
    from statistics_publications where id = any(${sqlArray(publicationIds, 'int')})`);
  for (const r of rows.rows)
    out.set(r.id, {
      approved: r.approved,
      expected: r.expected,
      settings: { minContributors: r.min_contributors, dominancePercentage: r.dominance_percentage, protectionPercentage: r.protection_percentage },
    });
  return out;
}
