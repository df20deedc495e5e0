import { resourceApi } from '../../../api/resource.ts';

/** Reading: view-codes or manage-codes; writing: manage-codes. */
export const codesApi = resourceApi({ key: 'codes', list: '/admin/codes', one: '/admin/codes/{id}', create: '/admin/codes', item: '/admin/codes/{id}' });
