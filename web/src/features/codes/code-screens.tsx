import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Badge, Button, Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import type { Code, CodeInput } from '@mss/contracts/admin';
import type { ScreenProps } from '../../lib/screen.ts';
import { AddButton, AdminPage, DeleteButton, EditLink, FormActions, FormCard, useDeleteRecord, recordScreens } from '../../components/page.tsx';
import { marketLabel, optionQueries, useOptions } from '../../api/options.ts';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { useEnumLabel, useEnumOptions } from '../../lib/enum-options.ts';
import { MarketBadges, useCan } from '../../components/fields.tsx';
import { OrganizationLinks, useIsSuperAdmin } from '../../components/organization-field.tsx';
import { useRecordForm } from '../../lib/record-form.ts';
import { codesApi as api } from './api/codes.ts';

const BASE = '/codes';
const FIELDS = ['organization_id', 'code', 'name', 'disabled_status', 'market_ids'] as const;

function useCodeActions() {
  const remove = useDeleteRecord(api.remove, api.keys.all);
  return (row: Code) => (
    <>
      <EditLink to={`${BASE}/${row.id}`} />
      <DeleteButton onClick={() => void remove(row.id, `${row.code} ${row.name}`)} />
    </>
  );
}

/** /codes: every code with its status, section and groups (view-codes or manage-codes). */
export function CodeListScreen({ title }: ScreenProps) {
  const { t } = useTranslation();
  const canManage = useCan('manage-codes');
  const superAdmin = useIsSuperAdmin();
  const enumLabel = useEnumLabel();
  const actions = useCodeActions();
  const columns: Column<Code>[] = [
    { key: 'code', label: t('admin.code.code'), sortable: true },
    { key: 'name', label: t('admin.field.name'), sortable: true },
    { key: 'disabled_status', label: t('admin.code.disabled_status'), sortable: true, render: (row) => enumLabel('code_disabled_status', row.disabled_status) },
    { key: 'section', label: t('admin.code.section'), render: (row) => row.section?.name ?? t('admin.none') },
    {
      key: 'groups',
      label: t('admin.code.groups'),
      render: (row) =>
        row.groups.length ? (
          <Group gap={4}>
            {row.groups.map((g) => (
              <Badge key={g.id} variant="outline" tt="none">
                {g.title}
              </Badge>
            ))}
          </Group>
        ) : (
          <Text c="dimmed">{t('admin.none')}</Text>
        ),
    },
    { key: 'markets', label: t('admin.field.markets'), render: (row) => <MarketBadges markets={row.markets} /> },
    ...(superAdmin ? [{ key: 'organization', label: t('admin.field.organization'), render: (row: Code) => row.organization.name }] : []),
  ];
  return (
    <AdminPage
      title={title}
      actions={
        canManage ? (
          <>
            <Button component={Link} to={`${BASE}/manage`} variant="default">
              {t('title.codes_manage')}
            </Button>
            <AddButton to={`${BASE}/add`} />
          </>
        ) : undefined
      }
    >
      <DataTable
        label={title}
        query={api.listQuery}
        organizationFilter
        defaultSort={{ sort: 'code', direction: 'asc' }}
        columns={columns}
        rowActions={canManage ? actions : undefined}
      />
    </AdminPage>
  );
}

/** /codes/manage: name and code, with the edit and delete actions (manage-codes). */
export function CodeManageScreen({ title }: ScreenProps) {
  const { t } = useTranslation();
  const actions = useCodeActions();
  return (
    <AdminPage title={title} actions={<AddButton to={`${BASE}/add`} />}>
      <DataTable
        label={title}
        query={api.listQuery}
        organizationFilter
        defaultSort={{ sort: 'name', direction: 'asc' }}
        columns={[
          { key: 'name', label: t('admin.field.name'), sortable: true },
          { key: 'code', label: t('admin.code.code'), sortable: true },
        ]}
        rowActions={actions}
      />
    </AdminPage>
  );
}

interface Values {
  organization_id: number | null;
  code: string;
  name: string;
  disabled_status: string;
  market_ids: number[];
}

function CodeForm({ code }: { code?: Code }) {
  const { t } = useTranslation();
  const statuses = useEnumOptions<number>('code_disabled_status').map((o) => ({ value: String(o.value), label: o.label }));
  const initialValues: Values = {
    organization_id: code?.organization.id ?? null,
    code: code?.code ?? '',
    name: code?.name ?? '',
    disabled_status: String(code?.disabled_status ?? 0),
    market_ids: code?.markets.map((m) => m.id) ?? [],
  };
  const { form, submit, saving, onDelete, superAdmin, organizationId } = useRecordForm({
    api,
    record: code,
    back: BASE,
    fields: FIELDS,
    model: t('admin.code.model'),
    initialValues,
    toInput: (values) => ({
      code: values.code.trim(),
      name: values.name.trim(),
      disabled_status: Number(values.disabled_status) as CodeInput['disabled_status'],
      market_ids: values.market_ids,
    }),
    nameOf: (record) => `${record.code} ${record.name}`,
  });
  const { options: markets } = useOptions(optionQueries.markets(organizationId), marketLabel, !superAdmin || organizationId !== null);
  return (
    <FormCard>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <OrganizationLinks
            organization={form.getInputProps('organization_id')}
            onOrganization={(id) => form.setValues({ organization_id: id, market_ids: [] })}
            fixed={!!code}
            links={form.getInputProps('market_ids')}
            label={t('admin.field.markets')}
            options={markets}
          >
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label={t('admin.code.code')} required {...form.getInputProps('code')} />
              <TextInput label={t('admin.field.name')} required {...form.getInputProps('name')} />
            </SimpleGrid>
            <Select label={t('admin.code.disabled_status')} data={statuses} allowDeselect={false} {...form.getInputProps('disabled_status')} />
          </OrganizationLinks>
          {code && (
            <Text size="sm" c="dimmed">
              {t('admin.code.section')}: {code.section?.name ?? t('admin.none')} · {t('admin.code.groups')}:{' '}
              {code.groups.map((g) => g.title).join(', ') || t('admin.none')}
            </Text>
          )}
          <FormActions saving={saving} cancelTo={BASE} onDelete={onDelete} />
        </Stack>
      </form>
    </FormCard>
  );
}

export const { AddScreen: CodeAddScreen, EditScreen: CodeEditScreen } = recordScreens(BASE, api.oneQuery, (code) => <CodeForm code={code} />);
