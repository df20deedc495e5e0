import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { useQuery } from '@tanstack/react-query';
import { BarChart, LineChart } from '@mantine/charts';
import { Alert, Box, Center, Group, Loader, Paper, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import { coverageDiffers, type StatisticsRow, type TrendPoint } from '@mss/contracts/statistics';
import { type TrendQuery, statisticsQueries } from './api/statistics.ts';
import { errorMessage } from '../../components/feedback.tsx';
import { Confidential, coverageItem, ESTIMATED_MARK, Num, plot } from '../../components/figures.tsx';
import { formatDecimal, formatPercent } from '../../lib/numbers.ts';
import { keyLabel } from './statistics-table.tsx';

/*
 * Charts are pictures of the tables beside them: to place a point the decimal string becomes a
 * JavaScript number through `plot` (components/figures.tsx), and only there (the tables, tooltips
 * excepted, and downloads stay exact). A confidential figure arrives as null and is a gap in the
 * line, never a guess.
 */
const tick = (value: number) => new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 }).format(value);

type Measure = 'value' | 'volume';

function MeasureSwitch({ value, onChange }: { value: Measure; onChange: (m: Measure) => void }) {
  const { t } = useTranslation();
  return (
    <SegmentedControl
      size="xs"
      value={value}
      onChange={(v) => onChange(v as Measure)}
      data={[
        { value: 'value', label: t('statistics.col.value') },
        { value: 'volume', label: t('statistics.col.volume') },
      ]}
    />
  );
}

/**
 * A chart's figures as a table (WCAG 1.1.1: the text alternative of a picture of numbers), under
 * a disclosure so that it takes no room until asked for; exact decimals, a withheld figure named.
 */
