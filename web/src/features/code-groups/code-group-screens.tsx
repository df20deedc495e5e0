import { useTranslation } from 'react-i18next';
import { Stack, TextInput } from '@mantine/core';
import type { CodeGroup } from '@mss/contracts/admin';
import type { ScreenProps } from '../../lib/screen.ts';
import { FormActions, FormCard, recordScreens } from '../../components/page.tsx';
import { codeLabel, optionQueries, useOptions } from '../../api/options.ts';
import { OrganizationLinks } from '../../components/organization-field.tsx';
import { useRecordForm } from '../../lib/record-form.ts';
import { RecordListPage } from '../../components/record-list.tsx';
import { codeGroupsApi as api } from './api/code-groups.ts';

const BASE = '/code_groups';
const FIELDS = ['organization_id', 'title', 'code_ids'] as const;

export function CodeGroupListScreen({ title }: ScreenProps) {
  const { t } = useTranslation();
  return (
    <RecordListPage
      title={title}
      base={BASE}
      api={api}
      nameOf={(row) => row.title}
      query={api.listQuery}
      organizationFilter
      defaultSort={{ sort: 'title', direction: 'asc' }}
      columns={[
        { key: 'id', label: t('admin.field.id'), sortable: true },
        { key: 'title', label: t('admin.code_group.title'), sortable: true },
        { key: 'organization', label: t('admin.field.organization'), render: (row) => row.organization.name },
      ]}
    />
  );
}

interface Values {
  organization_id: number | null;
  title: string;
  code_ids: number[];
}

function CodeGroupForm({ group }: { group?: CodeGroup }) {
  const { t } = useTranslation();
  const initialValues: Values = { organization_id: group?.organization.id ?? null, title: group?.title ?? '', code_ids: group?.codes.map((c) => c.id) ?? [] };
  const { form, submit, saving, onDelete, superAdmin, organizationId } = useRecordForm({
    api,
    record: group,
    back: BASE,
    fields: FIELDS,
    model: t('admin.code_group.model'),
    initialValues,
    toInput: (values) => ({ title: values.title.trim(), code_ids: values.code_ids }),
    nameOf: (record) => record.title,
  });
  const { options: codes } = useOptions(optionQueries.codes(organizationId), codeLabel, !superAdmin || organizationId !== null);
  return (
    <FormCard>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <OrganizationLinks
            organization={form.getInputProps('organization_id')}
            onOrganization={(id) => form.setValues({ organization_id: id, code_ids: [] })}
            fixed={!!group}
            links={form.getInputProps('code_ids')}
            label={t('admin.code_group.codes')}
            options={codes}
          >
            <TextInput label={t('admin.code_group.title')} required {...form.getInputProps('title')} />
          </OrganizationLinks>
          <FormActions saving={saving} cancelTo={BASE} onDelete={onDelete} />
        </Stack>
      </form>
    </FormCard>
  );
}

export const { AddScreen: CodeGroupAddScreen, EditScreen: CodeGroupEditScreen } = recordScreens(BASE, api.oneQuery, (group) => <CodeGroupForm group={group} />);
