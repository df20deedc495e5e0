import { sql, type SQL } from 'drizzle-orm';

export type SqlArrayType = 'int' | 'bigint' | 'text' | 'numeric' | 'date' | 'uuid';

/**
 * A JavaScript array as one SQL array parameter (`$1::int[]`): node-postgres writes the array
 * literal, quoting and escaping every element, so a text containing `,`, `"` or `}` stays one
 * element. (Drizzle spreads a bare array into a list of parameters; `sql.param` keeps it whole.)
 */
export const sqlArray = (values: readonly (string | number | null)[], type: SqlArrayType): SQL => sql`${sql.param([...values])}::${sql.raw(type)}[]`;

/**
 * Rows given as columns of equal length, as a table for `from`: `unnest($1::int[], $2::numeric[])
 * as alias(code_id, volume)`, one array parameter per column.
 */
export function sqlUnnest(alias: string, columns: readonly (readonly [name: string, values: readonly (string | number | null)[], type: SqlArrayType])[]): SQL {
  const arrays = sql.join(
    columns.map(([, values, type]) => sqlArray(values, type)),
    sql`, `,
  );
  return sql`unnest(${arrays}) as ${sql.raw(alias)}(${sql.raw(columns.map(([name]) => name).join(', '))})`;
}
