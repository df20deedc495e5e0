import { sql } from 'drizzle-orm';
import { PUBLISHED_DIMENSIONS, type PublicationPattern, type PublicationPreview, type UnprotectableSum } from '@mss/contracts/periods';
import type { Db } from '../../../db/client.ts';
import { sqlArray } from '../../../db/sql-array.ts';
import { countedCompany } from '../figures/statistics.cells.ts';
import type { CellDimension, Unprotectable } from './statistics.pattern.ts';
import { type Counted, coverageNow, decide, type Previous, publishingState } from './statistics.publications.ts';

/*
 * What publishing a period would show viewers, before the administrator confirms (docs/decisions.md
 * "Publishing"): the pattern decided exactly as publishing decides it, written nowhere.
 *
 * - `now`: the publication publishing now would make (or, when nothing changed since the latest,
 *   the latest as it stands): its cells and hidden cells by breakdown, whether the total is hidden,
 *   and the sums no pattern can protect any more, with the reason.
 * - `later`: for a period whose reports are not all approved, what publishing again would show
 *   once they are. A late report makes the difference of the two publications that company's own
 *   figures, every cell of which must stay uncertain, and the only way is to hide cells of the
 *   second publication around them: often the total and the sections. The missing reports are
 *   simulated by each company's latest approved report of an earlier period of the market (its
 *   figures are the best guess of what it will send); the second publication is decided against
 *   the first as it would be. With estimates for missing reports (statistics.estimates.ts), the
 *   first publication counts them, and the difference a late report makes is report minus
 *   estimate: far less of the second publication needs hiding.
 */

type Cell = { dimension: CellDimension; key_id: number; primary_confidential: boolean };

/** A decided pattern as the preview tells it. */
function patternOf(cells: readonly Cell[], hidden: readonly boolean[], unprotectable: UnprotectableSum[]): PublicationPattern {
  const by_dimension = PUBLISHED_DIMENSIONS.map((dimension) => ({
    dimension,
    cells: cells.filter((c) => c.dimension === dimension).length,
    hidden: cells.filter((c, i) => c.dimension === dimension && hidden[i]).length,
  }));
  return {
    cells: cells.length,
    hidden: hidden.filter(Boolean).length,
    primary: cells.filter((c) => c.primary_confidential).length,
    by_dimension,
    total_hidden: cells.some((c, i) => c.dimension === 'total' && hidden[i]),
    unprotectable,
  };
}

/** The sums no pattern protects, with the names of their codes, groups and sections. */
async function named(db: Db, list: readonly Unprotectable[]): Promise<UnprotectableSum[]> {
  const ids = (dimension: CellDimension) => [...new Set(list.filter((u) => u.dimension === dimension).map((u) => u.key_id))];
  const names = new Map<string, string>();
  const put = (dimension: CellDimension, rows: { id: number; name: string }[]) => rows.forEach((r) => names.set(`${dimension}/${r.id}`, r.name));
  if (ids('code').length)
    put(
      'code',
      (await db.execute<{ id: number; name: string }>(sql`select id, code || ' ' || name as name from codes where id = any(${sqlArray(ids('code'), 'int')})`))
        .rows,
    );
  if (ids('code_group').length)
    put(
      'code_group',
      (await db.execute<{ id: number; name: string }>(sql`select id, title as name from code_groups where id = any(${sqlArray(ids('code_group'), 'int')})`))
        .rows,
    );
  if (ids('code_section').length)
    put(
      'code_section',
      (await db.execute<{ id: number; name: string }>(sql`select id, name from code_sections where id = any(${sqlArray(ids('code_section'), 'int')})`)).rows,
    );
  const periodIds = [...new Set(list.flatMap((u) => (u.period === undefined ? [] : [u.period])))];
  const titles = new Map(
    periodIds.length
      ? (await db.execute<{ id: number; title: string }>(sql`select id, title from periods where id = any(${sqlArray(periodIds, 'int')})`)).rows.map((r) => [
          r.id,
          r.title,
        ])
      : [],
  );
  return list.map(({ period, ...u }) => ({
    ...u,
    name: u.dimension === 'total' ? null : (names.get(`${u.dimension}/${u.key_id}`) ?? null),
    period: period === undefined ? null : (titles.get(period) ?? null),
  }));
}

