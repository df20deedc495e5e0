import { codeInputSchema, codeSchema } from '@mss/contracts/admin';
import type { App, AppContext } from '../../context.ts';
import { requireAnyAbility } from '../../auth/permissions.ts';
import { registerCrudRoutes } from '../../lib/crud-routes.ts';
import { createCode, deleteCode, findCode, findCodes, updateCode } from './codes.service.ts';

export function codesRoutes(app: App, ctx: AppContext) {
  registerCrudRoutes(app, ctx, {
    keptAnswers: true,
    path: '/admin/codes',
    noun: 'code',
    schema: codeSchema,
    input: codeInputSchema,
    canRead: requireAnyAbility(ctx, ['view-codes', 'manage-codes']),
    canWrite: requireAnyAbility(ctx, ['manage-codes']),
    service: {
      list: (principal, query) => findCodes(ctx.db, principal, query),
      find: (principal, id) => findCode(ctx.db, principal, id),
      create: (principal, input) => createCode(ctx.db, principal, input),
      update: (principal, id, input) => updateCode(ctx.db, principal, id, input),
      remove: (principal, id) => deleteCode(ctx.db, principal, id),
    },
  });
}
