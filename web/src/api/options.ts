import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminUser, Code, CodeSection, CompanyListItem, Currency, Market, Organization } from '@mss/contracts/admin';
import { fetchAllPages } from './resource.ts';

/**
 * Choices of the pickers in forms: every record of a list endpoint. The keys start with the
 * resource's key root, so a change to the resource (which invalidates the root) refreshes them.
 */
const all = <T>(key: string, path: string, organizationId?: number | null) =>
  queryOptions({
    queryKey: [key, 'all', organizationId ?? null] as const,
    queryFn: () => fetchAllPages<T>(path, { organization_id: organizationId ?? undefined }),
    staleTime: 60_000,
  });

export const optionQueries = {
  currencies: () => all<Currency>('currencies', 'admin/currencies'),
  organizations: () => all<Organization>('organizations', 'admin/organizations'),
  markets: (organizationId?: number | null) => all<Market>('markets', 'markets', organizationId),
  codes: (organizationId?: number | null) => all<Code>('codes', 'admin/codes', organizationId),
  codeSections: (organizationId?: number | null) => all<CodeSection>('code_sections', 'admin/code_sections', organizationId),
  companies: () => all<CompanyListItem>('companies', 'companies/companies-with-disabled'),
  users: (organizationId?: number | null) => all<AdminUser>('users', 'admin/users', organizationId),
};

export interface Option<V extends string | number = number> {
  value: V;
  label: string;
}

/** Picker choices: the records of a query as {value: id, label}. `enabled: false` loads nothing. */
export function useOptions<T extends { id: number }>(
  query: ReturnType<typeof all<T>>,
  label: (row: T) => string,
  enabled = true,
): { options: Option[]; rows: T[]; loading: boolean } {
  const result = useQuery({ ...query, enabled });
  const rows = result.data ?? [];
  return { options: rows.map((row) => ({ value: row.id, label: label(row) })), rows, loading: enabled && result.isPending };
}

export const marketLabel = (m: { international_name: string; iso_code: string }) => `${m.international_name} (${m.iso_code})`;
export const codeLabel = (c: { code: string; name: string }) => `${c.code} – ${c.name}`;
