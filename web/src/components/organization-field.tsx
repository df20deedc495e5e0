import { useTranslation } from 'react-i18next';
import { Select, type SelectProps } from '@mantine/core';
import { useSession } from '../api/session.ts';
import { optionQueries, useOptions } from '../api/options.ts';

/** A super-admin belongs to no organization (docs/product.md §5) and names one for organization-owned records. */
export function useIsSuperAdmin(): boolean {
  const { user } = useSession();
  return user !== null && user.organization === null;
}

/** The organization filter of a super-admin's lists; nothing for an administrator. */
export function OrganizationFilter({ value, onChange }: { value: number | null; onChange: (id: number | null) => void }) {
  const { t } = useTranslation();
  const superAdmin = useIsSuperAdmin();
  const { options } = useOptions(optionQueries.organizations(), (o) => o.name, superAdmin);
  if (!superAdmin) return null;
  return (
    <Select<number>
      label={t('admin.field.organization')}
      placeholder={t('admin.list.all_organizations')}
      data={options}
      value={value}
      onChange={onChange}
      clearable
      w={{ base: '100%', sm: 260 }}
    />
  );
}

/**
 * The organization of a new record: shown to a super-admin only (an administrator's records
 * belong to their organization). Spread `form.getInputProps('organization_id')` into it.
 */
export function OrganizationSelect(props: Omit<SelectProps<number>, 'data'>) {
  const { t } = useTranslation();
  const superAdmin = useIsSuperAdmin();
  const { options } = useOptions(optionQueries.organizations(), (o) => o.name, superAdmin);
  if (!superAdmin) return null;
  return <Select<number> label={t('admin.field.organization')} data={options} required searchable {...props} />;
}
