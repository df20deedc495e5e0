import { useMutation } from '@tanstack/react-query';
import type { LoginBody, ResetPasswordBody } from '@mss/contracts/auth';
import { login } from '../../../api/auth.ts';
import { http, type ApiBody } from '../../../api/http.ts';

export const authKeys = {
  all: ['auth'] as const,
  login: () => [...authKeys.all, 'login'] as const,
  forgotPassword: () => [...authKeys.all, 'forgot-password'] as const,
  resetPassword: () => [...authKeys.all, 'reset-password'] as const,
};

type MessageBody = ApiBody<{ message: string }>;

export function requestPasswordReset(email: string): Promise<string> {
  return http.post<MessageBody>('auth/forgot-password', { email }).then((body) => body.data.message);
}

export function resetPassword(body: ResetPasswordBody): Promise<string> {
  return http.post<MessageBody>('auth/reset-password', body).then((b) => b.data.message);
}

/** The sign-in forms show their errors themselves (message above the form, fields inline). */
export function useLogin() {
  return useMutation({ mutationKey: authKeys.login(), mutationFn: (body: LoginBody) => login(body), meta: { handlesErrors: true } });
}

export function useForgotPassword() {
  return useMutation({ mutationKey: authKeys.forgotPassword(), mutationFn: requestPasswordReset, meta: { handlesErrors: true } });
}

export function useResetPassword() {
  return useMutation({ mutationKey: authKeys.resetPassword(), mutationFn: resetPassword, meta: { handlesErrors: true } });
}
