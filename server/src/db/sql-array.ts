import { sql, type SQL } from 'drizzle-orm';

export type SqlArrayType = 'int' | 'bigint' | 'text' | 'numeric' | 'date' | 'uuid';

/**
 * A JavaScript array as one SQL array parameter (`$1::int[]`): node-postgres writes the array
 * literal, quoting and escaping every element, so a text containing `,`, `"` or `}` stays one
 * element. (Drizzle spreads a bare array into a list of parameters; `sql.param` keeps it whole.)
 */
export const sqlArray = (values: readonly (string | number | null)[], type: SqlArrayType): SQL => sql`${sql.param([...values])}::${sql.raw(type)}[]`;
