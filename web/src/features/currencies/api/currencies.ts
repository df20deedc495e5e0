import { resourceApi } from '../../../api/resource.ts';

/** Currencies are shared by every organization (docs/administration.md). */
export const currenciesApi = resourceApi({
  key: 'currencies',
  list: '/admin/currencies',
  one: '/admin/currencies/{id}',
  create: '/admin/currencies',
  item: '/admin/currencies/{id}',
});
