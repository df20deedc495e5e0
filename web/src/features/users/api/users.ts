import { resourceApi } from '../../../api/resource.ts';

/** Reading: manage-users or list-users; writing: manage-users. */
export const usersApi = resourceApi({ key: 'users', list: '/admin/users', one: '/admin/users/{id}', create: '/admin/users', item: '/admin/users/{id}' });
