import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Code, CopyButton, Group, Paper, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { IntegrationToken, TokenScope } from '@mss/contracts/auth';
import { isApiError } from '../../api/http.ts';
import { errorMessage, feedback } from '../../components/feedback.tsx';
import { formatDateTime } from '../../lib/dates.ts';
import { tokenQueries, useCreateToken, useRevokeToken } from './api/tokens.ts';

/**
 * The profile's integration tokens: what a member's system (an ERP, a script) signs in with to send
 * its reports' rows (PUT /reports/{uuid}/rows). Listed by device name, scope, when made and last
 * used; a new one is shown once, to copy; each can be revoked.
 */
export function TokensPanel() {
  const { t } = useTranslation();
  const phone = useMediaQuery('(max-width: 40em)');
  const tokens = useQuery(tokenQueries.list());
  const createToken = useCreateToken();
  const revokeToken = useRevokeToken();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<TokenScope>('upload-reports');
  const [error, setError] = useState<string | null>(null);
  const [made, setMade] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const create = async () => {
    setError(null);
    setBusy(true);
    try {
      const { token } = await createToken.mutateAsync({ device_name: name.trim(), scope });
      setMade(token);
      setName('');
    } catch (e) {
      setError(isApiError(e) && e.errors.device_name?.[0] ? e.errors.device_name[0] : errorMessage(e));
    } finally {
      setBusy(false);
    }
  };
  const revoke = async (token: IntegrationToken) => {
    const ok = await feedback.confirm({
      message: t('profile.tokens.confirm_revoke', { name: token.device_name ?? '' }),
      confirmLabel: t('profile.tokens.revoke'),
    });
    if (!ok) return;
    try {
      await revokeToken.mutateAsync(token.id);
    } catch (e) {
      await feedback.errorOf(e);
    }
  };
  const scopeLabel = (value: TokenScope) => t(`profile.tokens.scope.${value}`);
  return (
    <Paper withBorder radius="md" p="lg" maw={720}>
      <Stack gap="sm">
        <Title order={2} fz="h4">
          {t('profile.tokens.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('profile.tokens.hint')}
        </Text>
        {made && (
          <Alert
            color="teal"
            title={t('profile.tokens.made')}
            data-testid="token-made"
            withCloseButton
            closeButtonLabel={t('notices.dismiss')}
            onClose={() => setMade(null)}
          >
            <Stack gap="xs">
              <Text size="sm">{t('profile.tokens.made_hint')}</Text>
              <Group gap="xs" wrap="nowrap">
                <Code style={{ overflowWrap: 'anywhere', minWidth: 0 }} data-testid="token-value">
                  {made}
                </Code>
                <CopyButton value={made}>
                  {({ copied, copy }) => (
                    <Button size="xs" variant="light" onClick={copy} style={{ flexShrink: 0, minWidth: 'max-content' }}>
                      {copied ? t('profile.tokens.copied') : t('profile.tokens.copy')}
                    </Button>
                  )}
                </CopyButton>
              </Group>
            </Stack>
          </Alert>
        )}
        {tokens.data && tokens.data.length === 0 && <Text size="sm">{t('profile.tokens.none')}</Text>}
        {tokens.data &&
          tokens.data.length > 0 &&
          (phone ? (
            <Stack gap="xs" data-testid="tokens">
              {tokens.data.map((token) => (
                <Group key={token.id} justify="space-between" wrap="nowrap" preventGrowOverflow={false}>
                  <Stack gap={0} miw={0}>
                    <Text size="sm" fw={600}>
                      {token.device_name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {scopeLabel(token.scope)} · {t('profile.tokens.last_used')}: {formatDateTime(token.last_used_at)}
                    </Text>
                  </Stack>
                  <Button
                    size="xs"
                    variant="default"
                    style={{ flexShrink: 0, minWidth: 'max-content' }}
                    onClick={() => void revoke(token)}
                    aria-label={t('profile.tokens.revoke_named', { name: token.device_name ?? '' })}
                  >
                    {t('profile.tokens.revoke')}
                  </Button>
                </Group>
              ))}
            </Stack>
          ) : (
            <Table.ScrollContainer minWidth={620}>
              <Table aria-label={t('profile.tokens.title')} data-testid="tokens">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('profile.tokens.system')}</Table.Th>
                    <Table.Th>{t('profile.tokens.scope_label')}</Table.Th>
                    <Table.Th>{t('profile.tokens.created')}</Table.Th>
                    <Table.Th>{t('profile.tokens.last_used')}</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {tokens.data.map((token) => (
                    <Table.Tr key={token.id}>
                      <Table.Td>{token.device_name}</Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{scopeLabel(token.scope)}</Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(token.created_at)}</Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(token.last_used_at)}</Table.Td>
                      <Table.Td>
                        <Button
                          size="xs"
                          variant="default"
                          onClick={() => void revoke(token)}
                          aria-label={t('profile.tokens.revoke_named', { name: token.device_name ?? '' })}
                        >
                          {t('profile.tokens.revoke')}
                        </Button>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          ))}
        <Group align="flex-end" wrap="wrap">
          <TextInput label={t('profile.tokens.device')} value={name} onChange={(e) => setName(e.currentTarget.value)} error={error} w={240} maw="100%" />
          <Select
            label={t('profile.tokens.scope_label')}
            data={(['upload-reports', 'all'] as const).map((value) => ({ value, label: scopeLabel(value) }))}
            value={scope}
            onChange={(value) => value && setScope(value as TokenScope)}
            allowDeselect={false}
            w={260}
            maw="100%"
          />
          <Button onClick={() => void create()} disabled={!name.trim()} loading={busy}>
            {t('profile.tokens.create')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
