import { type ReactNode, useCallback, useContext, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { UNSAFE_DataRouterContext, useLocation, useNavigation, useSearchParams } from 'react-router';
import { type QueryKey, useQuery, type UseQueryOptions } from '@tanstack/react-query';
import { Center, Group, Loader, Pagination, Select, Stack, Table, Text, TextInput, UnstyledButton, VisuallyHidden } from '@mantine/core';
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
  /** The values of `filters` in one string: when it changes, the list goes back to its first page. */
  filterKey?: string;
  /**
   * Prefix of the list's parameters in the URL (`deliveries_page`), for a screen with more than
   * one list; without it the list's parameters are `page`, `per_page`, `sort`, `direction`,
   * `search` and `organization_id`.
   */
  stateKey?: string;
}
export const PER_PAGE_CHOICES = ['10', '25', '50', '100'];

/** The search sent to the server: trimmed, and only when longer than 2 characters (docs/product.md §5). */
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

type Direction = 'asc' | 'desc';
type StateName = 'page' | 'per_page' | 'sort' | 'direction' | 'search' | 'organization_id';

const positiveInteger = (text: string | null): number | undefined => {
  const value = Number(text);
  return text !== null && Number.isInteger(value) && value > 0 ? value : undefined;
};

/**
 * The list of every administration screen: server-side pagination and sorting, a debounced
 * search, loading, empty and error states, and row actions.
 *
 * Its state (page, rows per page, sort, direction, search, organization) lives in the URL query
 * string, so reload, a shared link and Back show the same list. Paging, sorting and filters push
 * a history entry (Back returns to the previous page or order); typing in the search replaces the
 * entry, so Back does not step through every pause in the typing. Values equal to the defaults are
 * left out of the URL.
 */
