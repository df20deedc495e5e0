import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Release, ReleaseInput } from '@mss/contracts/admin';
import { http, type ApiBody } from '../../../api/http.ts';
import { resourceApi } from '../../../api/resource.ts';

export const releasesApi = resourceApi<Release, ReleaseInput>({ key: 'releases', path: 'admin/releases' });

export const unreadReleasesQuery = () =>
  queryOptions({
    queryKey: [...releasesApi.keys.all, 'unread'] as const,
    queryFn: () => http.get<ApiBody<Release[]>>('releases/unread').then((body) => body.data),
    meta: { handlesErrors: true },
    staleTime: Infinity,
  });

/** Release notes the signed-in user has not read yet, newest first. */
export function useUnreadReleases(enabled = true) {
  return useQuery({ ...unreadReleasesQuery(), enabled });
}

/** Marks a release note as read; it leaves the unread list. */
export function useViewRelease() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => http.post<null>(`releases/${id}/view`),
    onSuccess: (_data, id) => client.setQueryData(unreadReleasesQuery().queryKey, (old) => old?.filter((r) => r.id !== id)),
    meta: { handlesErrors: true },
  });
}
