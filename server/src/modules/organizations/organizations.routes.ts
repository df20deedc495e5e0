import { organizationInputSchema, organizationSchema, organizationSettingsInputSchema } from '@mss/contracts/admin';
import { dataOf, idParamsSchema } from '@mss/contracts/common';
import type { App, AppContext } from '../../context.ts';
import { requireAnyAbility } from '../../auth/permissions.ts';
import { actorOf } from '../../auth/session-auth.ts';
import { registerCrudRoutes } from '../../lib/crud-routes.ts';
import {
  createOrganization,
  deleteOrganization,
  findOrganization,
  findOrganizations,
  updateOrganization,
  updateOrganizationSettings,
} from './organizations.service.ts';

const tags = ['organizations'];

export function organizationsRoutes(app: App, ctx: AppContext) {
  // An administrator holds manage-organizations for their own organization only; the service
  // scopes every call and keeps creating and deleting for super-admins.
  const canManage = requireAnyAbility(ctx, ['manage-organizations']);

  registerCrudRoutes(app, {
    path: '/admin/organizations',
    noun: 'organization',
    schema: organizationSchema,
    input: organizationInputSchema,
    canRead: canManage,
    canWrite: canManage,
    summaries: {
      show: 'One organization with its settings',
      create: 'Create an organization (super-admin)',
      update: 'Update an organization',
      delete: 'Delete an empty organization (super-admin)',
    },
    service: {
      list: (actor, query) => findOrganizations(ctx.db, actor, query),
      find: (actor, id) => findOrganization(ctx.db, actor, id),
      create: (actor, input) => createOrganization(ctx.db, actor, input),
      update: (actor, id, input) => updateOrganization(ctx.db, actor, id, input),
      remove: (actor, id) => deleteOrganization(ctx.db, actor, id),
    },
  });
  app.put(
    '/admin/organizations/:id/settings',
    {
      schema: {
        tags,
        summary: "Change some of an organization's settings",
        params: idParamsSchema,
        body: organizationSettingsInputSchema,
        response: { 200: dataOf(organizationSchema) },
      },
      preValidation: canManage,
    },
    async (request) => ({ data: await updateOrganizationSettings(ctx.db, actorOf(request), request.params.id, request.body.settings) }),
  );
}
