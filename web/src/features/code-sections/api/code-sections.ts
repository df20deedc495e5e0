import { resourceApi } from '../../../api/resource.ts';

export const codeSectionsApi = resourceApi({
  key: 'code_sections',
  list: '/admin/code_sections',
  one: '/admin/code_sections/{id}',
  create: '/admin/code_sections',
  item: '/admin/code_sections/{id}',
});
