import type { Cluster, ClusterInput } from '@mss/contracts/admin';
import { resourceApi } from '../../../api/resource.ts';

export const clustersApi = resourceApi<Cluster, ClusterInput>({ key: 'clusters', path: 'admin/clusters' });
