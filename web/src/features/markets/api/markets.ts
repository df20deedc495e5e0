import type { Market, MarketInput } from '@mss/contracts/admin';
import { resourceApi } from '../../../api/resource.ts';

/** Listing and viewing: view-markets (GET /markets); the rest under admin/ (manage-markets). */
export const marketsApi = resourceApi<Market, MarketInput>({ key: 'markets', path: 'admin/markets', listPath: 'markets' });
/** The read-only view of /markets/view/:id. */
export const marketViewApi = resourceApi<Market, MarketInput>({ key: 'markets', path: 'markets' });
