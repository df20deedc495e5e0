import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../../api/client.ts';

/** GET/POST /users/me/two-factor…: the signed-in user's two-factor sign-in (docs/decisions.md "Two-factor sign-in"). */

export const twoFactorKeys = {
  status: ['users', 'me', 'two-factor'] as const,
};

export const twoFactorApi = {
  status: () => api.get('/users/me/two-factor').then(data),
  setup: () => api.post('/users/me/two-factor/setup').then(data),
  enable: (code: string) => api.post('/users/me/two-factor/enable', { body: { code } }).then(data),
  disable: (body: { password: string; code: string }) => api.post('/users/me/two-factor/disable', { body }),
  /** The user as the server sees them now (GET /users/me): an organization that required two-factor sign-in lets them in once it is on. */
  me: () => api.get('/users/me').then(data),
};

export const twoFactorQueries = {
  status: () => queryOptions({ queryKey: twoFactorKeys.status, queryFn: twoFactorApi.status }),
};

/** The panel shows the errors of both mutations itself; each refreshes the status once it succeeded. */
function useTwoFactorMutation<V, R>(mutationFn: (variables: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => client.invalidateQueries({ queryKey: twoFactorKeys.status }), meta: { handlesErrors: true } });
}

/** Two-factor sign-in turned on with a code of the new secret (the answer: the recovery codes); the status is fetched again. */
export const useEnableTwoFactor = () => useTwoFactorMutation(twoFactorApi.enable);

/** Two-factor sign-in turned off (password and a code); the status is fetched again. */
export const useDisableTwoFactor = () => useTwoFactorMutation(twoFactorApi.disable);
