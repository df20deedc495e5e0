import { adminUserInputSchema, adminUserSchema } from '@mss/contracts/admin';
import type { App, AppContext } from '../../context.ts';
import { requireAnyAbility } from '../../auth/permissions.ts';
import { registerCrudRoutes } from '../../lib/crud-routes.ts';
import { createAdminUser, deleteAdminUser, findAdminUser, findAdminUsers, updateAdminUser } from './admin-users.service.ts';

export function adminUsersRoutes(app: App, ctx: AppContext) {
  registerCrudRoutes(app, {
    path: '/admin/users',
    noun: 'user',
    schema: adminUserSchema,
    input: adminUserInputSchema,
    canRead: requireAnyAbility(ctx, ['manage-users', 'list-users']),
    canWrite: requireAnyAbility(ctx, ['manage-users']),
    service: {
      list: (actor, query) => findAdminUsers(ctx.db, actor, query),
      find: (actor, id) => findAdminUser(ctx.db, actor, id),
      create: (actor, input) => createAdminUser(ctx.db, actor, input),
      update: (actor, id, input) => updateAdminUser(ctx.db, actor, id, input),
      remove: (actor, id) => deleteAdminUser(ctx.db, actor, id),
    },
  });
}
