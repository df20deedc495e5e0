import { codeSectionInputSchema, codeSectionSchema } from '@mss/contracts/admin';
import type { App, AppContext } from '../../context.ts';
import { requireAnyAbility } from '../../auth/permissions.ts';
import { registerCrudRoutes } from '../../lib/crud-routes.ts';
import { createCodeSection, deleteCodeSection, findCodeSection, findCodeSections, updateCodeSection } from './code-sections.service.ts';

export function codeSectionsRoutes(app: App, ctx: AppContext) {
  const canManage = requireAnyAbility(ctx, ['manage-codes']);
  registerCrudRoutes(app, ctx, {
    keptAnswers: true,
    path: '/admin/code_sections',
    noun: 'code section',
    schema: codeSectionSchema,
    input: codeSectionInputSchema,
    canRead: canManage,
    canWrite: canManage,
    service: {
      list: (principal, query) => findCodeSections(ctx.db, principal, query),
      find: (principal, id) => findCodeSection(ctx.db, principal, id),
      create: (principal, input) => createCodeSection(ctx.db, principal, input),
      update: (principal, id, input) => updateCodeSection(ctx.db, principal, id, input),
      remove: (principal, id) => deleteCodeSection(ctx.db, principal, id),
    },
  });
}
