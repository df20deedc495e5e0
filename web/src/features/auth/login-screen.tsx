import { useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Alert, Anchor, Button, Group, PasswordInput, Select, Stack, TextInput } from '@mantine/core';
import type { OrganizationChoice } from './api/auth.ts';
import { errorMessage } from '../../components/feedback.tsx';
import type { ScreenProps } from '../../lib/screen.ts';
import { useLogin } from './api/auth.ts';
import { AuthCard } from './auth-card.tsx';

interface LoginValues {
  email: string;
  password: string;
  organization: string | null;
  /** Two-factor sign-in: the authenticator app's code, or a recovery code. */
  code: string;
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
  const [codeAsked, setCodeAsked] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  // Three fields kept in plain state (not @mantine/form): the sign-in screen is the first load,
  // and the form library is for the screens after it (docs/performance.md).
  const [values, setValues] = useState<LoginValues>({ email: (location.state as LoginNotice | null)?.email ?? '', password: '', organization: null, code: '' });
  const [errors, setErrors] = useState<Partial<Record<keyof LoginValues, string>>>({});
  const required = (field: 'email' | 'password' | 'organization' | 'code') => t('validation.required', { attribute: t(`login.${field}`).toLowerCase() });
  /** A field's value, change handler and error; a change clears its error. */
  const field = <K extends keyof LoginValues>(name: K) => ({
    value: values[name],
    error: errors[name],
    onChange: (next: LoginValues[K]) => {
      setValues((v) => ({ ...v, [name]: next }));
      setErrors((e) => ({ ...e, [name]: undefined }));
    },
  });
  const textField = (name: 'email' | 'password' | 'code') => {
    const { onChange, ...rest } = field(name);
    return { ...rest, onChange: (event: React.ChangeEvent<HTMLInputElement>) => onChange(event.currentTarget.value) };
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const found: typeof errors = {
      email: values.email.trim() ? undefined : required('email'),
      password: values.password ? undefined : required('password'),
      organization: organizations && !values.organization ? required('organization') : undefined,
      code: codeAsked && !values.code.trim() ? required('code') : undefined,
    };
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    setFailure(null);
    try {
      const result = await loginMutation.mutateAsync({
        email: values.email.trim(),
        password: values.password,
        organization: organizations ? values.organization : undefined,
        code: codeAsked ? values.code.trim() : undefined,
      });
      if (result.status === 'enter-code') {
        setCodeAsked(true);
        return;
      }
      if (result.status === 'choose-organization') {
        setOrganizations(result.organizations);
        setValues((v) => ({ ...v, organization: null }));
        return;
      }
      await navigate(safeRedirect(searchParams.get('redirect')), { replace: true });
    } catch (error) {
      setFailure(errorMessage(error));
    }
  };

  const changeAccount = () => {
    setOrganizations(null);
    setCodeAsked(false);
    setFailure(null);
    setValues((v) => ({ ...v, password: '', organization: null, code: '' }));
    setErrors({});
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
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Stack gap="sm">
          <TextInput
            label={t('login.email')}
            type="email"
            autoComplete="username"
            required
            readOnly={organizations !== null || codeAsked}
            {...textField('email')}
          />
          <PasswordInput
            label={t('login.password')}
            autoComplete="current-password"
            required
            readOnly={organizations !== null || codeAsked}
            {...textField('password')}
          />
          {codeAsked && (
            <TextInput
              label={t('login.code')}
              description={t('login.code_help')}
              autoComplete="one-time-code"
              required
              autoFocus
              readOnly={organizations !== null}
              {...textField('code')}
            />
          )}
          {organizations && (
            <Select
              label={t('login.organization')}
              description={t('login.organization_help')}
              placeholder={t('login.organization_placeholder')}
              data={organizations.map((o) => ({ value: o.uuid, label: o.name }))}
              required
              allowDeselect={false}
              comboboxProps={{ withinPortal: false }}
              {...field('organization')}
            />
          )}
          <Button type="submit" fullWidth mt="xs" loading={loginMutation.isPending}>
            {t('login.submit')}
          </Button>
          <Group justify="space-between">
            <Anchor component={Link} to="/forgot-password" size="sm">
              {t('login.forgot_password')}
            </Anchor>
            {(organizations || codeAsked) && (
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
