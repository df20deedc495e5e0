import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueries } from '@tanstack/react-query';
import { Sparkline } from '@mantine/charts';
import { Anchor, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { coverageDiffers, type TrendStatistics } from '@mss/contracts/statistics';
import { statisticsQueries } from './api/statistics.ts';
import { useMarketsWith } from '../../lib/markets.ts';
import { Change, COVERAGE_MARK, EstimatedMark, LockIcon, Num, plot, RevisedMark } from '../../components/figures.tsx';

/** The periods of the sparkline: a year and the latest, so the latest is compared with last year in the same answer. */
const SPARK_PERIODS = 13;

/**
 * The latest figures of each market whose statistics the user views, on the dashboard: the total
 * value of the latest published period, its change against last year, its coverage, and a
 * sparkline of the last year (GET /statistics/trend: the same answer, with the same confidentiality,
 * as the statistics screen's trend). One click opens the period's statistics. Loaded after the
 * dashboard (it carries the charts), so the first screen stays within its budget.
 */
export function LatestFigures() {
  const { t } = useTranslation();
  const { markets } = useMarketsWith('view-statistics');
  const shown = markets.slice(0, 12);
  const trends = useQueries({
    queries: shown.map((m) => ({ ...statisticsQueries.trend({ market_id: m.id, periods: SPARK_PERIODS }), meta: { handlesErrors: true } })),
  });
  if (shown.length === 0) return null;
  return (
    <Card withBorder radius="md" padding="lg" data-testid="dashboard-statistics">
      <Group justify="space-between" mb="xs">
        <Text size="xs" tt="uppercase" fw={700} c="dimmed">
          {t('statistics.market_card')}
        </Text>
        <Anchor component={Link} to="/statistics" size="sm">
          {t('statistics.open')}
        </Anchor>
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm">
        {shown.map((market, i) => (
          <MarketFigures key={market.id} name={market.international_name} marketId={market.id} trend={trends[i]?.data} pending={!!trends[i]?.isPending} />
        ))}
      </SimpleGrid>
    </Card>
  );
}

function MarketFigures({ name, marketId, trend, pending }: { name: string; marketId: number; trend: TrendStatistics | undefined; pending: boolean }) {
  const { t } = useTranslation();
  // Published periods only: an approver's trend has the open period too, provisionally.
  const points = (trend?.points ?? []).filter((p) => p.period.published);
  const latest = points.at(-1);
  return (
    <Stack gap={4} p="sm" style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 8 }} data-testid="dashboard-market-figures">
      <Text fw={700} size="sm">
        {name}
      </Text>
      {!latest ? (
        <Text size="sm" c="dimmed">
          {pending ? t('statistics.loading') : t('statistics.no_published_yet')}
        </Text>
      ) : (
        <>
          <Anchor component={Link} to={`/statistics?market=${marketId}&period=${latest.period.uuid}`} size="sm">
            {t('statistics.latest_published', { title: latest.period.title })}
          </Anchor>
          <Group justify="space-between" align="flex-end" wrap="nowrap" gap="xs">
            <Stack gap={0}>
              <Text size="xs" c="dimmed">
                {t('dashboard.total_value', { currency: trend!.currency })}
              </Text>
              {latest.flags.period.includes('c') && latest.value === null ? (
                <Text size="sm" c="dimmed">
                  <LockIcon /> {t('statistics.confidential')}
                </Text>
              ) : (
                <Text fw={700} size="lg" data-testid="dashboard-total">
                  <Num value={latest.value} />
                  {latest.flags.period.includes('r') && <RevisedMark />}
                  {latest.flags.period.includes('e') && <EstimatedMark />}
                </Text>
              )}
              <Text size="sm">
                <Change value={latest.value_change_pct} />
                {latest.value_change_pct !== null && latest.flags.change.includes('e') && <EstimatedMark />}{' '}
                <Text span size="xs" c="dimmed">
                  {t('dashboard.against_last_year')}
                  {coverageDiffers(latest.coverage, latest.last_year_coverage) ? ` ${COVERAGE_MARK}` : ''}
                </Text>
              </Text>
            </Stack>
            {/* A picture of the last year's values (a number only to place a point, as in the trend chart; a withheld one is a gap). */}
            <Sparkline
              w={110}
              h={44}
              data={points.map((p) => plot(p.value))}
              connectNulls={false}
              curveType="linear"
              color="blue"
              fillOpacity={0.15}
              strokeWidth={1.5}
              role="img"
              aria-label={t('dashboard.sparkline', { market: name })}
            />
          </Group>
          <Text size="xs" c={latest.coverage.approved < latest.coverage.expected ? 'orange' : 'dimmed'}>
            {t('statistics.coverage', latest.coverage)}
            {coverageDiffers(latest.coverage, latest.last_year_coverage) && latest.last_year_coverage
              ? ` · ${COVERAGE_MARK} ${t('dashboard.coverage_last_year', latest.last_year_coverage)}`
              : ''}
          </Text>
        </>
      )}
    </Stack>
  );
}
