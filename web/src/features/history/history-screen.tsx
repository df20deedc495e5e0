import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { useMediaQuery } from '@mantine/hooks';
import { Alert, Anchor, Badge, Button, Group, Progress, ScrollArea, Stack, Table, Text } from '@mantine/core';
import type { HistoryImport, HistoryImportDetail } from '@mss/contracts/history';
import type { ScreenProps } from '../../lib/screen.ts';
import { AdminPage } from '../../components/page.tsx';
import { Section } from '../../components/query-state.tsx';
import { feedback } from '../../components/feedback.tsx';
import { FileErrors } from '../../components/file-errors.tsx';
import { FileUploadPanel } from '../../components/file-upload.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { formatNumber } from '../../lib/numbers.ts';
import { historyApi, historyDownloads, historyQueries, historyRunning, useHistoryAction, useRefreshHistoryList } from './api.ts';
import './texts.ts';

/**
 * /history-import — an association's past in one file (administrators): check a file (a dry run:
 * its errors, or what it would write), import it (a progress bar, cancel), publish its periods.
 */
export function HistoryImportScreen({ title }: ScreenProps) {
  const { t } = useTranslation();
  const refreshList = useRefreshHistoryList();
  const list = useQuery(historyQueries.list());
  const [chosen, setChosen] = useState<string | null>(null);
  const current = chosen ?? list.data?.[0]?.uuid ?? null;
  return (
    <AdminPage title={title}>
      <Stack gap="md">
        <Text size="sm" maw={760}>
          {t('history.intro')}
        </Text>
        <Text size="sm" maw={760}>
          {t('history.columns')}{' '}
          <Anchor href={historyDownloads.template('xlsx')} download>
            {t('history.template_xlsx')}
          </Anchor>{' '}
          ·{' '}
          <Anchor href={historyDownloads.template('csv')} download>
            {t('history.template_csv')}
          </Anchor>
        </Text>
        <FileUploadPanel
          title={t('history.upload_title')}
          label={t('history.file')}
          action={t('history.check')}
          upload={(file, onProgress) => historyApi.upload(file, { onProgress })}
          onAccepted={async (uuid) => {
            await refreshList();
            setChosen(uuid);
          }}
        />
        {current && <HistoryPanel key={current} uuid={current} />}
        {list.data && list.data.length > 0 && <EarlierImports items={list.data} current={current} onChoose={setChosen} />}
      </Stack>
    </AdminPage>
  );
}

const STATUS_COLOR: Record<HistoryImport['status'], string> = {
  queued: 'blue',
  checking: 'blue',
  checked: 'teal',
  invalid: 'red',
  importing: 'blue',
  imported: 'teal',
  cancelled: 'gray',
  failed: 'red',
  publishing: 'blue',
  published: 'teal',
};

/** "about 3 min", "12 s" */
function timeLeft(seconds: number | null, t: (key: 'history.minutes' | 'history.seconds', params: { count: number }) => string): string {
  if (seconds === null) return '…';
  return seconds >= 90 ? t('history.minutes', { count: Math.round(seconds / 60) }) : t('history.seconds', { count: seconds });
}

