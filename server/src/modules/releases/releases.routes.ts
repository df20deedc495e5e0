import { z } from 'zod';
import { newestFirstListQuerySchema, releaseInputSchema, releaseSchema } from '@mss/contracts/admin';
import { dataOf, idParamsSchema, listOf } from '@mss/contracts/common';
import type { App, AppContext } from '../../context.ts';
import { requireAnyAbility } from '../../auth/permissions.ts';
import { actorOf, requireActor } from '../../auth/session-auth.ts';
import { createRelease, deleteRelease, findRelease, findReleases, findUnreadReleases, updateRelease, viewRelease } from './releases.service.ts';

const tags = ['releases'];

export function releasesRoutes(app: App, ctx: AppContext) {
  const canManage = requireAnyAbility(ctx, ['manage-releases']);
  const signedIn = requireActor(ctx);

  app.get(
    '/admin/releases',
    {
      schema: { tags, summary: 'List release notes (newest first unless sorted)', querystring: newestFirstListQuerySchema, response: { 200: listOf(releaseSchema) } },
      preValidation: canManage,
    },
    async (request) => findReleases(ctx.db, request.query),
  );
  app.get(
    '/admin/releases/:id',
    { schema: { tags, summary: 'One release note', params: idParamsSchema, response: { 200: dataOf(releaseSchema) } }, preValidation: canManage },
    async (request) => ({ data: await findRelease(ctx.db, request.params.id) }),
  );
  app.post(
    '/admin/releases',
    { schema: { tags, summary: 'Create a release note', body: releaseInputSchema, response: { 201: dataOf(releaseSchema) } }, preValidation: canManage },
    async (request, reply) => reply.code(201).send({ data: await createRelease(ctx.db, request.body) }),
  );
  app.put(
    '/admin/releases/:id',
    {
      schema: { tags, summary: 'Update a release note', params: idParamsSchema, body: releaseInputSchema, response: { 200: dataOf(releaseSchema) } },
      preValidation: canManage,
    },
    async (request) => ({ data: await updateRelease(ctx.db, request.params.id, request.body) }),
  );
  app.delete(
    '/admin/releases/:id',
    { schema: { tags, summary: 'Delete a release note', params: idParamsSchema, response: { 204: z.null() } }, preValidation: canManage },
    async (request, reply) => {
      await deleteRelease(ctx.db, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/releases/unread',
    {
      schema: { tags, summary: 'Release notes the signed-in user has not read, newest first', response: { 200: z.object({ data: z.array(releaseSchema) }) } },
      preValidation: signedIn,
    },
    async (request) => ({ data: await findUnreadReleases(ctx.db, actorOf(request)) }),
  );
  app.post(
    '/releases/:id/view',
    { schema: { tags, summary: 'Mark a release note as read by the signed-in user', params: idParamsSchema, response: { 204: z.null() } }, preValidation: signedIn },
    async (request, reply) => {
      await viewRelease(ctx.db, actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
