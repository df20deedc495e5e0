import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Anchor, Button, Group, Select, Stack, Table, Text } from '@mantine/core';
import { canInMarket } from '@mss/contracts/abilities';
import { abilitySubject, useSession } from '../../api/session.ts';
import type { ScreenProps } from '../../lib/screen.ts';
import { AdminPage } from '../../components/page.tsx';
import { approvalQueries } from '../approvals/index.ts';
import { periodQueries } from '../periods/index.ts';
import { reportKeys, reportQueries } from './api/reports.ts';
import type { ReportSummary } from '@mss/contracts/reports';
import { DataTable } from '../../components/data-table.tsx';
import { QueryState } from '../../components/query-state.tsx';
import { ReportProgressCells } from './components/status-badges.tsx';
import { ReportStatusBadge } from './components/report-badges.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { formatNumber } from '../../lib/numbers.ts';
import { reportLink } from './lib/report-link.ts';
import { type MarketChoice, useMarketParam, useMarketsWith } from '../../lib/markets.ts';
import { ListPager, pageOf, useListSearch } from '../../components/list-pager.tsx';

/**
 * /history/:market — the reports over periods in a market (:market is the market id or ISO code): the
 * user's company's reports for a reporter, every visible report for others (the server scopes).
 */
export function ReportHistoryScreen({ title, params }: ScreenProps) {
  const { t } = useTranslation();
  const session = useSession();
  const { user } = session;
  const { markets } = useMarketsWith('view-report-history');
  // /history (the navbar's entry): the first of the user's markets.
  const marketId = useMarketParam(params.market, 'view-report-history') ?? (params.market ? undefined : markets[0]?.id);
  const companyId = user?.company?.id;
  const uploader = marketId !== undefined && canInMarket(abilitySubject(session), 'upload-reports', marketId);
  return (
    <AdminPage title={title}>
      <MarketPicker base="/history" value={marketId} ability="view-report-history" />
      {marketId && (
        <DataTable<ReportSummary, ReturnType<typeof reportKeys.history>>
          key={marketId}
          label={title}
          rowKey={(report) => report.uuid}
          defaultSort={{ sort: 'period', direction: 'desc' }}
          query={(list) => reportQueries.history({ ...list, market_id: marketId, ...(companyId ? { company_id: companyId } : {}) })}
          columns={[
            { key: 'period', label: t('reporting.period.title'), sortable: true, render: (report) => report.period.title },
            { key: 'company', label: t('reporting.company'), sortable: true, render: (report) => report.company.name },
            { key: 'status', label: t('reporting.status'), sortable: true, render: (report) => <ReportStatusBadge status={report.status} /> },
            { key: 'submitted_at', label: t('reporting.submitted_at'), sortable: true, render: (report) => formatDateTime(report.submitted_at) },
            { key: 'approved_at', label: t('reporting.approved_at'), sortable: true, render: (report) => formatDateTime(report.approved_at) },
            { key: 'row_count', label: t('reporting.row_count'), sortable: true, render: (report) => formatNumber(report.row_count) },
          ]}
          rowActions={(report) => (
            <Button component={Link} to={reportLink(report, uploader && report.company.id === companyId)} size="xs" variant="subtle">
              {t('reporting.open_report')}
            </Button>
          )}
        />
      )}
    </AdminPage>
  );
}

/**
 * /reporting-companies/:market/:marketId? — the companies reporting in a market with their report
 * of the latest opened period. `:marketId`, when given, is the market's id and decides (the picker
 * writes /reporting-companies/SE/12: readable, and exact); `:market` alone is the market's id or
 * ISO code.
 */
