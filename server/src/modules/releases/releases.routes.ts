import { z } from 'zod';
import { newestFirstListQuerySchema, releaseInputSchema, releaseSchema } from '@mss/contracts/admin';
import { idParamsSchema } from '@mss/contracts/common';
import type { App, AppContext } from '../../context.ts';
import { requireAnyAbility } from '../../auth/permissions.ts';
import { registerCrudRoutes } from '../../lib/crud-routes.ts';
import { createRelease, deleteRelease, findRelease, findReleases, findUnreadReleases, updateRelease, viewRelease } from './releases.service.ts';
import { principalOf } from '../../auth/principal.ts';
import { requireSignedIn } from '../../auth/session-auth.ts';

const tags = ['releases'];

export function releasesRoutes(app: App, ctx: AppContext) {
  const canManage = requireAnyAbility(ctx, ['manage-releases']);
  const signedIn = requireSignedIn(ctx);

  registerCrudRoutes(app, ctx, {
    path: '/admin/releases',
    noun: 'release note',
    schema: releaseSchema,
    listQuery: newestFirstListQuerySchema,
    input: releaseInputSchema,
    canRead: canManage,
    canWrite: canManage,
    summaries: { list: 'List release notes (newest first unless sorted)' },
    // Release notes are for every organization: no actor scopes them.
    service: {
      list: (_actor, query) => findReleases(ctx.db, query),
      find: (_actor, id) => findRelease(ctx.db, id),
      create: (_actor, input) => createRelease(ctx.db, input),
      update: (_actor, id, input) => updateRelease(ctx.db, id, input),
      remove: (_actor, id) => deleteRelease(ctx.db, id),
    },
  });

  app.get(
    '/releases/unread',
    {
      schema: { tags, summary: 'Release notes the signed-in user has not read, newest first', response: { 200: z.object({ data: z.array(releaseSchema) }) } },
      preValidation: signedIn,
    },
    async (request) => ({ data: await findUnreadReleases(ctx.db, principalOf(request)) }),
  );
  app.post(
    '/releases/:id/view',
    {
      schema: { tags, summary: 'Mark a release note as read by the signed-in user', params: idParamsSchema, response: { 204: z.null() } },
      preValidation: signedIn,
    },
    async (request, reply) => {
      await viewRelease(ctx.db, principalOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
