import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Center, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { errorMessage } from './feedback.tsx';
import { isApiError } from '../api/http.ts';

/** Loading, error and empty states around a query's data. */
export function QueryState<T>({
  query,
  empty,
  children,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown; data: T | undefined };
  empty?: (data: T) => boolean;
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation();
  if (query.isPending)
    return (
      <Center py="xl">
        <Loader />
      </Center>
    );
  if (query.isError || query.data === undefined) return <ErrorState error={query.error} />;
  if (empty?.(query.data)) return <Text c="dimmed">{t('common.empty')}</Text>;
  return <>{children(query.data)}</>;
}

/**
 * A failed request in place of what it should have shown: its message, or, for a record that does
 * not exist or is another organization's (404), what the 404 page says, never the uuid asked for.
 */
export function ErrorState({ error, testId }: { error: unknown; testId?: string }) {
  if (isApiError(error) && error.status === 404) return <NotFoundState />;
  return (
    <Alert color="red" role="alert" data-testid={testId}>
      {errorMessage(error)}
    </Alert>
  );
}

/** In place of a record that is not there (404): what the 404 page says. */
export function NotFoundState() {
  const { t } = useTranslation();
  return (
    <Center py="xl" data-testid="not-found">
      <Stack align="center" gap={4} ta="center">
        <Text fw={800} fz="h2" c="dimmed">
          404
        </Text>
        <Text fw={600}>{t('generic.not_found')}</Text>
        <Text size="sm" c="dimmed">
          {t('system.not_found_hint')}
        </Text>
      </Stack>
    </Center>
  );
}

export function Section({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Group justify="space-between" mb="sm">
        <Title order={2} fz="h4">
          {title}
        </Title>
        {actions && <Group gap="xs">{actions}</Group>}
      </Group>
      {children}
    </Paper>
  );
}
