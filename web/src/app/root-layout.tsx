import { useEffect } from 'react';
import { Outlet, useLocation, useMatches, useNavigation, useRouteError } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Box, Button, Center, Loader, Progress, Stack, Text, Title } from '@mantine/core';
import { translate } from '@mss/contracts/messages';
import { useSession } from '../api/session.ts';
import { setInterfaceLocale } from '../i18n/index.ts';
import { type RouteHandle, titleFor } from './route-title.ts';

/** "<screen title> - Market Sales Statistics", refreshed after each navigation. */
function usePageTitle() {
  const { t } = useTranslation();
  const matches = useMatches();
  const location = useLocation();
  const { user } = useSession();
  const handle = [...matches].reverse().find((m) => (m.handle as RouteHandle | undefined)?.title)?.handle as RouteHandle | undefined;
  const titleKey = handle ? titleFor(handle, user) : undefined;
  useEffect(() => {
    const product = t('app.name');
    document.title = titleKey ? t('app.page_title', { title: t(titleKey), product }) : product;
  }, [location.key, titleKey, t]);
}

function NavigationProgress() {
  const navigation = useNavigation();
  if (navigation.state === 'idle') return null;
  return (
    <Box pos="fixed" top={0} left={0} right={0} style={{ zIndex: 1100 }} data-testid="navigation-progress">
      <Progress value={100} size="xs" radius={0} animated striped />
    </Box>
  );
}

export function RootLayout() {
  const { user } = useSession();
  usePageTitle();
  useEffect(() => setInterfaceLocale(user?.locale), [user?.locale]);
  return (
    <>
      <NavigationProgress />
      <Outlet />
    </>
  );
}

export function RootHydrateFallback() {
  const { t } = useTranslation();
  return (
    <Center h="100dvh">
      <Loader type="bars" aria-label={t('app.loading')} />
    </Center>
  );
}

export function RootErrorBoundary() {
  const error = useRouteError();
  const { t } = useTranslation();
  useEffect(() => {
    console.error('Unexpected error while showing the screen.', error);
    document.title = `${t('title.error')} - ${t('app.name')}`;
  }, [error, t]);
  return (
    <Center h="100dvh" p="md">
      <Stack align="center" gap="sm" maw={480} ta="center">
        <Title order={2}>{t('title.error')}</Title>
        <Text c="dimmed">{translate('generic.error')}</Text>
        <Button onClick={() => window.location.reload()}>{t('system.reload')}</Button>
      </Stack>
    </Center>
  );
}
