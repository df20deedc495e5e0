import { resourceApi } from '../../../api/resource.ts';

export const currencyConversionsApi = resourceApi({
  key: 'currency_conversions',
  list: '/currency_conversions',
  one: '/currency_conversions/{id}',
  create: '/currency_conversions',
  item: '/currency_conversions/{id}',
});
