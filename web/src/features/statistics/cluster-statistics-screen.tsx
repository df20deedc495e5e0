import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Center, Group, Loader, Paper, ScrollArea, SegmentedControl, Select, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { type ClusterBreakdown, type ClusterStatistics, coverageDiffers, type StatisticsFigures } from '@mss/contracts/statistics';
import { statisticsQueries } from './api/statistics.ts';
import { ErrorState } from '../../components/query-state.tsx';
import { AdminPage } from '../../components/page.tsx';
import { formatDecimal } from '../../lib/numbers.ts';
import type { ScreenProps } from '../../lib/screen.ts';
import { TrendChart } from './statistics-charts.tsx';
import { AnswerFacts, BreakdownPicker, CurrencyPicker, Downloads } from './statistics-screen.tsx';
import { keyLabel, STICKY } from './statistics-table.tsx';
import {
  Change,
  Confidential,
  COVERAGE_MARK,
  coverageItem,
  EstimatedMark,
  EstimatedNote,
  HiddenReason,
  Num,
  PHONE,
  RevisedMark,
} from '../../components/figures.tsx';

/** The last 36 months, newest first ("2026-11"). */
function recentMonths(now = new Date()): string[] {
  const months: string[] = [];
  for (let i = 0; i < 36; i++) {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1));
    months.push(d.toISOString().slice(0, 7));
  }
  return months;
}

type Measure = 'value' | 'volume';

function Figure({
  figures,
  measure,
  withheld,
  money,
}: {
  figures: Pick<StatisticsFigures, 'volume' | 'value'> & { flags: Pick<StatisticsFigures['flags'], 'period'> };
  measure: Measure;
  withheld: boolean;
  money: boolean;
}) {
  const value = measure === 'value' ? figures.value : figures.volume;
  const flags = figures.flags.period;
  // Nothing is withheld from approvers of every market (`confidentiality.applied` false): a missing figure is just missing.
  if (withheld && flags.includes('c') && value === null) return <Confidential />;
  return (
    <>
      <Num value={value} money={money && measure === 'value'} />
      {value !== null && flags.includes('r') && <RevisedMark />}
      {value !== null && flags.includes('e') && <EstimatedMark />}
    </>
  );
}

/** Whether a figure of the cluster's answer holds an estimate for a missing report. */
const anyEstimated = (answer: ClusterStatistics) =>
  [answer.totals, ...answer.rows].some((r) => r.estimated || r.estimated_last_year || r.markets.some((m) => m.estimated));

/** Whether a cluster's change is not like with like: a market without last year's period, or with another coverage then. */
function unlike(answer: ClusterStatistics) {
  const compared = answer.markets.filter((m) => m.last_year);
  const missing = compared.length > 0 ? answer.markets.filter((m) => !m.last_year) : [];
  const differing = compared.filter((m) => coverageDiffers(m.coverage, m.last_year_coverage));
  return { missing, differing, any: missing.length + differing.length > 0 };
}

/** The notes that explain the mark beside the cluster's change. */
function UnlikeNotes({ answer }: { answer: ClusterStatistics }) {
  const { t } = useTranslation();
  const { missing, differing } = unlike(answer);
  return (
    <>
      {anyEstimated(answer) && <EstimatedNote />}
      {missing.length > 0 && (
        <Text size="sm" c="orange" data-testid="cluster-no-last-year">
          {t('statistics.cluster.no_last_year', { markets: missing.map((m) => m.market.international_name).join(', ') })}
        </Text>
      )}
      {differing.length > 0 && (
        <Text size="sm" c="orange" data-testid="coverage-differs">
          {t('statistics.cluster.coverage_differs', {
            markets: differing.map((m) => m.market.international_name).join(', '),
            detail: differing.map((m) => coverageItem(t, `${m.market.iso_code} ${m.period.title}`, m.coverage, m.last_year_coverage!)).join('; '),
          })}
        </Text>
      )}
    </>
  );
}

/** Which markets the figures hold, and which not and why: a cluster's total is never taken for all of it. */
function AbsentMarkets({ answer }: { answer: ClusterStatistics }) {
  const { t } = useTranslation();
  if (answer.absent.length === 0) return null;
  const absent = answer.absent
    .map((a) =>
      t(a.state === 'unpublished' ? 'statistics.cluster.absent_unpublished' : 'statistics.cluster.absent_no_period', {
        market: a.market.international_name,
        month: answer.month,
      }),
    )
    .join(', ');
  if (answer.markets.length === 0)
    return (
      <Text size="sm" data-testid="cluster-absent">
        {t('statistics.cluster.holds_none', { absent })}
      </Text>
    );
  return (
    <Text size="sm" fw={500} data-testid="cluster-absent">
      {t('statistics.cluster.holds', {
        markets: answer.markets.map((m) => m.market.international_name).join(', '),
        count: answer.absent.length,
        all: answer.absent.length + answer.markets.length,
        absent,
      })}
    </Text>
  );
}

/** The head of the cluster's total column: the markets it holds when it does not hold them all. */
const totalLabel = (t: TFunction, answer: ClusterStatistics) =>
  answer.absent.length ? t('statistics.cluster.total_of', { markets: answer.markets.map((m) => m.market.iso_code).join(', ') }) : t('statistics.cluster.total');

