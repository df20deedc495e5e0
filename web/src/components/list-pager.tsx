import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Group, Pagination, Text } from '@mantine/core';
import './list-texts.ts';

/**
 * A list's filters and page in the URL (reload and Back keep them): `set(name, value)` writes one,
 * 'all' or null removing it; a filter's change goes back to the first page (and clears the names
 * in `resets`) and replaces the history entry, a page's change adds one.
 */
export function useListSearch(resets: Record<string, readonly string[]> = {}) {
  const [search, setSearch] = useSearchParams();
  /** Writes several at once (one history entry); each as `set` would. */
  const setAll = (values: Record<string, string | null>) =>
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [name, value] of Object.entries(values)) {
          if (value === null || value === 'all') next.delete(name);
          else next.set(name, value);
          if (name !== 'page') next.delete('page');
          for (const other of resets[name] ?? []) next.delete(other);
        }
        return next;
      },
      { replace: !('page' in values) },
    );
  const set = (name: string, value: string | null) => setAll({ [name]: value });
  const clear = () => setSearch(new URLSearchParams(), { replace: true });
  return { search, set, setAll, clear };
}

/** The rows of page `page` (1-based, clamped to the last page) of `items`, and how many pages there are. */
export function pageOf<T>(items: readonly T[], page: number, size: number): { rows: T[]; page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(items.length / size));
  const current = Math.min(Math.max(1, page), pages);
  return { rows: items.slice((current - 1) * size, current * size), page: current, pages };
}

/** "21–40 of 72" and the page buttons, under a long list; nothing when it fits on one page. */
export function ListPager({ total, page, size, onPage }: { total: number; page: number; size: number; onPage: (page: number) => void }) {
  const { t } = useTranslation();
  const pages = Math.ceil(total / size);
  if (pages <= 1) return null;
  return (
    <Group justify="space-between" wrap="wrap" gap="xs">
      <Text size="sm" c="dimmed" data-testid="list-showing">
        {t('list.showing', { from: (page - 1) * size + 1, to: Math.min(page * size, total), total })}
      </Text>
      <Pagination
        total={pages}
        value={page}
        onChange={onPage}
        size="sm"
        aria-label={t('list.pages')}
        getControlProps={(control) => ({ 'aria-label': t(`admin.list.${control}`) })}
      />
    </Group>
  );
}
