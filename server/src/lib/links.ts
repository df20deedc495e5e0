import { eq, getTableColumns } from 'drizzle-orm';
import type { AnyPgColumn, PgInsertValue, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from '../db/client.ts';

/** The keys of a table's integer columns: the two ends of a join table's rows. */
type IdKey<T extends PgTable> = {
  [K in keyof T['$inferInsert'] & string]-?: T['$inferInsert'][K] extends number ? K : never;
}[keyof T['$inferInsert'] & string];

/**
 * Makes `ids` the links of one record in a join table (a cluster's markets, a group's codes, …):
 * deletes the record's rows, then inserts one row per id. Run it in the transaction that writes
 * the record; for a record just inserted the delete finds nothing.
 */
export async function replaceLinks<T extends PgTable>(
  tx: Pick<Db, 'delete' | 'insert'>,
  table: T,
  owner: IdKey<T>,
  ownerId: number,
  other: IdKey<T>,
  ids: readonly number[],
): Promise<void> {
  const ownerColumn: AnyPgColumn | undefined = getTableColumns(table)[owner];
  if (!ownerColumn) throw new Error(`${owner} is not a column of the join table`);
  await tx.delete(table).where(eq(ownerColumn, ownerId));
  if (ids.length) await tx.insert(table).values(ids.map((id) => ({ [owner]: ownerId, [other]: id }) as PgInsertValue<T>));
}
