import { useTranslation } from 'react-i18next';
import { SimpleGrid, Stack, Switch, TextInput, Textarea } from '@mantine/core';
import type { InformationModal } from '@mss/contracts/admin';
import type { ScreenProps } from '../../lib/screen.ts';
import { AdminPage, FormActions, FormCard, RecordLoader } from '../../components/page.tsx';
import { emptyToNull } from '../../lib/form.ts';
import { useRecordForm } from '../../lib/record-form.ts';
import { informationModalsApi as api, modalOrganizationQuery } from './api/information-modals.ts';

const FIELDS = ['organization_id', 'title', 'body', 'active', 'starts_on', 'ends_on'] as const;

/** An organization's information modal; its screens return to the organization. */
function InformationModalForm({ organizationId, modal }: { organizationId: number; modal?: InformationModal }) {
  const { t } = useTranslation();
  const back = `/organizations/${organizationId}`;
  const { form, submit, saving, onDelete } = useRecordForm({
    api,
    record: modal,
    back,
    fields: FIELDS,
    model: t('admin.information_modal.model'),
    initialValues: {
      title: modal?.title ?? '',
      body: modal?.body ?? '',
      active: modal?.active ?? true,
      starts_on: modal?.starts_on?.slice(0, 10) ?? '',
      ends_on: modal?.ends_on?.slice(0, 10) ?? '',
    },
    toInput: (values) => ({
      organization_id: organizationId,
      title: values.title.trim(),
      body: values.body,
      active: values.active,
      starts_on: emptyToNull(values.starts_on),
      ends_on: emptyToNull(values.ends_on),
    }),
    nameOf: (record) => record.title,
  });
  return (
    <FormCard>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label={t('admin.information_modal.title')} required {...form.getInputProps('title')} />
          <Textarea label={t('admin.information_modal.body')} required autosize minRows={5} maxRows={20} {...form.getInputProps('body')} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput type="date" label={t('admin.information_modal.starts_on')} {...form.getInputProps('starts_on')} />
            <TextInput type="date" label={t('admin.information_modal.ends_on')} {...form.getInputProps('ends_on')} />
          </SimpleGrid>
          <Switch label={t('admin.information_modal.active')} {...form.getInputProps('active', { type: 'checkbox' })} />
          <FormActions saving={saving} cancelTo={back} onDelete={onDelete} />
        </Stack>
      </form>
    </FormCard>
  );
}

export function InformationModalAddScreen({ title, params }: ScreenProps) {
  const organizationId = Number(params.organizationId);
  return (
    <AdminPage title={title} back={`/organizations/${organizationId}`}>
      {/* Only for an organization the user administers: another one is "not found", not a form that cannot be saved. */}
      <RecordLoader key={organizationId} query={modalOrganizationQuery(organizationId)}>
        {(organization) => <InformationModalForm organizationId={organization.id} />}
      </RecordLoader>
    </AdminPage>
  );
}

export function InformationModalEditScreen({ title, params }: ScreenProps) {
  const organizationId = Number(params.organizationId);
  return (
    <AdminPage title={title} back={`/organizations/${organizationId}`}>
      <RecordLoader key={params.id} query={api.oneQuery(Number(params.id))}>
        {(modal) => <InformationModalForm organizationId={organizationId} modal={modal} />}
      </RecordLoader>
    </AdminPage>
  );
}
