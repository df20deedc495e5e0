import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Group, Paper, PasswordInput, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { MIN_PASSWORD_LENGTH } from '@mss/contracts/constants';
import { DEFAULT_LOCALE, LOCALES, isLocale } from '@mss/contracts/enums';
import { getSession, setSession, useSession } from '../../api/session.ts';
import { feedback } from '../../components/feedback.tsx';
import { AdminPage } from '../../components/page.tsx';
import { requiredMessage, showSaveError } from '../../lib/form.ts';
import type { ScreenProps } from '../../lib/screen.ts';
import { useSaveOwnDetails, useSaveOwnPassword } from './api/profile.ts';
import { TokensPanel } from './tokens-panel.tsx';
import { TwoFactorPanel } from './two-factor-panel.tsx';

const DETAILS = ['first_name', 'last_name', 'phone', 'locale'] as const;
const PASSWORD = ['current_password', 'password', 'password_confirmation'] as const;

/**
 * /profile: the signed-in user's own account. Names, phone and language (PUT /users/me: the
 * interface follows the language at once), the password (PUT /users/me/password: the current one
 * first; every other session ends), and the workflow mails switch (`mails`, from the
 * communications feature). The e-mail, roles and markets are the administrators'.
 */
export function ProfileScreen({ title, mails }: ScreenProps & { mails?: ReactNode }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const details = useForm({
    initialValues: {
      first_name: user?.first_name ?? '',
      last_name: user?.last_name ?? '',
      phone: user?.phone ?? '',
      locale: isLocale(user?.locale) ? user.locale : DEFAULT_LOCALE,
    },
    validate: { first_name: (value) => (value.trim() ? null : requiredMessage('first_name')) },
  });
  const password = useForm({
    initialValues: { current_password: '', password: '', password_confirmation: '' },
    validate: {
      current_password: (value) => (value ? null : t('validation.required', { attribute: t('profile.current_password').toLowerCase() })),
      password: (value) => (value.length >= MIN_PASSWORD_LENGTH ? null : t('auth.password_too_short')),
      password_confirmation: (value, values) => (value === values.password ? null : t('auth.passwords_not_matching')),
    },
  });
  const saveDetails = useSaveOwnDetails();
  const savePassword = useSaveOwnPassword();
  if (!user) return null;

  const submitDetails = details.onSubmit(async (values) => {
    try {
      const saved = await saveDetails.mutateAsync({ ...values, phone: values.phone.trim() || null });
      // The header, the dashboard's welcome and the language follow at once (root-layout switches the language).
      setSession({ ...getSession(), user: saved });
      details.resetDirty(values);
      feedback.toast(t('profile.saved'), { color: 'teal' });
    } catch (error) {
      showSaveError(details, error, DETAILS, t('profile.details'));
    }
  });
  const submitPassword = password.onSubmit(async (values) => {
    try {
      await savePassword.mutateAsync(values);
      password.reset();
      feedback.toast(t('profile.password_changed'), { color: 'teal' });
    } catch (error) {
      showSaveError(password, error, PASSWORD, t('profile.password'));
    }
  });

  return (
    <AdminPage title={title}>
      {/* The organization requires two-factor sign-in and it is not on: every other screen leads here (guard.ts). */}
      {user.two_factor_required && (
        <Alert color="orange" variant="light" maw={720} data-testid="two-factor-required">
          {t('two_factor.setup_required')}
        </Alert>
      )}
      <Paper withBorder radius="md" p="lg" maw={720}>
        <form onSubmit={submitDetails} noValidate>
          <Stack gap="sm">
            <Title order={2} fz="h4">
              {t('profile.details')}
            </Title>
            <Text size="sm" c="dimmed" data-testid="profile-email">
              {t('profile.email_hint', { email: user.email })}
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label={t('profile.first_name')} required autoComplete="given-name" {...details.getInputProps('first_name')} />
              <TextInput label={t('profile.last_name')} autoComplete="family-name" {...details.getInputProps('last_name')} />
              <TextInput label={t('profile.phone')} type="tel" autoComplete="tel" {...details.getInputProps('phone')} />
              <Select
                label={t('profile.language')}
                data={LOCALES.map((locale) => ({ value: locale, label: t(`enum.locale.${locale}`) }))}
                allowDeselect={false}
                {...details.getInputProps('locale')}
              />
            </SimpleGrid>
            <Group justify="flex-end">
              <Button type="submit" loading={saveDetails.isPending}>
                {t('profile.save_details')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>

      <Paper withBorder radius="md" p="lg" maw={720}>
        <form onSubmit={submitPassword} noValidate>
          <Stack gap="sm">
            <Title order={2} fz="h4">
              {t('profile.password')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('profile.password_hint')}
            </Text>
            <PasswordInput label={t('profile.current_password')} autoComplete="current-password" required {...password.getInputProps('current_password')} />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <PasswordInput label={t('profile.new_password')} autoComplete="new-password" required {...password.getInputProps('password')} />
              <PasswordInput label={t('profile.confirm_password')} autoComplete="new-password" required {...password.getInputProps('password_confirmation')} />
            </SimpleGrid>
            <Group justify="flex-end">
              <Button type="submit" loading={savePassword.isPending}>
                {t('profile.change_password')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>

      <TwoFactorPanel />

      <TokensPanel />

      {mails && (
        <Paper withBorder radius="md" p="lg" maw={720}>
          <Stack gap="sm">
            <Title order={2} fz="h4">
              {t('profile.mails')}
            </Title>
            {mails}
          </Stack>
        </Paper>
      )}
    </AdminPage>
  );
}
