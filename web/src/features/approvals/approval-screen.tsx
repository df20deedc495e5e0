import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Alert, Anchor, Button, Checkbox, Drawer, Group, List, Paper, Progress, Select, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { PeriodCoverage } from '@mss/contracts/periods';
import type { ReportSummary } from '@mss/contracts/reports';
import { abilitySubject, useSession } from '../../api/session.ts';
import type { ScreenProps } from '../../lib/screen.ts';
import { feedback } from '../../components/feedback.tsx';
import { AdminPage } from '../../components/page.tsx';
import { PeriodStatusBadge, periodQueries } from '../periods/index.ts';
import { approvalQueries, approvalsApi } from './api/approvals.ts';
import {
  PreflightResults,
  ReportProgressCells,
  ReportStatusActions,
  ReportStatusBadge,
  RowsTable,
  SeverityBadge,
  StatusHistory,
  reportActions,
  reportQueries,
  statusFor,
} from '../reports/index.ts';
import { useReportingMutation } from '../../api/reporting.ts';
import type { BulkStatusResult } from '@mss/contracts/approvals';
import { QueryState, Section } from '../../components/query-state.tsx';
import { formatDate, formatDateTime } from '../../lib/dates.ts';
import { formatNumber } from '../../lib/numbers.ts';

/**
 * /approval-list/:periodUuid and /cluster-approval/:periodUuid: every reporting company's
 * report of the period. The cluster variant is the same screen on the given period, with the
 * market shown (periods are per market).
 */
export function ApprovalListScreen({ title, params }: ScreenProps) {
  const { t } = useTranslation();
  const uuid = params.periodUuid ?? '';
  const period = useQuery({ ...periodQueries.period(uuid), meta: { handlesErrors: true } });
  const list = useQuery({ ...approvalQueries.approvalList(uuid), meta: { handlesErrors: true } });
  return (
    <AdminPage title={title}>
      {period.data && (
        <Group gap="md">
          <Text fw={600}>
            {period.data.market.international_name} · {period.data.title}
          </Text>
          <PeriodStatusBadge status={period.data.status} />
          <Text size="sm" c="dimmed">
            {t('reporting.period.deadline')}: {formatDate(period.data.deadline)}
          </Text>
          <Anchor component={Link} to={`/period-list/${period.data.market.id}`} size="sm">
            {t('title.period_list')}
          </Anchor>
        </Group>
      )}
      {period.data?.coverage && <ApprovalCoverage coverage={period.data.coverage} />}
      <QueryState query={list} empty={(rows) => rows.length === 0}>
        {(reports) => <ApprovalTable reports={reports} />}
      </QueryState>
    </AdminPage>
  );
}

/** The market's coverage of the period: approved of expected, as the statistics and publishing count it. */
function ApprovalCoverage({ coverage }: { coverage: PeriodCoverage }) {
  const { t } = useTranslation();
  const complete = coverage.approved >= coverage.expected;
  return (
    <Group gap="sm" wrap="nowrap" data-testid="approval-coverage">
      <Text size="sm" fw={600} c={complete ? 'teal' : 'orange'} style={{ whiteSpace: 'nowrap' }}>
        {t('reporting.period.coverage', coverage)}
      </Text>
      <Progress
        value={coverage.expected ? (100 * coverage.approved) / coverage.expected : 0}
        color={complete ? 'teal' : 'orange'}
        style={{ flex: 1, maxWidth: 320 }}
        aria-label={t('reporting.period.coverage', coverage)}
      />
    </Group>
  );
}

