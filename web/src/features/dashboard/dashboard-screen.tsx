import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Anchor, Badge, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { canInMarket } from '@mss/contracts/abilities';
import { abilitySubject, useSession } from '../../api/session.ts';
import type { ScreenProps } from '../../lib/screen.ts';
import { DashboardCard, ReportingTasks } from './dashboard-tasks.tsx';
import { SignInNotices } from './sign-in-notices.tsx';

/** `statistics`: the latest figures of the user's markets (the statistics feature's card, composed in app/). */
export function DashboardScreen({ statistics }: ScreenProps & { statistics?: ReactNode }) {
  const { t } = useTranslation();
  const session = useSession();
  const { user } = session;
  if (!user) return null;
  const subject = abilitySubject(session);
  const roleLabel = (name: string) => t(`enum.role.${name}`, { defaultValue: name });
  const otherRoles = user.roles.map((r) => r.name).filter((name) => name !== user.role);
  const markets = user.markets.length ? user.markets : (user.company?.markets ?? []).map((m) => m.market);

  return (
    <Stack gap="lg" maw={1100}>
      <SignInNotices hasOrganization={user.organization !== null} />
      <Stack gap={4}>
        <Title order={1} fz="h2">
          {t('dashboard.welcome', { name: user.first_name || user.name })}
        </Title>
        <Text c="dimmed">{t('dashboard.intro')}</Text>
      </Stack>

      <ReportingTasks />

      {statistics}

      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        <DashboardCard label={t('dashboard.organization')} testId="dashboard-organization">
          <Text fw={600}>{user.organization?.name ?? t('header.no_organization')}</Text>
        </DashboardCard>
        <DashboardCard label={t('dashboard.role')}>
          <Text fw={600}>{user.role ? roleLabel(user.role) : t('dashboard.no_role')}</Text>
          {otherRoles.length > 0 && (
            <Group gap={6} mt="xs">
              {otherRoles.map((name) => (
                <Badge key={name} variant="light" tt="none">
                  {roleLabel(name)}
                </Badge>
              ))}
            </Group>
          )}
        </DashboardCard>
        {user.company && (
          <DashboardCard label={t('dashboard.company')}>
            <Text fw={600}>{user.company.name}</Text>
            <Text size="sm" c="dimmed">
              {t('dashboard.company_markets', { count: user.company.markets.length })}
            </Text>
          </DashboardCard>
        )}
      </SimpleGrid>

      <DashboardCard label={t('dashboard.markets')}>
        {markets.length ? (
          <Group gap="xs">
            {markets.map((market) =>
              // A market whose report history the user may see links to it.
              canInMarket(subject, 'view-report-history', market.id) ? (
                <Badge
                  key={market.id}
                  component={Link}
                  to={`/history/${market.id}`}
                  size="lg"
                  variant="outline"
                  radius="sm"
                  tt="none"
                  style={{ cursor: 'pointer' }}
                >
                  {market.international_name} · {market.iso_code}
                </Badge>
              ) : (
                <Badge key={market.id} size="lg" variant="outline" radius="sm" tt="none">
                  {market.international_name} · {market.iso_code}
                </Badge>
              ),
            )}
          </Group>
        ) : (
          <Text c="dimmed">{t('dashboard.no_markets')}</Text>
        )}
      </DashboardCard>

      <Text size="sm" c="dimmed">
        <Anchor component={Link} to="/docs">
          {t('title.docs')}
        </Anchor>
      </Text>
    </Stack>
  );
}
