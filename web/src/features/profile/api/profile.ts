import type { ProfileBody } from '@mss/contracts/users';
import { api, data } from '../../../api/client.ts';

/** Your own account: PUT /users/me (names, phone, language) and PUT /users/me/password. */

export type OwnDetails = ProfileBody;
export type OwnPassword = { current_password: string; password: string; password_confirmation: string };

export const profileApi = {
  saveDetails: (body: OwnDetails) => api.put('/users/me', { body }).then(data),
  savePassword: (body: OwnPassword) => api.put('/users/me/password', { body }),
};
