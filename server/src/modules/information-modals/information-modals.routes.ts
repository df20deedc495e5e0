import { z } from 'zod';
import { informationModalInputSchema, informationModalSchema } from '@mss/contracts/admin';
import { idParamsSchema } from '@mss/contracts/common';
import type { App, AppContext } from '../../context.ts';
import { requireAnyAbility } from '../../auth/permissions.ts';
import { actorOf, requireActor } from '../../auth/session-auth.ts';
import { registerCrudRoutes } from '../../lib/crud-routes.ts';
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

  registerCrudRoutes(app, {
    path: '/admin/information-modals',
    noun: 'information modal',
    schema: informationModalSchema,
    input: informationModalInputSchema,
    canRead: canManage,
    canWrite: canManage,
    tags,
    summaries: {
      list: 'List information modals (?organization_id= for one organization)',
      create: 'Create an information modal',
      update: 'Update an information modal',
      delete: 'Delete an information modal',
    },
    service: {
      list: (actor, query) => findInformationModals(ctx.db, actor, query),
      find: (actor, id) => findInformationModal(ctx.db, actor, id),
      create: (actor, input) => createInformationModal(ctx.db, actor, input),
      update: (actor, id, input) => updateInformationModal(ctx.db, actor, id, input),
      remove: (actor, id) => deleteInformationModal(ctx.db, actor, id),
    },
  });

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
    {
      schema: { tags, summary: 'Stop showing an information modal to the signed-in user', params: idParamsSchema, response: { 204: z.null() } },
      preValidation: signedIn,
    },
    async (request, reply) => {
      await dismissInformationModal(ctx.db, actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
