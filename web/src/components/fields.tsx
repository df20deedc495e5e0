import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation } from '@tanstack/react-query';
import { Badge, Button, FileInput, Group, Image, Stack, Text } from '@mantine/core';
import { can } from '@mss/contracts/abilities';
import type { AbilityName } from '@mss/contracts/enums';
import { api, type RouteOf, routePath } from '../api/client.ts';
import { abilitySubject, useSession } from '../api/session.ts';
import { buildUrl } from '../api/transport.ts';
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

type LogotypeRoute<M extends 'get' | 'put' | 'delete'> = Extract<RouteOf<M>, `${string}/{id}/logotype`>;

/**
 * A record's logotype: the image, an upload (png or jpg; PUT multipart `file`) and removal.
 * The server judges the content; the type check here only spares a round trip.
 */
export function LogotypeField({
  id,
  readRoute,
  writeRoute,
  hasLogotype,
  onChanged,
}: {
  /** The record's id, the routes' `{id}`. */
  id: number;
  /** Where the image is read (GET). */
  readRoute: LogotypeRoute<'get'>;
  /** Where it is uploaded (PUT) and removed (DELETE). */
  writeRoute: LogotypeRoute<'put'> & LogotypeRoute<'delete'>;
  hasLogotype: boolean;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  const [version, setVersion] = useState(0);
  const upload = useMutation({
    mutationFn: (file: File) => {
      const body = new FormData();
      body.append('file', file);
      return api.put(writeRoute, { path: { id }, body });
    },
    meta: { handlesErrors: true },
  });
  const remove = useMutation({ mutationFn: () => api.delete(writeRoute, { path: { id } }), meta: { handlesErrors: true } });

  const onFile = async (file: File | null) => {
    if (!file) return;
    if (!LOGOTYPE_TYPES.includes(file.type)) return void feedback.error(t('admin.logotype.wrong_type'));
    try {
      await upload.mutateAsync(file);
      feedback.toast(t('admin.logotype.uploaded'), { color: 'teal' });
      setVersion((v) => v + 1);
      onChanged();
    } catch (error) {
      void feedback.errorOf(error);
    }
  };
  const onRemove = async () => {
    try {
      await remove.mutateAsync();
      feedback.toast(t('admin.logotype.removed'), { color: 'teal' });
      onChanged();
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
        <Image
          src={`${buildUrl(routePath(readRoute, { id }))}?v=${version}`}
          alt={t('admin.market.logotype')}
          maw={200}
          mah={120}
          fit="contain"
          data-testid="logotype"
        />
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
