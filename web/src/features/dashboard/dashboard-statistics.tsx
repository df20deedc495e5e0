import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueries } from '@tanstack/react-query';
import { Anchor, Card, Group, Stack, Text } from '@mantine/core';
import { periodQueries } from '../../api/periods.ts';
import { useMarketsWith } from '../../lib/markets.ts';

/**
 * The way from the dashboard to the figures: for each market whose statistics the user views,
 * its latest published period, one click from the statistics of that period.
 */
export function DashboardStatistics() {
  const { t } = useTranslation();
  const { markets } = useMarketsWith('view-statistics');
  const shown = markets.slice(0, 12);
  const periods = useQueries({ queries: shown.map((m) => ({ ...periodQueries.periods({ market_id: m.id }), meta: { handlesErrors: true } })) });
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
      <Stack gap={6}>
        {shown.map((market, i) => {
          const latest = [...(periods[i]?.data ?? [])].filter((p) => p.published).sort((a, b) => b.starts_on.localeCompare(a.starts_on))[0];
          return (
            <Group key={market.id} gap="sm" justify="space-between" wrap="nowrap">
              <Text fw={600} size="sm">
                {market.international_name}
              </Text>
              {latest ? (
                <Anchor component={Link} to={`/statistics?market=${market.id}&period=${latest.uuid}`} size="sm">
                  {t('statistics.latest_published', { title: latest.title })}
                </Anchor>
              ) : (
                <Text size="sm" c="dimmed">
                  {periods[i]?.isPending ? t('statistics.loading') : t('statistics.no_published_yet')}
                </Text>
              )}
            </Group>
          );
        })}
      </Stack>
    </Card>
  );
}
