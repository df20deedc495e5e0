import type { ReactNode } from 'react';
import { Paper, Stack, Text, Title } from '@mantine/core';

/** The card of the public screens: a heading, an optional intro and the form. */
export function AuthCard({ heading, intro, children }: { heading: ReactNode; intro?: ReactNode; children: ReactNode }) {
  return (
    <Paper withBorder shadow="sm" radius="md" p="xl" bg="white">
      <Stack gap="md">
        <Stack gap={4}>
          <Title order={2} fz="h3">
            {heading}
          </Title>
          {intro && (
            <Text c="dimmed" size="sm">
              {intro}
            </Text>
          )}
        </Stack>
        {children}
      </Stack>
    </Paper>
  );
}
