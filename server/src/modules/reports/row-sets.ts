import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { reportRows, reportRowSets, reports } from '../../db/schema.ts';

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

const arrayLiteral = (values: (number | string | null)[]) => `{${values.map((v) => (v === null ? 'NULL' : String(v))).join(',')}}`;

/** Writes rows into a set: one statement, three array parameters unnested by the database. */
export async function insertRows(db: Executor, rowSetId: number, rows: readonly RowFigures[]): Promise<void> {
  if (rows.length === 0) return;
  await db.execute(sql`
    insert into ${reportRows} (row_set_id, code_id, volume, value)
    select ${rowSetId}, code_id, volume, value
    from unnest(${arrayLiteral(rows.map((r) => r.code_id))}::int[], ${arrayLiteral(rows.map((r) => r.volume))}::numeric[],
                ${arrayLiteral(rows.map((r) => r.value))}::numeric[]) as t(code_id, volume, value)`);
}

/** Copies the current rows of one report into a set. */
export async function copyCurrentRows(db: Executor, fromReportId: number, rowSetId: number): Promise<void> {
  await db.execute(sql`
    insert into ${reportRows} (row_set_id, code_id, volume, value)
    select ${rowSetId}, rr.code_id, rr.volume, rr.value
    from ${reportRows} rr join ${reports} r on r.row_set_id = rr.row_set_id
    where r.id = ${fromReportId}`);
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