function HistoryPanel({ uuid }: { uuid: string }) {
  const { t } = useTranslation();
  const refreshList = useRefreshHistoryList();
  const step = useHistoryAction(uuid);
  const query = useQuery({ ...historyQueries.detail(uuid), meta: { handlesErrors: true } });
  const detail = query.data;
  // The list below says each import's status: it follows this one's.
  const status = detail?.status;
  useEffect(() => {
    if (status) void refreshList();
  }, [status, refreshList]);
  if (!detail) return null;
  const act = async (action: 'import' | 'publish' | 'cancel', confirm?: string) => {
    if (confirm && !(await feedback.confirm({ message: confirm, confirmLabel: t(`history.${action}_button`) }))) return;
    try {
      await step.mutateAsync(action);
    } catch (error) {
      await feedback.errorOf(error);
    }
  };
  const running = historyRunning(detail.status);
  const plan = detail.plan;
  const totals = plan
    ? {
        periods: plan.periods.length,
        markets: new Set(plan.periods.map((p) => p.market)).size,
        newPeriods: plan.periods.filter((p) => !p.exists).length,
        reports: plan.periods.reduce((n, p) => n + p.companies, 0),
        existing: plan.periods.reduce((n, p) => n + p.reports_existing, 0),
      }
    : null;
  const { progress } = detail;
  const total = formatNumber(detail.row_count ?? detail.data_rows ?? 0);
  return (
    <Alert color={STATUS_COLOR[detail.status]} title={t(`history.status.${detail.status}`)} data-testid="history-status">
      <Stack gap="sm">
        <Text size="sm">
          {detail.file_name} · {formatDateTime(detail.created_at)}
          {detail.user ? ` · ${detail.user.name}` : ''}
        </Text>

        {running && (
          <Stack gap={4}>
            <Progress
              value={progress.permille / 10}
              animated
              striped
              aria-label={t(`history.status.${detail.status}`)}
              data-testid="history-progress"
              role="progressbar"
            />
            <Text size="sm" data-testid="history-progress-text">
              {detail.status === 'publishing'
                ? t('history.progress_periods', { done: progress.periods_done, total: progress.periods_total })
                : detail.status === 'importing' && progress.rows_done + progress.periods_done > 0
                  ? t('history.progress_rows', {
                      done: formatNumber(progress.rows_done),
                      total,
                      periods: progress.periods_done,
                      periods_total: progress.periods_total,
                    })
                  : t('history.rows_read', { read: formatNumber(progress.rows_read), total: detail.status === 'importing' ? total : '…' })}
              {progress.rows_per_second !== null &&
                ` · ${t('history.rate', { rate: formatNumber(progress.rows_per_second) })} · ${t('history.left', { left: timeLeft(progress.seconds_left, t) })}`}
            </Text>
            {(detail.status === 'importing' || detail.status === 'checking') && (
              <Group>
                <Button size="xs" variant="default" disabled={detail.cancel_requested} onClick={() => void act('cancel')}>
                  {detail.cancel_requested ? t('history.cancelling') : t('history.cancel_button')}
                </Button>
              </Group>
            )}
          </Stack>
        )}

        {detail.status === 'invalid' && <HistoryErrors detail={detail} />}

        {plan && totals && detail.status === 'checked' && (
          <>
            <Text size="sm" fw={600} data-testid="history-plan-summary">
              {t('history.plan_summary', {
                rows: total,
                periods: formatNumber(totals.periods),
                markets: totals.markets,
                new_periods: formatNumber(totals.newPeriods),
                reports: formatNumber(totals.reports),
                existing: formatNumber(totals.existing),
              })}
            </Text>
            <PlanTable detail={detail} />
            <Group>
              <Button
                onClick={() =>
                  void act('import', t('history.confirm_import', { reports: formatNumber(totals.reports), periods: formatNumber(totals.periods) }))
                }
              >
                {t('history.import_button')}
              </Button>
            </Group>
          </>
        )}

        {detail.result && ['imported', 'cancelled', 'published', 'publishing'].includes(detail.status) && (
          <Text size="sm" data-testid="history-result">
            {t('history.result', {
              periods_created: formatNumber(detail.result.periods_created),
              reports_created: formatNumber(detail.result.reports_created),
              reports_replaced: formatNumber(detail.result.reports_replaced),
              reports_unchanged: formatNumber(detail.result.reports_unchanged),
            })}
            {detail.status === 'published' && ` ${t('history.result_published', { count: detail.result.periods_published })}`}
          </Text>
        )}
        {detail.status === 'cancelled' && <Text size="sm">{t('history.cancelled_note')}</Text>}
        {detail.status === 'failed' && <Text size="sm">{t('history.failed_note')}</Text>}
        {detail.status === 'imported' && detail.result && (
          <Group>
            <Button
              disabled={detail.result.period_ids.length === 0}
              onClick={() => void act('publish', t('history.confirm_publish', { count: detail.result!.period_ids.length }))}
            >
              {t('history.publish', { count: detail.result.period_ids.length })}
            </Button>
            {detail.result.period_ids.length === 0 && <Text size="sm">{t('history.nothing_to_publish')}</Text>}
          </Group>
        )}
        {(detail.status === 'cancelled' || detail.status === 'failed') && detail.plan && (
          <Group>
            <Button variant="light" onClick={() => void act('import')}>
              {t('history.import_again')}
            </Button>
          </Group>
        )}
      </Stack>
    </Alert>
  );
}

