import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { sqlUnnest } from '../../db/sql-array.ts';
import { codeMarkets, codes, companyCodes, periods, reportRows, reportRowSets, reports } from '../../db/schema.ts';
import { CodeDisabledStatus } from '@mss/contracts/enums';

/**
 * A report's rows live in row sets (schema.ts `reportRowSets`): the report's `row_set_id` names
 * the current one. New rows are written into a new set, which then becomes current in one small
 * update; the other sets of the report are deleted afterwards.
 */

export interface RowFigures {
  code_id: number;
  /** Exact decimal strings, handed to numeric as they are. */
  volume: string | null;
  value: string | null;
}

/** A new, empty row set of the report (not yet its current one). */
export async function createRowSet(db: Executor, reportId: number): Promise<number> {
  const [set] = await db.insert(reportRowSets).values({ report_id: reportId }).returning({ id: reportRowSets.id });
  return set!.id;
}

/** Writes rows into a set: one statement, three array parameters unnested by the database. */
export async function insertRows(db: Executor, rowSetId: number, rows: readonly RowFigures[]): Promise<void> {
  if (rows.length === 0) return;
  await db.execute(sql`
    insert into ${reportRows} (row_set_id, code_id, volume, value)
    select ${rowSetId}, code_id, volume, value
    from ${sqlUnnest('t', [
      ['code_id', rows.map((r) => r.code_id), 'int'],
      ['volume', rows.map((r) => r.volume), 'numeric'],
      ['value', rows.map((r) => r.value), 'numeric'],
    ])}`);
}

/**
 * The current rows of `fromReportId` as `toReportId` may take them today, by the rules an import
 * applies (docs/decisions.md, "Copy from previous period"): a code that is inactive, no longer in
 * the target report's market or no longer reported by its company is left out; the figure of a
 * disabled column (value disabled, volume disabled) is left empty; a row left without figures is
 * left out.
 */
const copyableRows = (fromReportId: number, toReportId: number) => sql`
  select rr.code_id,
         case when c.disabled_status = ${CodeDisabledStatus.VolumeDisabled} then null else rr.volume end as volume,
         case when c.disabled_status = ${CodeDisabledStatus.ValueDisabled} then null else rr.value end as value
  from ${reportRows} rr
  join ${reports} r on r.row_set_id = rr.row_set_id
  join ${codes} c on c.id = rr.code_id
  join ${reports} target on target.id = ${toReportId}
  join ${periods} tp on tp.id = target.period_id
  where r.id = ${fromReportId}
    and c.disabled_status <> ${CodeDisabledStatus.AllDisabled}
    and exists (select 1 from ${codeMarkets} cm where cm.code_id = c.id and cm.market_id = tp.market_id)
    and exists (select 1 from ${companyCodes} cc where cc.code_id = c.id and cc.company_id = target.company_id)
    and (case when c.disabled_status = ${CodeDisabledStatus.VolumeDisabled} then null else rr.volume end is not null
      or case when c.disabled_status = ${CodeDisabledStatus.ValueDisabled} then null else rr.value end is not null)`;

/** How many rows a copy from `fromReportId` into `toReportId` would write, and how many it leaves out. */
export async function countCopyableRows(db: Executor, fromReportId: number, toReportId: number): Promise<{ copied: number; left_out: number }> {
  const { rows } = await db.execute<{ copied: number; total: number }>(sql`
    select (select count(*)::int from (${copyableRows(fromReportId, toReportId)}) c) as copied,
           (select count(*)::int from ${reportRows} rr join ${reports} r on r.row_set_id = rr.row_set_id where r.id = ${fromReportId}) as total`);
  const [row] = rows;
  return { copied: Number(row?.copied ?? 0), left_out: Number(row?.total ?? 0) - Number(row?.copied ?? 0) };
}

/** Copies the current rows of one report into a set of another, as `copyableRows` allows. */
export async function copyCurrentRows(db: Executor, fromReportId: number, toReportId: number, rowSetId: number): Promise<void> {
  await db.execute(sql`
    insert into ${reportRows} (row_set_id, code_id, volume, value)
    select ${rowSetId}, code_id, volume, value from (${copyableRows(fromReportId, toReportId)}) copied`);
}

/** Makes the set the report's current one (the one it replaces goes with `deleteStaleRowSets`). */
export async function setCurrentRowSet(db: Executor, reportId: number, rowSetId: number): Promise<void> {
  await db.update(reports).set({ row_set_id: rowSetId }).where(eq(reports.id, reportId));
}

/** Deletes the report's sets other than its current one: replaced, or written by an invalid, failed or interrupted import. */
export async function deleteStaleRowSets(db: Executor, reportId: number): Promise<void> {
  await db
    .delete(reportRowSets)
    .where(
      and(
        eq(reportRowSets.report_id, reportId),
        sql`${reportRowSets.id} is distinct from (select ${reports.row_set_id} from ${reports} where ${reports.id} = ${reportId})`,
      ),
    );
}
