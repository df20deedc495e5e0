import type { Cluster, ClusterInput } from '@mss/contracts/admin';
import { resourceApi } from '../../admin/api/resource.ts';

export const clustersApi = resourceApi<Cluster, ClusterInput>({ key: 'clusters', path: 'admin/clusters' });
