import type { Company, CompanyInput, CompanyListItem } from '@mss/contracts/admin';

import { resourceApi } from '../../../api/resource.ts';

/** One company (edit screen) and writes: /companies/{id}. */
export const companiesApi = resourceApi<Company, CompanyInput>({ key: 'companies', path: 'companies' });

/** The list of /companies: every company, disabled ones too, by name (GET /companies/companies-with-disabled). */
export const companyListApi = resourceApi<CompanyListItem, CompanyInput>({
  key: 'companies',
  path: 'companies',
  listPath: 'companies/companies-with-disabled',
});
