import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Anchor, Badge, Card, Group, Stack, Table, Text } from '@mantine/core';
import { canSomewhere } from '@mss/contracts/abilities';
import { ReportStatus } from '@mss/contracts/enums';
import type { ReportSummary } from '@mss/contracts/reports';
import { abilitySubject, useSession } from '../../api/session.ts';
import { reportingQueries } from './api/reporting.ts';
import { ReportStatusBadge, formatDate } from './components.tsx';
import { OPEN_REPORT_STATUSES } from './status-actions.ts';

function TaskCard({ label, testId, children }: { label: string; testId: string; children: React.ReactNode }) {
  return (
    <Card withBorder radius="md" padding="lg" data-testid={testId}>
      <Text size="xs" tt="uppercase" fw={700} c="dimmed" mb="xs">
        {label}
      </Text>
      {children}
    </Card>
  );
}

/** The dashboard's "what needs doing": open reports for reporters, reports waiting for approvers. */
export function ReportingTasks() {
  const session = useSession();
  const subject = abilitySubject(session);
  return (
    <>
      {canSomewhere(subject, 'upload-reports') && <OpenReports />}
      {canSomewhere(subject, 'approve-reports') && <WaitingReports />}
    </>
  );
}

function OpenReports() {
  const { t } = useTranslation();
  const query = useQuery({ ...reportingQueries.reports({ status: OPEN_REPORT_STATUSES }), meta: { handlesErrors: true } });
  const reports = (query.data ?? []).filter((r) => r.period.status === 'open');
  return (
    <TaskCard label={t('dashboard.open_reports')} testId="dashboard-open-reports">
      {reports.length === 0 ? (
        <Text c="dimmed">{query.isPending ? t('app.loading') : t('dashboard.no_open_reports')}</Text>
      ) : (
        <Table aria-label={t('dashboard.open_reports')}>
          <Table.Tbody>
            {reports.map((report) => (
              <Table.Tr key={report.uuid}>
                <Table.Td>
                  <Anchor component={Link} to={`/import/${report.uuid}`}>
                    {report.company.name} · {report.market.iso_code} · {report.period.title}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <ReportStatusBadge status={report.status} />
                </Table.Td>
                <Table.Td>
                  {t('reporting.period.deadline')}: {formatDate(report.period.deadline)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </TaskCard>
  );
}

function WaitingReports() {
  const { t } = useTranslation();
  const query = useQuery({ ...reportingQueries.reports({ status: [ReportStatus.WaitingForApproval] }), meta: { handlesErrors: true } });
  const byPeriod = new Map<string, { report: ReportSummary; count: number }>();
  for (const report of query.data ?? []) {
    const entry = byPeriod.get(report.period.uuid);
    if (entry) entry.count += 1;
    else byPeriod.set(report.period.uuid, { report, count: 1 });
  }
  return (
    <TaskCard label={t('dashboard.waiting_reports')} testId="dashboard-waiting-reports">
      {byPeriod.size === 0 ? (
        <Text c="dimmed">{query.isPending ? t('app.loading') : t('dashboard.no_waiting_reports')}</Text>
      ) : (
        <Stack gap="xs">
          {[...byPeriod.values()].map(({ report, count }) => (
            <Group key={report.period.uuid} gap="sm">
              <Badge size="lg" circle>
                {count}
              </Badge>
              <Anchor component={Link} to={`/approval-list/${report.period.uuid}`}>
                {report.market.international_name} · {report.period.title}
              </Anchor>
            </Group>
          ))}
        </Stack>
      )}
    </TaskCard>
  );
}