function HistoryErrors({ detail }: { detail: HistoryImportDetail }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      <Text size="sm" fw={600}>
        {t('history.errors_count', { count: detail.error_count, formatted: formatNumber(detail.error_count), shown: detail.errors.length })}
      </Text>
      <FileErrors errors={detail.errors} testId="history-errors" />
      <Anchor href={historyDownloads.errors(detail.uuid)} download size="sm">
        {t('history.download_errors')}
      </Anchor>
    </Stack>
  );
}

function PlanTable({ detail }: { detail: HistoryImportDetail }) {
  const { t } = useTranslation();
  return (
    <ScrollArea.Autosize mah={320} type="auto" offsetScrollbars viewportProps={{ tabIndex: 0, 'aria-label': t('history.plan_label') }}>
      <Table withTableBorder stickyHeader aria-label={t('history.plan_label')} data-testid="history-plan" bg="var(--mantine-color-body)">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('history.plan.market')}</Table.Th>
            <Table.Th>{t('history.plan.period')}</Table.Th>
            <Table.Th>{t('history.plan.state')}</Table.Th>
            <Table.Th ta="right">{t('history.plan.companies')}</Table.Th>
            <Table.Th ta="right">{t('history.plan.rows')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {detail.plan!.periods.map((p) => (
            <Table.Tr key={`${p.market}-${p.period}`}>
              <Table.Td>{p.market}</Table.Td>
              <Table.Td>{p.period}</Table.Td>
              <Table.Td>{p.exists ? t('history.plan.exists', { count: p.reports_existing }) : <Badge variant="light">{t('history.plan.new')}</Badge>}</Table.Td>
              <Table.Td ta="right">{formatNumber(p.companies)}</Table.Td>
              <Table.Td ta="right">{formatNumber(p.rows)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea.Autosize>
  );
}

function EarlierImports({ items, current, onChoose }: { items: HistoryImport[]; current: string | null; onChoose: (uuid: string) => void }) {
  const { t } = useTranslation();
  const phone = useMediaQuery('(max-width: 40em)');
  if (phone)
    return (
      <Section title={t('history.earlier')}>
        <Stack gap="xs" data-testid="history-list">
          {items.map((item) => (
            <Group key={item.uuid} justify="space-between" wrap="nowrap" p="xs" bg={item.uuid === current ? 'var(--mantine-color-blue-light)' : undefined}>
              <Stack gap={0}>
                <Text size="sm" fw={600}>
                  {item.file_name}
                </Text>
                <Text size="xs" c="dimmed">
                  {formatDateTime(item.created_at)} · {item.user?.name ?? ''}
                </Text>
                <Text size="sm">{t(`history.status.${item.status}`)}</Text>
              </Stack>
              {item.uuid !== current && (
                <Button size="xs" variant="subtle" onClick={() => onChoose(item.uuid)} aria-label={t('history.show_file', { file: item.file_name })}>
                  {t('history.show')}
                </Button>
              )}
            </Group>
          ))}
        </Stack>
      </Section>
    );
  return (
    <Section title={t('history.earlier')}>
      <ScrollArea type="auto">
        <Table aria-label={t('history.earlier')} data-testid="history-list">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('history.col.file')}</Table.Th>
              <Table.Th>{t('history.col.created')}</Table.Th>
              <Table.Th>{t('history.col.user')}</Table.Th>
              <Table.Th>{t('history.col.status')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((item) => (
              <Table.Tr key={item.uuid} bg={item.uuid === current ? 'var(--mantine-color-blue-light)' : undefined}>
                <Table.Td>{item.file_name}</Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(item.created_at)}</Table.Td>
                <Table.Td>{item.user?.name ?? ''}</Table.Td>
                <Table.Td>{t(`history.status.${item.status}`)}</Table.Td>
                <Table.Td>
                  {item.uuid !== current && (
                    <Button size="xs" variant="subtle" onClick={() => onChoose(item.uuid)} aria-label={t('history.show_file', { file: item.file_name })}>
                      {t('history.show')}
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
    </Section>
  );
}