/** Markets side by side, then the cluster's total, last year's and the change. */
function ClusterTable({ answer, measure, keyHeader }: { answer: ClusterStatistics; measure: Measure; keyHeader: string }) {
  const { t } = useTranslation();
  const phone = useMediaQuery(PHONE);
  const withheld = answer.confidentiality.applied;
  const money = answer.markets.some((m) => m.rate);
  const mark = unlike(answer).any ? ` ${COVERAGE_MARK}` : '';
  const lastYear = (f: StatisticsFigures) => (measure === 'value' ? f.value_last_year : f.volume_last_year);
  const change = (f: StatisticsFigures) => (measure === 'value' ? f.value_change_pct : f.volume_change_pct);
  const lastYearCell = (f: StatisticsFigures) =>
    withheld && f.flags.last_year.includes('c') && lastYear(f) === null ? '' : <Num value={lastYear(f)} money={money && measure === 'value'} />;
  if (phone) {
    // One card per row (the total first): each market's figure, the cluster's, last year's and the change.
    const card = (label: string, figures: ClusterStatistics['totals'], key: string, total = false) => (
      <Paper key={key} withBorder radius="md" p="sm" data-testid="statistics-card" bg={total ? 'var(--mantine-color-default-hover)' : undefined}>
        <Text fw={700} size="sm" style={{ overflowWrap: 'anywhere' }}>
          {label}
          {!withheld && figures.hidden_reason && <HiddenReason reason={figures.hidden_reason} />}
        </Text>
        <SimpleGrid cols={2} spacing="xs" verticalSpacing={4} mt={6}>
          {answer.markets.map((m) => {
            const cell = figures.markets.find((c) => c.market_id === m.market.id);
            return (
              <Stack key={m.market.id} gap={0}>
                <Text size="xs" c="dimmed">
                  {m.market.international_name}
                </Text>
                <Text size="sm">{cell ? <Figure figures={cell} measure={measure} withheld={withheld} money={money} /> : '–'}</Text>
              </Stack>
            );
          })}
        </SimpleGrid>
        <SimpleGrid cols={3} spacing="xs" verticalSpacing={4} mt={4}>
          <Stack gap={0}>
            <Text size="xs" c="dimmed">
              {totalLabel(t, answer)}
            </Text>
            <Text size="sm" fw={700}>
              <Figure figures={figures} measure={measure} withheld={withheld} money={money} />
            </Text>
          </Stack>
          <Stack gap={0}>
            <Text size="xs" c="dimmed">
              {t('statistics.col.last_year')}
            </Text>
            <Text size="sm">{lastYearCell(figures)}</Text>
          </Stack>
          <Stack gap={0}>
            <Text size="xs" c="dimmed">
              {t('statistics.col.change')}
              {mark}
            </Text>
            <Text size="sm">
              <Change value={change(figures)} />
            </Text>
          </Stack>
        </SimpleGrid>
      </Paper>
    );
    return (
      <Stack gap="xs" data-testid="statistics-cards" aria-label={answer.cluster.name}>
        {card(t('statistics.total'), answer.totals, 'total', true)}
        {answer.rows.map((r) => card(keyLabel(r.key), r, String(r.key.id)))}
      </Stack>
    );
  }
  const row = (label: string, figures: ClusterStatistics['totals'], key: string, bold = false) => (
    <Table.Tr key={key} style={bold ? { fontWeight: 700 } : undefined}>
      <Table.Td style={{ minWidth: 140, ...STICKY }}>
        {label}
        {!withheld && figures.hidden_reason && <HiddenReason reason={figures.hidden_reason} />}
      </Table.Td>
      {answer.markets.map((m) => {
        const cell = figures.markets.find((c) => c.market_id === m.market.id);
        return (
          <Table.Td key={m.market.id} style={{ textAlign: 'right' }}>
            {cell ? <Figure figures={cell} measure={measure} withheld={withheld} money={money} /> : '–'}
          </Table.Td>
        );
      })}
      <Table.Td style={{ textAlign: 'right' }}>
        <Figure figures={figures} measure={measure} withheld={withheld} money={money} />
      </Table.Td>
      <Table.Td style={{ textAlign: 'right' }}>{lastYearCell(figures)}</Table.Td>
      <Table.Td style={{ textAlign: 'right' }}>
        <Change value={change(figures)} />
      </Table.Td>
    </Table.Tr>
  );
  return (
    <ScrollArea type="auto" offsetScrollbars>
      <Table striped withTableBorder fz="sm" verticalSpacing={6} data-testid="cluster-table" aria-label={answer.cluster.name}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th style={STICKY}>{keyHeader}</Table.Th>
            {answer.markets.map((m) => (
              <Table.Th key={m.market.id} style={{ textAlign: 'right' }}>
                {m.market.iso_code}
              </Table.Th>
            ))}
            <Table.Th style={{ textAlign: 'right' }}>{totalLabel(t, answer)}</Table.Th>
            <Table.Th style={{ textAlign: 'right' }}>{t('statistics.col.last_year')}</Table.Th>
            <Table.Th style={{ textAlign: 'right' }}>
              {t('statistics.col.change')}
              {mark}
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{answer.rows.map((r) => row(keyLabel(r.key), r, String(r.key.id)))}</Table.Tbody>
        <Table.Tfoot>{row(t('statistics.total'), answer.totals, 'total', true)}</Table.Tfoot>
      </Table>
    </ScrollArea>
  );
}

