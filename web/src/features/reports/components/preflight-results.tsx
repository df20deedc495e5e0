import { SeverityBadge } from './status-badges.tsx';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Anchor, Group, Stack, Text } from '@mantine/core';
import type { Preflight } from '@mss/contracts/preflight';
import { formatDateTime } from '../../../lib/dates.ts';

export function PreflightResults({ preflight }: { preflight: Preflight | null }) {
  const { t } = useTranslation();
  if (!preflight) return <Text c="dimmed">{t('reporting.preflight.not_run')}</Text>;
  return (
    <Stack gap="xs" data-testid="preflight">
      <Group gap="xs">
        <SeverityBadge severity={preflight.severity} />
        <Text size="sm" c="dimmed">
          {formatDateTime(preflight.created_at)}
        </Text>
      </Group>
      {groupFindings(preflight.results).map((group, i) =>
        group.results.length < GROUP_FROM ? (
          group.results.map((result, j) => <Finding key={`${i}-${j}`} result={result} />)
        ) : (
          <FindingGroup key={i} group={group} />
        ),
      )}
    </Stack>
  );
}

type PreflightResult = Preflight['results'][number];

/** Findings of one kind this many or more are one line with a count, opened on demand. */
const GROUP_FROM = 4;

/** The findings by kind (message key and severity), in the order their first one came. */
function groupFindings(results: PreflightResult[]): { key: string; severity: number; results: PreflightResult[] }[] {
  const groups: { key: string; severity: number; results: PreflightResult[] }[] = [];
  for (const result of results) {
    const found = groups.find((g) => g.key === result.key && g.severity === result.severity);
    if (found) found.results.push(result);
    else groups.push({ key: result.key, severity: result.severity, results: [result] });
  }
  return groups;
}

function Finding({ result }: { result: PreflightResult }) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <SeverityBadge severity={result.severity} />
      <Text size="sm">{result.message}</Text>
    </Group>
  );
}

/** "21 codes reported in 2026-09 are missing now. Show": repeated findings as one line, each listed when opened. */
function FindingGroup({ group }: { group: { key: string; severity: number; results: PreflightResult[] } }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const first = group.results[0]!;
  const summary = t(`reporting.preflight.group.${group.key.replace(/^preflight\./, '')}`, {
    count: group.results.length,
    period: String(first.params.period ?? ''),
    defaultValue: t('reporting.preflight.group.other', { count: group.results.length }),
  });
  return (
    <Stack gap={4} data-testid="preflight-group">
      <Group gap="xs" wrap="nowrap" align="flex-start">
        <SeverityBadge severity={group.severity} />
        <Text size="sm" fw={600}>
          {summary}{' '}
          <Anchor component="button" type="button" size="sm" onClick={() => setOpen((o) => !o)} aria-expanded={open}>
            {open ? t('reporting.preflight.hide') : t('reporting.preflight.show')}
          </Anchor>
        </Text>
      </Group>
      {open && (
        <Stack gap={2} pl="xl">
          {group.results.map((result, i) => (
            <Text key={i} size="sm">
              {result.message}
            </Text>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
