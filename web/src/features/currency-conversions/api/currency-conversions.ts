import type { CurrencyConversion, CurrencyConversionInput } from '@mss/contracts/admin';
import { resourceApi } from '../../../api/resource.ts';

export const currencyConversionsApi = resourceApi<CurrencyConversion, CurrencyConversionInput>({
  key: 'currency_conversions',
  path: 'currency_conversions',
});
