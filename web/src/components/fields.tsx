import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge, Button, FileInput, Group, Image, Stack, Text } from '@mantine/core';
import { can } from '@mss/contracts/abilities';
import type { AbilityName } from '@mss/contracts/enums';
import { abilitySubject, useSession } from '../api/session.ts';
import type { LogotypeApi } from '../api/logotype.ts';
import { feedback } from './feedback.tsx';

/** Whether the signed-in user holds a global ability (to show or hide actions). */
export function useCan(name: AbilityName): boolean {
  const session = useSession();
  return can(abilitySubject(session), name);
}

/** Markets as small badges (lists and read-only screens). */
export function MarketBadges({ markets }: { markets: { id: number; iso_code: string; international_name: string }[] }) {
  const { t } = useTranslation();
  if (!markets.length) return <Text c="dimmed">{t('admin.none')}</Text>;
  return (
    <Group gap={4}>
      {markets.map((m) => (
        <Badge key={m.id} variant="light" tt="none" title={m.international_name}>
          {m.iso_code}
        </Badge>
      ))}
    </Group>
  );
}

const LOGOTYPE_TYPES = ['image/png', 'image/jpeg'];

/**
 * A record's logotype: the image, an upload (png or jpg; PUT multipart `file`) and removal, through
 * the record's `logotype` (declared in its feature's api file: routes and what a change refreshes).
 * The server judges the content; the type check here only spares a round trip.
 */
export function LogotypeField({
  id,
  logotype,
  hasLogotype,
}: {
  /** The record's id, the routes' `{id}`. */
  id: number;
  logotype: LogotypeApi;
  hasLogotype: boolean;
}) {
  const { t } = useTranslation();
  const [version, setVersion] = useState(0);
  const upload = logotype.useUpload();
  const remove = logotype.useRemove();

  const onFile = async (file: File | null) => {
    if (!file) return;
    if (!LOGOTYPE_TYPES.includes(file.type)) return void feedback.error(t('admin.logotype.wrong_type'));
    try {
      await upload.mutateAsync({ id, file });
      feedback.toast(t('admin.logotype.uploaded'), { color: 'teal' });
      setVersion((v) => v + 1);
    } catch (error) {
      void feedback.errorOf(error);
    }
  };
  const onRemove = async () => {
    try {
      await remove.mutateAsync(id);
      feedback.toast(t('admin.logotype.removed'), { color: 'teal' });
    } catch (error) {
      void feedback.errorOf(error);
    }
  };

  return (
    <Stack gap="xs">
      <Text fw={500} size="sm">
        {t('admin.market.logotype')}
      </Text>
      {hasLogotype ? (
        <Image src={`${logotype.url(id)}?v=${version}`} alt={t('admin.market.logotype')} maw={200} mah={120} fit="contain" data-testid="logotype" />
      ) : (
        <Text c="dimmed" size="sm">
          {t('admin.market.no_logotype')}
        </Text>
      )}
      <Group align="flex-end">
        <FileInput
          label={t('admin.logotype.upload')}
          accept="image/png,image/jpeg"
          value={null}
          onChange={(file) => void onFile(file)}
          disabled={upload.isPending}
          w={320}
          clearable={false}
        />
        {hasLogotype && (
          <Button variant="subtle" color="red" onClick={() => void onRemove()} loading={remove.isPending}>
            {t('admin.logotype.remove')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
