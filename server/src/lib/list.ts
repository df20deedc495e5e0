import { asc, desc, ilike, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { type ListMeta, type ListQuery, MIN_SEARCH_LENGTH } from '@mss/contracts/common';
import { validationError } from '../errors.ts';

/** What every list endpoint answers. */
export interface Paged<T> {
  data: T[];
  meta: ListMeta;
}

export interface ListSpec {
  /** Sortable columns by their wire name; the first is the default. */
  sortable: Record<string, AnyPgColumn | SQL>;
  /** Columns searched (case-insensitive substring) when a search is given. */
  searchable: (AnyPgColumn | SQL)[];
  /** Sort names whose empty values (null) come last in either direction (PostgreSQL puts them first when descending). */
  nullsLast?: string[];
}

export interface ListPlan {
  orderBy: SQL[];
  search: SQL | undefined;
  limit: number;
  offset: number;
  meta: (total: number) => ListMeta;
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Turns the list query of every list endpoint into ORDER BY, a search condition, LIMIT and
 * OFFSET. A search must be longer than 2 characters (docs/product.md §5); an unknown sort column is a 422.
 */
export function planList(query: ListQuery, spec: ListSpec): ListPlan {
  const names = Object.keys(spec.sortable);
  const sortName = query.sort ?? names[0]!;
  const column = spec.sortable[sortName];
  if (!column) throw validationError('sort', 'validation.in');
  let search: SQL | undefined;
  if (query.search !== undefined && query.search.trim() !== '') {
    const term = query.search.trim();
    if (term.length < MIN_SEARCH_LENGTH) throw validationError('search', 'validation.search_min');
    const pattern = `%${escapeLike(term)}%`;
    search = or(...spec.searchable.map((c) => ilike(c as AnyPgColumn, pattern)));
  }
  const direction = query.direction === 'desc' ? desc : asc;
  const first = spec.nullsLast?.includes(sortName) ? sql`${column} ${sql.raw(query.direction === 'desc' ? 'desc' : 'asc')} nulls last` : direction(column);
  // A stable second key, so that pages do not overlap when the sort column has equal values.
  const orderBy = [first, asc(sql`1`)];
  return {
    orderBy,
    search,
    limit: query.per_page,
    offset: (query.page - 1) * query.per_page,
    meta: (total) => ({ page: query.page, per_page: query.per_page, total }),
  };
}
