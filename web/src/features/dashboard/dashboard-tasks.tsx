import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Anchor, Badge, Card, Group, Stack, Table, Text } from '@mantine/core';
import { canSomewhere } from '@mss/contracts/abilities';
import { ReportStatus } from '@mss/contracts/enums';
import type { ReportSummary } from '@mss/contracts/reports';
import { abilitySubject, useSession } from '../../api/session.ts';
import { OPEN_REPORT_STATUSES, ReportStatusBadge, reportLink, reportQueries } from '../reports/index.ts';
import { formatDate, isPast } from '../../lib/dates.ts';

/** A dashboard card: a small uppercase label above its content. */
export function DashboardCard({ label, testId, children }: { label: string; testId?: string; children: React.ReactNode }) {
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
      {(canSomewhere(subject, 'upload-reports') || canSomewhere(subject, 'view-company-reports')) && session.user?.company && (
        <RecentReports companyId={session.user.company.id} uploader={canSomewhere(subject, 'upload-reports')} />
      )}
      {canSomewhere(subject, 'approve-reports') && <WaitingReports />}
      {canSomewhere(subject, 'approve-reports') && <OpenPeriods />}
    </>
  );
}

function OpenReports() {
  const { t } = useTranslation();
  const query = useQuery({ ...reportQueries.reports({ status: OPEN_REPORT_STATUSES, period_status: 'open' }), meta: { handlesErrors: true } });
  const reports = query.data ?? [];
  return (
    <DashboardCard label={t('dashboard.open_reports')} testId="dashboard-open-reports">
      <ReportTable
        label={t('dashboard.open_reports')}
        reports={reports}
        pending={query.isPending}
        empty={t('dashboard.no_open_reports')}
        to={(report) => `/import/${report.uuid}`}
        note={(report) =>
          report.sent_back_comment !== null && (
            <Text size="sm" c="orange" data-testid="dashboard-sent-back" style={{ whiteSpace: 'pre-wrap' }}>
              {t('dashboard.sent_back', { comment: report.sent_back_comment || t('reporting.sent_back.no_comment') })}
            </Text>
          )
        }
        last={(report) => <Deadline deadline={report.period.deadline} overdue={isPast(report.period.deadline)} />}
      />
    </DashboardCard>
  );
}

/**
 * Reports of the user's company as the dashboard lists them: a link naming company, market and
 * period (with a note under it), the status, and one cell more. Columns keep their natural width
 * (a status or "Overdue" is never cut); at phone width the table scrolls inside its card.
 */
