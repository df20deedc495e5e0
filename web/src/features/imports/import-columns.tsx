import { Link } from 'react-router';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Anchor, Badge, Button, Group } from '@mantine/core';
import type { Import } from '@mss/contracts/imports';
import type { Column } from '../../components/data-table.tsx';
import { importDownloads } from './api/imports.ts';
import { ImportStatusBadge } from './import-status-badge.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { formatNumber } from '../../lib/numbers.ts';

/**
 * The columns of an import list: the history of every report the user may see (`withReport`:
 * company, market, period and a link to the report) or of one report (the data import screen).
 * The wire names are GET /imports' sort names.
 */
export function importColumns(t: TFunction, { withReport }: { withReport: boolean }): Column<Import>[] {
  const report: Column<Import>[] = withReport
    ? [
        { key: 'company', label: t('reporting.company'), sortable: true, render: (item) => item.company.name },
        { key: 'market', label: t('reporting.market'), sortable: true, render: (item) => item.market.iso_code },
        { key: 'period', label: t('reporting.period.title'), sortable: true, render: (item) => item.period.title },
      ]
    : [];
  return [
    { key: 'created_at', label: t('reporting.history.when'), sortable: true, render: (item) => formatDateTime(item.created_at) },
    { key: 'user', label: t('reporting.history.who'), sortable: true, render: (item) => item.user?.name ?? '–' },
    ...report,
    {
      key: 'file_name',
      label: t('reporting.import.file'),
      sortable: true,
      render: (item) => (
        <>
          <Anchor href={importDownloads.importFile(item.uuid)} download size="sm" style={{ overflowWrap: 'anywhere' }}>
            {item.file_name}
          </Anchor>
          {/* Rows a member's system sent (PUT /reports/{uuid}/rows), not a file uploaded here. */}
          {item.source === 'api' && (
            <Badge size="xs" variant="light" color="gray" ml={6} title={t('reporting.import.source_api_hint')}>
              {t('reporting.import.source_api')}
            </Badge>
          )}
        </>
      ),
    },
    { key: 'status', label: t('reporting.status'), sortable: true, render: (item) => <ImportStatusBadge status={item.status} /> },
    { key: 'row_count', label: t('reporting.row_count'), sortable: true, render: (item) => formatNumber(item.row_count) },
    { key: 'error_count', label: t('reporting.import.errors'), sortable: true, render: (item) => (item.error_count > 0 ? formatNumber(item.error_count) : '') },
  ];
}

/** What one can do with an import: its error sheet, and (in the history) the report it belongs to. */
export function ImportActions({ item, withReport }: { item: Import; withReport: boolean }) {
  const { t } = useTranslation();
  return (
    <Group gap={4} wrap="nowrap" justify="flex-end">
      {item.error_count > 0 && (
        <Button component="a" href={importDownloads.errorSheet(item.uuid)} download size="xs" variant="subtle" color="red">
          {t('reporting.import.download_errors')}
        </Button>
      )}
      {withReport && (
        <Button component={Link} to={`/import/${item.report.uuid}`} size="xs" variant="light">
          {t('reporting.open_report')}
        </Button>
      )}
    </Group>
  );
}
