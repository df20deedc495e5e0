import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../../api/client.ts';

/**
 * The notices shown after sign-in: active information modals and unread release notes. Their
 * keys start with the roots of the information-modals and releases resources, so a change made
 * in those administration screens (which invalidates the root) refreshes them too.
 */

export const activeInformationModalsQuery = () =>
  queryOptions({
    queryKey: ['information_modals', 'active'] as const,
    queryFn: () => api.get('/information-modals/active').then(data),
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
    mutationFn: (id: number) => api.post('/information-modals/{id}/dismiss', { path: { id } }),
    onSuccess: (_data, id) => client.setQueryData(activeInformationModalsQuery().queryKey, (old) => old?.filter((m) => m.id !== id)),
    meta: { handlesErrors: true },
  });
}

export const unreadReleasesQuery = () =>
  queryOptions({
    queryKey: ['releases', 'unread'] as const,
    queryFn: () => api.get('/releases/unread').then(data),
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
    mutationFn: (id: number) => api.post('/releases/{id}/view', { path: { id } }),
    onSuccess: (_data, id) => client.setQueryData(unreadReleasesQuery().queryKey, (old) => old?.filter((r) => r.id !== id)),
    meta: { handlesErrors: true },
  });
}
