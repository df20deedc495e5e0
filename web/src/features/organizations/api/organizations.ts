import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../../api/client.ts';
import { type ListParams, resourceApi } from '../../../api/resource.ts';

export const organizationsApi = resourceApi({
  key: 'organizations',
  list: '/admin/organizations',
  one: '/admin/organizations/{id}',
  create: '/admin/organizations',
  item: '/admin/organizations/{id}',
});

/** PUT /admin/organizations/{id}/settings: the server validates each key and value. */
export function useUpdateOrganizationSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, settings }: { id: number; settings: Record<string, number | string> }) =>
      api.put('/admin/organizations/{id}/settings', { path: { id }, body: { settings } }).then(data),
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
const informationModalsApi = resourceApi({
  key: 'information_modals',
  list: '/admin/information-modals',
  one: '/admin/information-modals/{id}',
  create: '/admin/information-modals',
  item: '/admin/information-modals/{id}',
});
export const organizationInformationModalsQuery = (organizationId: number) => (params: ListParams) =>
  informationModalsApi.listQuery({ ...params, organization_id: organizationId });
