import { Fragment, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatChangePct, formatDecimal } from '../lib/numbers.ts';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Center,
  Group,
  Loader,
  Modal,
  Pagination,
  Paper,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Textarea,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import type { Preflight } from '@mss/contracts/preflight';
import type { ComparedPeriod, Report, ReportRowsComparison, ReportSummary } from '@mss/contracts/reports';
import type { Import } from '@mss/contracts/imports';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { errorMessage } from './feedback.tsx';
import { isApiError } from '../api/http.ts';
import { effectiveSearch } from './data-table.tsx';
import { useEnumLabel } from '../lib/enum-options.ts';
import { useReportRows } from '../api/report-rows.ts';
import { severityColor } from '../lib/report-status.ts';

import { formatDate, formatDateTime } from '../lib/dates.ts';

export { formatDate, formatDateTime };

/** A count (rows, reports) as the user's locale writes it. Figures are decimal strings: `formatDecimal`. */
export const formatNumber = (value: number | null | undefined): string => (value === null || value === undefined ? '' : value.toLocaleString());

// In a module of its own: the dashboard shows it without loading this one.
import { ReportStatusBadge } from './report-badges.tsx';
export { ReportStatusBadge };

export function SeverityBadge({ severity }: { severity: number | null | undefined }) {
  const { t } = useTranslation();
  const label = useEnumLabel();
  return (
    <Badge color={severityColor(severity)} variant="light" tt="none" data-testid="preflight-severity">
      {severity === null || severity === undefined ? t('reporting.preflight.none') : label('preflight_severity', severity)}
    </Badge>
  );
}

/** A report's progress as the reporting tables show it: status, when submitted, preflight, rows (four cells). */
export function ReportProgressCells({ report }: { report: Pick<ReportSummary, 'status' | 'submitted_at' | 'preflight_severity' | 'row_count'> }) {
  return (
    <>
      <Table.Td>
        <ReportStatusBadge status={report.status} />
      </Table.Td>
      <Table.Td>{formatDateTime(report.submitted_at)}</Table.Td>
      <Table.Td>
        <SeverityBadge severity={report.preflight_severity} />
      </Table.Td>
      <Table.Td ta="right">{formatNumber(report.row_count)}</Table.Td>
    </>
  );
}

export function PeriodStatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  const color = status === 'open' ? 'teal' : status === 'closed' ? 'gray' : 'yellow';
  return (
    <Badge color={color} variant="light" tt="none">
      {t(`reporting.period.status.${status}`)}
    </Badge>
  );
}

/** Loading, error and empty states around a query's data. */
export function QueryState<T>({
  query,
  empty,
  children,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown; data: T | undefined };
  empty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation();
  if (query.isPending)
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  if (query.isError || query.data === undefined) return <ErrorState error={query.error} />;
  if (empty?.(query.data)) return <Text c="dimmed">{t('common.empty')}</Text>;
  return <>{children(query.data)}</>;
}

/**
 * A failed request in place of what it should have shown: its message, or, for a record that does
 * not exist or is another organization's (404), what the 404 page says, never the uuid asked for.
 */
export function ErrorState({ error, testId }: { error: unknown; testId?: string }) {
  if (isApiError(error) && error.status === 404) return <NotFoundState />;
  return (
    <Alert color="red" role="alert" data-testid={testId}>
      {errorMessage(error)}
    </Alert>
  );
}

/** In place of a record that is not there (404): what the 404 page says. */
export function NotFoundState() {
  const { t } = useTranslation();
  return (
    <Center py="xl" data-testid="not-found">
      <Stack align="center" gap={4} ta="center">
        <Text fw={800} fz="h2" c="dimmed">
          404
        </Text>
        <Text fw={600}>{t('generic.not_found')}</Text>
        <Text size="sm" c="dimmed">
          {t('system.not_found_hint')}
        </Text>
      </Stack>
    </Center>
  );
}