/** The reports of the period not approved, of companies counted in it, and each company's latest approved report of an earlier period of the market. */
async function missingReports(db: Db, periodId: number): Promise<{ company_id: number; row_set_id: number | null }[]> {
  const rows = await db.execute<{ company_id: number; row_set_id: number | null }>(sql`
    select r.company_id, (
      select e.row_set_id from reports e join periods ep on ep.id = e.period_id
      where e.company_id = r.company_id and ep.market_id = p.market_id and ep.ends_on < p.starts_on and e.status = 60 and e.row_set_id is not null
      order by ep.ends_on desc limit 1
    ) as row_set_id
    from reports r join periods p on p.id = r.period_id join companies co on co.id = r.company_id
    where r.period_id = ${periodId} and r.status <> 60 and ${countedCompany(sql`co`, sql`p`)}
    order by r.company_id`);
  return rows.rows;
}

export async function previewPublication(db: Db, periodId: number): Promise<PublicationPreview> {
  const { settings, counted, previous, latest, changed, estimates } = await publishingState(db, periodId);

  // Now: the new publication, or the latest when nothing changed.
  let first: Previous;
  let now: PublicationPattern;
  if (changed) {
    const decision = await decide(db, periodId, counted, previous, settings, estimates);
    now = patternOf(decision.cells, decision.hidden, await named(db, decision.unprotectable));
    first = {
      id: 0,
      number: (latest?.number ?? 0) + 1,
      company_ids: counted.map((c) => c.company_id),
      row_set_ids: counted.map((c) => c.row_set_id),
      estimate_ids: [],
      estimates,
      cells: decision.cells.map((c, i) => ({ ...c, hidden: decision.hidden[i]! })),
    };
  } else {
    first = latest!;
    const stored = (
      await db.execute<{ unprotectable_cells: Unprotectable[] }>(sql`select unprotectable_cells from statistics_publications where id = ${latest!.id}`)
    ).rows[0]!;
    now = patternOf(
      latest!.cells,
      latest!.cells.map((c) => c.hidden),
      await named(db, stored.unprotectable_cells),
    );
  }

  const missing = await missingReports(db, periodId);
  const coverage = await coverageNow(db, periodId);
  let later: PublicationPreview['later'] = null;
  // A company an earlier publication counted (its report was sent back since) is simulated by what the latest of them published.
  const published = new Map(previous.flatMap((p) => p.company_ids.map((c, i) => [c, p.row_set_ids[i]!] as const)));
  const simulated: Counted[] = missing.flatMap((m) => {
    const rowSet = published.get(m.company_id) ?? m.row_set_id;
    return rowSet === null ? [] : [{ company_id: m.company_id, row_set_id: rowSet }];
  });
  if (simulated.length) {
    const all = [...counted, ...simulated];
    const history = changed ? [...previous, first] : previous;
    // The companies still missing keep their estimates.
    const simulatedCompanies = new Set(simulated.map((c) => c.company_id));
    const decision = await decide(
      db,
      periodId,
      all,
      history,
      settings,
      estimates.filter((e) => !simulatedCompanies.has(e.company_id)),
    );
    later = {
      simulated: simulated.length,
      unknown: missing.length - simulated.length,
      pattern: patternOf(decision.cells, decision.hidden, await named(db, decision.unprotectable)),
    };
  }
  const blanks = (p: PublicationPattern) => p.total_hidden || p.hidden * 2 > p.cells;
  return {
    number: first.number,
    changed,
    estimated: changed ? estimates.length : first.estimate_ids.length,
    coverage,
    now,
    later,
    advice: later && blanks(later.pattern) ? 'wait' : null,
  };
}
