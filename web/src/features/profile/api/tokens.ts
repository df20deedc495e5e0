import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { TokenScope } from '@mss/contracts/auth';
import { api, data } from '../../../api/client.ts';

/** GET/POST/DELETE /users/me/tokens: the signed-in user's integration tokens. */

export const tokenKeys = {
  all: ['users', 'me', 'tokens'] as const,
};

export const tokensApi = {
  list: () => api.get('/users/me/tokens').then(data),
  create: (body: { device_name: string; scope: TokenScope }) => api.post('/users/me/tokens', { body }).then(data),
  revoke: (id: number) => api.delete('/users/me/tokens/{id}', { path: { id } }),
};

export const tokenQueries = {
  list: () => queryOptions({ queryKey: tokenKeys.all, queryFn: tokensApi.list }),
};

/** The panel shows the errors of both mutations itself; each refreshes the list once it succeeded. */
function useTokenMutation<V, R>(mutationFn: (variables: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => client.invalidateQueries({ queryKey: tokenKeys.all }), meta: { handlesErrors: true } });
}

/** A new token (its value is in the answer, shown once); the list is fetched again. */
export const useCreateToken = () => useTokenMutation(tokensApi.create);

/** A token revoked; the list is fetched again. */
export const useRevokeToken = () => useTokenMutation(tokensApi.revoke);
