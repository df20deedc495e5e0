import { resourceApi } from '../../../api/resource.ts';

export const releasesApi = resourceApi({
  key: 'releases',
  list: '/admin/releases',
  one: '/admin/releases/{id}',
  create: '/admin/releases',
  item: '/admin/releases/{id}',
});
