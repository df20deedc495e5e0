import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { LineChart } from '@mantine/charts';
import { Anchor, Center, Group, Loader, Paper, ScrollArea, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { type CompanyStatistics, coverageDiffers } from '@mss/contracts/statistics';
import { periodQueries } from '../periods/index.ts';
import { statisticsQueries } from './api/statistics.ts';
import { AdminPage } from '../../components/page.tsx';
import { ReportStatusBadge, RowsTable, reportQueries } from '../reports/index.ts';
import { ErrorState, NotFoundState, Section } from '../../components/query-state.tsx';
import { useMarketParam } from '../../lib/markets.ts';
import { formatPercent } from '../../lib/numbers.ts';
import type { ScreenProps } from '../../lib/screen.ts';
import { AnswerFacts, CurrencyPicker, Downloads } from './statistics-screen.tsx';
import { STICKY } from './statistics-table.tsx';
import { ChartTable } from './statistics-charts.tsx';
import { Change, Confidential, COVERAGE_MARK, EstimatedMark, EstimatedNote, Num, PHONE, plot, RevisedMark, RevisedNote } from '../../components/figures.tsx';

function CompanyTable({ answer }: { answer: CompanyStatistics }) {
  const { t } = useTranslation();
  type Row = CompanyStatistics['totals'];
  // Converted values at 2 decimals (the downloads keep them exact).
  const money = !!answer.rate;
  // Nothing is withheld from the market's approvers (`confidentiality.applied` false): a missing figure is just missing.
  const market = (row: Row, value: string | null, isValue = false) =>
    answer.confidentiality.applied && row.flags.period.includes('c') && value === null ? (
      <Confidential />
    ) : (
      <>
        <Num value={value} money={money && isValue} />
        {value !== null && row.flags.period.includes('r') && <RevisedMark />}
        {value !== null && row.flags.period.includes('e') && <EstimatedMark />}
      </>
    );
  const mark = coverageDiffers(answer.coverage, answer.comparison.last_year_coverage) ? ` ${COVERAGE_MARK}` : '';
  const phone = useMediaQuery(PHONE);
  if (phone) {
    // A phone: a card per code (the total first), the own figures and the market's on a line each.
    const item = (label: string, content: ReactNode) => (
      <Stack gap={0}>
        <Text size="xs" c="dimmed">
          {label}
        </Text>
        <Text size="sm">{content}</Text>
      </Stack>
    );
    const share = (pct: string | null) => (pct ? formatPercent(pct) : '–');
    const card = (title: string, row: Row, key: string, total = false) => (
      <Paper key={key} withBorder radius="md" p="sm" data-testid="statistics-card" bg={total ? 'var(--mantine-color-default-hover)' : undefined}>
        <Text fw={700} size="sm" style={{ overflowWrap: 'anywhere' }}>
          {title}
        </Text>
        <SimpleGrid cols={3} spacing="xs" verticalSpacing={4} mt={6}>
          {item(t('statistics.col.own_volume'), <Num value={row.own_volume} />)}
          {item(t('statistics.col.change'), <Change value={row.own_volume_change_pct} />)}
          {item(t('statistics.col.own_volume_share'), share(row.own_volume_share_pct))}
          {item(t('statistics.col.own_value'), <Num value={row.own_value} money={money} />)}
          {item(t('statistics.col.change'), <Change value={row.own_value_change_pct} />)}
          {item(t('statistics.col.own_value_share'), share(row.own_value_share_pct))}
          {item(t('statistics.col.market_volume'), market(row, row.volume))}
          {item(t('statistics.col.market_value'), market(row, row.value, true))}
          {item(`${t('statistics.col.market_change')}${mark}`, <Change value={row.value_change_pct} />)}
        </SimpleGrid>
      </Paper>
    );
    return (
      <Stack gap="xs" data-testid="statistics-cards" aria-label={answer.company.name}>
        {card(t('statistics.total'), answer.totals, 'total', true)}
        {answer.rows.map((row) => card(`${row.key.code} ${row.key.name}`, row, String(row.key.id)))}
      </Stack>
    );
  }
  // The company's own figures first (at 1440 px they are in view without scrolling), the market's after.
  const cells = (row: Row) => (
    <>
      <Table.Td style={{ textAlign: 'right' }}>
        <Num value={row.own_volume} />
      </Table.Td>
      <Table.Td style={{ textAlign: 'right' }}>
        <Change value={row.own_volume_change_pct} />
      </Table.Td>
      <Table.Td style={{ textAlign: 'right' }}>{row.own_volume_share_pct ? formatPercent(row.own_volume_share_pct) : '–'}</Table.Td>
      <Table.Td style={{ textAlign: 'right' }}>
        <Num value={row.own_value} money={money} />
      </Table.Td>
      <Table.Td style={{ textAlign: 'right' }}>
        <Change value={row.own_value_change_pct} />
      </Table.Td>
      <Table.Td style={{ textAlign: 'right' }}>{row.own_value_share_pct ? formatPercent(row.own_value_share_pct) : '–'}</Table.Td>
      <Table.Td style={{ textAlign: 'right' }}>{market(row, row.volume)}</Table.Td>
      <Table.Td style={{ textAlign: 'right' }}>{market(row, row.value, true)}</Table.Td>
      <Table.Td style={{ textAlign: 'right' }}>
        <Change value={row.value_change_pct} />
      </Table.Td>
    </>
  );
  return (
    <ScrollArea type="auto" offsetScrollbars>
      <Table striped withTableBorder fz="sm" verticalSpacing={6} data-testid="company-statistics-table" aria-label={answer.company.name}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th style={STICKY}>{t('statistics.by.code')}</Table.Th>
            <Table.Th style={{ textAlign: 'right' }}>{t('statistics.col.own_volume')}</Table.Th>
            <Table.Th style={{ textAlign: 'right' }}>{t('statistics.col.change')}</Table.Th>
            <Table.Th style={{ textAlign: 'right' }}>{t('statistics.col.own_volume_share')}</Table.Th>
            <Table.Th style={{ textAlign: 'right' }}>{t('statistics.col.own_value')}</Table.Th>
            <Table.Th style={{ textAlign: 'right' }}>{t('statistics.col.change')}</Table.Th>
            <Table.Th style={{ textAlign: 'right' }}>{t('statistics.col.own_value_share')}</Table.Th>
            <Table.Th style={{ textAlign: 'right' }}>{t('statistics.col.market_volume')}</Table.Th>
            <Table.Th style={{ textAlign: 'right' }}>{t('statistics.col.market_value')}</Table.Th>
            <Table.Th style={{ textAlign: 'right' }}>
              {t('statistics.col.market_change')}
              {mark}
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {answer.rows.map((row) => (
            <Table.Tr key={row.key.id}>
              <Table.Td style={{ minWidth: 140, ...STICKY }}>
                {row.key.code} {row.key.name}
              </Table.Td>
              {cells(row)}
            </Table.Tr>
          ))}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr style={{ fontWeight: 700 }} data-testid="statistics-totals">
            <Table.Td style={STICKY}>{t('statistics.total')}</Table.Td>
            {cells(answer.totals)}
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </ScrollArea>
  );
}

/** The company's share of the market, period by period. */
function ShareHistory({ answer }: { answer: CompanyStatistics }) {
  const { t } = useTranslation();
  const volume = t('statistics.col.own_volume_share');
  const value = t('statistics.col.own_value_share');
  const data = answer.history.map((p) => ({ period: p.period.title, [volume]: plot(p.own_volume_share_pct), [value]: plot(p.own_value_share_pct) }));
  return (
    <Paper withBorder radius="md" p="md" data-testid="share-history">
      <Title order={2} fz="h4" mb="sm">
        {t('statistics.trend.own_share_title')}
      </Title>
      {data.length < 2 ? (
        <Text c="dimmed" size="sm">
          {t('statistics.history_short')}
        </Text>
      ) : (
        <LineChart
          h={220}
          data={data}
          dataKey="period"
          series={[
            { name: value, color: 'blue.6' },
            { name: volume, color: 'teal.6' },
          ]}
          unit=" %"
          connectNulls={false}
          withLegend
          yAxisProps={{ width: 56 }}
        />
      )}
      {data.length >= 2 && (
        <ChartTable
          label={t('statistics.trend.own_share_title')}
          columns={[t('statistics.trend.period'), value, volume]}
          rows={answer.history.map((p) => ({
            key: p.period.title,
            cells: [p.period.title, formatPercent(p.own_value_share_pct), formatPercent(p.own_volume_share_pct)],
          }))}
        />
      )}
    </Paper>
  );
}

/**
 * `:report` of /report-statistics: that report's own figures (GET /reports/{uuid} and its rows),
 * whatever the statistics may show of its period (a reporter's open period is not published yet).
 * A report of another company, market or period than the address names is not this address's: not found.
 */
function ReportFigures({ reportUuid, companyId, marketId, period }: { reportUuid: string; companyId: number; marketId: number | undefined; period: string }) {
  const { t } = useTranslation();
  const report = useQuery({ ...reportQueries.report(reportUuid), meta: { handlesErrors: true } });
  if (report.isPending) return null;
  if (report.isError) return <ErrorState error={report.error} testId="report-figures-error" />;
  const data = report.data;
  const matches =
    data.company.id === companyId && (marketId === undefined || data.market.id === marketId) && (data.period.uuid === period || data.period.title === period);
  if (!matches) return <NotFoundState />;
  return (
    <Section
      title={t('statistics.report_figures', { company: data.company.name, period: data.period.title })}
      actions={<ReportStatusBadge status={data.status} />}
    >
      <div data-testid="report-figures">
        <RowsTable report={data} />
      </div>
    </Section>
  );
}

/**
 * /report-statistics/:companyId/:market/:period/:report?: a company's figures per code against
 * its market (GET /statistics/company). `:market` is an id or ISO code, `:period` a uuid or title,
 * `:report` a report's uuid whose own figures open with them (the report history's and the
 * dashboard's links carry it).
 */
export function CompanyStatisticsScreen({ title, params }: ScreenProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const companyId = Number(params.companyId) || 0;
  // A company user's market may be theirs through the company only (view-company-reports).
  const viewed = useMarketParam(params.market, 'view-statistics');
  const followed = useMarketParam(params.market, 'view-company-reports');
  const marketId = viewed ?? followed;
  const periods = useQuery({ ...periodQueries.periods({ market_id: marketId }), enabled: marketId !== undefined, meta: { handlesErrors: true } });
  const period = periods.data?.find((p) => p.uuid === params.period || p.title === params.period);
  const currency = search.get('currency') ?? '';
  const query = { company_id: companyId, period_uuid: period?.uuid ?? params.period ?? '', currency: currency || undefined };
  const answer = useQuery({ ...statisticsQueries.company(query), enabled: !!companyId && (!!period || periods.isSuccess), meta: { handlesErrors: true } });
  return (
    <AdminPage title={title}>
      {(answer.isPending || periods.isPending) && (
        <Center py="xl">
          <Loader />
        </Center>
      )}
      {/* Its figures first: the statistics of an unpublished period may be refused while the report is there. */}
      {params.report && companyId > 0 && <ReportFigures reportUuid={params.report} companyId={companyId} marketId={marketId} period={params.period ?? ''} />}
      {answer.isError && <ErrorState error={answer.error} testId="statistics-error" />}
      {answer.data && (
        <Stack gap="md">
          <Group gap="sm" justify="space-between" align="flex-end" wrap="wrap">
            <Group gap="sm">
              <Text fw={600}>
                {answer.data.company.name} · {answer.data.market.international_name} · {answer.data.period.title}
              </Text>
              {answer.data.report && <ReportStatusBadge status={answer.data.report.status} />}
              {answer.data.report && (
                <Anchor component={Link} to={`/import/${answer.data.report.uuid}`} size="sm">
                  {t('statistics.open_report')}
                </Anchor>
              )}
            </Group>
            <CurrencyPicker
              value={currency}
              onChange={(iso) =>
                setSearch((current) => {
                  const next = new URLSearchParams(current);
                  if (iso) next.set('currency', iso);
                  else next.delete('currency');
                  return next;
                })
              }
              own={answer.data.rate ? answer.data.rate.from : answer.data.currency}
            />
          </Group>
          <AnswerFacts answer={answer.data}>
            <Text size="sm" c="dimmed">
              {answer.data.comparison.last_year
                ? t('statistics.compared_with', { title: answer.data.comparison.last_year.title })
                : t('statistics.no_last_year')}
            </Text>
            <Downloads endpoint="company" query={query} />
          </AnswerFacts>
          <CompanyTable answer={answer.data} />
          {[answer.data.totals, ...answer.data.rows].some((r) => r.flags.period.includes('r')) && <RevisedNote />}
          {[answer.data.totals, ...answer.data.rows].some((r) => r.estimated || r.estimated_last_year) && <EstimatedNote />}
          <ShareHistory answer={answer.data} />
        </Stack>
      )}
    </AdminPage>
  );
}
