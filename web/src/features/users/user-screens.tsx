import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  MultiSelect,
  Paper,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import type { AdminUser, AdminUserInput } from '@mss/contracts/admin';
import { MIN_PASSWORD_LENGTH } from '@mss/contracts/constants';
import type { Role } from '@mss/contracts/enums';
import type { ScreenProps } from '../../lib/screen.ts';
import { AddButton, AdminPage, DeleteButton, EditLink, FormActions, FormCard, RecordLoader, useDeleteRecord, recordScreens } from '../../components/page.tsx';
import { marketLabel, optionQueries, useOptions } from '../../api/options.ts';
import { DataTable } from '../../components/data-table.tsx';
import { useEnumLabel, useEnumOptions } from '../../lib/enum-options.ts';
import { MarketBadges, useCan } from '../../components/fields.tsx';
import { emptyToNull, requiredMessage } from '../../lib/form.ts';
import { useIsSuperAdmin } from '../../components/organization-field.tsx';
import { useRecordForm } from '../../lib/record-form.ts';
import { usersApi as api } from './api/users.ts';
import { formatDate } from '../../lib/dates.ts';

const BASE = '/users';
const FIELDS = [
  'first_name',
  'last_name',
  'email',
  'phone',
  'locale',
  'password',
  'password_confirmation',
  'company_id',
  'organization_ids',
  'market_ids',
  'roles',
  'disabled',
] as const;

function StatusBadge({ user }: { user: AdminUser }) {
  const { t } = useTranslation();
  return (
    <>
      {user.disabled_at && (
        <Badge color="gray" variant="light">
          {t('admin.user.disabled')}
        </Badge>
      )}
      {user.other_organizations > 0 && (
        <Badge color="blue" variant="light" title={t('admin.user.shared_title')}>
          {t('admin.user.shared_badge', { count: user.other_organizations })}
        </Badge>
      )}
    </>
  );
}

/** A user who also belongs elsewhere is taken out of this organization, not deleted. */
function useRemoveUser() {
  const { t } = useTranslation();
  const remove = useDeleteRecord(api.remove, api.keys.all);
  return (user: AdminUser) =>
    remove(
      user.id,
      user.name || user.email,
      user.other_organizations > 0
        ? {
            confirm: t('admin.user.remove_confirm', { name: user.name || user.email }),
            button: t('admin.user.remove'),
            done: t('admin.user.removed', { name: user.name || user.email }),
          }
        : undefined,
    );
}

export function UserListScreen({ title }: ScreenProps) {
  const { t } = useTranslation();
  const canManage = useCan('manage-users');
  const canView = useCan('list-users');
  const label = useEnumLabel();
  const remove = useRemoveUser();
  return (
    <AdminPage title={title} actions={canManage ? <AddButton to={`${BASE}/add`} /> : undefined}>
      <DataTable
        label={title}
        query={api.listQuery}
        organizationFilter
        defaultSort={{ sort: 'last_name', direction: 'asc' }}
        columns={[
          {
            key: 'last_name',
            label: t('admin.field.name'),
            sortable: true,
            render: (row) => (
              <Group gap="xs">
                {row.name}
                <StatusBadge user={row} />
              </Group>
            ),
          },
          { key: 'email', label: t('admin.user.email'), sortable: true },
          { key: 'roles', label: t('admin.user.roles'), render: (row) => row.roles.map((r) => label('role', r.name)).join(', ') || t('admin.none') },
          { key: 'company', label: t('admin.user.company'), render: (row) => row.company?.name ?? t('admin.none') },
          { key: 'markets', label: t('admin.field.markets'), render: (row) => <MarketBadges markets={row.markets} /> },
        ]}
        rowActions={(row) => (
          <>
            {canView && (
              <Button component={Link} to={`${BASE}/view/${row.id}`} size="xs" variant="subtle">
                {t('admin.view')}
              </Button>
            )}
            {canManage && <EditLink to={`${BASE}/${row.id}`} />}
            {canManage && <DeleteButton label={row.other_organizations > 0 ? t('admin.user.remove') : undefined} onClick={() => void remove(row)} />}
          </>
        )}
      />
    </AdminPage>
  );
}

