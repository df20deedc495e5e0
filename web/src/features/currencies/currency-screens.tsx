import { useTranslation } from 'react-i18next';
import { Stack, TextInput } from '@mantine/core';
import type { Currency } from '@mss/contracts/admin';
import type { ScreenProps } from '../../lib/screen.ts';
import { FormActions, FormCard, recordScreens } from '../../components/page.tsx';
import { useRecordForm } from '../../lib/record-form.ts';
import { RecordListPage } from '../../components/record-list.tsx';
import { useIsSuperAdmin } from '../../components/organization-field.tsx';
import { currenciesApi as api } from './api/currencies.ts';

const BASE = '/currencies';
const FIELDS = ['iso_code', 'name'] as const;

export function CurrencyListScreen({ title }: ScreenProps) {
  const { t } = useTranslation();
  const superAdmin = useIsSuperAdmin();
  return (
    <RecordListPage
      title={title}
      readOnly={!superAdmin}
      notice={t('admin.shared_master_data')}
      base={BASE}
      api={api}
      nameOf={(row) => row.iso_code}
      query={api.listQuery}
      defaultSort={{ sort: 'iso_code', direction: 'asc' }}
      columns={[
        { key: 'iso_code', label: t('admin.field.iso_code'), sortable: true },
        { key: 'name', label: t('admin.field.name'), sortable: true },
      ]}
    />
  );
}

function CurrencyForm({ currency }: { currency?: Currency }) {
  const { t } = useTranslation();
  const { form, submit, saving, onDelete } = useRecordForm({
    api,
    record: currency,
    back: BASE,
    fields: FIELDS,
    model: t('admin.currency.model'),
    initialValues: { iso_code: currency?.iso_code ?? '', name: currency?.name ?? '' },
    toInput: (values) => ({ iso_code: values.iso_code.trim().toUpperCase(), name: values.name.trim() }),
    nameOf: (record) => record.iso_code,
  });
  return (
    <FormCard>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput label={t('admin.field.iso_code')} required maxLength={3} {...form.getInputProps('iso_code')} />
          {/* Optional: the server fills in the standard name of the ISO code (docs/decisions.md). */}
          <TextInput label={t('admin.field.name')} description={t('admin.currency.name_help')} {...form.getInputProps('name')} />
          <FormActions saving={saving} cancelTo={BASE} onDelete={onDelete} />
        </Stack>
      </form>
    </FormCard>
  );
}

export const { AddScreen: CurrencyAddScreen, EditScreen: CurrencyEditScreen } = recordScreens(BASE, api.oneQuery, (currency) => (
  <CurrencyForm currency={currency} />
));
