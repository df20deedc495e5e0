import { z } from 'zod';
import { informationModalInputSchema, informationModalSchema } from '@mss/contracts/admin';
import { dataOf, idParamsSchema, listOf, listQuerySchema } from '@mss/contracts/common';
import type { App, AppContext } from '../../context.ts';
import { requireAnyAbility } from '../../auth/permissions.ts';
import { actorOf, requireActor } from '../../auth/session-auth.ts';
import {
  createInformationModal,
  deleteInformationModal,
  dismissInformationModal,
  findActiveInformationModals,
  findInformationModal,
  findInformationModals,
  updateInformationModal,
} from './information-modals.service.ts';

const tags = ['information modals'];

export function informationModalsRoutes(app: App, ctx: AppContext) {
  const canManage = requireAnyAbility(ctx, ['manage-organizations']);
  const signedIn = requireActor(ctx);

  app.get(
    '/admin/information-modals',
    {
      schema: { tags, summary: 'List information modals (?organization_id= for one organization)', querystring: listQuerySchema, response: { 200: listOf(informationModalSchema) } },
      preValidation: canManage,
    },
    async (request) => findInformationModals(ctx.db, actorOf(request), request.query),
  );
  app.get(
    '/admin/information-modals/:id',
    { schema: { tags, summary: 'One information modal', params: idParamsSchema, response: { 200: dataOf(informationModalSchema) } }, preValidation: canManage },
    async (request) => ({ data: await findInformationModal(ctx.db, actorOf(request), request.params.id) }),
  );
  app.post(
    '/admin/information-modals',
    {
      schema: { tags, summary: 'Create an information modal', body: informationModalInputSchema, response: { 201: dataOf(informationModalSchema) } },
      preValidation: canManage,
    },
    async (request, reply) => reply.code(201).send({ data: await createInformationModal(ctx.db, actorOf(request), request.body) }),
  );
  app.put(
    '/admin/information-modals/:id',
    {
      schema: {
        tags,
        summary: 'Update an information modal',
        params: idParamsSchema,
        body: informationModalInputSchema,
        response: { 200: dataOf(informationModalSchema) },
      },
      preValidation: canManage,
    },
    async (request) => ({ data: await updateInformationModal(ctx.db, actorOf(request), request.params.id, request.body) }),
  );
  app.delete(
    '/admin/information-modals/:id',
    { schema: { tags, summary: 'Delete an information modal', params: idParamsSchema, response: { 204: z.null() } }, preValidation: canManage },
    async (request, reply) => {
      await deleteInformationModal(ctx.db, actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/information-modals/active',
    {
      schema: {
        tags,
        summary: "Information modals to show the signed-in user now (session's organization, not dismissed)",
        response: { 200: z.object({ data: z.array(informationModalSchema) }) },
      },
      preValidation: signedIn,
    },
    async (request) => ({ data: await findActiveInformationModals(ctx.db, actorOf(request)) }),
  );
  app.post(
    '/information-modals/:id/dismiss',
    { schema: { tags, summary: 'Stop showing an information modal to the signed-in user', params: idParamsSchema, response: { 204: z.null() } }, preValidation: signedIn },
    async (request, reply) => {
      await dismissInformationModal(ctx.db, actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
