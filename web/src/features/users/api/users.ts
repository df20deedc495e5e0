import type { AdminUser, AdminUserInput } from '@mss/contracts/admin';
import { resourceApi } from '../../../api/resource.ts';

/** Reading: manage-users or list-users; writing: manage-users. */
export const usersApi = resourceApi<AdminUser, AdminUserInput>({ key: 'users', path: 'admin/users' });
