import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../../api/client.ts';
import { resourceApi } from '../../../api/resource.ts';

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
