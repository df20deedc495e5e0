import { z } from 'zod';
import { informationModalInputSchema, informationModalSchema } from '@mss/contracts/admin';
import { idParamsSchema } from '@mss/contracts/common';
import type { App, AppContext } from '../../context.ts';
import { requireAnyAbility } from '../../auth/permissions.ts';
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
import { principalOf } from '../../auth/principal.ts';
import { requireSignedIn } from '../../auth/session-auth.ts';

const tags = ['information modals'];

export function informationModalsRoutes(app: App, ctx: AppContext) {
  const canManage = requireAnyAbility(ctx, ['manage-organizations']);
  const signedIn = requireSignedIn(ctx);

  registerCrudRoutes(app, ctx, {
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
      list: (principal, query) => findInformationModals(ctx.db, principal, query),
      find: (principal, id) => findInformationModal(ctx.db, principal, id),
      create: (principal, input) => createInformationModal(ctx.db, principal, input),
      update: (principal, id, input) => updateInformationModal(ctx.db, principal, id, input),
      remove: (principal, id) => deleteInformationModal(ctx.db, principal, id),
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
    async (request) => ({ data: await findActiveInformationModals(ctx.db, principalOf(request)) }),
  );
  app.post(
    '/information-modals/:id/dismiss',
    {
      schema: { tags, summary: 'Stop showing an information modal to the signed-in user', params: idParamsSchema, response: { 204: z.null() } },
      preValidation: signedIn,
    },
    async (request, reply) => {
      await dismissInformationModal(ctx.db, principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
