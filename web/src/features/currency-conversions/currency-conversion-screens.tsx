import { useTranslation } from 'react-i18next';
import { formatDecimal } from '../../lib/numbers.ts';
import { Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import type { CurrencyConversion } from '@mss/contracts/admin';
import type { ScreenProps } from '../../lib/screen.ts';
import { FormActions, FormCard, recordScreens } from '../../components/page.tsx';
import { optionQueries, useOptions } from '../../api/options.ts';
import { useRecordForm } from '../../lib/record-form.ts';
import { RecordListPage } from '../../components/record-list.tsx';
import { useIsSuperAdmin } from '../../components/organization-field.tsx';
import { currencyConversionsApi as api } from './api/currency-conversions.ts';
import { formatDate } from '../../lib/dates.ts';
import { requiredMessage } from '../../lib/form.ts';

const BASE = '/currency-conversions';
const FIELDS = ['from_currency_id', 'to_currency_id', 'rate', 'valid_from'] as const;
const describe = (c: CurrencyConversion) => `${c.from_currency.iso_code} → ${c.to_currency.iso_code} (${formatDate(c.valid_from)})`;

export function CurrencyConversionListScreen({ title }: ScreenProps) {
  const { t } = useTranslation();
  const superAdmin = useIsSuperAdmin();
  return (
    <RecordListPage
      title={title}
      readOnly={!superAdmin}
      notice={t('admin.shared_master_data')}
      base={BASE}
      api={api}
      nameOf={describe}
      query={api.listQuery}
      defaultSort={{ sort: 'valid_from', direction: 'desc' }}
      columns={[
        { key: 'rate', label: t('admin.conversion.rate'), sortable: true, render: (row) => formatDecimal(row.rate) },
        { key: 'from_currency', label: t('admin.conversion.from_currency'), render: (row) => row.from_currency.iso_code },
        { key: 'to_currency', label: t('admin.conversion.to_currency'), render: (row) => row.to_currency.iso_code },
        { key: 'valid_from', label: t('admin.conversion.valid_from'), sortable: true, render: (row) => formatDate(row.valid_from) },
      ]}
    />
  );
}

interface Values {
  from_currency_id: number | null;
  to_currency_id: number | null;
  /** As typed: a decimal string, sent as it is (10 decimals are kept exactly). */
  rate: string;
  valid_from: string;
}

function CurrencyConversionForm({ conversion }: { conversion?: CurrencyConversion }) {
  const { t } = useTranslation();
  const { options: currencies } = useOptions(optionQueries.currencies(), (c) => `${c.iso_code} – ${c.name}`);
  const initialValues: Values = {
    from_currency_id: conversion?.from_currency.id ?? null,
    to_currency_id: conversion?.to_currency.id ?? null,
    rate: conversion?.rate ?? '',
    valid_from: conversion?.valid_from.slice(0, 10) ?? '',
  };
  const { form, submit, saving, onDelete } = useRecordForm({
    api,
    record: conversion,
    back: BASE,
    fields: FIELDS,
    model: t('admin.conversion.model'),
    initialValues,
    // A currency not chosen is said in the browser, in the server's words (it would answer the same).
    validate: {
      from_currency_id: (value) => (value === null ? requiredMessage('from_currency_id') : null),
      to_currency_id: (value) => (value === null ? requiredMessage('to_currency_id') : null),
    },
    toInput: (values) => ({
      from_currency_id: values.from_currency_id!,
      to_currency_id: values.to_currency_id!,
      // The locale's decimal comma is accepted as a point; the server checks the rest.
      rate: values.rate.trim().replace(',', '.'),
      valid_from: values.valid_from,
    }),
    nameOf: describe,
  });
  return (
    <FormCard>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Select<number> label={t('admin.conversion.from_currency')} data={currencies} searchable required {...form.getInputProps('from_currency_id')} />
            <Select<number> label={t('admin.conversion.to_currency')} data={currencies} searchable required {...form.getInputProps('to_currency_id')} />
          </SimpleGrid>
          <TextInput
            label={t('admin.conversion.rate')}
            description={t('admin.conversion.rate_help')}
            inputMode="decimal"
            required
            {...form.getInputProps('rate')}
          />
          <TextInput type="date" label={t('admin.conversion.valid_from')} required {...form.getInputProps('valid_from')} />
          <FormActions saving={saving} cancelTo={BASE} onDelete={onDelete} />
        </Stack>
      </form>
    </FormCard>
  );
}

export const { AddScreen: CurrencyConversionAddScreen, EditScreen: CurrencyConversionEditScreen } = recordScreens(BASE, api.oneQuery, (conversion) => (
  <CurrencyConversionForm conversion={conversion} />
));
