import { queryOptions, useQuery } from '@tanstack/react-query';
import { fetchAllPages, type PageRoute, type PageRow } from './resource.ts';

/**
 * Choices of the pickers in forms: every record of a list endpoint. The keys start with the
 * resource's key root, so a change to the resource (which invalidates the root) refreshes them.
 */
const choices = <T>(key: string, fetch: () => Promise<T[]>, organizationId?: number | null) =>
  queryOptions({ queryKey: [key, 'all', organizationId ?? null] as const, queryFn: fetch, staleTime: 60_000 });

const all = <P extends PageRoute>(key: string, route: P, organizationId?: number | null) =>
  choices<PageRow<P>>(key, () => fetchAllPages(route, { organization_id: organizationId ?? undefined }), organizationId);

export const optionQueries = {
  currencies: () => all('currencies', '/admin/currencies'),
  organizations: () => all('organizations', '/admin/organizations'),
  markets: (organizationId?: number | null) => all('markets', '/markets', organizationId),
  codes: (organizationId?: number | null) => all('codes', '/admin/codes', organizationId),
  codeSections: (organizationId?: number | null) => all('code_sections', '/admin/code_sections', organizationId),
  companies: () => all('companies', '/companies/companies-with-disabled'),
  users: (organizationId?: number | null) => all('users', '/admin/users', organizationId),
};

export interface Option<V extends string | number = number> {
  value: V;
  label: string;
}

/** Picker choices: the records of a query as {value: id, label}. `enabled: false` loads nothing. */
export function useOptions<T extends { id: number }>(
  query: ReturnType<typeof choices<T>>,
  label: (row: T) => string,
  enabled = true,
): { options: Option[]; rows: T[]; loading: boolean } {
  const result = useQuery({ ...query, enabled });
  const rows = result.data ?? [];
  return { options: rows.map((row) => ({ value: row.id, label: label(row) })), rows, loading: enabled && result.isPending };
}

export const marketLabel = (m: { international_name: string; iso_code: string }) => `${m.international_name} (${m.iso_code})`;
export const codeLabel = (c: { code: string; name: string }) => `${c.code} – ${c.name}`;