export function ChartTable({ label, columns, rows }: { label: string; columns: string[]; rows: { key: string; cells: ReactNode[] }[] }) {
  const { t } = useTranslation();
  return (
    <Box component="details" data-testid="chart-table">
      <Text component="summary" size="sm" c="blue" style={{ cursor: 'pointer' }}>
        {t('statistics.chart_table')}
      </Text>
      <Table.ScrollContainer minWidth={0} scrollAreaProps={{ viewportProps: { tabIndex: 0, 'aria-label': label } }}>
        <Table striped withTableBorder fz="sm" verticalSpacing={4} aria-label={label} mt="xs">
          <Table.Thead>
            <Table.Tr>
              {columns.map((column, i) => (
                <Table.Th key={column} ta={i === 0 ? undefined : 'right'}>
                  {column}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={row.key}>
                {row.cells.map((cell, i) => (
                  <Table.Td key={i} ta={i === 0 ? undefined : 'right'} style={{ whiteSpace: 'nowrap' }}>
                    {cell}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Box>
  );
}

/** A figure of a chart's table: the exact decimal, or "Confidential" where it is withheld. */
const figure = (value: string | null | undefined, confidential: boolean) =>
  (value === null || value === undefined) && confidential ? <Confidential /> : <Num value={value} />;

/** The mark of a point where the series breaks (flag "b"). */
const BREAK_MARK = 'b';
const SEGMENT_COLORS = ['blue.6', 'violet.6', 'teal.7', 'indigo.7'];

/** The stretches of a trend between its breaks, each named by its periods ("Period", or "Until 2025-08", "From 2025-09"). */
function trendSegments(points: readonly TrendPoint[], t: TFunction): { name: string; from: number; to: number }[] {
  const starts = points.flatMap((p, i) => (i === 0 || p.breaks.length ? [i] : []));
  if (starts.length <= 1) return [{ name: t('statistics.trend.period'), from: 0, to: points.length - 1 }];
  return starts.map((from, k) => {
    const to = (starts[k + 1] ?? points.length) - 1;
    const [first, last] = [points[from]!.period.title, points[to]!.period.title];
    const name =
      k === 0
        ? t('statistics.trend.until', { title: last })
        : k === starts.length - 1
          ? t('statistics.trend.from', { title: first })
          : t('statistics.trend.between', { first, last });
    return { name, from, to };
  });
}

/**
 * Each period against the same period a year earlier, for the total or one code, group or section of a
 * market or cluster (GET /statistics/trend, the last 24 periods the caller may see).
 */
export function TrendChart({ query, subtitle }: { query: TrendQuery; subtitle: string }) {
  const { t } = useTranslation();
  const [measure, setMeasure] = useState<Measure>('value');
  const trend = useQuery({ ...statisticsQueries.trend(query), meta: { handlesErrors: true } });
  const lastYear = t('statistics.trend.last_year');
  const own = t('statistics.trend.own_share');
  const unequal = t('statistics.trend.coverage_series');
  const points = trend.data?.points ?? [];
  // A point compared with a year of other coverage is drawn apart: out of the line, in its own
  // orange series, so that a dip of missing reporters does not read as a fall in sales.
  const differs = points.map((p) => coverageDiffers(p.coverage, p.last_year_coverage));
  // A provisional point (an approver's unpublished period) is marked in its label, and so is one
  // whose figures (or last year's) hold an estimate for a missing report.
  const estimated = (p: (typeof points)[number]) => (p.estimated || p.estimated_last_year) && (p.value !== null || p.volume !== null);
  // The series breaks where a point holds other markets, companies or codes than the point before:
  // each stretch between breaks is a line of its own, named by its periods, so no jump reads as a
  // change in sales.
  const segments = trendSegments(points, t);
  const data = points.map((p, i) => {
    const figure = plot(measure === 'value' ? p.value : p.volume);
    return {
      period: `${p.period.title}${p.provisional ? '*' : ''}${estimated(p) ? ` ${ESTIMATED_MARK}` : ''}${p.breaks.length ? ` ${BREAK_MARK}` : ''}`,
      ...Object.fromEntries(segments.map((segment) => [segment.name, !differs[i] && i >= segment.from && i <= segment.to ? figure : null])),
      [unequal]: differs[i] ? figure : null,
      [lastYear]: plot(measure === 'value' ? p.value_last_year : p.volume_last_year),
      [own]: plot(measure === 'value' ? p.own_value_share_pct : p.own_volume_share_pct),
    };
  });
  const unequalPoints = points.filter((_, i) => differs[i]);
  const hasOwn = points.some((p) => p.own_value_share_pct !== undefined && p.own_value_share_pct !== null);
  const withheld = points.filter((p) => p.confidential).length;
  return (
    <Paper withBorder radius="md" p="md" data-testid="trend-chart">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Stack gap={0}>
            <Title order={2} fz="h4">
              {t('statistics.trend.title')}
            </Title>
            <Text size="sm" c="dimmed">
              {subtitle}
              {trend.data ? ` · ${measure === 'value' ? trend.data.currency : t('statistics.col.volume')}` : ''}
            </Text>
          </Stack>
          <MeasureSwitch value={measure} onChange={setMeasure} />
        </Group>
        {trend.isPending ? (
          <Center h={260}>
            <Loader />
          </Center>
        ) : trend.isError ? (
          <Alert color="red" role="alert">
            {errorMessage(trend.error)}
          </Alert>
        ) : points.length === 0 ? (
          <Text c="dimmed">{t('statistics.no_figures')}</Text>
        ) : (
          <>
            <LineChart
              h={260}
              data={data}
              dataKey="period"
              series={[
                ...segments.map((segment, k) => ({ name: segment.name, color: SEGMENT_COLORS[k % SEGMENT_COLORS.length]! })),
                { name: lastYear, color: 'gray.5', strokeDasharray: '5 5' },
                ...(unequalPoints.length ? [{ name: unequal, color: 'orange.7', strokeDasharray: '0 1' }] : []),
              ]}
              curveType="linear"
              connectNulls={false}
              withLegend
              valueFormatter={tick}
              yAxisProps={{ width: 56 }}
              aria-label={t('statistics.trend.title')}
            />
            {hasOwn && (
              <>
                <Text size="sm" fw={600}>
                  {t('statistics.trend.own_share_title')}
                </Text>
                <LineChart
                  h={180}
                  data={data}
                  dataKey="period"
                  series={[{ name: own, color: 'teal.6' }]}
                  curveType="linear"
                  connectNulls={false}
                  unit=" %"
                  yAxisProps={{ width: 56 }}
                />
              </>
            )}
            <ChartTable
              label={`${t('statistics.trend.title')} · ${subtitle}`}
              columns={[
                t('statistics.trend.period'),
                measure === 'value' ? (trend.data?.currency ?? t('statistics.col.value')) : t('statistics.col.volume'),
                lastYear,
                ...(hasOwn ? [own] : []),
              ]}
              rows={points.map((p, i) => ({
                key: p.period.uuid ?? p.period.title,
                cells: [
                  data[i]!.period,
                  figure(measure === 'value' ? p.value : p.volume, p.confidential),
                  <Num key="ly" value={measure === 'value' ? p.value_last_year : p.volume_last_year} />,
                  ...(hasOwn ? [formatPercent(measure === 'value' ? p.own_value_share_pct : p.own_volume_share_pct)] : []),
                ],
              }))}
            />
            {points.some((p) => p.provisional) && (
              <Text size="xs" c="dimmed">
                {t('statistics.trend.provisional')}
              </Text>
            )}
            {points.some(estimated) && (
              <Text size="xs" data-testid="trend-estimated">
                {t('statistics.trend.estimated', { mark: ESTIMATED_MARK })}
              </Text>
            )}
            {segments.length > 1 && (
              <Text size="xs" data-testid="trend-breaks">
                {t('statistics.trend.breaks', {
                  mark: BREAK_MARK,
                  list: points
                    .filter((p) => p.breaks.length)
                    .map((p) =>
                      t('statistics.trend.break_item', { title: p.period.title, what: p.breaks.map((b) => t(`statistics.trend.break.${b}`)).join(', ') }),
                    )
                    .join('; '),
                })}
              </Text>
            )}
            {unequalPoints.length > 0 && (
              <Text size="xs" c="orange" data-testid="trend-coverage-differs">
                {t('statistics.trend.coverage_differs', {
                  list: unequalPoints.map((p) => coverageItem(t, p.period.title, p.coverage, p.last_year_coverage!)).join('; '),
                })}
              </Text>
            )}
            {withheld > 0 && (
              <Text size="xs" c="dimmed">
                {t('statistics.trend.withheld', { count: withheld })}
              </Text>
            )}
          </>
        )}
      </Stack>
    </Paper>
  );
}

/** The companies' shares of the period (approvers' company breakdown), largest first. */
export function ShareChart({ rows }: { rows: StatisticsRow[] }) {
  const { t } = useTranslation();
  const [measure, setMeasure] = useState<Measure>('value');
  const data = rows
    .map((r) => ({
      company: keyLabel(r.key),
      share: plot(measure === 'value' ? r.value_share_pct : r.volume_share_pct),
      exact: measure === 'value' ? r.value_share_pct : r.volume_share_pct,
    }))
    .filter((r) => r.share !== null)
    .sort((a, b) => (b.share ?? 0) - (a.share ?? 0))
    .slice(0, 20);
  const label = t('statistics.share_chart.series');
  return (
    <Paper withBorder radius="md" p="md" data-testid="share-chart">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} fz="h4">
            {t('statistics.share_chart.title')}
          </Title>
          <MeasureSwitch value={measure} onChange={setMeasure} />
        </Group>
        <BarChart
          h={Math.max(160, data.length * 28)}
          data={data.map((d) => ({ company: d.company, [label]: d.share }))}
          dataKey="company"
          orientation="vertical"
          series={[{ name: label, color: 'blue.6' }]}
          yAxisProps={{ width: 140 }}
          valueFormatter={(v) => `${formatDecimal(String(v))} %`}
        />
        <ChartTable
          label={t('statistics.share_chart.title')}
          columns={[t('statistics.by.company'), label]}
          rows={data.map((d) => ({ key: d.company, cells: [d.company, formatPercent(d.exact)] }))}
        />
      </Stack>
    </Paper>
  );
}
