import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Button, Group, Image, Paper, Select, SimpleGrid, Stack, Table, TextInput } from '@mantine/core';
import type { Market } from '@mss/contracts/admin';
import type { ScreenProps } from '../../lib/screen.ts';
import { AddButton, AdminPage, DeleteButton, EditLink, FormActions, FormCard, RecordLoader, useDeleteRecord, recordScreens } from '../../components/page.tsx';
import { optionQueries, useOptions } from '../../api/options.ts';
import { DataTable } from '../../components/data-table.tsx';
import { LogotypeField, useCan } from '../../components/fields.tsx';
import { OrganizationSelect, useIsSuperAdmin } from '../../components/organization-field.tsx';
import { useRecordForm } from '../../lib/record-form.ts';
import { marketLogotype, marketViewApi, marketsApi as api } from './api/markets.ts';

const BASE = '/markets';
const FIELDS = ['organization_id', 'international_name', 'local_name', 'iso_code', 'currency_id'] as const;

export function MarketListScreen({ title }: ScreenProps) {
  const { t } = useTranslation();
  const superAdmin = useIsSuperAdmin();
  const canManage = useCan('manage-markets');
  const remove = useDeleteRecord(api.remove, api.keys.all);
  return (
    <AdminPage title={title} actions={canManage ? <AddButton to={`${BASE}/add`} /> : undefined}>
      <DataTable
        label={title}
        query={api.listQuery}
        organizationFilter
        defaultSort={{ sort: 'international_name', direction: 'asc' }}
        columns={[
          { key: 'international_name', label: t('admin.market.international_name'), sortable: true },
          { key: 'local_name', label: t('admin.market.local_name'), sortable: true },
          { key: 'iso_code', label: t('admin.field.iso_code'), sortable: true },
          { key: 'currency', label: t('admin.market.currency'), render: (row) => row.currency?.iso_code ?? t('admin.none') },
          ...(superAdmin ? [{ key: 'organization', label: t('admin.field.organization'), render: (row: Market) => row.organization.name }] : []),
        ]}
        rowActions={(row) => (
          <>
            <Button component={Link} to={`${BASE}/view/${row.id}`} size="xs" variant="subtle">
              {t('admin.view')}
            </Button>
            {canManage && <EditLink to={`${BASE}/${row.id}`} />}
            {canManage && <DeleteButton onClick={() => void remove(row.id, row.international_name)} />}
          </>
        )}
      />
    </AdminPage>
  );
}

interface Values {
  organization_id: number | null;
  international_name: string;
  local_name: string;
  iso_code: string;
  currency_id: number | null;
}

function MarketForm({ market }: { market?: Market }) {
  const { t } = useTranslation();
  const { options: currencies } = useOptions(optionQueries.currencies(), (c) => `${c.iso_code} – ${c.name}`);
  const initialValues: Values = {
    organization_id: market?.organization.id ?? null,
    international_name: market?.international_name ?? '',
    local_name: market?.local_name ?? '',
    iso_code: market?.iso_code ?? '',
    currency_id: market?.currency?.id ?? null,
  };
  const { form, submit, saving, onDelete } = useRecordForm({
    api,
    record: market,
    back: BASE,
    fields: FIELDS,
    model: t('admin.market.model'),
    initialValues,
    toInput: (values) => ({
      international_name: values.international_name.trim(),
      local_name: values.local_name.trim(),
      iso_code: values.iso_code.trim().toUpperCase(),
      currency_id: values.currency_id,
    }),
    nameOf: (record) => record.international_name,
  });
  return (
    <FormCard>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <OrganizationSelect {...form.getInputProps('organization_id')} disabled={!!market} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t('admin.market.international_name')} required {...form.getInputProps('international_name')} />
            <TextInput label={t('admin.market.local_name')} required {...form.getInputProps('local_name')} />
            <TextInput label={t('admin.field.iso_code')} required maxLength={3} {...form.getInputProps('iso_code')} />
            <Select<number> label={t('admin.market.currency')} data={currencies} searchable clearable {...form.getInputProps('currency_id')} />
          </SimpleGrid>
          {market && <LogotypeField id={market.id} logotype={marketLogotype} hasLogotype={market.has_logotype} />}
          <FormActions saving={saving} cancelTo={BASE} onDelete={onDelete} />
        </Stack>
      </form>
    </FormCard>
  );
}

export const { AddScreen: MarketAddScreen, EditScreen: MarketEditScreen } = recordScreens(BASE, api.oneQuery, (market) => <MarketForm market={market} />);

/** Read-only (view-markets). */
export function MarketViewScreen({ title, params }: ScreenProps) {
  const { t } = useTranslation();
  const canManage = useCan('manage-markets');
  return (
    <AdminPage title={title} back={BASE} actions={canManage ? <EditLink to={`${BASE}/${params.id}`} /> : undefined}>
      <RecordLoader key={params.id} query={marketViewApi.oneQuery(Number(params.id))}>
        {(market) => (
          <Paper withBorder radius="md" p="lg" maw={820}>
            <Group align="flex-start" justify="space-between">
              <Table variant="vertical" withTableBorder maw={560} aria-label={title}>
                <Table.Tbody>
                  {[
                    [t('admin.market.international_name'), market.international_name],
                    [t('admin.market.local_name'), market.local_name],
                    [t('admin.field.iso_code'), market.iso_code],
                    [t('admin.market.currency'), market.currency?.iso_code ?? t('admin.none')],
                    [t('admin.field.organization'), market.organization.name],
                  ].map(([label, value]) => (
                    <Table.Tr key={label}>
                      <Table.Th w={200}>{label}</Table.Th>
                      <Table.Td>{value}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
              {market.has_logotype && <Image src={marketLogotype.url(market.id)} alt={t('admin.market.logotype')} maw={200} mah={120} fit="contain" />}
            </Group>
          </Paper>
        )}
      </RecordLoader>
    </AdminPage>
  );
}
