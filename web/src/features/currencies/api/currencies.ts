import type { Currency, CurrencyInput } from '@mss/contracts/admin';
import { resourceApi } from '../../../api/resource.ts';

/** Currencies are shared by every organization (docs/administration.md). */
export const currenciesApi = resourceApi<Currency, CurrencyInput>({ key: 'currencies', path: 'admin/currencies' });
