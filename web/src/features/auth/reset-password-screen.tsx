import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Alert, Anchor, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { MIN_PASSWORD_LENGTH } from '@mss/contracts/constants';
import { errorMessage } from '../../components/feedback.tsx';
import type { ScreenProps } from '../../lib/screen.ts';
import { useResetPassword } from './api/auth.ts';
import { AuthCard } from './auth-card.tsx';
import { fieldErrors } from './form-errors.ts';
import type { LoginNotice } from './login-screen.tsx';

const FIELDS = ['email', 'password', 'password_confirmation', 'code'] as const;

export function ResetPasswordScreen({ params }: ScreenProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const resetPassword = useResetPassword();
  const [failure, setFailure] = useState<string | null>(null);
  // Two-factor sign-in on: the server asks for the code with the new password (docs/decisions.md "Two-factor sign-in").
  const [codeAsked, setCodeAsked] = useState(false);
  const form = useForm({
    initialValues: { email: searchParams.get('email') ?? '', password: '', password_confirmation: '', code: '' },
    validate: {
      email: (value) => (value.trim() ? null : t('validation.required', { attribute: t('reset.email').toLowerCase() })),
      password: (value) => (value.length >= MIN_PASSWORD_LENGTH ? null : t('auth.password_too_short')),
      password_confirmation: (value, values) => (value === values.password ? null : t('auth.passwords_not_matching')),
    },
  });

  const submit = form.onSubmit(async (values) => {
    setFailure(null);
    try {
      const { code, ...rest } = values;
      const message = await resetPassword.mutateAsync({
        token: params.token ?? '',
        ...rest,
        email: values.email.trim(),
        ...(codeAsked ? { code: code.trim() } : {}),
      });
      const state: LoginNotice = { notice: message, email: values.email.trim() };
      await navigate('/login', { replace: true, state });
    } catch (error) {
      const { code: codeError, ...fields } = fieldErrors(error, FIELDS);
      // The first time the code is asked for, the field comes with its help and the focus, not as a mistake.
      if (codeError && !codeAsked) setCodeAsked(true);
      else if (codeError) fields.code = codeError;
      form.setErrors(fields);
      // Errors without an input of their own (an invalid or expired token) go above the form.
      if (!Object.keys(fields).length && !codeError) setFailure(errorMessage(error));
    }
  });

  return (
    <AuthCard heading={t('reset.heading')} intro={t('reset.intro')}>
      {failure && (
        <Alert color="red" variant="light" role="alert">
          <Stack gap={4} align="flex-start">
            {failure}
            <Anchor component={Link} to="/forgot-password" size="sm">
              {t('reset.request_new_link')}
            </Anchor>
          </Stack>
        </Alert>
      )}
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label={t('reset.email')} type="email" autoComplete="username" required {...form.getInputProps('email')} />
          <PasswordInput label={t('reset.password')} autoComplete="new-password" required {...form.getInputProps('password')} />
          <PasswordInput label={t('reset.password_confirmation')} autoComplete="new-password" required {...form.getInputProps('password_confirmation')} />
          {/* As the login's code field: one component shared by the two made the first load a chunk larger (its budget). */}
          {codeAsked && (
            <TextInput
              label={t('login.code')}
              description={t('login.code_help')}
              autoComplete="one-time-code"
              required
              autoFocus
              {...form.getInputProps('code')}
            />
          )}
          <Button type="submit" fullWidth mt="xs" loading={resetPassword.isPending}>
            {t('reset.submit')}
          </Button>
          <Group justify="center">
            <Anchor component={Link} to="/login" size="sm">
              {t('reset.back')}
            </Anchor>
          </Group>
        </Stack>
      </form>
    </AuthCard>
  );
}
