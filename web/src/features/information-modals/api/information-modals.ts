import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { InformationModal, InformationModalInput } from '@mss/contracts/admin';
import { http, type ApiBody } from '../../../api/http.ts';
import { resourceApi } from '../../../api/resource.ts';

export const informationModalsApi = resourceApi<InformationModal, InformationModalInput>({
  key: 'information_modals',
  path: 'admin/information-modals',
});

export const activeInformationModalsQuery = () =>
  queryOptions({
    queryKey: [...informationModalsApi.keys.all, 'active'] as const,
    queryFn: () => http.get<ApiBody<InformationModal[]>>('information-modals/active').then((body) => body.data),
    meta: { handlesErrors: true },
    staleTime: Infinity,
  });

/** The information modals of the session's organization to show now (not dismissed). */
export function useActiveInformationModals(enabled = true) {
  return useQuery({ ...activeInformationModalsQuery(), enabled });
}

export function useDismissInformationModal() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.post<null>(`information-modals/${id}/dismiss`),
    onSuccess: (_data, id) => client.setQueryData(activeInformationModalsQuery().queryKey, (old) => old?.filter((m) => m.id !== id)),
    meta: { handlesErrors: true },
  });
}
