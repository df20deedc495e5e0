import { useTranslation } from 'react-i18next';
import { NumberInput, SimpleGrid, Stack, TextInput } from '@mantine/core';
import type { CodeSection } from '@mss/contracts/admin';
import type { ScreenProps } from '../../lib/screen.ts';
import { FormActions, FormCard, recordScreens } from '../../components/page.tsx';
import { marketLabel, optionQueries, useOptions } from '../../api/options.ts';
import { OrganizationLinks } from '../../components/organization-field.tsx';
import { useRecordForm } from '../../lib/record-form.ts';
import { RecordListPage } from '../../components/record-list.tsx';
import { codeSectionsApi as api } from './api/code-sections.ts';
import { requiredMessage } from '../../lib/form.ts';

const BASE = '/code_sections';
const FIELDS = ['organization_id', 'name', 'start', 'length', 'market_ids'] as const;

export function CodeSectionListScreen({ title }: ScreenProps) {
  const { t } = useTranslation();
  return (
    <RecordListPage
      title={title}
      base={BASE}
      api={api}
      nameOf={(row) => row.name}
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
    />
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
  const initialValues: Values = {
    organization_id: section?.organization_id ?? null,
    name: section?.name ?? '',
    start: section?.start ?? '',
    length: section?.length ?? '',
    market_ids: section?.markets.map((m) => m.id) ?? [],
  };
  const { form, submit, saving, onDelete, superAdmin, organizationId } = useRecordForm({
    api,
    record: section,
    back: BASE,
    fields: FIELDS,
    model: t('admin.code_section.model'),
    initialValues,
    validate: {
      start: (value) => (value === '' ? requiredMessage('start') : null),
      length: (value) => (value === '' ? requiredMessage('length') : null),
    },
    // Sent as typed: the server refuses a start below 0 or a length below 1 and says so.
    toInput: (values) => ({
      name: values.name.trim(),
      start: Number(values.start),
      length: Number(values.length),
      market_ids: values.market_ids,
    }),
    nameOf: (record) => record.name,
  });
  const { options: markets } = useOptions(optionQueries.markets(organizationId), marketLabel, !superAdmin || organizationId !== null);
  return (
    <FormCard>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <OrganizationLinks
            organization={form.getInputProps('organization_id')}
            onOrganization={(id) => form.setValues({ organization_id: id, market_ids: [] })}
            fixed={!!section}
            links={form.getInputProps('market_ids')}
            label={t('admin.field.markets')}
            options={markets}
          >
            <TextInput label={t('admin.field.name')} required {...form.getInputProps('name')} />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              {/* Not clamped: a negative length typed is refused with a message, never quietly saved as 1. */}
              <NumberInput label={t('admin.code_section.start')} required allowDecimal={false} min={0} clampBehavior="none" {...form.getInputProps('start')} />
              <NumberInput
                label={t('admin.code_section.length')}
                required
                allowDecimal={false}
                min={1}
                clampBehavior="none"
                {...form.getInputProps('length')}
              />
            </SimpleGrid>
          </OrganizationLinks>
          <FormActions saving={saving} cancelTo={BASE} onDelete={onDelete} />
        </Stack>
      </form>
    </FormCard>
  );
}

export const { AddScreen: CodeSectionAddScreen, EditScreen: CodeSectionEditScreen } = recordScreens(BASE, api.oneQuery, (section) => (
  <CodeSectionForm section={section} />
));
