import { codeInputSchema, codeSchema } from '@mss/contracts/admin';
import type { App, AppContext } from '../../context.ts';
import { requireAnyAbility } from '../../auth/permissions.ts';
import { registerCrudRoutes } from '../../lib/crud-routes.ts';
import { createCode, deleteCode, findCode, findCodes, updateCode } from './codes.service.ts';

export function codesRoutes(app: App, ctx: AppContext) {
  registerCrudRoutes(app, {
    path: '/admin/codes',
    noun: 'code',
    schema: codeSchema,
    input: codeInputSchema,
    canRead: requireAnyAbility(ctx, ['view-codes', 'manage-codes']),
    canWrite: requireAnyAbility(ctx, ['manage-codes']),
    service: {
      list: (actor, query) => findCodes(ctx.db, actor, query),
      find: (actor, id) => findCode(ctx.db, actor, id),
      create: (actor, input) => createCode(ctx.db, actor, input),
      update: (actor, id, input) => updateCode(ctx.db, actor, id, input),
      remove: (actor, id) => deleteCode(ctx.db, actor, id),
    },
  });
}
