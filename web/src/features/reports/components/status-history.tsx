import { useTranslation } from 'react-i18next';
import { Stack, Table, Text } from '@mantine/core';
import type { Report } from '@mss/contracts/reports';
import { useMediaQuery } from '@mantine/hooks';
import { useEnumLabel } from '../../../lib/enum-options.ts';
import { formatDateTime } from '../../../lib/dates.ts';

export function StatusHistory({ history }: { history: Report['history'] }) {
  const { t } = useTranslation();
  const label = useEnumLabel();
  const phone = useMediaQuery('(max-width: 40em)');
  if (!history.length) return <Text c="dimmed">{t('common.empty')}</Text>;
  const change = (c: Report['history'][number]) =>
    `${c.from_status === null ? '' : `${label('report_status', c.from_status)} → `}${label('report_status', c.to_status)}`;
  if (phone)
    // A phone: one entry per change, its date on one line, not a table whose date wraps onto four.
    return (
      <Stack gap="sm" data-testid="status-history">
        {history.map((c, i) => (
          <Stack key={i} gap={0}>
            <Text size="xs" c="dimmed">
              {formatDateTime(c.created_at)} · {c.user?.name ?? '–'}
            </Text>
            <Text size="sm">{change(c)}</Text>
            {c.comment && (
              <Text size="sm" fs="italic">
                {c.comment}
              </Text>
            )}
          </Stack>
        ))}
      </Stack>
    );
  return (
    <Table withTableBorder aria-label={t('reporting.history.title')} data-testid="status-history">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('reporting.history.when')}</Table.Th>
          <Table.Th>{t('reporting.history.who')}</Table.Th>
          <Table.Th>{t('reporting.history.change')}</Table.Th>
          <Table.Th>{t('reporting.history.comment')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {history.map((entry, i) => (
          <Table.Tr key={i}>
            <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(entry.created_at)}</Table.Td>
            <Table.Td>{entry.user?.name ?? '–'}</Table.Td>
            <Table.Td>{change(entry)}</Table.Td>
            <Table.Td>{entry.comment ?? ''}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
