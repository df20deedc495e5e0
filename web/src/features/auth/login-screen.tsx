import { useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Alert, Anchor, Button, Group, PasswordInput, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { OrganizationChoice } from '../../api/auth.ts';
import { errorMessage } from '../../components/feedback.tsx';
import type { ScreenProps } from '../../lib/screen.ts';
import { useLogin } from './api/auth.ts';
import { AuthCard } from './auth-card.tsx';

interface LoginValues {
  email: string;
  password: string;
  organization: string | null;
}

/** Only paths of this app: never an absolute URL handed in through ?redirect=. */
function safeRedirect(target: string | null): string {
  return target && target.startsWith('/') && !target.startsWith('//') && !target.startsWith('/login') ? target : '/';
}

export interface LoginNotice {
  notice?: string;
  email?: string;
}

export function LoginScreen(_props: ScreenProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const notice = (location.state as LoginNotice | null)?.notice;
  const loginMutation = useLogin();
  const [organizations, setOrganizations] = useState<OrganizationChoice | null>(null);
  const [failure, setFailure] = useState<string | null>(null);

  const form = useForm<LoginValues>({
    initialValues: { email: (location.state as LoginNotice | null)?.email ?? '', password: '', organization: null },
    validate: {
      email: (value) => (value.trim() ? null : t('validation.required', { attribute: t('login.email').toLowerCase() })),
      password: (value) => (value ? null : t('validation.required', { attribute: t('login.password').toLowerCase() })),
      organization: (value) => (organizations && !value ? t('validation.required', { attribute: t('login.organization').toLowerCase() }) : null),
    },
  });

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      const result = await loginMutation.mutateAsync({
        email: values.email.trim(),
        password: values.password,
        organization: organizations ? values.organization : undefined,
      });
      if (result.status === 'choose-organization') {
        setOrganizations(result.organizations);
        form.setFieldValue('organization', null);
        return;
      }
      await navigate(safeRedirect(searchParams.get('redirect')), { replace: true });
    } catch (error) {
      setFailure(errorMessage(error));
    }
  });

  const changeAccount = () => {
    setOrganizations(null);
    setFailure(null);
    form.setValues({ password: '', organization: null });
  };

  return (
    <AuthCard heading={t('login.heading')} intro={t('login.subheading')}>
      {notice && (
        <Alert color="teal" variant="light" role="status" data-testid="login-notice">
          {notice}
        </Alert>
      )}
      {failure && (
        <Alert color="red" variant="light" title={t('login.failed_title')} role="alert">
          {failure}
        </Alert>
      )}
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label={t('login.email')}
            type="email"
            autoComplete="username"
            required
            readOnly={organizations !== null}
            {...form.getInputProps('email')}
          />
          <PasswordInput
            label={t('login.password')}
            autoComplete="current-password"
            required
            readOnly={organizations !== null}
            {...form.getInputProps('password')}
          />
          {organizations && (
            <Select
              label={t('login.organization')}
              description={t('login.organization_help')}
              placeholder={t('login.organization_placeholder')}
              data={organizations.map((o) => ({ value: o.uuid, label: o.name }))}
              required
              allowDeselect={false}
              comboboxProps={{ withinPortal: false }}
              {...form.getInputProps('organization')}
            />
          )}
          <Button type="submit" fullWidth mt="xs" loading={loginMutation.isPending}>
            {t('login.submit')}
          </Button>
          <Group justify="space-between">
            <Anchor component={Link} to="/forgot-password" size="sm">
              {t('login.forgot_password')}
            </Anchor>
            {organizations && (
              <Anchor component="button" type="button" size="sm" onClick={changeAccount}>
                {t('login.change_account')}
              </Anchor>
            )}
          </Group>
        </Stack>
      </form>
    </AuthCard>
  );
}
