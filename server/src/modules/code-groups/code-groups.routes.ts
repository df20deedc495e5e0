import { codeGroupInputSchema, codeGroupSchema } from '@mss/contracts/admin';
import type { App, AppContext } from '../../context.ts';
import { requireAnyAbility } from '../../auth/permissions.ts';
import { registerCrudRoutes } from '../../lib/crud-routes.ts';
import { createCodeGroup, deleteCodeGroup, findCodeGroup, findCodeGroups, updateCodeGroup } from './code-groups.service.ts';

export function codeGroupsRoutes(app: App, ctx: AppContext) {
  const canManage = requireAnyAbility(ctx, ['manage-codes']);
  registerCrudRoutes(app, {
    path: '/admin/code_groups',
    noun: 'code group',
    schema: codeGroupSchema,
    input: codeGroupInputSchema,
    canRead: canManage,
    canWrite: canManage,
    service: {
      list: (actor, query) => findCodeGroups(ctx.db, actor, query),
      find: (actor, id) => findCodeGroup(ctx.db, actor, id),
      create: (actor, input) => createCodeGroup(ctx.db, actor, input),
      update: (actor, id, input) => updateCodeGroup(ctx.db, actor, id, input),
      remove: (actor, id) => deleteCodeGroup(ctx.db, actor, id),
    },
  });
}
