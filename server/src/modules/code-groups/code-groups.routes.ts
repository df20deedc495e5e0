import { codeGroupInputSchema, codeGroupSchema } from '@mss/contracts/admin';
import type { App, AppContext } from '../../context.ts';
import { requireAnyAbility } from '../../auth/permissions.ts';
import { registerCrudRoutes } from '../../lib/crud-routes.ts';
import { createCodeGroup, deleteCodeGroup, findCodeGroup, findCodeGroups, updateCodeGroup } from './code-groups.service.ts';

export function codeGroupsRoutes(app: App, ctx: AppContext) {
  const canManage = requireAnyAbility(ctx, ['manage-codes']);
  registerCrudRoutes(app, ctx, {
    keptAnswers: true,
    path: '/admin/code_groups',
    noun: 'code group',
    schema: codeGroupSchema,
    input: codeGroupInputSchema,
    canRead: canManage,
    canWrite: canManage,
    service: {
      list: (principal, query) => findCodeGroups(ctx.db, principal, query),
      find: (principal, id) => findCodeGroup(ctx.db, principal, id),
      create: (principal, input) => createCodeGroup(ctx.db, principal, input),
      update: (principal, id, input) => updateCodeGroup(ctx.db, principal, id, input),
      remove: (principal, id) => deleteCodeGroup(ctx.db, principal, id),
    },
  });
}
