import { Outlet } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Box, Center, Container, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { BrandMark } from './brand.tsx';

/** The frame of the public screens: the product name above a centred card. */
export function AuthLayout() {
  const { t } = useTranslation();
  return (
    <Box mih="100dvh" bg="gray.0">
      <Center mih="100dvh" p="md">
        <Container size={440} w="100%">
          <Stack gap="lg">
            <Group justify="center" gap="sm">
              <ThemeIcon size={40} radius="md" variant="filled">
                <BrandMark size={24} />
              </ThemeIcon>
              <Text fw={700} fz="xl">
                {t('app.name')}
              </Text>
            </Group>
            <Outlet />
          </Stack>
        </Container>
      </Center>
    </Box>
  );
}
