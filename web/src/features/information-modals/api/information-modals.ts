import type { InformationModal, InformationModalInput, Organization, OrganizationInput } from '@mss/contracts/admin';
import { resourceApi } from '../../../api/resource.ts';

export const informationModalsApi = resourceApi<InformationModal, InformationModalInput>({
  key: 'information_modals',
  path: 'admin/information-modals',
});

/**
 * The organization a new modal is for: the add screen opens only for one the user administers
 * (another organization answers not found). Same key root and path as the organizations resource.
 */
const organizationsApi = resourceApi<Organization, OrganizationInput>({ key: 'organizations', path: 'admin/organizations' });
export const modalOrganizationQuery = (organizationId: number) => organizationsApi.oneQuery(organizationId);
