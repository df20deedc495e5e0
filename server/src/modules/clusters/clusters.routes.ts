import { clusterInputSchema, clusterSchema } from '@mss/contracts/admin';
import type { App, AppContext } from '../../context.ts';
import { requireAnyAbility } from '../../auth/permissions.ts';
import { registerCrudRoutes } from '../../lib/crud-routes.ts';
import { createCluster, deleteCluster, findCluster, findClusters, updateCluster } from './clusters.service.ts';

export function clustersRoutes(app: App, ctx: AppContext) {
  const canManage = requireAnyAbility(ctx, ['manage-clusters']);
  registerCrudRoutes(app, ctx, {
    keptAnswers: true,
    path: '/admin/clusters',
    noun: 'cluster',
    schema: clusterSchema,
    input: clusterInputSchema,
    canRead: canManage,
    canWrite: canManage,
    summaries: { list: 'List clusters with their markets', show: 'One cluster with its markets', update: 'Update a cluster and its markets' },
    service: {
      list: (principal, query) => findClusters(ctx.db, principal, query),
      find: (principal, id) => findCluster(ctx.db, principal, id),
      create: (principal, input) => createCluster(ctx.db, principal, input),
      update: (principal, id, input) => updateCluster(ctx.db, principal, id, input),
      remove: (principal, id) => deleteCluster(ctx.db, principal, id),
    },
  });
}
