import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MultiSelect, Select, type SelectProps } from '@mantine/core';
import type { GetInputPropsReturnType } from '@mantine/form';
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

/**
 * A record's organization and the records of that organization it links (markets, codes): the
 * organization first (a super-admin's choice, fixed once the record exists), the record's own
 * fields (`children`), then the links, offered from the chosen organization. Choosing another
 * organization empties the links (`onOrganization` sets both): they were the other one's.
 */
export function OrganizationLinks({
  organization,
  onOrganization,
  fixed,
  links,
  label,
  options,
  children,
}: {
  organization: GetInputPropsReturnType;
  onOrganization: (id: number | null) => void;
  fixed: boolean;
  links: GetInputPropsReturnType;
  label: string;
  options: { value: number; label: string }[];
  children: ReactNode;
}) {
  return (
    <>
      <OrganizationSelect {...organization} onChange={onOrganization} disabled={fixed} />
      {children}
      <MultiSelect<number> label={label} data={options} searchable clearable {...links} />
    </>
  );
}
