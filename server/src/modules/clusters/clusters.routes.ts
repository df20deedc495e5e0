import { z } from 'zod';
import { clusterInputSchema, clusterSchema } from '@mss/contracts/admin';
import { dataOf, idParamsSchema, listOf, listQuerySchema } from '@mss/contracts/common';
import type { App, AppContext } from '../../context.ts';
import { requireAnyAbility } from '../../auth/permissions.ts';
import { actorOf } from '../../auth/session-auth.ts';
import { createCluster, deleteCluster, findCluster, findClusters, updateCluster } from './clusters.service.ts';

const tags = ['clusters'];

export function clustersRoutes(app: App, ctx: AppContext) {
  const canManage = requireAnyAbility(ctx, ['manage-clusters']);

  app.get(
    '/admin/clusters',
    { schema: { tags, summary: 'List clusters with their markets', querystring: listQuerySchema, response: { 200: listOf(clusterSchema) } }, preValidation: canManage },
    async (request) => findClusters(ctx.db, actorOf(request), request.query),
  );
  app.get(
    '/admin/clusters/:id',
    { schema: { tags, summary: 'One cluster with its markets', params: idParamsSchema, response: { 200: dataOf(clusterSchema) } }, preValidation: canManage },
    async (request) => ({ data: await findCluster(ctx.db, actorOf(request), request.params.id) }),
  );
  app.post(
    '/admin/clusters',
    { schema: { tags, summary: 'Create a cluster', body: clusterInputSchema, response: { 201: dataOf(clusterSchema) } }, preValidation: canManage },
    async (request, reply) => reply.code(201).send({ data: await createCluster(ctx.db, actorOf(request), request.body) }),
  );
  app.put(
    '/admin/clusters/:id',
    {
      schema: { tags, summary: 'Update a cluster and its markets', params: idParamsSchema, body: clusterInputSchema, response: { 200: dataOf(clusterSchema) } },
      preValidation: canManage,
    },
    async (request) => ({ data: await updateCluster(ctx.db, actorOf(request), request.params.id, request.body) }),
  );
  app.delete(
    '/admin/clusters/:id',
    { schema: { tags, summary: 'Delete a cluster', params: idParamsSchema, response: { 204: z.null() } }, preValidation: canManage },
    async (request, reply) => {
      await deleteCluster(ctx.db, actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
}
