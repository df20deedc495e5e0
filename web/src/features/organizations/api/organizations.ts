import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InformationModal, InformationModalInput, Organization, OrganizationInput } from '@mss/contracts/admin';
import { http, type ApiBody } from '../../../api/http.ts';
import { type ListParams, resourceApi } from '../../../api/resource.ts';

export const organizationsApi = resourceApi<Organization, OrganizationInput>({ key: 'organizations', path: 'admin/organizations' });

/** PUT /admin/organizations/{id}/settings: the server validates each key and value. */
export function useUpdateOrganizationSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, settings }: { id: number; settings: Record<string, number | string> }) =>
      http.put<ApiBody<Organization>>(`admin/organizations/${id}/settings`, { settings }).then((body) => body.data),
    onSuccess: (organization) => {
      client.setQueryData(organizationsApi.keys.detail(organization.id), organization);
      return client.invalidateQueries({ queryKey: organizationsApi.keys.lists() });
    },
    meta: { handlesErrors: true },
  });
}

/**
 * The information modals of one organization, listed on its edit screen. Same key root and path
 * as the information-modals feature's resource, so its changes refresh this list.
 */
const informationModalsApi = resourceApi<InformationModal, InformationModalInput>({ key: 'information_modals', path: 'admin/information-modals' });
export const organizationInformationModalsQuery = (organizationId: number) => (params: ListParams) =>
  informationModalsApi.listQuery({ ...params, organization_id: organizationId });
