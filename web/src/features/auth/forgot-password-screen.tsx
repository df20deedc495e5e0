import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Alert, Anchor, Button, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { errorMessage } from '../../components/feedback.tsx';
import type { ScreenProps } from '../../lib/screen.ts';
import { useForgotPassword } from './api/auth.ts';
import { AuthCard } from './auth-card.tsx';
import { fieldErrors } from './form-errors.ts';

export function ForgotPasswordScreen(_props: ScreenProps) {
  const { t } = useTranslation();
  const forgotPassword = useForgotPassword();
  const [sent, setSent] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm({
    initialValues: { email: '' },
    validate: { email: (value) => (value.trim() ? null : t('validation.required', { attribute: t('forgot.email').toLowerCase() })) },
  });

  const submit = form.onSubmit(async ({ email }) => {
    setSent(null);
    setFailure(null);
    try {
      setSent(await forgotPassword.mutateAsync(email.trim()));
    } catch (error) {
      const fields = fieldErrors(error, ['email']);
      form.setErrors(fields);
      if (!fields.email) setFailure(errorMessage(error));
    }
  });

  return (
    <AuthCard heading={t('forgot.heading')} intro={t('forgot.intro')}>
      {sent && (
        <Alert color="teal" variant="light" role="status" data-testid="forgot-password-sent">
          {sent}
        </Alert>
      )}
      {failure && (
        <Alert color="red" variant="light" role="alert">
          {failure}
        </Alert>
      )}
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label={t('forgot.email')} type="email" autoComplete="email" required {...form.getInputProps('email')} />
          <Button type="submit" fullWidth loading={forgotPassword.isPending}>
            {t('forgot.submit')}
          </Button>
          <Anchor component={Link} to="/login" size="sm" ta="center">
            {t('forgot.back')}
          </Anchor>
        </Stack>
      </form>
    </AuthCard>
  );
}