export function ReportingCompaniesScreen({ title, params }: ScreenProps) {
  const { t } = useTranslation();
  const marketId = useMarketParam(params.marketId ?? params.market, 'approve-reports');
  const periods = useQuery({ ...periodQueries.periods({ market_id: marketId }), enabled: marketId !== undefined, meta: { handlesErrors: true } });
  // Any period that is not a draft, newest first; the newest by default. The period, the status
  // filter and the page live in the URL: reload and Back keep them.
  const { search, set } = useListSearch({ period: ['status'] });
  const choices = (periods.data ?? []).filter((p) => p.status !== 'draft').sort((a, b) => b.starts_on.localeCompare(a.starts_on));
  const chosen = choices.find((p) => p.uuid === search.get('period')) ?? choices[0];
  const list = useQuery({ ...approvalQueries.approvalList(chosen?.uuid ?? ''), enabled: !!chosen, meta: { handlesErrors: true } });
  const status = search.get('status') ?? 'all';
  return (
    <AdminPage title={title}>
      <MarketPicker
        base="/reporting-companies"
        value={marketId}
        ability="approve-reports"
        to={(market) => `/reporting-companies/${market.iso_code}/${market.id}`}
      />
      {periods.data && !chosen && <Text c="dimmed">{t('reporting.no_open_period')}</Text>}
      {chosen && (
        <Stack gap="sm">
          <Group align="flex-end" wrap="wrap">
            <Select
              label={t('reporting.period.title')}
              data={choices.map((p) => ({ value: p.uuid, label: `${p.title} · ${t(`reporting.period.status.${p.status}`)}` }))}
              value={chosen.uuid}
              onChange={(v) => set('period', v)}
              searchable
              allowDeselect={false}
              w={{ base: '100%', xs: 240 }}
              data-testid="reporting-companies-period"
            />
            {list.data && (
              <Select
                label={t('reporting.approval.status_filter')}
                data={[
                  { value: 'all', label: t('reporting.approval.status_all', { count: list.data.length }) },
                  ...[...new Set(list.data.map((r) => r.status))]
                    .sort((a, b) => a - b)
                    .map((s) => ({ value: String(s), label: `${t(`enum.report_status.${s}`)} (${list.data.filter((r) => r.status === s).length})` })),
                ]}
                value={status}
                onChange={(v) => set('status', v)}
                allowDeselect={false}
                w={{ base: '100%', xs: 280 }}
                data-testid="reporting-companies-status"
              />
            )}
            <Anchor component={Link} to={`/approval-list/${chosen.uuid}`} pb={8}>
              {t('title.approval_list')}
            </Anchor>
          </Group>
          <QueryState query={list} empty={(rows) => rows.length === 0}>
            {(all) => {
              const filtered = status === 'all' ? all : all.filter((r) => String(r.status) === status);
              const { rows: reports, page } = pageOf(filtered, Number(search.get('page') ?? 1) || 1, COMPANIES_PER_PAGE);
              return (
                <Stack gap="sm">
                  {filtered.length === 0 ? (
                    <Text c="dimmed">{t('list.no_match')}</Text>
                  ) : (
                    <Table.ScrollContainer minWidth={560}>
                      <Table striped withTableBorder aria-label={title} data-stack>
                        <Table.Thead>
                          <Table.Tr>
                            <Table.Th>{t('reporting.company')}</Table.Th>
                            <Table.Th>{t('reporting.status')}</Table.Th>
                            <Table.Th>{t('reporting.submitted_at')}</Table.Th>
                            <Table.Th>{t('reporting.preflight.title')}</Table.Th>
                            <Table.Th ta="right">{t('reporting.row_count')}</Table.Th>
                          </Table.Tr>
                        </Table.Thead>
                        <Table.Tbody>
                          {reports.map((report) => (
                            <Table.Tr key={report.uuid}>
                              <Table.Td>{report.company.name}</Table.Td>
                              <ReportProgressCells report={report} />
                            </Table.Tr>
                          ))}
                        </Table.Tbody>
                      </Table>
                    </Table.ScrollContainer>
                  )}
                  <ListPager total={filtered.length} page={page} size={COMPANIES_PER_PAGE} onPage={(n) => set('page', String(n))} />
                </Stack>
              );
            }}
          </QueryState>
        </Stack>
      )}
    </AdminPage>
  );
}

/** Companies on one page of Reporting companies. */
const COMPANIES_PER_PAGE = 25;

/** A market picker that navigates to `${base}/${id}`, or where `to` says. */
function MarketPicker({
  base,
  value,
  ability,
  to,
}: {
  base: string;
  value: number | undefined;
  ability: Parameters<typeof useMarketsWith>[0];
  to?: (market: MarketChoice) => string;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { markets, options } = useMarketsWith(ability);
  const pathOf = (id: string) => {
    const market = markets.find((m) => String(m.id) === id);
    return market && to ? to(market) : `${base}/${id}`;
  };
  return (
    <Select
      label={t('reporting.market')}
      data={options}
      value={value ? String(value) : null}
      onChange={(id) => id && void navigate(pathOf(id))}
      searchable
      allowDeselect={false}
      maw={360}
    />
  );
}
