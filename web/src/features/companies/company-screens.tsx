import { useTranslation } from 'react-i18next';
import { Alert, Badge, MultiSelect, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import type { Company, CompanyListItem } from '@mss/contracts/admin';
import type { Role } from '@mss/contracts/enums';
import type { ScreenProps } from '../../lib/screen.ts';
import { AdminPage, FormActions, FormCard, RecordLoader } from '../../components/page.tsx';
import { codeLabel, marketLabel, optionQueries, useOptions } from '../../api/options.ts';
import { useEnumLabel, useEnumOptions } from '../../lib/enum-options.ts';
import { LogotypeField, MarketBadges } from '../../components/fields.tsx';
import { useIsSuperAdmin } from '../../components/organization-field.tsx';
import { useRecordForm } from '../../lib/record-form.ts';
import { RecordListPage } from '../../components/record-list.tsx';
import { companiesApi as api, companyListApi, companyLogotype } from './api/companies.ts';
import { formatDate } from '../../lib/dates.ts';

const BASE = '/companies';
const FIELDS = ['name', 'disabled_at', 'organization_ids', 'market_ids', 'code_ids', 'user_ids'] as const;
/** Roles a company market may carry: organization-wide roles (admin, super-admin) belong to users. */
const COMPANY_MARKET_ROLES: readonly Role[] = ['reporter', 'viewer', 'cluster-viewer', 'just-stats', 'company', 'market-admin', 'cluster-admin'];

const isDisabled = (company: { disabled_at: string | null }) => company.disabled_at !== null && new Date(company.disabled_at) <= new Date();

export function CompanyListScreen({ title }: ScreenProps) {
  const { t } = useTranslation();
  return (
    <RecordListPage
      title={title}
      base={BASE}
      api={api}
      nameOf={(row) => row.name}
      query={companyListApi.listQuery}
      defaultSort={{ sort: 'name', direction: 'asc' }}
      columns={[
        { key: 'name', label: t('admin.field.name'), sortable: true },
        { key: 'markets', label: t('admin.field.markets'), render: (row) => <MarketBadges markets={row.markets} /> },
        {
          key: 'disabled_at',
          label: t('admin.company.status'),
          sortable: true,
          render: (row: CompanyListItem) =>
            row.disabled_at === null ? (
              <Badge color="teal" variant="light">
                {t('admin.company.enabled')}
              </Badge>
            ) : (
              <Badge color={isDisabled(row) ? 'gray' : 'yellow'} variant="light" tt="none">
                {t('admin.company.disabled')} {formatDate(row.disabled_at)}
              </Badge>
            ),
        },
      ]}
    />
  );
}

interface Values {
  name: string;
  disabled_at: string;
  organization_ids: number[];
  market_ids: number[];
  /** Roles per market id. */
  market_roles: Record<string, string[]>;
  code_ids: number[];
  user_ids: number[];
}

/** The company's users with their markets and roles, as the server gives them. */
function CompanyUsers({ company }: { company: Company }) {
  const { t } = useTranslation();
  const roleLabel = useEnumLabel();
  return (
    <Paper withBorder radius="md" p="lg" maw={820}>
      <Stack gap="sm">
        <Title order={2} fz="h4">
          {t('admin.company.users')}
        </Title>
        {company.users.length ? (
          <Table aria-label={t('admin.company.users')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('admin.field.name')}</Table.Th>
                <Table.Th>{t('admin.user.email')}</Table.Th>
                <Table.Th>{t('admin.company.user_markets')}</Table.Th>
                <Table.Th>{t('admin.company.user_roles')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {company.users.map((user) => (
                <Table.Tr key={user.id}>
                  <Table.Td>{user.name}</Table.Td>
                  <Table.Td>{user.email}</Table.Td>
                  <Table.Td>
                    <MarketBadges markets={user.markets} />
                  </Table.Td>
                  <Table.Td>{user.roles.map((r) => roleLabel('role', r.name)).join(', ') || t('admin.none')}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : (
          <Text c="dimmed">{t('common.empty')}</Text>
        )}
      </Stack>
    </Paper>
  );
}

function CompanyForm({ company }: { company?: Company }) {
  const { t } = useTranslation();
  const roleOptions = useEnumOptions<string>('role').filter((o) => COMPANY_MARKET_ROLES.includes(o.value as Role));
  // The request (organization_ids) depends on it.
  const superAdmin = useIsSuperAdmin();
  const initialValues: Values = {
    name: company?.name ?? '',
    disabled_at: company?.disabled_at?.slice(0, 10) ?? '',
    organization_ids: company?.organizations.map((o) => o.id) ?? [],
    market_ids: company?.company_markets.map((cm) => cm.market_id) ?? [],
    market_roles: Object.fromEntries((company?.company_markets ?? []).map((cm) => [String(cm.market_id), cm.roles.map((r) => r.name)])),
    code_ids: company?.codes.map((c) => c.id) ?? [],
    user_ids: company?.users.map((u) => u.id) ?? [],
  };
  const { form, submit, saving, onDelete } = useRecordForm({
    api,
    record: company,
    back: BASE,
    fields: FIELDS,
    aliases: { markets: 'market_ids' },
    model: t('admin.company.model'),
    initialValues,
    toInput: (values) => ({
      name: values.name.trim(),
      disabled_at: values.disabled_at ? `${values.disabled_at}T00:00:00.000Z` : null,
      organization_ids: superAdmin ? values.organization_ids : [],
      markets: values.market_ids.map((id) => ({ market_id: id, roles: (values.market_roles[String(id)] ?? []) as Role[] })),
      code_ids: values.code_ids,
      user_ids: values.user_ids,
    }),
    nameOf: (record) => record.name,
    // A new company goes straight to its edit screen (logotype, users).
    savedTo: (record) => (company ? BASE : `${BASE}/${record.id}`),
  });
  const { options: organizations } = useOptions(optionQueries.organizations(), (o) => o.name, superAdmin);
  const markets = useOptions(optionQueries.markets(), marketLabel);
  const codes = useOptions(optionQueries.codes(), codeLabel);
  const users = useOptions(optionQueries.users(), (u) => `${u.name} (${u.email})`);
  // A super-admin assigns markets and codes of the company's organizations.
  const inOrganizations = (organizationId: number) => !superAdmin || form.values.organization_ids.includes(organizationId);
  const marketOptions = markets.rows.filter((m) => inOrganizations(m.organization.id)).map((m) => ({ value: m.id, label: marketLabel(m) }));
  const codeOptions = codes.rows.filter((c) => inOrganizations(c.organization.id)).map((c) => ({ value: c.id, label: codeLabel(c) }));
  // The company's own users stay choosable even when the user list cannot be read.
  const userOptions = [
    ...users.options,
    ...(company?.users ?? []).filter((u) => !users.rows.some((r) => r.id === u.id)).map((u) => ({ value: u.id, label: `${u.name} (${u.email})` })),
  ];
  const marketName = (id: number) =>
    markets.rows.find((m) => m.id === id)?.international_name ??
    company?.company_markets.find((cm) => cm.market_id === id)?.market.international_name ??
    String(id);
  // Shared with organizations the user does not administer: what the company is stays read-only.
  const locked = company ? !company.company_editable : false;

  return (
    <FormCard>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {locked && (
            <Alert color="blue" variant="light" title={t('admin.company.shared_title')}>
              {t('admin.company.shared_body')}
            </Alert>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t('admin.field.name')} required disabled={locked} {...form.getInputProps('name')} />
            <TextInput
              type="date"
              label={t('admin.company.disabled_at')}
              description={t('admin.company.disabled_help')}
              disabled={locked}
              {...form.getInputProps('disabled_at')}
            />
          </SimpleGrid>
          {superAdmin && (
            <MultiSelect<number> label={t('admin.field.organizations')} data={organizations} required searchable {...form.getInputProps('organization_ids')} />
          )}
          <MultiSelect<number> label={t('admin.field.markets')} data={marketOptions} searchable clearable {...form.getInputProps('market_ids')} />
          {form.values.market_ids.map((id) => (
            <MultiSelect
              key={id}
              label={t('admin.company.market_roles', { market: marketName(id) })}
              data={roleOptions}
              searchable
              clearable
              ml="md"
              {...form.getInputProps(`market_roles.${id}`)}
              value={form.values.market_roles[String(id)] ?? []}
            />
          ))}
          <MultiSelect<number> label={t('admin.company.codes')} data={codeOptions} searchable clearable {...form.getInputProps('code_ids')} />
          <MultiSelect<number> label={t('admin.company.users')} data={userOptions} searchable clearable {...form.getInputProps('user_ids')} />
          {company && !locked && <LogotypeField id={company.id} logotype={companyLogotype} hasLogotype={company.has_logotype} />}
          <FormActions saving={saving} cancelTo={BASE} onDelete={onDelete} />
        </Stack>
      </form>
    </FormCard>
  );
}

export function CompanyAddScreen({ title }: ScreenProps) {
  return (
    <AdminPage title={title} back={BASE}>
      <CompanyForm />
    </AdminPage>
  );
}

export function CompanyEditScreen({ title, params }: ScreenProps) {
  return (
    <AdminPage title={title} back={BASE}>
      <RecordLoader key={params.id} query={api.oneQuery(Number(params.id))}>
        {(company) => (
          <Stack gap="md">
            <CompanyForm company={company} />
            <CompanyUsers company={company} />
          </Stack>
        )}
      </RecordLoader>
    </AdminPage>
  );
}
