import { type ListParams, resourceApi } from '../../../api/resource.ts';
import { organizationsApi } from '../../organizations/index.ts';

export const informationModalsApi = resourceApi({
  key: 'information_modals',
  list: '/admin/information-modals',
  one: '/admin/information-modals/{id}',
  create: '/admin/information-modals',
  item: '/admin/information-modals/{id}',
});

/** The organization a new modal is for: the add screen opens only for one the user administers (another organization answers not found). */
export const modalOrganizationQuery = (organizationId: number) => organizationsApi.oneQuery(organizationId);

/** The information modals of one organization, listed on its edit screen: the same resource, so its changes refresh this list. */
export const organizationInformationModalsQuery = (organizationId: number) => (params: ListParams) =>
  informationModalsApi.listQuery({ ...params, organization_id: organizationId });
