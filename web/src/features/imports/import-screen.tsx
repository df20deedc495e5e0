import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Alert, Anchor, Button, Group, Progress, SimpleGrid, Stack, Text } from '@mantine/core';
import { ReportStatus } from '@mss/contracts/enums';
import type { CopyPreview, Report } from '@mss/contracts/reports';
import type { Import, ImportDetail } from '@mss/contracts/imports';
import { DataTable } from '../../components/data-table.tsx';
import { ImportActions, importColumns } from './import-columns.tsx';
import { abilitySubject, useSession } from '../../api/session.ts';
import type { ScreenProps } from '../../lib/screen.ts';
import { feedback } from '../../components/feedback.tsx';
import { FileErrors } from '../../components/file-errors.tsx';
import '../../components/import-texts.ts';
import { FileUploadPanel } from '../../components/file-upload.tsx';
import { AdminPage } from '../../components/page.tsx';
import { importDownloads, importKeys, importQueries, importRunning, useRefreshImportedReport } from './api/imports.ts';
import { useReportingMutation } from '../../api/reporting.ts';
import {
  PreflightResults,
  ReportStatusActions,
  ReportStatusBadge,
  RowsTable,
  SentBackComment,
  StatusHistory,
  reportActions,
  reportDownloads,
  reportQueries,
  reportsApi,
} from '../reports/index.ts';
import { uploadReportFile } from '../../api/upload.ts';
import { QueryState, Section } from '../../components/query-state.tsx';
import { formatDate, formatDateTime } from '../../lib/dates.ts';
import { formatNumber } from '../../lib/numbers.ts';

/**
 * /import/:uuid — the data import screen of one REPORT (:uuid is the report's uuid): upload with
 * progress, live import status, rows or errors, template, copy from previous, preflight, submit
 * and the status history.
 */
export function ImportScreen({ title, params }: ScreenProps) {
  const uuid = params.uuid ?? '';
  // Not polled: while a file is processed only the import is (ImportStatusPanel), and the report
  // (with its rows, under its key) is fetched again once, when the import ends.
  const report = useQuery({ ...reportQueries.report(uuid), meta: { handlesErrors: true } });
  return (
    <AdminPage title={title}>
      <QueryState query={report}>{(data) => <ImportWorkspace report={data} />}</QueryState>
    </AdminPage>
  );
}

function ReportHeader({ report }: { report: Report }) {
  const { t } = useTranslation();
  const items: [string, React.ReactNode][] = [
    [t('reporting.company'), report.company.name],
    [t('reporting.market'), report.market.international_name],
    [t('reporting.period.title'), report.period.title],
    [t('reporting.status'), <ReportStatusBadge key="s" status={report.status} />],
    [t('reporting.period.deadline'), formatDate(report.period.deadline)],
  ];
  return (
    <SimpleGrid cols={{ base: 2, sm: 5 }} data-testid="report-header">
      {items.map(([label, value]) => (
        <Stack key={label} gap={2}>
          <Text size="xs" tt="uppercase" fw={700} c="dimmed">
            {label}
          </Text>
          <Text component="div" fw={600}>
            {value}
          </Text>
        </Stack>
      ))}
    </SimpleGrid>
  );
}

