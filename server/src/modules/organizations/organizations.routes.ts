import { organizationInputSchema, organizationSchema, organizationSettingsInputSchema } from '@mss/contracts/admin';
import { dataOf, idParamsSchema } from '@mss/contracts/common';
import type { App, AppContext } from '../../context.ts';
import { requireAnyAbility } from '../../auth/permissions.ts';
import { registerCrudRoutes } from '../../lib/crud-routes.ts';
import {
  createOrganization,
  deleteOrganization,
  findOrganization,
  findOrganizations,
  updateOrganization,
  updateOrganizationSettings,
} from './organizations.service.ts';
import { principalOf } from '../../auth/principal.ts';
import { actorOfRequest, auditChange } from '../../audit/audit.ts';

const tags = ['organizations'];

export function organizationsRoutes(app: App, ctx: AppContext) {
  // An administrator holds manage-organizations for their own organization only; the service
  // scopes every call and keeps creating and deleting for super-admins.
  const canManage = requireAnyAbility(ctx, ['manage-organizations']);

  registerCrudRoutes(app, ctx, {
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
      list: (principal, query) => findOrganizations(ctx.db, principal, query),
      find: (principal, id) => findOrganization(ctx.db, principal, id),
      create: (principal, input) => createOrganization(ctx.db, principal, input),
      update: (principal, id, input) => updateOrganization(ctx.db, principal, id, input),
      remove: (principal, id) => deleteOrganization(ctx.db, principal, id),
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
    async (request) => {
      const { id } = request.params;
      const before = await findOrganization(ctx.db, principalOf(request), id);
      const after = await updateOrganizationSettings(ctx.db, principalOf(request), id, request.body.settings);
      await auditChange(ctx.db, actorOfRequest(request), { type: 'organization', id, change: 'updated', before, after });
      return { data: after };
    },
  );
}