export function DataTable<T extends object, K extends QueryKey = QueryKey>({
  label,
  query,
  columns,
  defaultSort,
  searchable = true,
  organizationFilter = false,
  rowActions,
  perPage: defaultPerPage = 25,
  searchDelay = 300,
  rowKey = (row) => (row as { id: number }).id,
  filters,
  filterKey,
  stateKey,
}: DataTableProps<T, K>) {
  const { t } = useTranslation();
  const [searchParams, setSearchParams] = useSearchParams();
  const name = useCallback((state: StateName) => (stateKey ? `${stateKey}_${state}` : state), [stateKey]);

  // What the URL says, each value checked (a hand-edited URL falls back to the defaults).
  const page = positiveInteger(searchParams.get(name('page'))) ?? 1;
  const perPageText = searchParams.get(name('per_page'));
  const perPage = perPageText && PER_PAGE_CHOICES.includes(perPageText) ? Number(perPageText) : defaultPerPage;
  const sortParam = searchParams.get(name('sort'));
  const directionParam = searchParams.get(name('direction'));
  const sort =
    sortParam && columns.some((column) => column.sortable && column.key === sortParam)
      ? { sort: sortParam, direction: (directionParam === 'desc' ? 'desc' : 'asc') as Direction }
      : defaultSort;
  const urlSearch = searchable ? (searchParams.get(name('search')) ?? '') : '';
  const search = effectiveSearch(urlSearch);
  const organizationId = organizationFilter ? (positiveInteger(searchParams.get(name('organization_id'))) ?? null) : null;

  /** Writes some of the list's parameters (null or the default removes one) onto the current URL. */
  // Once a link to another screen was followed, this list must not write its search onto the
  // address: it would land on the next screen's URL. The router may be on its way (a guard
  // running) or already there while React still shows this screen (the next one's code loading
  // in a transition): the router's own location says which.
  const leaving = useNavigation().state !== 'idle';
  const { pathname } = useLocation();
  const router = useContext(UNSAFE_DataRouterContext)?.router;
  const latest = useRef({ searchParams, setSearchParams, leaving, pathname });
  useEffect(() => {
    latest.current = { searchParams, setSearchParams, leaving, pathname };
  });
  const left = () => latest.current.leaving || (router !== undefined && router.state.location.pathname !== latest.current.pathname);
  const update = useCallback(
    (changes: Partial<Record<StateName, string | number | null>>, replace = false) => {
      const next = new URLSearchParams(latest.current.searchParams);
      for (const [state, value] of Object.entries(changes)) {
        if (value === null || value === '') next.delete(name(state as StateName));
        else next.set(name(state as StateName), String(value));
      }
      latest.current.setSearchParams(next, { replace, preventScrollReset: true });
    },
    [name],
  );

  // The search box holds what is typed; the URL gets it once typing pauses (and the list goes
  // back to its first page). Back or a link that changes the URL's search shows it in the box.
  const [searchText, setSearchText] = useState(urlSearch);
  const [shownUrlSearch, setShownUrlSearch] = useState(urlSearch);
  if (shownUrlSearch !== urlSearch) {
    setShownUrlSearch(urlSearch);
    setSearchText(urlSearch);
  }
  const typing = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(typing.current), []);
  const onSearchChange = (text: string) => {
    setSearchText(text);
    clearTimeout(typing.current);
    typing.current = setTimeout(() => {
      if (left()) return;
      const current = latest.current.searchParams.get(name('search')) ?? '';
      if (text === current) return;
      // A search that changes what is sent starts from the first page.
      const resets = effectiveSearch(text) !== effectiveSearch(current);
      update({ search: text, ...(resets ? { page: null } : {}) }, true);
    }, searchDelay);
  };

  // The list's own filters changed: back to the first page.
  const shownFilter = useRef(filterKey);
  useEffect(() => {
    if (shownFilter.current === filterKey) return;
    shownFilter.current = filterKey;
    update({ page: null }, true);
  }, [filterKey, update]);

  const params: ListParams = {
    page,
    per_page: perPage,
    ...(sort ? { sort: sort.sort, direction: sort.direction } : {}),
    ...(search ? { search } : {}),
    ...(organizationId ? { organization_id: organizationId } : {}),
  };
  const result = useQuery({ ...query(params), meta: { handlesErrors: true } });
  const rows = result.data?.data ?? [];
  const total = result.data?.meta.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / perPage));
  // Until the page asked for is there (the first load, or another page showing the previous one
  // meanwhile), the range is not known: a loader stands in for it.
  const loading = result.isPending || result.isPlaceholderData;

  const toggleSort = (key: string) => {
    const direction: Direction = sort?.sort === key && sort.direction === 'asc' ? 'desc' : 'asc';
    update({ sort: key, direction, page: null });
  };

  const colSpan = columns.length + (rowActions ? 1 : 0);
  // A table wider than a phone scrolls sideways: its loader and messages stay where one looks, not centred on the whole width.
  const inView = { position: 'sticky', left: 0, maxWidth: 'calc(100vw - 2 * var(--mantine-spacing-md) - 2rem)' } as const;
  let body: ReactNode;
  if (result.isPending) {
    body = (
      <Table.Tr>
        <Table.Td colSpan={colSpan}>
          <Center py="lg" style={inView}>
            <Loader size="sm" aria-label={t('app.loading')} />
          </Center>
        </Table.Td>
      </Table.Tr>
    );
  } else if (result.isError) {
    body = (
      <Table.Tr>
        <Table.Td colSpan={colSpan}>
          <Text c="red" ta="center" py="md" role="alert" style={inView}>
            {errorMessage(result.error)}
          </Text>
        </Table.Td>
      </Table.Tr>
    );
  } else if (!rows.length) {
    body = (
      <Table.Tr>
        <Table.Td colSpan={colSpan}>
          <Text c="dimmed" ta="center" py="md" data-testid="empty-state" style={inView}>
            {search ? t('admin.list.no_matches', { search }) : t('common.empty')}
          </Text>
        </Table.Td>
      </Table.Tr>
    );
  } else {
    body = rows.map((row) => (
      <Table.Tr key={rowKey(row)}>
        {columns.map((column) => (
          <Table.Td key={column.key} data-label={column.label}>
            {column.render ? column.render(row) : String((row as Record<string, unknown>)[column.key] ?? '')}
          </Table.Td>
        ))}
        {rowActions && (
          <Table.Td data-actions>
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
              onChange={(event) => onSearchChange(event.currentTarget.value)}
              w={{ base: '100%', sm: 320 }}
              description={searchText.trim() && !effectiveSearch(searchText) ? t('admin.list.search_hint') : undefined}
            />
          )}
          {organizationFilter && <OrganizationFilter value={organizationId} onChange={(id) => update({ organization_id: id, page: null })} />}
          {filters}
        </Group>
      )}
      <Table.ScrollContainer minWidth={600}>
        {/* On a phone each row is a card (stacked-tables.css). */}
        <Table striped highlightOnHover withTableBorder verticalSpacing="xs" aria-label={label} aria-busy={result.isFetching} data-stack>
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => {
                const state = sort?.sort === column.key ? sort.direction : 'none';
                return (
                  <Table.Th
                    key={column.key}
                    aria-sort={state === 'asc' ? 'ascending' : state === 'desc' ? 'descending' : undefined}
                    // The whole cell is the sort button: no padding of the cell's own around it.
                    p={column.sortable ? 0 : undefined}
                  >
                    {column.sortable ? (
                      <UnstyledButton
                        onClick={() => toggleSort(column.key)}
                        fw={700}
                        fz="sm"
                        w="100%"
                        h="100%"
                        py="xs"
                        px="xs"
                        display="block"
                        data-testid="sort-button"
                      >
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
        {loading ? (
          <Loader size="xs" aria-label={t('app.loading')} data-testid="list-range-loading" />
        ) : result.isError ? (
          <span />
        ) : (
          <Text size="sm" c="dimmed" data-testid="list-range">
            {t('admin.list.range', { first, last, total })}
          </Text>
        )}
        <Group gap="sm">
          <Select
            aria-label={t('admin.list.per_page')}
            data={PER_PAGE_CHOICES}
            value={String(perPage)}
            onChange={(value) => update({ per_page: value === null || Number(value) === defaultPerPage ? null : value, page: null })}
            allowDeselect={false}
            w={80}
            size="xs"
          />
          <Pagination
            total={pages}
            value={page}
            onChange={(next) => update({ page: next === 1 ? null : next })}
            size="sm"
            getControlProps={(control) => ({ 'aria-label': t(`admin.list.${control}`) })}
          />
        </Group>
      </Group>
    </Stack>
  );
}
