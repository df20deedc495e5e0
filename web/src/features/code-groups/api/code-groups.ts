import { resourceApi } from '../../../api/resource.ts';

export const codeGroupsApi = resourceApi({
  key: 'code_groups',
  list: '/admin/code_groups',
  one: '/admin/code_groups/{id}',
  create: '/admin/code_groups',
  item: '/admin/code_groups/{id}',
});
