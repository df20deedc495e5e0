import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Anchor, Badge, Button, Group, NumberInput, Paper, SimpleGrid, Stack, Switch, TextInput, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { type InformationModal, ORGANIZATION_SETTINGS, type Organization, type OrganizationSettingKey } from '@mss/contracts/admin';
import { feedback } from '../../components/feedback.tsx';
import type { ScreenProps } from '../../lib/screen.ts';
import { AddButton, AdminPage, DeleteButton, EditLink, FormActions, FormCard, RecordLoader, useDeleteRecord } from '../../components/page.tsx';
import { DataTable } from '../../components/data-table.tsx';
import { emptyToNull, showSaveError } from '../../lib/form.ts';
import { useIsSuperAdmin } from '../../components/organization-field.tsx';
import { useRecordForm } from '../../lib/record-form.ts';
import { organizationsApi as api, useUpdateOrganizationSettings } from './api/organizations.ts';
import { organizationInformationModalsQuery } from '../information-modals/index.ts';
import { formatDate } from '../../lib/dates.ts';
import './texts.ts';

const BASE = '/organizations';
const FIELDS = ['name', 'mail_description'] as const;
const SETTING_KEYS = Object.keys(ORGANIZATION_SETTINGS) as OrganizationSettingKey[];

export function OrganizationListScreen({ title }: ScreenProps) {
  const { t } = useTranslation();
  const superAdmin = useIsSuperAdmin();
  const remove = useDeleteRecord(api.remove, api.keys.all);
  return (
    // Creating and deleting organizations is the super-admin's (the add route says so); an
    // administrator edits their own.
    <AdminPage title={title} actions={<AddButton to={`${BASE}/add`} />}>
      <DataTable
        label={title}
        query={api.listQuery}
        defaultSort={{ sort: 'name', direction: 'asc' }}
        columns={[
          { key: 'id', label: t('admin.field.id'), sortable: true },
          { key: 'name', label: t('admin.field.name'), sortable: true },
          { key: 'mail_description', label: t('admin.organization.mail_description'), render: (row) => row.mail_description ?? t('admin.none') },
        ]}
        rowActions={(row) => (
          <>
            <EditLink to={`${BASE}/${row.id}`} />
            {superAdmin && <DeleteButton onClick={() => void remove(row.id, row.name)} />}
          </>
        )}
      />
    </AdminPage>
  );
}

function OrganizationForm({ organization }: { organization?: Organization }) {
  const { t } = useTranslation();
  const superAdmin = useIsSuperAdmin();
  const { form, submit, saving, onDelete } = useRecordForm({
    api,
    record: organization,
    back: BASE,
    fields: FIELDS,
    model: t('admin.organization.model'),
    initialValues: { name: organization?.name ?? '', mail_description: organization?.mail_description ?? '' },
    toInput: (values) => ({ name: values.name.trim(), mail_description: emptyToNull(values.mail_description) }),
    nameOf: (record) => record.name,
    // Only a super-admin deletes organizations.
    deletable: superAdmin,
  });
  return (
    <FormCard>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label={t('admin.field.name')} required {...form.getInputProps('name')} />
          <Textarea label={t('admin.organization.mail_description')} autosize minRows={3} {...form.getInputProps('mail_description')} />
          <FormActions saving={saving} cancelTo={BASE} onDelete={onDelete} />
        </Stack>
      </form>
    </FormCard>
  );
}