export function Section({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Group justify="space-between" mb="sm">
        <Title order={2} fz="h4">
          {title}
        </Title>
        {actions && <Group gap="xs">{actions}</Group>}
      </Group>
      {children}
    </Paper>
  );
}

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
    <Text span size="xs" display="block" c={strong ? 'orange.9' : 'dimmed'} fw={strong ? 700 : undefined} title={label}>
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
          <Text span c="orange.9" fw={700} mr={4} aria-hidden title={t('reporting.rows.compare.deviates', { percent, period: periodTitle(previous) })}>
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
          <Text span size="xs" display="block" c={strong ? 'orange.9' : 'dimmed'} fw={strong ? 700 : undefined} style={{ whiteSpace: 'nowrap' }}>
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
      {/* Never wider than the screen: a long code name or figure scrolls inside the table's box. */}
      {wide ? (
        <Table.ScrollContainer minWidth={560 + 240 * shownEarlier.length}>{table}</Table.ScrollContainer>
      ) : (
        <Table.ScrollContainer minWidth={0}>{table}</Table.ScrollContainer>
      )}
      {pages > 1 && <Pagination total={pages} value={Math.min(page, pages)} onChange={setPage} size="sm" aria-label={t('reporting.rows.pages')} />}
    </Stack>
  );
}

export function PreflightResults({ preflight }: { preflight: Preflight | null }) {
  const { t } = useTranslation();
  if (!preflight) return <Text c="dimmed">{t('reporting.preflight.not_run')}</Text>;
  return (
    <Stack gap="xs" data-testid="preflight">
      <Group gap="xs">
        <SeverityBadge severity={preflight.severity} />
        <Text size="sm" c="dimmed">
          {formatDateTime(preflight.created_at)}
        </Text>
      </Group>
      {groupFindings(preflight.results).map((group, i) =>
        group.results.length < GROUP_FROM ? (
          group.results.map((result, j) => <Finding key={`${i}-${j}`} result={result} />)
        ) : (
          <FindingGroup key={i} group={group} />
        ),
      )}
    </Stack>
  );
}

type PreflightResult = Preflight['results'][number];

/** Findings of one kind this many or more are one line with a count, opened on demand. */
const GROUP_FROM = 4;

/** The findings by kind (message key and severity), in the order their first one came. */
function groupFindings(results: PreflightResult[]): { key: string; severity: number; results: PreflightResult[] }[] {
  const groups: { key: string; severity: number; results: PreflightResult[] }[] = [];
  for (const result of results) {
    const found = groups.find((g) => g.key === result.key && g.severity === result.severity);
    if (found) found.results.push(result);
    else groups.push({ key: result.key, severity: result.severity, results: [result] });
  }
  return groups;
}

function Finding({ result }: { result: PreflightResult }) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <SeverityBadge severity={result.severity} />
      <Text size="sm">{result.message}</Text>
    </Group>
  );
}

/** "21 codes reported in 2026-09 are missing now. Show": repeated findings as one line, each listed when opened. */
function FindingGroup({ group }: { group: { key: string; severity: number; results: PreflightResult[] } }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const first = group.results[0]!;
  const summary = t(`reporting.preflight.group.${group.key.replace(/^preflight\./, '')}`, {
    count: group.results.length,
    period: String(first.params.period ?? ''),
    defaultValue: t('reporting.preflight.group.other', { count: group.results.length }),
  });
  return (
    <Stack gap={4} data-testid="preflight-group">
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <SeverityBadge severity={group.severity} />
        <Text size="sm" fw={600}>
          {summary}{' '}
          <Anchor component="button" type="button" size="sm" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
            {open ? t('reporting.preflight.hide') : t('reporting.preflight.show')}
          </Anchor>
        </Text>
      </Group>
      {open && (
        <Stack gap={2} pl="xl">
          {group.results.map((result, i) => (
            <Text key={i} size="sm">
              {result.message}
            </Text>
          ))}
        </Stack>
      )}
    </Stack>
  );
}

