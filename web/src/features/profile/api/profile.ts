import { useMutation } from '@tanstack/react-query';
import type { ProfileBody } from '@mss/contracts/users';
import { api, data } from '../../../api/client.ts';

/** Your own account: PUT /users/me (names, phone, language) and PUT /users/me/password. */

export type OwnDetails = ProfileBody;
export type OwnPassword = { current_password: string; password: string; password_confirmation: string };

export const profileApi = {
  saveDetails: (body: OwnDetails) => api.put('/users/me', { body }).then(data),
  savePassword: (body: OwnPassword) => api.put('/users/me/password', { body }),
};

/** Your details saved: the answer is you as the server sees you now (the screen puts it in the session); no query holds them. The form shows the errors. */
export const useSaveOwnDetails = () => useMutation({ mutationFn: profileApi.saveDetails, meta: { handlesErrors: true } });

/** Your password changed (every other session ends); nothing to fetch again. The form shows the errors. */
export const useSaveOwnPassword = () => useMutation({ mutationFn: profileApi.savePassword, meta: { handlesErrors: true } });
