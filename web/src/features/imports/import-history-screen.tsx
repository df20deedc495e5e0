import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQuery } from '@tanstack/react-query';
import { Button, Group, Table } from '@mantine/core';
import type { ScreenProps } from '../../lib/screen.ts';
import { AdminPage } from '../../components/page.tsx';
import { importDownloads, importQueries } from '../../api/imports.ts';
import { ImportStatusBadge, QueryState, formatDateTime, formatNumber } from '../../components/reporting.tsx';

/** /history/import — the imports of the reports the user may see, newest first. */
export function ImportHistoryScreen({ title }: ScreenProps) {
  const { t } = useTranslation();
  const query = useQuery({ ...importQueries.imports(), meta: { handlesErrors: true } });
  return (
    <AdminPage title={title}>
      <QueryState query={query} empty={(rows) => rows.length === 0}>
        {(imports) => (
          <Table.ScrollContainer minWidth={900}>
            <Table striped withTableBorder aria-label={title}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('reporting.history.when')}</Table.Th>
                  <Table.Th>{t('reporting.history.who')}</Table.Th>
                  <Table.Th>{t('reporting.company')}</Table.Th>
                  <Table.Th>{t('reporting.market')}</Table.Th>
                  <Table.Th>{t('reporting.period.title')}</Table.Th>
                  <Table.Th>{t('reporting.import.file')}</Table.Th>
                  <Table.Th>{t('reporting.status')}</Table.Th>
                  <Table.Th ta="right">{t('reporting.row_count')}</Table.Th>
                  <Table.Th ta="right">{t('reporting.import.errors')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {imports.map((item) => (
                  <Table.Tr key={item.uuid}>
                    <Table.Td>{formatDateTime(item.created_at)}</Table.Td>
                    <Table.Td>{item.user?.name ?? '–'}</Table.Td>
                    <Table.Td>{item.company.name}</Table.Td>
                    <Table.Td>{item.market.iso_code}</Table.Td>
                    <Table.Td>{item.period.title}</Table.Td>
                    <Table.Td>{item.file_name}</Table.Td>
                    <Table.Td>
                      <ImportStatusBadge status={item.status} />
                    </Table.Td>
                    <Table.Td ta="right">{formatNumber(item.row_count)}</Table.Td>
                    <Table.Td ta="right">{item.error_count || ''}</Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap" justify="flex-end">
                        <Button component="a" href={importDownloads.importFile(item.uuid)} download size="xs" variant="subtle">
                          {t('reporting.import.download_original')}
                        </Button>
                        {item.error_count > 0 && (
                          <Button component="a" href={importDownloads.errorSheet(item.uuid)} download size="xs" variant="subtle" color="red">
                            {t('reporting.import.download_errors')}
                          </Button>
                        )}
                        <Button component={Link} to={`/import/${item.report.uuid}`} size="xs" variant="light">
                          {t('reporting.open_report')}
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </QueryState>
    </AdminPage>
  );
}