export function StatusHistory({ history }: { history: Report['history'] }) {
  const { t } = useTranslation();
  const label = useEnumLabel();
  const phone = useMediaQuery('(max-width: 40em)');
  if (!history.length) return <Text c="dimmed">{t('common.empty')}</Text>;
  const change = (c: Report['history'][number]) =>
    `${c.from_status === null ? '' : `${label('report_status', c.from_status)} → `}${label('report_status', c.to_status)}`;
  if (phone)
    // A phone: one entry per change, its date on one line, not a table whose date wraps onto four.
    return (
      <Stack gap="sm" data-testid="status-history">
        {history.map((c, i) => (
          <Stack key={i} gap={0}>
            <Text size="xs" c="dimmed">
              {formatDateTime(c.created_at)} · {c.user?.name ?? '–'}
            </Text>
            <Text size="sm">{change(c)}</Text>
            {c.comment && (
              <Text size="sm" fs="italic">
                {c.comment}
              </Text>
            )}
          </Stack>
        ))}
      </Stack>
    );
  return (
    <Table withTableBorder aria-label={t('reporting.history.title')} data-testid="status-history">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('reporting.history.when')}</Table.Th>
          <Table.Th>{t('reporting.history.who')}</Table.Th>
          <Table.Th>{t('reporting.history.change')}</Table.Th>
          <Table.Th>{t('reporting.history.comment')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {history.map((entry, i) => (
          <Table.Tr key={i}>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(entry.created_at)}</Table.Td>
            <Table.Td>{entry.user?.name ?? '–'}</Table.Td>
            <Table.Td>{change(entry)}</Table.Td>
            <Table.Td>{entry.comment ?? ''}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** A modal asking for an optional comment before a status change; resolves with it. */
export function CommentModal({
  opened,
  title,
  confirmLabel,
  required = false,
  busy = false,
  onCancel,
  onConfirm,
}: {
  opened: boolean;
  title: string;
  confirmLabel: string;
  required?: boolean;
  busy?: boolean;
  onCancel: () => void;
  onConfirm: (comment: string) => void;
}) {
  const { t } = useTranslation();
  const [comment, setComment] = useState('');
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setComment('');
    setError(null);
    onCancel();
  };
  return (
    <Modal opened={opened} onClose={close} title={title} centered>
      <Stack>
        <Textarea
          label={t('reporting.comment')}
          value={comment}
          error={error}
          autosize
          minRows={3}
          onChange={(e) => setComment(e.currentTarget.value)}
          data-autofocus
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {t('feedback.cancel')}
          </Button>
          <Button
            loading={busy}
            onClick={() => {
              if (required && !comment.trim()) {
                setError(t('reporting.comment_required'));
                return;
              }
              onConfirm(comment.trim());
              setComment('');
              setError(null);
            }}
          >
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** An import's status as a badge, never narrower than its words. */
export function ImportStatusBadge({ status }: { status: Import['status'] }) {
  const { t } = useTranslation();
  const color = status === 'done' ? 'teal' : status === 'invalid' || status === 'failed' ? 'red' : 'blue';
  return (
    <Badge variant="light" tt="none" color={color} style={{ minWidth: 'max-content' }}>
      {t(`reporting.import.status.${status}`)}
    </Badge>
  );
}

/** What the approver asked for when the report was sent back, at the top of the report until it is submitted again. */
export function SentBackComment({ report }: { report: Pick<ReportSummary, 'sent_back_comment' | 'status'> }) {
  const { t } = useTranslation();
  if (report.sent_back_comment === null) return null;
  return (
    <Alert color="orange" title={t('reporting.sent_back.title')} data-testid="sent-back-comment">
      <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
        {report.sent_back_comment || t('reporting.sent_back.no_comment')}
      </Text>
    </Alert>
  );
}