interface Values {
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  locale: string;
  password: string;
  password_confirmation: string;
  company_id: number | null;
  organization_ids: number[];
  market_ids: number[];
  roles: string[];
  disabled: boolean;
}

function UserForm({ user }: { user?: AdminUser }) {
  const { t } = useTranslation();
  const roleOptions = useEnumOptions<string>('role');
  const localeOptions = useEnumOptions<string>('locale');
  // The request (organization_ids) depends on it.
  const superAdmin = useIsSuperAdmin();
  const initialValues: Values = {
    first_name: user?.first_name ?? '',
    last_name: user?.last_name ?? '',
    email: user?.email ?? '',
    phone: user?.phone ?? '',
    locale: user?.locale ?? 'en-US',
    password: '',
    password_confirmation: '',
    company_id: user?.company?.id ?? null,
    organization_ids: user?.organizations.map((o) => o.id) ?? [],
    market_ids: user?.markets.map((m) => m.id) ?? [],
    roles: user?.roles.map((r) => r.name) ?? [],
    disabled: user ? user.disabled_at !== null : false,
  };
  const { form, submit, saving, onDelete } = useRecordForm({
    api,
    record: user,
    back: BASE,
    fields: FIELDS,
    model: t('admin.user.model'),
    initialValues,
    validate: {
      email: (value) => (value.trim() ? null : requiredMessage('email')),
      // Required when adding; when editing, empty keeps the password (docs/product.md §5: at least 8, confirmed).
      password: (value) => ((!user || value) && value.length < MIN_PASSWORD_LENGTH ? t('auth.password_too_short') : null),
      password_confirmation: (value, values) => (value !== values.password ? t('auth.passwords_not_matching') : null),
    },
    toInput: (values): AdminUserInput => ({
      first_name: values.first_name.trim(),
      last_name: values.last_name.trim(),
      email: values.email.trim(),
      phone: emptyToNull(values.phone),
      locale: values.locale as AdminUserInput['locale'],
      ...(values.password ? { password: values.password, password_confirmation: values.password_confirmation } : {}),
      company_id: values.company_id,
      organization_ids: superAdmin ? values.organization_ids : [],
      market_ids: values.market_ids,
      roles: values.roles as Role[],
      disabled: values.disabled,
    }),
    nameOf: (record) => record.name || record.email,
  });
  const { options: organizations } = useOptions(optionQueries.organizations(), (o) => o.name, superAdmin);
  const markets = useOptions(optionQueries.markets(), marketLabel);
  const { options: companies } = useOptions(optionQueries.companies(), (c) => c.name);
  const marketOptions = markets.rows
    .filter((m) => !superAdmin || form.values.organization_ids.includes(m.organization.id))
    .map((m) => ({ value: m.id, label: marketLabel(m) }));
  // What belongs to the person is read-only to an administrator of only some of their organizations.
  const locked = user ? !user.person_editable : false;
  const removeUser = useRemoveUser();
  const navigate = useNavigate();

  return (
    <FormCard>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {locked && (
            <Alert color="blue" variant="light" title={t('admin.user.shared_title')}>
              {t('admin.user.shared_body')}
            </Alert>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t('admin.user.first_name')} disabled={locked} {...form.getInputProps('first_name')} />
            <TextInput label={t('admin.user.last_name')} disabled={locked} {...form.getInputProps('last_name')} />
            <TextInput label={t('admin.user.email')} type="email" required disabled={locked} {...form.getInputProps('email')} />
            <TextInput label={t('admin.user.phone')} type="tel" disabled={locked} {...form.getInputProps('phone')} />
            <Select label={t('admin.user.locale')} data={localeOptions} allowDeselect={false} disabled={locked} {...form.getInputProps('locale')} />
            <Select<number> label={t('admin.user.company')} data={companies} searchable clearable disabled={locked} {...form.getInputProps('company_id')} />
            {!locked && (
              <>
                <PasswordInput
                  label={t('admin.user.password')}
                  required={!user}
                  description={user ? t('admin.user.password_keep') : undefined}
                  autoComplete="new-password"
                  {...form.getInputProps('password')}
                />
                <PasswordInput
                  label={t('admin.user.password_confirmation')}
                  required={!user}
                  autoComplete="new-password"
                  {...form.getInputProps('password_confirmation')}
                />
              </>
            )}
          </SimpleGrid>
          {superAdmin && (
            <MultiSelect<number> label={t('admin.field.organizations')} data={organizations} searchable {...form.getInputProps('organization_ids')} />
          )}
          <MultiSelect<number> label={t('admin.field.markets')} data={marketOptions} searchable clearable {...form.getInputProps('market_ids')} />
          <Checkbox.Group label={t('admin.user.roles')} {...form.getInputProps('roles')}>
            <SimpleGrid cols={{ base: 1, sm: 3 }} mt="xs">
              {/* Only a super-admin gives the super-admin role (the server refuses it to others). */}
              {roleOptions
                .filter((role) => superAdmin || role.value !== 'super-admin')
                .map((role) => (
                  <Checkbox key={role.value} value={role.value} label={role.label} disabled={locked} />
                ))}
            </SimpleGrid>
          </Checkbox.Group>
          <Switch label={t('admin.user.disabled')} disabled={locked} {...form.getInputProps('disabled', { type: 'checkbox' })} />
          <FormActions
            saving={saving}
            cancelTo={BASE}
            onDelete={user && user.other_organizations > 0 ? () => void removeUser(user).then((removed) => removed && navigate(BASE)) : onDelete}
            deleteLabel={user && user.other_organizations > 0 ? t('admin.user.remove') : undefined}
          />
        </Stack>
      </form>
    </FormCard>
  );
}

export const { AddScreen: UserAddScreen, EditScreen: UserEditScreen } = recordScreens(BASE, api.oneQuery, (user) => <UserForm user={user} />);

/** Read-only (list-users). */
export function UserViewScreen({ title, params }: ScreenProps) {
  const { t } = useTranslation();
  const label = useEnumLabel();
  const canManage = useCan('manage-users');
  return (
    <AdminPage title={title} back={BASE} actions={canManage ? <EditLink to={`${BASE}/${params.id}`} /> : undefined}>
      <RecordLoader key={params.id} query={api.oneQuery(Number(params.id))}>
        {(user) => (
          <Paper withBorder radius="md" p="lg" maw={820}>
            <Table variant="vertical" withTableBorder aria-label={title}>
              <Table.Tbody>
                {(
                  [
                    [t('admin.field.name'), user.name],
                    [t('admin.user.email'), user.email],
                    [t('admin.user.phone'), user.phone ?? t('admin.none')],
                    [t('admin.user.locale'), label('locale', user.locale)],
                    [t('admin.user.company'), user.company?.name ?? t('admin.none')],
                    [t('admin.field.organizations'), user.organizations.map((o) => o.name).join(', ') || t('admin.none')],
                    [t('admin.field.markets'), <MarketBadges key="markets" markets={user.markets} />],
                    [t('admin.user.roles'), user.roles.map((r) => label('role', r.name)).join(', ') || t('admin.none')],
                    [t('admin.user.status'), user.disabled_at ? `${t('admin.user.disabled')} ${formatDate(user.disabled_at)}` : t('admin.company.enabled')],
                  ] as const
                ).map(([name, value]) => (
                  <Table.Tr key={name}>
                    <Table.Th w={200}>{name}</Table.Th>
                    <Table.Td>{typeof value === 'string' ? <Text size="sm">{value}</Text> : value}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Paper>
        )}
      </RecordLoader>
    </AdminPage>
  );
}
