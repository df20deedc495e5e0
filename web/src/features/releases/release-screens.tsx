import { useTranslation } from 'react-i18next';
import { SimpleGrid, Stack, TextInput, Textarea } from '@mantine/core';
import type { Release } from '@mss/contracts/admin';
import type { ScreenProps } from '../../lib/screen.ts';
import { FormActions, FormCard, recordScreens } from '../../components/page.tsx';
import { useRecordForm } from '../../lib/record-form.ts';
import { RecordListPage } from '../../components/record-list.tsx';
import { releasesApi as api } from './api/releases.ts';
import { formatDate } from '../../lib/dates.ts';

const BASE = '/releases';
const FIELDS = ['version', 'release_date', 'title', 'notes'] as const;

export function ReleaseListScreen({ title }: ScreenProps) {
  const { t } = useTranslation();
  return (
    <RecordListPage
      title={title}
      base={BASE}
      api={api}
      nameOf={(row) => row.version}
      query={api.listQuery}
      defaultSort={{ sort: 'release_date', direction: 'desc' }}
      columns={[
        { key: 'version', label: t('admin.release.version'), sortable: true },
        { key: 'release_date', label: t('admin.release.release_date'), sortable: true, render: (row) => formatDate(row.release_date) },
        { key: 'views', label: t('admin.release.views'), sortable: true, render: (row) => row.views.toLocaleString() },
      ]}
    />
  );
}

function ReleaseForm({ release }: { release?: Release }) {
  const { t } = useTranslation();
  const { form, submit, saving, onDelete } = useRecordForm({
    api,
    record: release,
    back: BASE,
    fields: FIELDS,
    model: t('admin.release.model'),
    initialValues: {
      version: release?.version ?? '',
      release_date: release?.release_date.slice(0, 10) ?? new Date().toISOString().slice(0, 10),
      title: release?.title ?? '',
      notes: release?.notes ?? '',
    },
    toInput: (values) => ({ ...values, version: values.version.trim(), title: values.title.trim() }),
    nameOf: (record) => record.version,
  });
  return (
    <FormCard>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t('admin.release.version')} required {...form.getInputProps('version')} />
            <TextInput type="date" label={t('admin.release.release_date')} required {...form.getInputProps('release_date')} />
          </SimpleGrid>
          <TextInput label={t('admin.release.title')} {...form.getInputProps('title')} />
          <Textarea label={t('admin.release.notes')} autosize minRows={6} maxRows={20} {...form.getInputProps('notes')} />
          <FormActions saving={saving} cancelTo={BASE} onDelete={onDelete} />
        </Stack>
      </form>
    </FormCard>
  );
}

export const { AddScreen: ReleaseAddScreen, EditScreen: ReleaseEditScreen } = recordScreens(BASE, api.oneQuery, (release) => <ReleaseForm release={release} />);
