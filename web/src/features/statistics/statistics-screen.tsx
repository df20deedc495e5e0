import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useQueries, useQuery } from '@tanstack/react-query';
import { Alert, Anchor, Badge, Button, Center, Group, Loader, Paper, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { canInMarket } from '@mss/contracts/abilities';
import type { Period } from '@mss/contracts/periods';
import { coverageDiffers, type MarketStatistics, type StatisticsBreakdown, type StatisticsRow } from '@mss/contracts/statistics';
import { periodQueries } from '../periods/index.ts';
import { abilitySubject, useSession } from '../../api/session.ts';
import { statisticsDownload, statisticsQueries, type TrendQuery } from './api/statistics.ts';
import { ErrorState } from '../../components/query-state.tsx';
import { AdminPage } from '../../components/page.tsx';
import { useMarketsWith } from '../../lib/markets.ts';
import { formatDecimal } from '../../lib/numbers.ts';
import type { ScreenProps } from '../../lib/screen.ts';
import { ShareChart, TrendChart } from './statistics-charts.tsx';
import { keyLabel, StatisticsTable, type StatisticsView } from './statistics-table.tsx';
import { LockIcon } from '../../components/figures.tsx';
import { formatDate } from '../../lib/dates.ts';

/** The market's periods the caller may open, newest first; published ones first choice. */
export function latestPeriod(periods: Period[]): Period | undefined {
  const sorted = [...periods].sort((a, b) => b.starts_on.localeCompare(a.starts_on));
  return sorted.find((p) => p.published) ?? sorted[0];
}

/** Shared by the market and cluster screens: the currency picker (empty: each market's own). */
export function CurrencyPicker({
  value,
  onChange,
  own,
  required,
}: {
  value: string;
  onChange: (iso: string) => void;
  own?: string | null;
  required?: boolean;
}) {
  const { t } = useTranslation();
  const choices = useQuery(statisticsQueries.choices());
  const data = (choices.data?.currencies ?? []).map((c) => ({ value: c.iso_code, label: `${c.iso_code} · ${c.name}` }));
  return (
    <Select
      label={t('statistics.currency')}
      placeholder={required ? t('statistics.currency_pick') : own ? t('statistics.currency_own', { iso: own }) : t('statistics.currency_market')}
      data={data}
      value={value || null}
      onChange={(iso) => onChange(iso ?? '')}
      clearable={!required}
      searchable
      w={{ base: '100%', sm: 220 }}
    />
  );
}

/** Coverage, currency and rate, provisional and confidential notes: what a figure stands on. */
export function AnswerFacts({
  answer,
  ytd = false,
  children,
}: {
  answer: Pick<MarketStatistics, 'coverage' | 'currency' | 'rate' | 'provisional' | 'confidentiality'> & {
    rows: { confidential: boolean }[];
    comparison?: MarketStatistics['comparison'];
    /** Its title ("2026-03") names last year in a year-to-date note. */
    period?: { title: string };
    shares_overlap?: boolean;
  };
  /** The year to date is on screen: say why its change is missing, if it is. */
  ytd?: boolean;
  children?: React.ReactNode;
}) {
  const { t } = useTranslation();
  const confidentialShown = answer.confidentiality.applied && answer.rows.some((r) => r.confidential);
  const lastYear = answer.comparison?.last_year ?? null;
  const lastYearCoverage = answer.comparison?.last_year_coverage ?? null;
  const differs = coverageDiffers(answer.coverage, lastYearCoverage);
  const incomplete = answer.coverage.approved < answer.coverage.expected;
  return (
    <Stack gap="xs">
      <Group gap="sm" wrap="wrap">
        <Badge variant="light" color={incomplete ? 'orange' : undefined} tt="none" size="lg" data-testid="coverage">
          {t('statistics.coverage', { approved: answer.coverage.approved, expected: answer.coverage.expected })}
        </Badge>
        <Text size="sm" data-testid="currency-line">
          {answer.rate
            ? t('statistics.rate_line', {
                from: answer.rate.from,
                to: answer.rate.to,
                rate: formatDecimal(answer.rate.rate),
                date: formatDate(answer.rate.valid_from),
              })
            : t('statistics.currency_line', { iso: answer.currency })}
          {answer.rate?.inverse ? ` ${t('statistics.rate_inverse')}` : ''}
        </Text>
        {children}
      </Group>
      {differs && lastYear && lastYearCoverage && (
        <Text size="sm" c="orange" data-testid="coverage-differs">
          {t('statistics.coverage_differs', { title: lastYear.title, approved: lastYearCoverage.approved, expected: lastYearCoverage.expected })}
        </Text>
      )}
      <ComparisonNotes comparison={answer.comparison} title={answer.period?.title} ytd={ytd} />
      {answer.shares_overlap && (
        <Text size="sm" data-testid="shares-overlap">
          {t('statistics.shares_overlap')}
        </Text>
      )}
      {answer.rate && (
        <Text size="xs" c="dimmed">
          {t('statistics.converted_rounded')}
        </Text>
      )}
      {answer.provisional && (
        <Alert color="yellow" variant="light" title={t('statistics.provisional')} data-testid="provisional">
          {t('statistics.provisional_hint')}
        </Alert>
      )}
      {confidentialShown && (
        <Text size="sm" c="dimmed" data-testid="confidential-note">
          <LockIcon />{' '}
          {t('statistics.confidential_note', {
            min: answer.confidentiality.min_contributors,
            percentage: answer.confidentiality.dominance_percentage,
          })}
        </Text>
      )}
    </Stack>
  );
}

/** Why a change is missing (no comparable last year, other months in the year to date): the `b` flags in words. */
function ComparisonNotes({ comparison, title, ytd: ytdShown }: { comparison?: MarketStatistics['comparison']; title?: string; ytd: boolean }) {
  const { t } = useTranslation();
  if (!comparison) return null;
  const ytd = ytdShown ? comparison.ytd_break : null;
  const lastYear = title ? String(Number(title.slice(0, 4)) - 1) : '';
  return (
    <>
      {comparison.last_year_break === 'missing' && (
        <Text size="sm" data-testid="last-year-break">
          {t('statistics.last_year_missing')}
        </Text>
      )}
      {comparison.last_year_break === 'unpublished' && (
        <Text size="sm" data-testid="last-year-break">
          {t('statistics.last_year_unpublished')}
        </Text>
      )}
      {ytd && (
        <Text size="sm" data-testid="ytd-break">
          {ytd.matching < ytd.months
            ? t('statistics.ytd_break', { year: lastYear, matching: ytd.matching, months: ytd.months })
            : t('statistics.ytd_other_months', { year: lastYear })}
        </Text>
      )}
    </>
  );
}

/** xlsx and csv links for the table on screen (the same query, format=…). */
export function Downloads({ endpoint, query }: { endpoint: Parameters<typeof statisticsDownload>[0]; query: object }) {
  const { t } = useTranslation();
  return (
    <Group gap="xs">
      <Button component="a" href={statisticsDownload(endpoint, query, 'xlsx')} size="xs" variant="light" download data-testid="download-xlsx">
        {t('statistics.download_xlsx')}
      </Button>
      <Button component="a" href={statisticsDownload(endpoint, query, 'csv')} size="xs" variant="default" download data-testid="download-csv">
        {t('statistics.download_csv')}
      </Button>
    </Group>
  );
}

/** The breakdown: a segmented control, or a select where five segments do not fit (phones). */
export function BreakdownPicker<B extends string>({ value, choices, onChange }: { value: B; choices: readonly B[]; onChange: (b: B) => void }) {
  const { t } = useTranslation();
  const narrow = useMediaQuery('(max-width: 40em)');
  const data = choices.map((b) => ({ value: b, label: t(`statistics.by.${b}` as string) }));
  if (narrow)
    return (
      <Select
        label={t('statistics.breakdown')}
        data={data}
        value={value}
        onChange={(v) => v && onChange(v as B)}
        allowDeselect={false}
        w="100%"
        data-testid="breakdown"
      />
    );
  return <SegmentedControl value={value} onChange={(v) => onChange(v as B)} data={data} aria-label={t('statistics.breakdown')} data-testid="breakdown" />;
}

const TREND_KEY: Partial<Record<StatisticsBreakdown, 'code_id' | 'code_group_id' | 'code_section_id'>> = {
  code: 'code_id',
  code_group: 'code_group_id',
  code_section: 'code_section_id',
};

/**
 * /statistics: one market and period (GET /statistics/market). The choices live in the address
 * (?market=&period=&by=&currency=&view=), so a reload, Back or a shared link shows the same table.
 */
export function StatisticsScreen({ title }: ScreenProps) {
  const { t } = useTranslation();
  const session = useSession();
  const subject = abilitySubject(session);
  const [search, setSearch] = useSearchParams();
  const { markets, options: marketOptions, loading: marketsLoading } = useMarketsWith('view-statistics');
  // Without a market in the address: the first of the user's markets that has a period to show.
  const marketPeriods = useQueries({ queries: markets.map((m) => ({ ...periodQueries.periods({ market_id: m.id }), enabled: !search.get('market') })) });
  const firstWithPeriods = markets.find((_, i) => (marketPeriods[i]?.data?.length ?? 0) > 0);
  const decided = marketPeriods.every((q) => !q.isPending);
  const marketId = Number(search.get('market')) || (decided ? (firstWithPeriods ?? markets[0])?.id : undefined);
  const by = (search.get('by') as StatisticsBreakdown | null) ?? 'code';
  const currency = search.get('currency') ?? '';
  const view = (search.get('view') as StatisticsView | null) ?? 'period';
  const set = (changes: Record<string, string | null>) =>
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [k, v] of Object.entries(changes))
          if (v === null || v === '') next.delete(k);
          else next.set(k, v);
        return next;
      },
      { replace: false },
    );

  const periods = useQuery({ ...periodQueries.periods({ market_id: marketId }), enabled: !!marketId, meta: { handlesErrors: true } });
  const periodList = useMemo(() => [...(periods.data ?? [])].sort((a, b) => b.starts_on.localeCompare(a.starts_on)), [periods.data]);
  const periodUuid = search.get('period') ?? latestPeriod(periodList)?.uuid;
  const approver = marketId !== undefined && canInMarket(subject, 'approve-reports', marketId);
  const breakdowns: StatisticsBreakdown[] = approver
    ? ['code', 'code_group', 'code_section', 'company', 'total']
    : ['code', 'code_group', 'code_section', 'total'];
  const effectiveBy = breakdowns.includes(by) ? by : 'code';

  const query = { period_uuid: periodUuid ?? '', by: effectiveBy, currency: currency || undefined };
  const answer = useQuery({ ...statisticsQueries.market(query), enabled: !!periodUuid, meta: { handlesErrors: true } });
  // The row whose trend is charted belongs to one market and breakdown: another choice shows the total again.
  const scope = `${marketId}|${effectiveBy}`;
  const [trendPick, setTrendPick] = useState<{ row: StatisticsRow; scope: string } | null>(null);
  const trendRow = trendPick?.scope === scope ? trendPick.row : null;
  const setTrendRow = (row: StatisticsRow | null) => setTrendPick(row ? { row, scope } : null);
  // A row's trend button redraws the chart below the table (4,000 px down on a phone): bring it into view.
  const trendChart = useRef<HTMLDivElement>(null);
  const reducedMotion = useMediaQuery('(prefers-reduced-motion: reduce)');
  useEffect(() => {
    if (trendPick) trendChart.current?.scrollIntoView({ block: 'start', behavior: reducedMotion ? 'auto' : 'smooth' });
  }, [trendPick, reducedMotion]);

  const trendKey = TREND_KEY[effectiveBy];
  const trendQuery: TrendQuery = {
    market_id: marketId,
    periods: 24,
    currency: currency || undefined,
    ...(trendRow && trendKey ? { [trendKey]: trendRow.key.id } : {}),
  };
  const periodLabel = (p: Period) => (p.published ? p.title : `${p.title} · ${t('statistics.unpublished')}`);
  const withOwn = answer.data?.rows.some((r) => r.own_volume !== undefined) ?? false;

  if (!marketsLoading && markets.length === 0) return <AdminPage title={title}>{<Text c="dimmed">{t('statistics.no_markets')}</Text>}</AdminPage>;

  return (
    <AdminPage title={title}>
      <Paper withBorder radius="md" p="md">
        <Group gap="md" align="flex-end" wrap="wrap">
          <Select
            label={t('reporting.market')}
            data={marketOptions}
            value={marketId ? String(marketId) : null}
            onChange={(id) => id && set({ market: id, period: null })}
            searchable
            allowDeselect={false}
            w={{ base: '100%', sm: 240 }}
          />
          <Select
            label={t('reporting.period.title')}
            data={periodList.map((p) => ({ value: p.uuid, label: periodLabel(p) }))}
            value={periodUuid ?? null}
            onChange={(uuid) => uuid && set({ period: uuid })}
            placeholder={periods.isPending ? t('statistics.loading') : t('statistics.no_periods')}
            allowDeselect={false}
            searchable
            w={{ base: '100%', sm: 220 }}
            data-testid="period-select"
          />
          <CurrencyPicker value={currency} onChange={(iso) => set({ currency: iso })} own={answer.data?.rate ? answer.data.rate.from : answer.data?.currency} />
        </Group>
        <Group gap="md" mt="md" wrap="wrap" align="center">
          <BreakdownPicker value={effectiveBy} choices={breakdowns} onChange={(v) => set({ by: v })} />
          <SegmentedControl
            value={view}
            onChange={(v) => set({ view: v === 'period' ? null : v })}
            data={[
              { value: 'period', label: t('statistics.view.period') },
              { value: 'ytd', label: t('statistics.view.ytd') },
            ]}
            aria-label={t('statistics.view.label')}
          />
        </Group>
      </Paper>

      {!periodUuid && !periods.isPending && <Text c="dimmed">{t('statistics.no_published_period')}</Text>}
      {periodUuid && answer.isPending && (
        <Center py="xl">
          <Loader />
        </Center>
      )}
      {answer.isError && <ErrorState error={answer.error} testId="statistics-error" />}
      {answer.data && (
        <Stack gap="md" style={{ opacity: answer.isPlaceholderData ? 0.6 : 1 }}>
          <AnswerFacts answer={answer.data} ytd={view === 'ytd'}>
            <Text size="sm" c="dimmed">
              {answer.data.comparison.last_year
                ? t('statistics.compared_with', { title: answer.data.comparison.last_year.title })
                : t('statistics.no_last_year')}
            </Text>
            <Downloads endpoint="market" query={query} />
          </AnswerFacts>
          <StatisticsTable
            rows={answer.data.rows}
            totals={answer.data.totals}
            view={view}
            keyHeader={t(`statistics.by.${effectiveBy}`)}
            withShare={effectiveBy !== 'total'}
            withOwn={withOwn}
            ranked={effectiveBy === 'company'}
            withheld={answer.data.confidentiality.applied}
            converted={!!answer.data.rate}
            coverageDiffers={coverageDiffers(answer.data.coverage, answer.data.comparison.last_year_coverage)}
            label={`${title} · ${answer.data.market.international_name} · ${answer.data.period.title}`}
            onTrend={trendKey ? (row) => setTrendRow(trendRow?.key.id === row.key.id ? null : row) : undefined}
            trendKeyId={trendRow?.key.id ?? null}
          />
          {effectiveBy === 'company' && <ShareChart rows={answer.data.rows} />}
          {marketId && (
            <div ref={trendChart} style={{ scrollMarginTop: 'calc(var(--app-shell-header-height, 0px) + var(--mantine-spacing-md))' }}>
              <TrendChart
                query={trendQuery}
                subtitle={trendRow ? keyLabel(trendRow.key) : `${answer.data.market.international_name} · ${t('statistics.total')}`}
              />
            </div>
          )}
          {trendRow && (
            <Anchor component="button" size="sm" onClick={() => setTrendRow(null)}>
              {t('statistics.trend.back_to_total')}
            </Anchor>
          )}
        </Stack>
      )}
    </AdminPage>
  );
}
