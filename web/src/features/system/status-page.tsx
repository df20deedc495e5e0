import type { ReactNode } from 'react';
import { Center, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';

/** A centred message page: 403, 404 and the screens of later releases. */
export function StatusPage({
  code,
  title,
  message,
  hint,
  color = 'blue',
  children,
}: {
  code: string;
  title: string;
  message: ReactNode;
  hint?: ReactNode;
  color?: string;
  children?: ReactNode;
}) {
  return (
    <Center py={60}>
      <Paper withBorder radius="md" p="xl" maw={560} w="100%" bg="white">
        <Stack align="center" ta="center" gap="sm">
          <ThemeIcon size={64} radius="xl" variant="light" color={color}>
            <Text fw={800} fz="lg">
              {code}
            </Text>
          </ThemeIcon>
          <Title order={1} fz="h2">
            {title}
          </Title>
          <Text>{message}</Text>
          {hint && (
            <Text c="dimmed" size="sm">
              {hint}
            </Text>
          )}
          {children}
        </Stack>
      </Paper>
    </Center>
  );
}
