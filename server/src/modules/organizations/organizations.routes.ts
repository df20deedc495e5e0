import { z } from 'zod';
import { organizationInputSchema, organizationSchema, organizationSettingsInputSchema } from '@mss/contracts/admin';
import { dataOf, idParamsSchema, listOf, listQuerySchema } from '@mss/contracts/common';
import type { App, AppContext } from '../../context.ts';
import { requireAnyAbility } from '../../auth/permissions.ts';
import { actorOf } from '../../auth/session-auth.ts';
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

  app.get(
    '/admin/organizations',
    { schema: { tags, summary: 'List organizations', querystring: listQuerySchema, response: { 200: listOf(organizationSchema) } }, preValidation: canManage },
    async (request) => findOrganizations(ctx.db, actorOf(request), request.query),
  );
  app.get(
    '/admin/organizations/:id',
    { schema: { tags, summary: 'One organization with its settings', params: idParamsSchema, response: { 200: dataOf(organizationSchema) } }, preValidation: canManage },
    async (request) => ({ data: await findOrganization(ctx.db, actorOf(request), request.params.id) }),
  );
  app.post(
    '/admin/organizations',
    {
      schema: { tags, summary: 'Create an organization (super-admin)', body: organizationInputSchema, response: { 201: dataOf(organizationSchema) } },
      preValidation: canManage,
    },
    async (request, reply) => reply.code(201).send({ data: await createOrganization(ctx.db, actorOf(request), request.body) }),
  );
  app.put(
    '/admin/organizations/:id',
    {
      schema: {
        tags,
        summary: 'Update an organization',
        params: idParamsSchema,
        body: organizationInputSchema,
        response: { 200: dataOf(organizationSchema) },
      },
      preValidation: canManage,
    },
    async (request) => ({ data: await updateOrganization(ctx.db, actorOf(request), request.params.id, request.body) }),
  );
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
  app.delete(
    '/admin/organizations/:id',
    {
      schema: { tags, summary: 'Delete an empty organization (super-admin)', params: idParamsSchema, response: { 204: z.null() } },
      preValidation: canManage,
    },
    async (request, reply) => {
      await deleteOrganization(ctx.db, actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
