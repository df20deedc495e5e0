import { useTranslation } from 'react-i18next';
import { Button, Stack, Text } from '@mantine/core';
import { queryClient } from '../api/query-client.ts';
import { useSession } from '../api/session.ts';
import { feedback } from '../components/feedback.tsx';
import { switchOrganization } from '../features/auth/api/auth.ts';

/**
 * For a user of several organizations: work in another one without signing out
 * (POST /auth/organization replaces the session). The app then starts afresh at the dashboard,
 * so nothing of the previous organization stays on screen or in the query cache.
 */
export function OrganizationSwitch() {
  const { t } = useTranslation();
  const { user } = useSession();
  if (!user || user.organizations.length < 2) return null;
  const switchTo = async (uuid: string) => {
    try {
      await feedback.loading.during(switchOrganization(uuid));
      queryClient.clear();
      window.location.assign('/');
    } catch (error) {
      await feedback.errorOf(error);
    }
  };
  return (
    <Stack gap={4} data-testid="organization-switch">
      <Text size="xs" fw={700} c="dimmed" tt="uppercase">
        {t('profile.organization')}
      </Text>
      {user.organizations.map((o) =>
        o.uuid === user.organization?.uuid ? (
          <Text key={o.uuid} size="sm" fw={600} px={4}>
            {t('profile.current_organization', { name: o.name })}
          </Text>
        ) : (
          <Button key={o.uuid} variant="subtle" size="compact-sm" justify="flex-start" onClick={() => void switchTo(o.uuid)}>
            {t('profile.switch_to', { name: o.name })}
          </Button>
        ),
      )}
    </Stack>
  );
}