function SettingsForm({ organization }: { organization: Organization }) {
  const { t } = useTranslation();
  const update = useUpdateOrganizationSettings();
  const form = useForm<Record<string, number | string>>({
    initialValues: Object.fromEntries(SETTING_KEYS.map((key) => [key, organization.settings[key] ?? ORGANIZATION_SETTINGS[key].default])),
  });
  const submit = form.onSubmit(async (values) => {
    try {
      await update.mutateAsync({ id: organization.id, settings: values });
      feedback.toast(t('admin.organization.settings_saved'), { color: 'teal' });
    } catch (error) {
      showSaveError(form, error, SETTING_KEYS, t('admin.organization.settings'));
    }
  });
  return (
    <Paper withBorder radius="md" p="lg" maw={820}>
      <form onSubmit={submit} noValidate aria-label={t('admin.organization.settings')}>
        <Stack gap="sm">
          <Title order={2} fz="h4">
            {t('admin.organization.settings')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {SETTING_KEYS.map((key) =>
              ORGANIZATION_SETTINGS[key].kind === 'switch' ? (
                // A switch is stored as 1 (on) or 0 (off), like every setting a number.
                <Switch
                  key={key}
                  label={t(`admin.organization.setting.${key}`)}
                  description={t(`admin.organization.setting.${key}_help`)}
                  styles={{ label: { fontWeight: 700 } }}
                  checked={Number(form.values[key]) === 1}
                  onChange={(event) => form.setFieldValue(key, event.currentTarget.checked ? 1 : 0)}
                  error={form.errors[key]}
                />
              ) : (
                <NumberInput
                  key={key}
                  label={t(`admin.organization.setting.${key}`)}
                  description={t(`admin.organization.setting.${key}_help`)}
                  allowDecimal={ORGANIZATION_SETTINGS[key].kind === 'number'}
                  {...form.getInputProps(key)}
                />
              ),
            )}
          </SimpleGrid>
          <Group>
            <Button type="submit" loading={update.isPending}>
              {t('admin.organization.save_settings')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/** When a modal shows (inclusive dates of the API, calendar days): "Nov 1, 2026 – Dec 1, 2026", "From …", "Until …" or "Always". */
function ShownDates({ modal }: { modal: InformationModal }) {
  const { t } = useTranslation();
  const { starts_on: from, ends_on: until } = modal;
  if (from && until) return <>{t('admin.information_modal.shown_between', { from: formatDate(from), until: formatDate(until) })}</>;
  if (from) return <>{t('admin.information_modal.shown_from', { date: formatDate(from) })}</>;
  if (until) return <>{t('admin.information_modal.shown_until', { date: formatDate(until) })}</>;
  return <>{t('admin.information_modal.shown_always')}</>;
}

function InformationModals({ organizationId }: { organizationId: number }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="md" p="lg" maw={820}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} fz="h4">
            {t('admin.organization.information_modals')}
          </Title>
          <AddButton to={`/information-modals/${organizationId}/add`} label={t('admin.organization.add_information_modal')} variant="light" size="sm" />
        </Group>
        <DataTable
          stateKey="modals"
          label={t('admin.organization.information_modals')}
          searchable={false}
          perPage={10}
          // Newest first.
          defaultSort={{ sort: 'id', direction: 'desc' }}
          query={organizationInformationModalsQuery(organizationId)}
          columns={[
            {
              key: 'title',
              label: t('admin.information_modal.title'),
              sortable: true,
              render: (modal) => (
                <Anchor component={Link} to={`/information-modals/${organizationId}/${modal.id}`}>
                  {modal.title}
                </Anchor>
              ),
            },
            { key: 'starts_on', label: t('admin.information_modal.shown'), sortable: true, render: (modal) => <ShownDates modal={modal} /> },
            {
              key: 'active',
              label: t('admin.information_modal.active'),
              sortable: true,
              render: (modal) => (
                <Badge color={modal.active ? 'teal' : 'gray'} variant="light">
                  {modal.active ? t('admin.information_modal.active') : t('admin.information_modal.inactive')}
                </Badge>
              ),
            },
          ]}
        />
      </Stack>
    </Paper>
  );
}

export function OrganizationAddScreen({ title }: ScreenProps) {
  return (
    <AdminPage title={title} back={BASE}>
      <OrganizationForm />
    </AdminPage>
  );
}

export function OrganizationEditScreen({ title, params }: ScreenProps) {
  return (
    <AdminPage title={title} back={BASE}>
      <RecordLoader key={params.id} query={api.oneQuery(Number(params.id))}>
        {(organization) => (
          <Stack gap="md">
            <OrganizationForm organization={organization} />
            <SettingsForm organization={organization} />
            <InformationModals organizationId={organization.id} />
          </Stack>
        )}
      </RecordLoader>
    </AdminPage>
  );
}
