import { useTranslation } from 'react-i18next';
import { Stack, TextInput } from '@mantine/core';
import type { Cluster } from '@mss/contracts/admin';
import type { ScreenProps } from '../../lib/screen.ts';
import { FormActions, FormCard, recordScreens } from '../../components/page.tsx';
import { marketLabel, optionQueries, useOptions } from '../../api/options.ts';
import { MarketBadges } from '../../components/fields.tsx';
import { OrganizationLinks, useIsSuperAdmin } from '../../components/organization-field.tsx';
import { useRecordForm } from '../../lib/record-form.ts';
import { RecordListPage } from '../../components/record-list.tsx';
import { clustersApi as api } from './api/clusters.ts';

const BASE = '/clusters';
const FIELDS = ['organization_id', 'name', 'market_ids'] as const;

export function ClusterListScreen({ title }: ScreenProps) {
  const { t } = useTranslation();
  const superAdmin = useIsSuperAdmin();
  return (
    <RecordListPage
      title={title}
      base={BASE}
      api={api}
      nameOf={(row) => row.name}
      query={api.listQuery}
      organizationFilter
      defaultSort={{ sort: 'name', direction: 'asc' }}
      columns={[
        { key: 'name', label: t('admin.field.name'), sortable: true },
        { key: 'markets', label: t('admin.field.markets'), render: (row) => <MarketBadges markets={row.markets} /> },
        ...(superAdmin ? [{ key: 'organization', label: t('admin.field.organization'), render: (row: Cluster) => row.organization.name }] : []),
      ]}
    />
  );
}

function ClusterForm({ cluster }: { cluster?: Cluster }) {
  const { t } = useTranslation();
  const { form, submit, saving, onDelete, superAdmin, organizationId } = useRecordForm({
    api,
    record: cluster,
    back: BASE,
    fields: FIELDS,
    model: t('admin.cluster.model'),
    initialValues: { organization_id: cluster?.organization.id ?? null, name: cluster?.name ?? '', market_ids: cluster?.markets.map((m) => m.id) ?? [] },
    toInput: (values) => ({ name: values.name.trim(), market_ids: values.market_ids }),
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
            fixed={!!cluster}
            links={form.getInputProps('market_ids')}
            label={t('admin.field.markets')}
            options={markets}
          >
            <TextInput label={t('admin.field.name')} required {...form.getInputProps('name')} />
          </OrganizationLinks>
          <FormActions saving={saving} cancelTo={BASE} onDelete={onDelete} />
        </Stack>
      </form>
    </FormCard>
  );
}

export const { AddScreen: ClusterAddScreen, EditScreen: ClusterEditScreen } = recordScreens(BASE, api.oneQuery, (cluster) => <ClusterForm cluster={cluster} />);
