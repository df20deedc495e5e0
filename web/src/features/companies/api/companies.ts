import { logotypeApi } from '../../../api/logotype.ts';
import { resourceApi } from '../../../api/resource.ts';

/** One company (edit screen) and writes: /companies/{id}. */
export const companiesApi = resourceApi({ key: 'companies', list: '/companies', one: '/companies/{id}', create: '/companies', item: '/companies/{id}' });

/** The list of /companies: every company, disabled ones too, by name (GET /companies/companies-with-disabled). */
export const companyListApi = resourceApi({
  key: 'companies',
  list: '/companies/companies-with-disabled',
  one: '/companies/{id}',
  create: '/companies',
  item: '/companies/{id}',
});

/** A company's logotype (edit screen): every company key is fetched again after a change. */
export const companyLogotype = logotypeApi({ read: '/companies/{id}/logotype', write: '/companies/{id}/logotype', invalidates: companiesApi.keys.all });