/**
 * /cluster-statistics: the markets of a cluster added up for one month in one currency
 * (GET /statistics/cluster), side by side and in total. Choices live in the address.
 */
export function ClusterStatisticsScreen({ title }: ScreenProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const choices = useQuery({ ...statisticsQueries.choices(), meta: { handlesErrors: true } });
  const clusters = choices.data?.clusters ?? [];
  const clusterId = Number(search.get('cluster')) || clusters[0]?.id;
  const months = recentMonths();
  // The latest month with a period the user sees in it (an open month's periods are not published yet).
  const month = search.get('month') ?? clusters.find((c) => c.id === clusterId)?.latest_month ?? months[1]!;
  const by = (search.get('by') as ClusterBreakdown | null) ?? 'code';
  // Clusters add markets of different currencies: EUR by default, the currency the demo's and most
  // associations' conversions go through (the server names a missing rate, pair and date).
  const currency = search.get('currency') ?? (choices.data?.currencies.some((c) => c.iso_code === 'EUR') ? 'EUR' : choices.data?.currencies[0]?.iso_code);
  const measure = (search.get('measure') as Measure | null) ?? 'value';
  const set = (key: string, value: string) =>
    setSearch((current) => {
      const next = new URLSearchParams(current);
      next.set(key, value);
      return next;
    });
  const query = { cluster_id: clusterId ?? 0, month, by, currency: currency ?? '' };
  const answer = useQuery({ ...statisticsQueries.cluster(query), enabled: !!clusterId && !!currency, meta: { handlesErrors: true } });

  if (choices.data && clusters.length === 0)
    return (
      <AdminPage title={title}>
        <Text c="dimmed">{t('statistics.cluster.none')}</Text>
      </AdminPage>
    );
  return (
    <AdminPage title={title}>
      <Paper withBorder radius="md" p="md">
        <Group gap="md" align="flex-end" wrap="wrap">
          <Select
            label={t('statistics.cluster.label')}
            data={clusters.map((c) => ({ value: String(c.id), label: c.name }))}
            value={clusterId ? String(clusterId) : null}
            onChange={(id) => id && set('cluster', id)}
            allowDeselect={false}
            w={{ base: '100%', sm: 240 }}
          />
          <Select
            label={t('statistics.cluster.month')}
            data={months}
            value={month}
            onChange={(m) => m && set('month', m)}
            allowDeselect={false}
            searchable
            w={{ base: '100%', sm: 160 }}
          />
          <CurrencyPicker value={query.currency} onChange={(iso) => iso && set('currency', iso)} required />
        </Group>
        <Group gap="md" mt="md" wrap="wrap">
          <BreakdownPicker value={by} choices={['code', 'code_group', 'code_section', 'market', 'total'] as const} onChange={(v) => set('by', v)} />
          <SegmentedControl
            value={measure}
            onChange={(v) => set('measure', v)}
            data={[
              { value: 'value', label: t('statistics.col.value') },
              { value: 'volume', label: t('statistics.col.volume') },
            ]}
          />
        </Group>
      </Paper>
      {answer.isPending && clusterId && (
        <Center py="xl">
          <Loader />
        </Center>
      )}
      {answer.isError && <ErrorState error={answer.error} />}
      {answer.data && (
        <Stack gap="md" style={{ opacity: answer.isPlaceholderData ? 0.6 : 1 }}>
          <AnswerFacts answer={answer.data}>
            <Text size="sm" c="dimmed">
              {answer.data.markets.length
                ? answer.data.markets
                    .map((m) => `${m.market.iso_code} ${m.period.title}${m.rate ? ` (1 ${m.rate.from} = ${formatDecimal(m.rate.rate)} ${m.rate.to})` : ''}`)
                    .join(' · ')
                : answer.data.absent.every((a) => a.state === 'no_period')
                  ? t('statistics.cluster.no_periods', { month })
                  : ''}
            </Text>
            <Downloads endpoint="cluster" query={query} />
          </AnswerFacts>
          <AbsentMarkets answer={answer.data} />
          <UnlikeNotes answer={answer.data} />
          {answer.data.markets.some((m) => m.rate) && (
            <Text size="xs" c="dimmed">
              {t('statistics.converted_rounded')}
            </Text>
          )}
          {answer.data.markets.length > 0 && <ClusterTable answer={answer.data} measure={measure} keyHeader={t(`statistics.by.${by}`)} />}
          {clusterId && (
            <TrendChart
              query={{ cluster_id: clusterId, periods: 24, currency: query.currency }}
              subtitle={`${answer.data.cluster.name} · ${t('statistics.total')}`}
            />
          )}
        </Stack>
      )}
    </AdminPage>
  );
}
