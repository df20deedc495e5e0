import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Alert, Box, Button, Code, CopyButton, Group, Paper, PasswordInput, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { getSession, setSession } from '../../api/session.ts';
import { isApiError } from '../../api/http.ts';
import { errorMessage, feedback } from '../../components/feedback.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { twoFactorApi, twoFactorQueries, useDisableTwoFactor, useEnableTwoFactor } from './api/two-factor.ts';
import './two-factor-texts.ts';

/** The otpauth:// address as a QR code (SVG), drawn in the browser: the library loads only when a setup starts. */
function QrCode({ text, label }: { text: string; label: string }) {
  const [svg, setSvg] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void import('qrcode').then((qr) => qr.toString(text, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' })).then((made) => live && setSvg(made));
    return () => {
      live = false;
    };
  }, [text]);
  return (
    <Box role="img" aria-label={label} w={200} h={200} bg="white" dangerouslySetInnerHTML={svg ? { __html: svg } : undefined} data-testid="two-factor-qr" />
  );
}

/** The field error of a refused call, or its message as a toast. */
function fieldError(error: unknown, field: string): string | null {
  if (isApiError(error)) {
    const message = error.fieldError(field);
    if (message) return message;
  }
  feedback.error(errorMessage(error));
  return null;
}

export function TwoFactorPanel() {
  const { t } = useTranslation();
  const status = useQuery(twoFactorQueries.status());
  const enable = useEnableTwoFactor();
  const disable = useDisableTwoFactor();
  const [setup, setSetup] = useState<{ secret: string; otpauth_uri: string } | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ code?: string | null; password?: string | null }>({});
  const [recovery, setRecovery] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    try {
      await work();
    } finally {
      setBusy(false);
    }
  };
  const start = () =>
    run(async () => {
      try {
        setSetup(await twoFactorApi.setup());
        setCode('');
        setErrors({});
      } catch (error) {
        feedback.error(errorMessage(error));
      }
    });
  const confirm = () =>
    run(async () => {
      try {
        const { recovery_codes } = await enable.mutateAsync(code.trim());
        setRecovery(recovery_codes);
        setSetup(null);
        setCode('');
        setErrors({});
        feedback.toast(t('two_factor.turned_on'), { color: 'teal' });
        // An organization that required it lets the user in everywhere now: the user as the server sees them.
        if (getSession().user?.two_factor_required) setSession({ ...getSession(), user: await twoFactorApi.me() });
      } catch (error) {
        setErrors({ code: fieldError(error, 'code') });
      }
    });
  const turnOff = () =>
    run(async () => {
      try {
        await disable.mutateAsync({ password, code: code.trim() });
        setPassword('');
        setCode('');
        setErrors({});
        feedback.toast(t('two_factor.turned_off'), { color: 'teal' });
      } catch (error) {
        setErrors({ password: isApiError(error) ? error.fieldError('password') : null, code: fieldError(error, 'code') });
      }
    });

  const on = status.data?.enabled === true;
  return (
    <Paper withBorder radius="md" p="lg" maw={720} data-testid="two-factor-panel">
      <Stack gap="sm">
        <Title order={2} fz="h4">
          {t('two_factor.title')}
        </Title>
        {recovery && (
          <Alert color="teal" variant="light" title={t('two_factor.recovery_title')}>
            <Stack gap="xs">
              <Text size="sm">{t('two_factor.recovery_intro')}</Text>
              <SimpleGrid cols={{ base: 2, sm: 5 }} spacing={4} data-testid="recovery-codes">
                {recovery.map((c) => (
                  <Code key={c} fz="sm">
                    {c}
                  </Code>
                ))}
              </SimpleGrid>
              <Group gap="xs">
                <CopyButton value={recovery.join('\n')}>
                  {({ copied, copy }) => (
                    <Button size="xs" variant="light" onClick={copy}>
                      {copied ? t('two_factor.recovery_copied') : t('two_factor.recovery_copy')}
                    </Button>
                  )}
                </CopyButton>
                <Button size="xs" variant="subtle" onClick={() => setRecovery(null)}>
                  {t('two_factor.recovery_done')}
                </Button>
              </Group>
            </Stack>
          </Alert>
        )}
        {status.data && !on && !setup && (
          <>
            <Text size="sm" c="dimmed">
              {t('two_factor.intro_off')}
            </Text>
            <Group justify="flex-end">
              <Button onClick={() => void start()} loading={busy}>
                {t('two_factor.turn_on')}
              </Button>
            </Group>
          </>
        )}
        {setup && (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              void confirm();
            }}
            noValidate
          >
            <Stack gap="sm">
              <Text size="sm">{t('two_factor.scan')}</Text>
              <Group align="flex-start" gap="lg">
                <QrCode text={setup.otpauth_uri} label={t('two_factor.qr_label')} />
                <Stack gap="xs" style={{ flex: 1, minWidth: 200 }}>
                  <Text size="sm" fw={600}>
                    {t('two_factor.key')}
                  </Text>
                  <Code block fz="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="two-factor-key">
                    {setup.secret.replace(/(.{4})/g, '$1 ').trim()}
                  </Code>
                  <TextInput
                    label={t('two_factor.code')}
                    autoComplete="one-time-code"
                    inputMode="numeric"
                    required
                    value={code}
                    error={errors.code}
                    onChange={(e) => setCode(e.currentTarget.value)}
                  />
                </Stack>
              </Group>
              <Group justify="flex-end">
                <Button
                  variant="default"
                  onClick={() => {
                    setSetup(null);
                    setErrors({});
                  }}
                >
                  {t('two_factor.cancel')}
                </Button>
                <Button type="submit" loading={busy}>
                  {t('two_factor.confirm')}
                </Button>
              </Group>
            </Stack>
          </form>
        )}
        {on && (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              void turnOff();
            }}
            noValidate
          >
            <Stack gap="sm">
              <Text size="sm" data-testid="two-factor-on">
                {t('two_factor.on', { date: formatDateTime(status.data?.enabled_at), count: status.data?.recovery_codes_left ?? 0 })}
              </Text>
              <Text size="sm" c="dimmed">
                {t('two_factor.turn_off_intro')}
              </Text>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <PasswordInput
                  label={t('two_factor.password')}
                  autoComplete="current-password"
                  required
                  value={password}
                  error={errors.password}
                  onChange={(e) => setPassword(e.currentTarget.value)}
                />
                <TextInput
                  label={t('two_factor.off_code')}
                  autoComplete="one-time-code"
                  required
                  value={code}
                  error={errors.code}
                  onChange={(e) => setCode(e.currentTarget.value)}
                />
              </SimpleGrid>
              <Group justify="flex-end">
                <Button type="submit" color="red" variant="light" loading={busy}>
                  {t('two_factor.turn_off')}
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
    </Paper>
  );
}
