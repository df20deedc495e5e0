import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { MultiSelect, NumberInput, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { CodeSection } from '@mss/contracts/admin';
import type { ScreenProps } from '../../app/screen.ts';
import { AddButton, AdminPage, DeleteButton, EditLink, FormActions, FormCard, useDeleteRecord, useSaveRecord, useSaved, recordScreens } from '../admin/admin-page.tsx';
import { marketLabel, optionQueries, useOptions } from '../admin/api/options.ts';
import { DataTable } from '../admin/data-table.tsx';
import { showSaveError } from '../admin/form.ts';
import { OrganizationSelect, useIsSuperAdmin } from '../admin/organization-field.tsx';
import { codeSectionsApi as api } from './api/code-sections.ts';

const BASE = '/code_sections';
const FIELDS = ['organization_id', 'name', 'start', 'length', 'market_ids'] as const;

export function CodeSectionListScreen({ title }: ScreenProps) {
  const { t } = useTranslation();
  const remove = useDeleteRecord(api.remove, api.keys.all);
  return (
    <AdminPage title={title} actions={<AddButton to={`${BASE}/add`} />}>
      <DataTable
        label={title}
        query={api.listQuery}
        organizationFilter
        defaultSort={{ sort: 'start', direction: 'asc' }}
        columns={[
          { key: 'id', label: t('admin.field.id'), sortable: true },
          { key: 'name', label: t('admin.field.name'), sortable: true },
          { key: 'start', label: t('admin.code_section.start'), sortable: true },
          { key: 'length', label: t('admin.code_section.length'), sortable: true },
          { key: 'organization', label: t('admin.field.organization'), render: (row) => row.organization.name },
        ]}
        rowActions={(row) => (
          <>
            <EditLink to={`${BASE}/${row.id}`} />
            <DeleteButton onClick={() => void remove(row.id, row.name)} />
          </>
        )}
      />
    </AdminPage>
  );
}

interface Values {
  organization_id: number | null;
  name: string;
  start: number | string;
  length: number | string;
  market_ids: number[];
}

function CodeSectionForm({ section }: { section?: CodeSection }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const superAdmin = useIsSuperAdmin();
  const { save, saving } = useSaveRecord(api, section?.id);
  const saved = useSaved();
  const remove = useDeleteRecord(api.remove, api.keys.all);
  const form = useForm<Values>({
    initialValues: {
      organization_id: section?.organization_id ?? null,
      name: section?.name ?? '',
      start: section?.start ?? '',
      length: section?.length ?? '',
      market_ids: section?.markets.map((m) => m.id) ?? [],
    },
  });
  const organizationId = superAdmin ? form.values.organization_id : null;
  const { options: markets } = useOptions(optionQueries.markets(organizationId), marketLabel, !superAdmin || organizationId !== null);
  const submit = form.onSubmit(async (values) => {
    try {
      const record = await save({
        ...(superAdmin && values.organization_id ? { organization_id: values.organization_id } : {}),
        name: values.name.trim(),
        start: values.start === '' ? 0 : Number(values.start),
        length: values.length === '' ? 0 : Number(values.length),
        market_ids: values.market_ids,
      });
      saved(record.name, BASE);
    } catch (error) {
      showSaveError(form, error, FIELDS, t('admin.code_section.model'));
    }
  });
  const onDelete = section ? () => void remove(section.id, section.name).then((ok) => ok && navigate(BASE)) : undefined;
  return (
    <FormCard>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <OrganizationSelect
            {...form.getInputProps('organization_id')}
            // Another organization: its own markets are offered, the chosen ones go.
            onChange={(id) => form.setValues({ organization_id: id, market_ids: [] })}
            disabled={!!section}
          />
          <TextInput label={t('admin.field.name')} required {...form.getInputProps('name')} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <NumberInput label={t('admin.code_section.start')} required allowDecimal={false} min={1} {...form.getInputProps('start')} />
            <NumberInput label={t('admin.code_section.length')} required allowDecimal={false} min={1} {...form.getInputProps('length')} />
          </SimpleGrid>
          <MultiSelect<number> label={t('admin.field.markets')} data={markets} searchable clearable {...form.getInputProps('market_ids')} />
          <FormActions saving={saving} cancelTo={BASE} onDelete={onDelete} />
        </Stack>
      </form>
    </FormCard>
  );
}

export const { AddScreen: CodeSectionAddScreen, EditScreen: CodeSectionEditScreen } = recordScreens(BASE, api.oneQuery, (section) => <CodeSectionForm section={section} />);
