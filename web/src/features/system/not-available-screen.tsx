import { useTranslation } from 'react-i18next';
import { Table } from '@mantine/core';
import type { ScreenProps } from '../../lib/screen.ts';
import { StatusPage } from './status-page.tsx';

/** Stands in for a screen that a later release builds; it shows the route parameters it received. */
export function NotAvailableScreen({ title, params }: ScreenProps) {
  const { t } = useTranslation();
  const entries = Object.entries(params).filter(([, value]) => value !== undefined);
  return (
    <StatusPage code="…" title={title} message={t('system.not_available')} hint={t('system.not_available_hint')}>
      {entries.length > 0 && (
        <Table withTableBorder mt="sm" maw={360} aria-label={t('system.parameters')} data-testid="route-params">
          <Table.Tbody>
            {entries.map(([name, value]) => (
              <Table.Tr key={name}>
                <Table.Th>{name}</Table.Th>
                <Table.Td>{value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </StatusPage>
  );
}
