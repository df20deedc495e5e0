import type { User } from '@mss/contracts/users';
import { http } from '../../../api/http.ts';
import type { ApiBody } from '../../../api/transport.ts';

/** Your own account: PUT /users/me (names, phone, language) and PUT /users/me/password. */

export type OwnDetails = { first_name: string; last_name: string; phone: string | null; locale: string };
export type OwnPassword = { current_password: string; password: string; password_confirmation: string };

export const profileApi = {
  saveDetails: (body: OwnDetails) => http.put<ApiBody<User>>('users/me', body).then((r) => r.data),
  savePassword: (body: OwnPassword) => http.put<void>('users/me/password', body),
};
