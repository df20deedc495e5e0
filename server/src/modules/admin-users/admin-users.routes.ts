import { adminUserInputSchema, adminUserSchema } from '@mss/contracts/admin';
import type { App, AppContext } from '../../context.ts';
import { requireAnyAbility } from '../../auth/permissions.ts';
import { registerCrudRoutes } from '../../lib/crud-routes.ts';
import { createAdminUser, deleteAdminUser, findAdminUser, findAdminUsers, updateAdminUser } from './admin-users.service.ts';

export function adminUsersRoutes(app: App, ctx: AppContext) {
  registerCrudRoutes(app, ctx, {
    path: '/admin/users',
    noun: 'user',
    schema: adminUserSchema,
    input: adminUserInputSchema,
    canRead: requireAnyAbility(ctx, ['manage-users', 'list-users']),
    canWrite: requireAnyAbility(ctx, ['manage-users']),
    service: {
      list: (principal, query) => findAdminUsers(ctx.db, principal, query),
      find: (principal, id) => findAdminUser(ctx.db, principal, id),
      create: (principal, input) => createAdminUser(ctx.db, principal, input),
      update: (principal, id, input) => updateAdminUser(ctx.db, principal, id, input),
      remove: (principal, id) => deleteAdminUser(ctx.db, principal, id),
    },
  });
}
