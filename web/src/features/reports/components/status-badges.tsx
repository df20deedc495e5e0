import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../lib/numbers.ts';
import { Alert, Badge, Table, Text } from '@mantine/core';
import type { ReportSummary } from '@mss/contracts/reports';
import { useEnumLabel } from '../../../lib/enum-options.ts';
import { severityColor } from '../lib/report-status.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { ReportStatusBadge } from './report-badges.tsx';

/* Badges and small status pieces of reports (the report's own status badge is report-badges.tsx, on the first screen; a period's is the periods feature's, an import's the imports feature's). */

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
  const { t } = useTranslation();
  // Each cell names its column, for a table shown as cards on a phone (stacked-tables.css).
  return (
    <>
      <Table.Td data-label={t('reporting.status')}>
        <ReportStatusBadge status={report.status} />
      </Table.Td>
      <Table.Td data-label={t('reporting.submitted_at')}>{formatDateTime(report.submitted_at)}</Table.Td>
      <Table.Td data-label={t('reporting.preflight.title')}>
        <SeverityBadge severity={report.preflight_severity} />
      </Table.Td>
      <Table.Td ta="right" data-label={t('reporting.row_count')}>
        {formatNumber(report.row_count)}
      </Table.Td>
    </>
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
