import { Fragment, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatChangePct, formatDecimal, formatNumber } from '../../../lib/numbers.ts';
import { Center, Group, Loader, Pagination, Select, Stack, Switch, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import type { ComparedPeriod, Report, ReportRowsComparison } from '@mss/contracts/reports';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { errorMessage } from '../../../components/feedback.tsx';
import { effectiveSearch } from '../../../components/data-table.tsx';
import { useEnumLabel } from '../../../lib/enum-options.ts';
import { useReportRows } from '../api/report-rows.ts';

/** Rows shown at a time: a report can hold 100,000 rows, which one table cannot render. */
export const ROWS_PAGE_SIZE = 100;

type RowsSort = 'code' | 'volume_change' | 'value_change';

/** Which periods the rows are compared with, with the status of the company's report in each, and what is marked. */
function ComparisonNote({ comparison }: { comparison: ReportRowsComparison }) {
  const { t } = useTranslation();
  const label = useEnumLabel();
  const compared = [comparison.previous, comparison.last_year].filter((p): p is ComparedPeriod => p !== null);
  const describe = (p: ComparedPeriod) =>
    t('reporting.rows.compare.period', {
      period: p.period.title,
      status: p.report ? label('report_status', p.report.status) : t('reporting.rows.compare.no_report'),
    });
  return (
    <Text size="sm" c="dimmed" data-testid="rows-comparison">
      {compared.length ? t('reporting.rows.compare.with', { periods: compared.map(describe).join(', ') }) : t('reporting.rows.compare.nothing')}
      {comparison.previous &&
        ` ${t('reporting.rows.compare.marked', { percent: formatDecimal(comparison.deviation_percentage), period: comparison.previous.period.title })}`}
    </Text>
  );
}

/** A change against an earlier period, signed ("+12.5 %", "−92.0 %"); bold and marked in a deviating row. */
function Change({ pct, strong = false, label }: { pct: string | null; strong?: boolean; label: string }) {
  if (pct === null) return null;
  return (
    <Text span size="xs" display="block" c={strong ? 'orange' : 'dimmed'} fw={strong ? 700 : undefined} title={label}>
      {formatChangePct(pct)}
    </Text>
  );
}

/** An earlier figure, or a dash where that report has no row for the code. */
function Earlier({ figure }: { figure: string | null }) {
  return figure === null ? (
    <Text span c="dimmed">
      –
    </Text>
  ) : (
    <>{formatDecimal(figure)}</>
  );
}

/**
 * The report's rows with their totals. The rows come a page at a time from the server
 * (GET /reports/{uuid}/rows), searched there on code or name (debounced, longer than 2
 * characters); the totals and the row count are the whole report's, from the report itself.
 *
 * With `compare` (the approval drawer and the import screen: "what changed"), each figure stands
 * beside the same company's figure of the previous period and of the same period last year, with
 * the change; rows that deviate by more than the organization's setting are marked (colour, ⚠ and
 * a text for screen readers), and may be listed alone or sorted by the size of their change. On a
 * phone the earlier figures stack under each figure instead of taking columns of their own.
 */
export function RowsTable({
  report,
  searchDelay = 300,
  compare = false,
}: {
  report: Pick<Report, 'uuid' | 'row_count' | 'totals'> & { period?: Pick<Report['period'], 'title'> };
  searchDelay?: number;
  compare?: boolean;
}) {
  const { t } = useTranslation();
  const narrow = useMediaQuery('(max-width: 40em)') ?? false;
  const [searchText, setSearchText] = useState('');
  const [page, setPage] = useState(1);
  const [onlyDeviating, setOnlyDeviating] = useState(false);
  const [sort, setSort] = useState<RowsSort>('code');
  const [debounced] = useDebouncedValue(searchText, searchDelay);
  const search = effectiveSearch(debounced);
  // A new search, filter or order starts from the first page (checked at render, so no extra request is made).
  const choice = `${search ?? ''}|${onlyDeviating}|${sort}`;
  const [lastChoice, setLastChoice] = useState(choice);
  if (lastChoice !== choice) {
    setLastChoice(choice);
    setPage(1);
  }
  const empty = report.row_count === 0;
  const rows = useReportRows(
    report.uuid,
    {
      page,
      per_page: ROWS_PAGE_SIZE,
      ...(search ? { search } : {}),
      ...(compare && sort !== 'code' ? { sort, direction: 'desc' as const } : {}),
      ...(compare && onlyDeviating ? { deviating: '1' as const } : {}),
    },
    { enabled: !empty },
  );
  if (empty) return <Text c="dimmed">{t('reporting.rows.none')}</Text>;
  // Large reports get a search and pages; the totals are always those of the whole report.
  const large = report.row_count > ROWS_PAGE_SIZE;
  const shown = rows.data?.data ?? [];
  const matching = rows.data?.meta.total ?? 0;
  const pages = Math.max(1, Math.ceil(matching / ROWS_PAGE_SIZE));
  const comparison = compare ? rows.data?.comparison : undefined;
  const previous = comparison?.previous ?? null;
  const lastYear = comparison?.last_year ?? null;
  const percent = comparison ? formatDecimal(comparison.deviation_percentage) : '';
  const wide = compare && !narrow;
  // Columns only for the periods the market has: an earlier figure and the change against it.
  const shownEarlier = [previous && ('previous' as const), lastYear && ('last_year' as const)].filter((k) => !!k);
  // Wide: per measure the figure now, then for each earlier period its figure and the change (own columns).
  const columns = wide ? 4 + 4 * shownEarlier.length : compare ? 3 : 4;
  const nowTitle = report.period?.title ?? t('reporting.rows.compare.now');
  const periodTitle = (p: typeof previous) => p?.period.title ?? '–';
  const against = (p: typeof previous) => t('reporting.rows.compare.change_against', { period: periodTitle(p) });
  let body: ReactNode;
  if (rows.isPending) {
    body = (
      <Table.Tr>
        <Table.Td colSpan={columns}>
          <Center py="md">
            <Loader size="sm" aria-label={t('app.loading')} />
          </Center>
        </Table.Td>
      </Table.Tr>
    );
  } else if (rows.isError) {
    body = (
      <Table.Tr>
        <Table.Td colSpan={columns}>
          <Text c="red" ta="center" py="md" role="alert">
            {errorMessage(rows.error)}
          </Text>
        </Table.Td>
      </Table.Tr>
    );
  } else if (!shown.length) {
    body = (
      <Table.Tr>
        <Table.Td colSpan={columns}>
          <Text c="dimmed" ta="center" py="md" data-testid="empty-state">
            {search
              ? t('admin.list.no_matches', { search })
              : compare && onlyDeviating
                ? t('reporting.rows.compare.none_deviating', { percent, period: periodTitle(previous) })
                : t('reporting.rows.none')}
          </Text>
        </Table.Td>
      </Table.Tr>
    );
  } else if (!compare) {
    body = shown.map((row) => (
      <Table.Tr key={row.code_id}>
        <Table.Td>{row.code}</Table.Td>
        <Table.Td>{row.name}</Table.Td>
        <Table.Td ta="right">{formatDecimal(row.volume)}</Table.Td>
        <Table.Td ta="right">{formatDecimal(row.value)}</Table.Td>
      </Table.Tr>
    ));
  } else {
    body = shown.map((row) => {
      const mark = row.deviates ? (
        <>
          <Text span c="orange" fw={700} mr={4} aria-hidden title={t('reporting.rows.compare.deviates', { percent, period: periodTitle(previous) })}>
            ⚠
          </Text>
          <VisuallyHidden>{t('reporting.rows.compare.deviates', { percent, period: periodTitle(previous) })}</VisuallyHidden>
        </>
      ) : null;
      // Only the change that passed the setting stands out (its cell), not the whole row.
      const rowProps = { 'data-deviates': row.deviates || undefined };
      const deviating = { volume: row.volume_deviates, value: row.value_deviates };
      if (!wide) {
        // A phone: the earlier figures and changes stack under each figure, labelled by period.
        const earlierLine = (title: string, figure: string | null, pct: string | null, strong: boolean) => (
          <Text span size="xs" display="block" c={strong ? 'orange' : 'dimmed'} fw={strong ? 700 : undefined} style={{ whiteSpace: 'nowrap' }}>
            {title}: {figure === null ? '–' : formatDecimal(figure)}
            {pct !== null && (
              <>
                <br />
                {formatChangePct(pct)}
              </>
            )}
          </Text>
        );
        const stacked = (
          now: string | null,
          before: string | null,
          beforePct: string | null,
          lastYearFigure: string | null,
          lastYearPct: string | null,
          deviates: boolean,
        ) => (
          <Table.Td ta="right">
            <Text span fw={600} display="block">
              {formatDecimal(now)}
            </Text>
            {previous && earlierLine(previous.period.title, before, beforePct, deviates)}
            {lastYear && earlierLine(lastYear.period.title, lastYearFigure, lastYearPct, false)}
          </Table.Td>
        );
        return (
          <Table.Tr key={row.code_id} {...rowProps}>
            <Table.Td>
              <Text span display="block">
                {mark}
                {row.code}
              </Text>
              <Text span size="xs" c="dimmed" display="block">
                {row.name}
              </Text>
            </Table.Td>
            {stacked(row.volume, row.volume_previous, row.volume_previous_change_pct, row.volume_last_year, row.volume_last_year_change_pct, deviating.volume)}
            {stacked(row.value, row.value_previous, row.value_previous_change_pct, row.value_last_year, row.value_last_year_change_pct, deviating.value)}
          </Table.Tr>
        );
      }
      return (
        <Table.Tr key={row.code_id} {...rowProps}>
          <Table.Td style={{ whiteSpace: 'nowrap' }}>
            {mark}
            {row.code}
          </Table.Td>
          <Table.Td>{row.name}</Table.Td>
          {(['volume', 'value'] as const).map((measure) => (
            <Fragment key={measure}>
              <Table.Td ta="right" fw={600}>
                {formatDecimal(row[measure])}
              </Table.Td>
              {shownEarlier.map((kind) => {
                const strong = kind === 'previous' && deviating[measure];
                return (
                  <Fragment key={kind}>
                    <Table.Td ta="right">
                      <Earlier figure={row[`${measure}_${kind}`]} />
                    </Table.Td>
                    <Table.Td ta="right" bg={strong ? 'var(--mantine-color-orange-light)' : undefined} data-deviates={strong || undefined}>
                      <Change pct={row[`${measure}_${kind}_change_pct`]} strong={strong} label={against(kind === 'previous' ? previous : lastYear)} />
                    </Table.Td>
                  </Fragment>
                );
              })}
            </Fragment>
          ))}
        </Table.Tr>
      );
    });
  }
  let head: ReactNode;
  let foot: ReactNode;
  if (wide) {
    const periodsHead = (
      <>
        <Table.Th ta="right">{nowTitle}</Table.Th>
        {shownEarlier.map((kind) => (
          <Fragment key={kind}>
            <Table.Th ta="right">{periodTitle(kind === 'previous' ? previous : lastYear)}</Table.Th>
            <Table.Th ta="right" title={against(kind === 'previous' ? previous : lastYear)}>
              {t('reporting.rows.compare.change')}
            </Table.Th>
          </Fragment>
        ))}
      </>
    );
    head = (
      <>
        <Table.Tr>
          <Table.Th rowSpan={2}>{t('reporting.rows.code')}</Table.Th>
          <Table.Th rowSpan={2}>{t('reporting.rows.name')}</Table.Th>
          <Table.Th colSpan={1 + 2 * shownEarlier.length} ta="center">
            {t('reporting.rows.volume')}
          </Table.Th>
          <Table.Th colSpan={1 + 2 * shownEarlier.length} ta="center">
            {t('reporting.rows.value')}
          </Table.Th>
        </Table.Tr>
        <Table.Tr>
          {periodsHead}
          {periodsHead}
        </Table.Tr>
      </>
    );
    foot = (
      <Table.Tr fw={700}>
        <Table.Td colSpan={2}>{t('reporting.rows.totals')}</Table.Td>
        <Table.Td ta="right">{formatDecimal(report.totals.volume)}</Table.Td>
        {shownEarlier.length > 0 && <Table.Td colSpan={2 * shownEarlier.length} />}
        <Table.Td ta="right">{formatDecimal(report.totals.value)}</Table.Td>
        {shownEarlier.length > 0 && <Table.Td colSpan={2 * shownEarlier.length} />}
      </Table.Tr>
    );
  } else if (compare) {
    head = (
      <Table.Tr>
        <Table.Th>{t('reporting.rows.code')}</Table.Th>
        <Table.Th ta="right">
          {t('reporting.rows.volume')}
          <Text span display="block" size="xs" fw={700} style={{ whiteSpace: 'nowrap' }}>
            {nowTitle}
          </Text>
        </Table.Th>
        <Table.Th ta="right">
          {t('reporting.rows.value')}
          <Text span display="block" size="xs" fw={700} style={{ whiteSpace: 'nowrap' }}>
            {nowTitle}
          </Text>
        </Table.Th>
      </Table.Tr>
    );
    foot = (
      <Table.Tr fw={700}>
        <Table.Td>{t('reporting.rows.totals')}</Table.Td>
        <Table.Td ta="right">{formatDecimal(report.totals.volume)}</Table.Td>
        <Table.Td ta="right">{formatDecimal(report.totals.value)}</Table.Td>
      </Table.Tr>
    );
  } else {
    head = (
      <Table.Tr>
        <Table.Th>{t('reporting.rows.code')}</Table.Th>
        <Table.Th>{t('reporting.rows.name')}</Table.Th>
        <Table.Th ta="right">{t('reporting.rows.volume')}</Table.Th>
        <Table.Th ta="right">{t('reporting.rows.value')}</Table.Th>
      </Table.Tr>
    );
    foot = (
      <Table.Tr fw={700}>
        <Table.Td colSpan={2}>{t('reporting.rows.totals')}</Table.Td>
        <Table.Td ta="right">{formatDecimal(report.totals.volume)}</Table.Td>
        <Table.Td ta="right">{formatDecimal(report.totals.value)}</Table.Td>
      </Table.Tr>
    );
  }
  const table = (
    <Table striped withTableBorder aria-label={t('reporting.rows.title')} aria-busy={rows.isFetching} data-testid="report-rows">
      <Table.Thead>{head}</Table.Thead>
      <Table.Tbody>{body}</Table.Tbody>
      <Table.Tfoot>{foot}</Table.Tfoot>
    </Table>
  );
  return (
    <Stack gap="xs">
      {comparison && <ComparisonNote comparison={comparison} />}
      {(large || (compare && previous)) && (
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Group gap="sm" wrap="wrap">
            {large && (
              <TextInput
                aria-label={t('reporting.rows.search')}
                placeholder={t('reporting.rows.search')}
                value={searchText}
                onChange={(event) => setSearchText(event.currentTarget.value)}
                w={narrow ? '100%' : 280}
              />
            )}
            {compare && previous && (
              <>
                <Select
                  aria-label={t('reporting.rows.compare.sort')}
                  value={sort}
                  onChange={(value) => setSort((value as RowsSort | null) ?? 'code')}
                  allowDeselect={false}
                  w={230}
                  data={[
                    { value: 'code', label: t('reporting.rows.compare.sort_code') },
                    { value: 'volume_change', label: t('reporting.rows.compare.sort_volume_change') },
                    { value: 'value_change', label: t('reporting.rows.compare.sort_value_change') },
                  ]}
                />
                <Switch
                  label={t('reporting.rows.compare.only_deviating')}
                  checked={onlyDeviating}
                  onChange={(event) => setOnlyDeviating(event.currentTarget.checked)}
                />
              </>
            )}
          </Group>
          {rows.data && (large || onlyDeviating) && (
            <Text size="sm" c="dimmed">
              {t('reporting.rows.count', { shown: formatNumber(shown.length), matching: formatNumber(matching), total: formatNumber(report.row_count) })}
            </Text>
          )}
        </Group>
      )}
      {/* Never wider than the screen: a long code name or figure scrolls inside the table's box, which a keyboard can scroll too (WCAG 2.1.1). */}
      <Table.ScrollContainer
        minWidth={wide ? 560 + 240 * shownEarlier.length : 0}
        scrollAreaProps={{ viewportProps: { tabIndex: 0, 'aria-label': t('reporting.rows.title') } }}
      >
        {table}
      </Table.ScrollContainer>
      {pages > 1 && (
        <Pagination
          total={pages}
          value={Math.min(page, pages)}
          onChange={setPage}
          size="sm"
          aria-label={t('reporting.rows.pages')}
          getControlProps={(control) => ({ 'aria-label': t(`admin.list.${control}`) })}
        />
      )}
    </Stack>
  );
}
