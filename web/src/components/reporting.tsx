import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDecimal } from '../lib/numbers.ts';
import { Alert, Badge, Button, Center, Group, Loader, Modal, Pagination, Paper, Stack, Table, Text, TextInput, Textarea, Title } from '@mantine/core';
import type { Preflight } from '@mss/contracts/preflight';
import type { Report } from '@mss/contracts/reports';
import { useDebouncedValue } from '@mantine/hooks';
import { errorMessage } from './feedback.tsx';
import { effectiveSearch } from './data-table.tsx';
import { useEnumLabel } from '../lib/enum-options.ts';
import { useReportRows } from '../api/report-rows.ts';
import { reportStatusColor, severityColor } from '../lib/report-status.ts';

/** A date-time of the wire (ISO) as the user's locale writes it; '–' when absent. */
export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '–';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleString();
}

/** A date of the wire (YYYY-MM-DD or ISO): the date part only. */
export const formatDate = (value: string | null | undefined): string => (value ? value.slice(0, 10) : '–');

/** A count (rows, reports) as the user's locale writes it. Figures are decimal strings: `formatDecimal`. */
export const formatNumber = (value: number | null | undefined): string => (value === null || value === undefined ? '' : value.toLocaleString());

export function ReportStatusBadge({ status }: { status: number }) {
  const label = useEnumLabel();
  return (
    <Badge color={reportStatusColor(status)} variant="light" tt="none" data-testid="report-status">
      {label('report_status', status)}
    </Badge>
  );
}

export function SeverityBadge({ severity }: { severity: number | null | undefined }) {
  const { t } = useTranslation();
  const label = useEnumLabel();
  return (
    <Badge color={severityColor(severity)} variant="light" tt="none" data-testid="preflight-severity">
      {severity === null || severity === undefined ? t('reporting.preflight.none') : label('preflight_severity', severity)}
    </Badge>
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
  if (query.isError || query.data === undefined)
    return (
      <Alert color="red" role="alert">
        {errorMessage(query.error)}
      </Alert>
    );
  if (empty?.(query.data)) return <Text c="dimmed">{t('reporting.empty')}</Text>;
  return <>{children(query.data)}</>;
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

/**
 * The report's rows with their totals. The rows come a page at a time from the server
 * (GET /reports/{uuid}/rows), searched there on code or name (debounced, longer than 2
 * characters); the totals and the row count are the whole report's, from the report itself.
 */
export function RowsTable({ report, searchDelay = 300 }: { report: Pick<Report, 'uuid' | 'row_count' | 'totals'>; searchDelay?: number }) {
  const { t } = useTranslation();
  const [searchText, setSearchText] = useState('');
  const [page, setPage] = useState(1);
  const [debounced] = useDebouncedValue(searchText, searchDelay);
  const search = effectiveSearch(debounced);
  // A new search starts from the first page (checked at render, so no extra request is made).
  const [lastSearch, setLastSearch] = useState(search);
  if (lastSearch !== search) {
    setLastSearch(search);
    setPage(1);
  }
  const empty = report.row_count === 0;
  const rows = useReportRows(report.uuid, { page, per_page: ROWS_PAGE_SIZE, ...(search ? { search } : {}) }, { enabled: !empty });
  if (empty) return <Text c="dimmed">{t('reporting.rows.none')}</Text>;
  // Large reports get a search and pages; the totals are always those of the whole report.
  const large = report.row_count > ROWS_PAGE_SIZE;
  const shown = rows.data?.data ?? [];
  const matching = rows.data?.meta.total ?? 0;
  const pages = Math.max(1, Math.ceil(matching / ROWS_PAGE_SIZE));
  let body: ReactNode;
  if (rows.isPending) {
    body = (
      <Table.Tr>
        <Table.Td colSpan={4}>
          <Center py="md">
            <Loader size="sm" aria-label={t('app.loading')} />
          </Center>
        </Table.Td>
      </Table.Tr>
    );
  } else if (rows.isError) {
    body = (
      <Table.Tr>
        <Table.Td colSpan={4}>
          <Text c="red" ta="center" py="md" role="alert">
            {errorMessage(rows.error)}
          </Text>
        </Table.Td>
      </Table.Tr>
    );
  } else if (!shown.length) {
    body = (
      <Table.Tr>
        <Table.Td colSpan={4}>
          <Text c="dimmed" ta="center" py="md" data-testid="empty-state">
            {search ? t('admin.list.no_matches', { search }) : t('reporting.rows.none')}
          </Text>
        </Table.Td>
      </Table.Tr>
    );
  } else {
    body = shown.map((row) => (
      <Table.Tr key={row.code_id}>
        <Table.Td>{row.code}</Table.Td>
        <Table.Td>{row.name}</Table.Td>
        <Table.Td ta="right">{formatDecimal(row.volume)}</Table.Td>
        <Table.Td ta="right">{formatDecimal(row.value)}</Table.Td>
      </Table.Tr>
    ));
  }
  return (
    <Stack gap="xs">
      {large && (
        <Group justify="space-between">
          <TextInput
            aria-label={t('reporting.rows.search')}
            placeholder={t('reporting.rows.search')}
            value={searchText}
            onChange={(event) => setSearchText(event.currentTarget.value)}
            w={280}
          />
          {rows.data && (
            <Text size="sm" c="dimmed">
              {t('reporting.rows.count', { shown: formatNumber(shown.length), matching: formatNumber(matching), total: formatNumber(report.row_count) })}
            </Text>
          )}
        </Group>
      )}
      <Table striped withTableBorder aria-label={t('reporting.rows.title')} aria-busy={rows.isFetching} data-testid="report-rows">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('reporting.rows.code')}</Table.Th>
            <Table.Th>{t('reporting.rows.name')}</Table.Th>
            <Table.Th ta="right">{t('reporting.rows.volume')}</Table.Th>
            <Table.Th ta="right">{t('reporting.rows.value')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{body}</Table.Tbody>
        <Table.Tfoot>
          <Table.Tr fw={700}>
            <Table.Td colSpan={2}>{t('reporting.rows.totals')}</Table.Td>
            <Table.Td ta="right">{formatDecimal(report.totals.volume)}</Table.Td>
            <Table.Td ta="right">{formatDecimal(report.totals.value)}</Table.Td>
          </Table.Tr>
        </Table.Tfoot>
      </Table>
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
      {preflight.results.map((result, i) => (
        <Group key={i} gap="xs" wrap="nowrap" align="flex-start">
          <SeverityBadge severity={result.severity} />
          <Text size="sm">{result.message}</Text>
        </Group>
      ))}
    </Stack>
  );
}

export function StatusHistory({ history }: { history: Report['history'] }) {
  const { t } = useTranslation();
  const label = useEnumLabel();
  if (!history.length) return <Text c="dimmed">{t('reporting.empty')}</Text>;
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
        {history.map((change, i) => (
          <Table.Tr key={i}>
            <Table.Td>{formatDateTime(change.created_at)}</Table.Td>
            <Table.Td>{change.user?.name ?? '–'}</Table.Td>
            <Table.Td>
              {change.from_status === null ? '' : `${label('report_status', change.from_status)} → `}
              {label('report_status', change.to_status)}
            </Table.Td>
            <Table.Td>{change.comment ?? ''}</Table.Td>
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
