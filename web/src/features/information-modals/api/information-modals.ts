import { resourceApi } from '../../../api/resource.ts';

export const informationModalsApi = resourceApi({
  key: 'information_modals',
  list: '/admin/information-modals',
  one: '/admin/information-modals/{id}',
  create: '/admin/information-modals',
  item: '/admin/information-modals/{id}',
});

/**
 * The organization a new modal is for: the add screen opens only for one the user administers
 * (another organization answers not found). Same key root and path as the organizations resource.
 */
const organizationsApi = resourceApi({
  key: 'organizations',
  list: '/admin/organizations',
  one: '/admin/organizations/{id}',
  create: '/admin/organizations',
  item: '/admin/organizations/{id}',
});
export const modalOrganizationQuery = (organizationId: number) => organizationsApi.oneQuery(organizationId);
