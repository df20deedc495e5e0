import { resourceApi } from '../../../api/resource.ts';

/** Listing and viewing: view-markets (GET /markets); the rest under admin/ (manage-markets). */
export const marketsApi = resourceApi({ key: 'markets', list: '/markets', one: '/admin/markets/{id}', create: '/admin/markets', item: '/admin/markets/{id}' });
/** The read-only view of /markets/view/:id. */
export const marketViewApi = resourceApi({ key: 'markets', list: '/markets', one: '/markets/{id}' });