function ApprovalTable({ reports: all }: { reports: ReportSummary[] }) {
  const { t } = useTranslation();
  const session = useSession();
  const subject = abilitySubject(session);
  const phone = useMediaQuery('(max-width: 40em)');
  // The status filter: every status present, with its count; "all" by default.
  const [status, setStatus] = useState<string>('all');
  const statuses = [...new Set(all.map((r) => r.status))].sort((a, b) => a - b);
  const reports = status === 'all' ? all : all.filter((r) => String(r.status) === status);
  const [selected, setSelected] = useState<string[]>([]);
  const [opened, setOpened] = useState<string | null>(null);
  const [refused, setRefused] = useState<BulkStatusResult['refused']>([]);
  const bulk = useReportingMutation(approvalsApi.bulkStatus);
  const approvable = reports.filter((r) => reportActions(r, subject).approve).map((r) => r.uuid);
  const toggle = (uuid: string) => setSelected((s) => (s.includes(uuid) ? s.filter((u) => u !== uuid) : [...s, uuid]));
  const companyOf = (uuid: string) => reports.find((r) => r.uuid === uuid)?.company.name ?? uuid;

  const approveSelected = async () => {
    const ok = await feedback.confirm({
      message: t('reporting.approval.bulk_confirm', { count: selected.length }),
      confirmLabel: t('reporting.approval.approve_selected'),
    });
    if (!ok) return;
    try {
      const result = await feedback.loading.during(bulk.mutateAsync({ uuids: selected, status: statusFor('approve') }));
      setSelected([]);
      setRefused(result.refused);
      feedback.toast(t('reporting.approval.bulk_done', { count: result.changed.length }), { color: result.refused.length ? 'yellow' : 'teal' });
    } catch (error) {
      await feedback.errorOf(error);
    }
  };

  const select = (report: ReportSummary) => (
    <Checkbox
      aria-label={t('reporting.approval.select', { company: report.company.name })}
      checked={selected.includes(report.uuid)}
      disabled={!approvable.includes(report.uuid)}
      onChange={() => toggle(report.uuid)}
    />
  );
  const open = (report: ReportSummary) => (
    <Button size="xs" variant="light" onClick={() => setOpened(report.uuid)}>
      {t('reporting.approval.open')}
    </Button>
  );

  return (
    <Stack gap="sm">
      <Group align="flex-end" wrap="wrap">
        <Select
          label={t('reporting.approval.status_filter')}
          data={[
            { value: 'all', label: t('reporting.approval.status_all', { count: all.length }) },
            ...statuses.map((s) => ({
              value: String(s),
              label: `${t(`enum.report_status.${s}`)} (${all.filter((r) => r.status === s).length})`,
            })),
          ]}
          value={status}
          onChange={(v) => {
            setStatus(v ?? 'all');
            setSelected([]);
          }}
          allowDeselect={false}
          w={{ base: '100%', xs: 280 }}
          data-testid="approval-status-filter"
        />
        <Button disabled={selected.length === 0} onClick={() => void approveSelected()}>
          {t('reporting.approval.approve_selected')} {selected.length > 0 ? `(${selected.length})` : ''}
        </Button>
      </Group>
      {refused.length > 0 && (
        <Alert color="yellow" title={t('reporting.approval.refused')} withCloseButton onClose={() => setRefused([])}>
          <List size="sm">
            {refused.map((r) => (
              <List.Item key={r.uuid}>
                {companyOf(r.uuid)}: {r.message}
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
      {phone ? (
        // At phone width each report is a card: nothing wider than the screen, the status whole.
        <Stack gap="xs" data-testid="approval-cards">
          {reports.map((report) => (
            <Paper key={report.uuid} withBorder radius="md" p="sm" data-testid="approval-card">
              <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
                <Group gap="xs" wrap="nowrap" align="flex-start">
                  {select(report)}
                  <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {report.company.name}
                    <Text span c="dimmed" size="sm">
                      {' '}
                      · {report.market.iso_code}
                    </Text>
                  </Text>
                </Group>
                {open(report)}
              </Group>
              <Group gap="xs" mt={6} wrap="wrap">
                <ReportStatusBadge status={report.status} />
                <Text size="xs" c="dimmed">
                  {t('reporting.preflight.title')}:
                </Text>
                <SeverityBadge severity={report.preflight_severity} />
              </Group>
              <Text size="xs" c="dimmed" mt={4}>
                {report.submitted_at ? `${t('reporting.submitted_at')}: ${formatDateTime(report.submitted_at)} · ` : ''}
                {t('reporting.row_count')}: {formatNumber(report.row_count)}
              </Text>
            </Paper>
          ))}
        </Stack>
      ) : (
        <Table.ScrollContainer minWidth={800}>
          <Table striped highlightOnHover withTableBorder aria-label={t('title.approval_list')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={40}>
                  <Checkbox
                    aria-label={t('reporting.approval.select_all')}
                    checked={approvable.length > 0 && approvable.every((u) => selected.includes(u))}
                    indeterminate={selected.length > 0 && !approvable.every((u) => selected.includes(u))}
                    disabled={approvable.length === 0}
                    onChange={(e) => setSelected(e.currentTarget.checked ? approvable : [])}
                  />
                </Table.Th>
                <Table.Th>{t('reporting.company')}</Table.Th>
                <Table.Th>{t('reporting.market')}</Table.Th>
                <Table.Th>{t('reporting.status')}</Table.Th>
                <Table.Th>{t('reporting.submitted_at')}</Table.Th>
                <Table.Th>{t('reporting.preflight.title')}</Table.Th>
                <Table.Th ta="right">{t('reporting.row_count')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {reports.map((report) => (
                <Table.Tr key={report.uuid}>
                  <Table.Td>{select(report)}</Table.Td>
                  <Table.Td fw={600}>{report.company.name}</Table.Td>
                  <Table.Td>{report.market.iso_code}</Table.Td>
                  <ReportProgressCells report={report} />
                  <Table.Td>{open(report)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Drawer
        opened={opened !== null}
        onClose={() => setOpened(null)}
        position="right"
        size="min(72rem, 100%)"
        title={opened ? companyOf(opened) : ''}
        closeButtonProps={{ 'aria-label': t('common.close') }}
      >
        {opened && <ReportDetail uuid={opened} />}
      </Drawer>
    </Stack>
  );
}

/** One report for an approver: status, actions, rows, preflight, history. */
export function ReportDetail({ uuid }: { uuid: string }) {
  const { t } = useTranslation();
  const report = useQuery({ ...reportQueries.report(uuid), meta: { handlesErrors: true } });
  return (
    <QueryState query={report}>
      {(data) => (
        <Stack gap="md" data-testid="report-detail">
          <Group gap="sm">
            <Text fw={600}>
              {data.market.international_name} · {data.period.title}
            </Text>
            <ReportStatusBadge status={data.status} />
          </Group>
          <ReportStatusActions report={data} />
          <Section title={t('reporting.rows.title')}>
            <RowsTable report={data} compare />
          </Section>
          <Section title={t('reporting.preflight.title')}>
            <PreflightResults preflight={data.preflight} />
          </Section>
          <Section title={t('reporting.history.title')}>
            <StatusHistory history={data.history} />
          </Section>
        </Stack>
      )}
    </QueryState>
  );
}