function ReportTable({
  label,
  reports,
  pending,
  empty,
  to,
  note,
  last,
}: {
  label: string;
  reports: ReportSummary[];
  pending: boolean;
  empty: string;
  to: (report: ReportSummary) => string;
  note?: (report: ReportSummary) => React.ReactNode;
  last: (report: ReportSummary) => React.ReactNode;
}) {
  const { t } = useTranslation();
  if (reports.length === 0) return <Text c="dimmed">{pending ? t('app.loading') : empty}</Text>;
  return (
    <Table.ScrollContainer minWidth={520}>
      {/* On a phone each report is a card, its cells one under the other (stacked-tables.css). */}
      <Table aria-label={label} data-stack>
        <Table.Tbody>
          {reports.map((report) => (
            <Table.Tr key={report.uuid}>
              <Table.Td>
                <Anchor component={Link} to={to(report)}>
                  {report.company.name} · {report.market.iso_code} · {report.period.title}
                </Anchor>
                {note?.(report)}
              </Table.Td>
              <Table.Td>
                <ReportStatusBadge status={report.status} />
              </Table.Td>
              <Table.Td>{last(report)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** How long a submitted or approved report stays on its company's dashboard. */
export const RECENT_DAYS = 45;
const RECENT_MAX = 8;

/** When a report last moved forward: approved, else submitted (else its last change). */
const movedAt = (r: ReportSummary) => r.approved_at ?? r.submitted_at ?? r.updated_at;

/** Submitted and approved reports that moved in the last `days` days, newest first, at most `max`. */
export function recentReports(reports: readonly ReportSummary[], now = Date.now(), days = RECENT_DAYS, max = RECENT_MAX): ReportSummary[] {
  const since = now - days * 24 * 60 * 60 * 1000;
  return reports
    .filter((r) => Date.parse(movedAt(r)) >= since)
    .sort((a, b) => movedAt(b).localeCompare(movedAt(a)))
    .slice(0, max);
}

/** For a company's users: what they sent lately and how it went (approved ones too, for a while). */
function RecentReports({ companyId, uploader }: { companyId: number; uploader: boolean }) {
  const { t } = useTranslation();
  const query = useQuery({
    ...reportQueries.reports({ company_id: companyId, status: [ReportStatus.WaitingForApproval, ReportStatus.Approved] }),
    meta: { handlesErrors: true },
  });
  const reports = recentReports(query.data ?? []);
  return (
    <DashboardCard label={t('dashboard.recent_reports')} testId="dashboard-recent-reports">
      <ReportTable
        label={t('dashboard.recent_reports')}
        reports={reports}
        pending={query.isPending}
        empty={t('dashboard.no_recent_reports', { duration: t('duration.day', { count: RECENT_DAYS }) })}
        to={(report) => reportLink(report, uploader)}
        last={(report) => (
          <Text size="sm">
            {report.status === ReportStatus.Approved
              ? t('dashboard.approved_on', { date: formatDate(report.approved_at) })
              : t('dashboard.submitted_on', { date: formatDate(report.submitted_at) })}
          </Text>
        )}
      />
      <Text size="sm" mt="xs">
        <Anchor component={Link} to="/history">
          {t('dashboard.all_my_reports')}
        </Anchor>
      </Text>
    </DashboardCard>
  );
}

function Deadline({ deadline, overdue }: { deadline: string | null; overdue: boolean }) {
  const { t } = useTranslation();
  return (
    // Wraps rather than squeezes: at phone width the badge goes under the date, whole.
    <Group gap="xs" wrap="wrap">
      <Text size="sm">
        {t('reporting.period.deadline')}: {formatDate(deadline)}
      </Text>
      {overdue && (
        <Badge color="red" variant="light" tt="none" style={{ flexShrink: 0, minWidth: 'max-content' }}>
          {t('dashboard.overdue')}
        </Badge>
      )}
    </Group>
  );
}

export interface PeriodProgress {
  period: ReportSummary['period'];
  market: ReportSummary['market'];
  total: number;
  /** Sent for approval or approved. */
  submitted: number;
  approved: number;
}

/** The reports of open periods counted by period, in the order of the list (newest period first). */
export function progressByPeriod(reports: readonly ReportSummary[]): PeriodProgress[] {
  const byPeriod = new Map<string, PeriodProgress>();
  for (const report of reports) {
    let entry = byPeriod.get(report.period.uuid);
    if (!entry) {
      entry = { period: report.period, market: report.market, total: 0, submitted: 0, approved: 0 };
      byPeriod.set(report.period.uuid, entry);
    }
    entry.total += 1;
    if (report.status === ReportStatus.WaitingForApproval || report.status === ReportStatus.Approved) entry.submitted += 1;
    if (report.status === ReportStatus.Approved) entry.approved += 1;
  }
  return [...byPeriod.values()];
}

/** For approvers: each open period of their markets, its deadline and how far its reports are. */
function OpenPeriods() {
  const { t } = useTranslation();
  const query = useQuery({ ...reportQueries.reports({ period_status: 'open' }), meta: { handlesErrors: true } });
  const periods = progressByPeriod(query.data ?? []);
  return (
    <DashboardCard label={t('dashboard.open_periods')} testId="dashboard-open-periods">
      {periods.length === 0 ? (
        <Text c="dimmed">{query.isPending ? t('app.loading') : t('dashboard.no_open_periods')}</Text>
      ) : (
        // Columns keep their natural width (a status or "Overdue" is never cut); on a phone each period is a card, its deadline and progress under its name (stacked-tables.css).
        <Table.ScrollContainer minWidth={520}>
          <Table aria-label={t('dashboard.open_periods')} data-stack>
            <Table.Tbody>
              {periods.map((p) => (
                <Table.Tr key={p.period.uuid}>
                  <Table.Td>
                    <Anchor component={Link} to={`/approval-list/${p.period.uuid}`}>
                      {p.market.international_name} · {p.period.title}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    <Deadline deadline={p.period.deadline} overdue={p.submitted < p.total && isPast(p.period.deadline)} />
                  </Table.Td>
                  <Table.Td>{t('dashboard.period_progress', { submitted: p.submitted, total: p.total, approved: p.approved })}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </DashboardCard>
  );
}

function WaitingReports() {
  const { t } = useTranslation();
  const query = useQuery({ ...reportQueries.reports({ status: [ReportStatus.WaitingForApproval] }), meta: { handlesErrors: true } });
  const byPeriod = new Map<string, { report: ReportSummary; count: number }>();
  for (const report of query.data ?? []) {
    const entry = byPeriod.get(report.period.uuid);
    if (entry) entry.count += 1;
    else byPeriod.set(report.period.uuid, { report, count: 1 });
  }
  return (
    <DashboardCard label={t('dashboard.waiting_reports')} testId="dashboard-waiting-reports">
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
    </DashboardCard>
  );
}
