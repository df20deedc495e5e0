import { logotypeApi } from '../../../api/logotype.ts';
import { resourceApi } from '../../../api/resource.ts';

/** Listing and viewing: view-markets (GET /markets); the rest under admin/ (manage-markets). */
export const marketsApi = resourceApi({ key: 'markets', list: '/markets', one: '/admin/markets/{id}', create: '/admin/markets', item: '/admin/markets/{id}' });
/** The read-only view of /markets/view/:id. */
export const marketViewApi = resourceApi({ key: 'markets', list: '/markets', one: '/markets/{id}' });

/** A market's logotype: read where markets are viewed, written under admin/; every market key is fetched again after a change. */
export const marketLogotype = logotypeApi({ read: '/markets/{id}/logotype', write: '/admin/markets/{id}/logotype', invalidates: marketsApi.keys.all });
