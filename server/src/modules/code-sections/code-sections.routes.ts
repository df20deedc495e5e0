import { codeSectionInputSchema, codeSectionSchema } from '@mss/contracts/admin';
import type { App, AppContext } from '../../context.ts';
import { requireAnyAbility } from '../../auth/permissions.ts';
import { registerCrudRoutes } from '../../lib/crud-routes.ts';
import { createCodeSection, deleteCodeSection, findCodeSection, findCodeSections, updateCodeSection } from './code-sections.service.ts';

export function codeSectionsRoutes(app: App, ctx: AppContext) {
  const canManage = requireAnyAbility(ctx, ['manage-codes']);
  registerCrudRoutes(app, {
    path: '/admin/code_sections',
    noun: 'code section',
    schema: codeSectionSchema,
    input: codeSectionInputSchema,
    canRead: canManage,
    canWrite: canManage,
    service: {
      list: (actor, query) => findCodeSections(ctx.db, actor, query),
      find: (actor, id) => findCodeSection(ctx.db, actor, id),
      create: (actor, input) => createCodeSection(ctx.db, actor, input),
      update: (actor, id, input) => updateCodeSection(ctx.db, actor, id, input),
      remove: (actor, id) => deleteCodeSection(ctx.db, actor, id),
    },
  });
}
