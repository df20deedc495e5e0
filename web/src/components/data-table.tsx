import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type QueryKey, useQuery, type UseQueryOptions } from '@tanstack/react-query';
import { Center, Group, Loader, Pagination, Select, Stack, Table, Text, TextInput, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { MIN_SEARCH_LENGTH } from '@mss/contracts/constants';
import { errorMessage } from './feedback.tsx';
import type { ListParams, Page } from '../api/resource.ts';
import { OrganizationFilter } from './organization-field.tsx';

export interface Column<T> {
  /** The wire name: sent as `sort` when the column is sortable. */
  key: string;
  label: string;
  sortable?: boolean;
  render?: (row: T) => ReactNode;
}

export interface DataTableProps<T extends object, K extends QueryKey = QueryKey> {
  /** Accessible name of the table (usually the screen title). */
  label: string;
  query: (params: ListParams) => UseQueryOptions<Page<T>, Error, Page<T>, K>;
  columns: Column<T>[];
  /** Initial sort; without it the server's default order applies. */
  defaultSort?: { sort: string; direction: 'asc' | 'desc' };
  searchable?: boolean;
  /** A super-admin may narrow the list to one organization (organization-owned records). */
  organizationFilter?: boolean;
  rowActions?: (row: T) => ReactNode;
  perPage?: number;
  /** Milliseconds the search waits for typing to stop. */
  searchDelay?: number;
  /** The key of a row (default: its `id`), for records named otherwise (a uuid). */
  rowKey?: (row: T) => string | number;
  /** Filters of the list's own, shown next to the search (their values belong in `query`). */
  filters?: ReactNode;
}

export const PER_PAGE_CHOICES = ['10', '25', '50', '100'];

/** The search sent to the server: trimmed, and only when longer than 2 characters (spec §5). */
export function effectiveSearch(text: string): string | undefined {
  const term = text.trim();
  return term.length >= MIN_SEARCH_LENGTH ? term : undefined;
}

function SortIcon({ state }: { state: 'asc' | 'desc' | 'none' }) {
  return (
    <Text span size="xs" c={state === 'none' ? 'dimmed' : undefined} aria-hidden>
      {state === 'asc' ? '▲' : state === 'desc' ? '▼' : '↕'}
    </Text>
  );
}

/**
 * The list of every administration screen: server-side pagination and sorting, a debounced
 * search, loading, empty and error states, and row actions.
 */
export function DataTable<T extends object, K extends QueryKey = QueryKey>({
  label,
  query,
  columns,
  defaultSort,
  searchable = true,
  organizationFilter = false,
  rowActions,
  perPage: initialPerPage = 25,
  searchDelay = 300,
  rowKey = (row) => (row as { id: number }).id,
  filters,
}: DataTableProps<T, K>) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(initialPerPage);
  const [sort, setSort] = useState(defaultSort);
  const [searchText, setSearchText] = useState('');
  const [organizationId, setOrganizationId] = useState<number | null>(null);
  const [debounced] = useDebouncedValue(searchText, searchDelay);
  const search = effectiveSearch(debounced);

  const params: ListParams = {
    page,
    per_page: perPage,
    ...(sort ? { sort: sort.sort, direction: sort.direction } : {}),
    ...(search ? { search } : {}),
    ...(organizationId ? { organization_id: organizationId } : {}),
  };
  // A new search starts from the first page (checked at render, so no extra request is made).
  const [lastSearch, setLastSearch] = useState(search);
  if (lastSearch !== search) {
    setLastSearch(search);
    setPage(1);
  }
  const result = useQuery({ ...query(params), meta: { handlesErrors: true } });
  const rows = result.data?.data ?? [];
  const total = result.data?.meta.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / perPage));

  const toggleSort = (key: string) => {
    setSort((current) => (current?.sort === key ? { sort: key, direction: current.direction === 'asc' ? 'desc' : 'asc' } : { sort: key, direction: 'asc' }));
    setPage(1);
  };

  const colSpan = columns.length + (rowActions ? 1 : 0);
  let body: ReactNode;
  if (result.isPending) {
    body = (
      <Table.Tr>
        <Table.Td colSpan={colSpan}>
          <Center py="lg">
            <Loader size="sm" aria-label={t('app.loading')} />
          </Center>
        </Table.Td>
      </Table.Tr>
    );
  } else if (result.isError) {
    body = (
      <Table.Tr>
        <Table.Td colSpan={colSpan}>
          <Text c="red" ta="center" py="md" role="alert">
            {errorMessage(result.error)}
          </Text>
        </Table.Td>
      </Table.Tr>
    );
  } else if (!rows.length) {
    body = (
      <Table.Tr>
        <Table.Td colSpan={colSpan}>
          <Text c="dimmed" ta="center" py="md" data-testid="empty-state">
            {search ? t('admin.list.no_matches', { search }) : t('admin.list.empty')}
          </Text>
        </Table.Td>
      </Table.Tr>
    );
  } else {
    body = rows.map((row) => (
      <Table.Tr key={rowKey(row)}>
        {columns.map((column) => (
          <Table.Td key={column.key}>{column.render ? column.render(row) : String((row as Record<string, unknown>)[column.key] ?? '')}</Table.Td>
        ))}
        {rowActions && (
          <Table.Td>
            <Group gap="xs" justify="flex-end" wrap="nowrap">
              {rowActions(row)}
            </Group>
          </Table.Td>
        )}
      </Table.Tr>
    ));
  }

  const first = total ? (page - 1) * perPage + 1 : 0;
  const last = Math.min(total, page * perPage);

  return (
    <Stack gap="sm">
      {(searchable || organizationFilter || filters) && (
        <Group gap="sm" align="flex-end">
          {searchable && (
            <TextInput
              type="search"
              label={t('admin.list.search')}
              placeholder={t('admin.list.search_placeholder')}
              value={searchText}
              onChange={(event) => setSearchText(event.currentTarget.value)}
              w={{ base: '100%', sm: 320 }}
              description={searchText.trim() && !effectiveSearch(searchText) ? t('admin.list.search_hint') : undefined}
            />
          )}
          {organizationFilter && (
            <OrganizationFilter
              value={organizationId}
              onChange={(id) => {
                setOrganizationId(id);
                setPage(1);
              }}
            />
          )}
          {filters}
        </Group>
      )}
      <Table.ScrollContainer minWidth={600}>
        <Table striped highlightOnHover withTableBorder verticalSpacing="xs" aria-label={label} aria-busy={result.isFetching}>
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => {
                const state = sort?.sort === column.key ? sort.direction : 'none';
                return (
                  <Table.Th key={column.key} aria-sort={state === 'asc' ? 'ascending' : state === 'desc' ? 'descending' : undefined}>
                    {column.sortable ? (
                      <UnstyledButton onClick={() => toggleSort(column.key)} fw={700} fz="sm">
                        <Group gap={4} wrap="nowrap">
                          {column.label}
                          <SortIcon state={state} />
                        </Group>
                      </UnstyledButton>
                    ) : (
                      column.label
                    )}
                  </Table.Th>
                );
              })}
              {rowActions && (
                <Table.Th>
                  <VisuallyHidden>{t('admin.list.actions')}</VisuallyHidden>
                </Table.Th>
              )}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>{body}</Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group justify="space-between" gap="sm">
        <Text size="sm" c="dimmed" data-testid="list-range">
          {t('admin.list.range', { first, last, total })}
        </Text>
        <Group gap="sm">
          <Select
            aria-label={t('admin.list.per_page')}
            data={PER_PAGE_CHOICES}
            value={String(perPage)}
            onChange={(value) => {
              setPerPage(Number(value ?? initialPerPage));
              setPage(1);
            }}
            allowDeselect={false}
            w={80}
            size="xs"
          />
          <Pagination total={pages} value={page} onChange={setPage} size="sm" getControlProps={(control) => ({ 'aria-label': t(`admin.list.${control}`) })} />
        </Group>
      </Group>
    </Stack>
  );
}