function ImportWorkspace({ report }: { report: Report }) {
  const { t } = useTranslation();
  const session = useSession();
  const actions = reportActions(report, abilitySubject(session));
  const [uploadedImport, setUploadedImport] = useState<string | null>(null);
  // The import whose result describes the report: none once a copy replaced its rows (the server
  // says so); older imports are in the list below.
  const currentImport = uploadedImport ?? report.current_import?.uuid ?? null;
  const copy = useReportingMutation(reportsApi.copyPrevious);
  const preflight = useReportingMutation(reportsApi.runPreflight);

  // The report with its rows, and the imports.
  const refreshReport = useRefreshImportedReport(report.uuid);

  const copyPrevious = async () => {
    let source: CopyPreview;
    try {
      source = await feedback.loading.during(reportsApi.copyPreview(report.uuid));
    } catch (error) {
      await feedback.errorOf(error);
      return;
    }
    // Without a previous report there is nothing to confirm: the server names the period it looked in.
    if (source !== null && source.row_count !== null) {
      const copied = t('reporting.copy.source_rows', { count: source.row_count, formatted: formatNumber(source.row_count), period: source.period_title });
      const message = [
        report.row_count > 0
          ? t('reporting.copy.replace', {
              current: t('reporting.copy.report_rows', { count: report.row_count, formatted: formatNumber(report.row_count) }),
              source: copied,
            })
          : t('reporting.copy.fill', { source: copied }),
        source.left_out > 0 ? t('reporting.copy.left_out', { count: source.left_out, formatted: formatNumber(source.left_out) }) : '',
      ]
        .filter(Boolean)
        .join(' ');
      const ok = await feedback.confirm({ message, confirmLabel: t('reporting.import.copy_previous') });
      if (!ok) return;
    }
    try {
      await feedback.loading.during(copy.mutateAsync(report.uuid));
      setUploadedImport(null);
      feedback.toast(t('reporting.import.copied'), { color: 'teal' });
    } catch (error) {
      await feedback.errorOf(error);
    }
  };
  const runPreflight = async () => {
    try {
      await preflight.mutateAsync(report.uuid);
      await refreshReport();
    } catch (error) {
      await feedback.errorOf(error);
    }
  };

  return (
    <Stack gap="md">
      <ReportHeader report={report} />
      <SentBackComment report={report} />
      <Group gap="xs">
        <Button component="a" href={reportDownloads.template(report.uuid)} download variant="light">
          {t('reporting.import.template')}
        </Button>
        <Button component="a" href={reportDownloads.template(report.uuid, 'csv')} download variant="subtle">
          {t('reporting.import.template_csv')}
        </Button>
        {actions.upload && (
          <Button variant="light" onClick={() => void copyPrevious()} loading={copy.isPending}>
            {t('reporting.import.copy_previous')}
          </Button>
        )}
        <ReportStatusActions report={report} />
      </Group>

      {actions.upload && (
        <FileUploadPanel
          title={t('reporting.import.upload_title')}
          label={t('reporting.import.file')}
          action={t('reporting.import.upload')}
          upload={(file, onProgress) => uploadReportFile(report.uuid, file, { onProgress })}
          onAccepted={(importUuid) => {
            setUploadedImport(importUuid);
            void refreshReport();
          }}
        />
      )}
      {!actions.upload && report.period.status === 'closed' && <Alert color="gray">{t('reporting.import.period_closed')}</Alert>}
      {/* Submit is gone while the last file is invalid: say why, and what brings it back. */}
      {report.status === ReportStatus.InvalidFile && report.period.status === 'open' && (
        <Alert color="orange" title={t('reporting.import.invalid_file_title')} data-testid="invalid-file-explained">
          {t('reporting.import.invalid_file_body')}
        </Alert>
      )}

      {currentImport && (
        <ImportStatusPanel key={currentImport} importUuid={currentImport} fresh={currentImport === uploadedImport} onEnded={() => void refreshReport()} />
      )}

      <Section title={t('reporting.rows.title')}>
        <RowsTable report={report} compare />
      </Section>

      <Section
        title={t('reporting.preflight.title')}
        actions={
          <Button size="xs" variant="light" onClick={() => void runPreflight()} loading={preflight.isPending}>
            {t('reporting.preflight.run_again')}
          </Button>
        }
      >
        <PreflightResults preflight={report.preflight} />
      </Section>

      <Section title={t('reporting.history.title')}>
        <StatusHistory history={report.history} />
      </Section>
      <Section title={t('reporting.import.report_imports')}>
        <div data-testid="report-imports">
          <DataTable<Import, ReturnType<typeof importKeys.importList>>
            label={t('reporting.import.report_imports')}
            rowKey={(item) => item.uuid}
            defaultSort={{ sort: 'created_at', direction: 'desc' }}
            perPage={10}
            query={(params) => importQueries.imports({ ...params, report_uuid: report.uuid })}
            columns={importColumns(t, { withReport: false })}
            rowActions={(item) => <ImportActions item={item} withReport={false} />}
          />
        </div>
      </Section>
      <Text size="sm">
        <Anchor component={Link} to="/history/import">
          {t('title.import_history')}
        </Anchor>
      </Text>
    </Stack>
  );
}

/** The import's live status (polled while it runs), then its errors; `onEnded` once it ends. */
export function ImportStatusPanel({ importUuid, fresh = false, onEnded }: { importUuid: string; fresh?: boolean; onEnded: () => void }) {
  const query = useQuery({ ...importQueries.import(importUuid), meta: { handlesErrors: true } });
  const status = query.data?.status;
  // A just-uploaded import counts as running, even if it ends before the first answer.
  const wasRunning = useRef(fresh);
  useEffect(() => {
    if (importRunning(status)) wasRunning.current = true;
    else if (status && wasRunning.current) {
      wasRunning.current = false;
      onEnded();
    }
  }, [status, onEnded]);
  if (!query.data) return null;
  return <ImportResult detail={query.data} />;
}

function ImportResult({ detail }: { detail: ImportDetail }) {
  const { t } = useTranslation();
  const running = importRunning(detail.status);
  const color = running ? 'blue' : detail.status === 'done' ? 'teal' : 'red';
  return (
    <Alert color={color} title={t(`reporting.import.status.${detail.status}`)} data-testid="import-status">
      <Stack gap="xs">
        <Text size="sm">
          {detail.file_name} · {formatDateTime(detail.created_at)}
          {detail.status === 'done' && detail.row_count !== null
            ? ` · ${t('reporting.import.rows_imported', { count: detail.row_count, formatted: formatNumber(detail.row_count) })}`
            : ''}
        </Text>
        {running && <Progress value={100} animated striped aria-label={t('reporting.import.processing')} />}
        {detail.message && (
          <Text size="sm" fw={600} data-testid="import-message">
            {detail.message}
          </Text>
        )}
        {detail.errors.length > 0 && (
          <>
            <FileErrors errors={detail.errors} withCode testId="import-errors" />
            {detail.errors_truncated && (
              <Text size="sm" data-testid="import-errors-shown">
                {t(detail.errors_note ? 'reporting.import.errors_shown_cut' : 'reporting.import.errors_shown', {
                  shown: formatNumber(detail.errors.length),
                  total: formatNumber(detail.error_count),
                  listed: formatNumber(detail.errors_listed),
                })}
              </Text>
            )}
            {detail.errors_note && (
              <Text size="sm" fw={600} data-testid="import-errors-note">
                {detail.errors_note}
              </Text>
            )}
            <Group gap="lg">
              <Anchor href={importDownloads.errorSheet(detail.uuid)} download size="sm">
                {t('reporting.import.download_errors')}
              </Anchor>
              {/* The reporter's own file, each faulty cell filled and commented: fixed where it is, then uploaded again. */}
              {detail.errors.some((e) => e.row !== null) && (
                <Anchor href={importDownloads.markedFile(detail.uuid)} download size="sm" data-testid="import-marked-file">
                  {t('reporting.import.download_marked')}
                </Anchor>
              )}
            </Group>
          </>
        )}
      </Stack>
    </Alert>
  );
}
