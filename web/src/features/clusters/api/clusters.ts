import { resourceApi } from '../../../api/resource.ts';

export const clustersApi = resourceApi({
  key: 'clusters',
  list: '/admin/clusters',
  one: '/admin/clusters/{id}',
  create: '/admin/clusters',
  item: '/admin/clusters/{id}',
});
