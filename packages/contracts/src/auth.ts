import { z } from 'zod';

export const MIN_PASSWORD_LENGTH = 8;
export const PASSWORD_RESET_LIFETIME_HOURS = 24;
export const LOGIN_MAX_ATTEMPTS = 5;
export const LOGIN_DECAY_SECONDS = 60;

export const organizationRefSchema = z.object({ uuid: z.string(), name: z.string() });

export const loginBodySchema = z.object({
  email: z.string(),
  password: z.string(),
  organization: z.string().nullish(),
});
export type LoginBody = z.infer<typeof loginBodySchema>;

export const loginResponseSchema = z.object({
  data: z.object({
    expires_in: z.number().int(),
    must_choose_organization: z.boolean(),
    organizations: z.array(organizationRefSchema).optional(),
  }),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>['data'];

export const refreshResponseSchema = z.object({ data: z.object({ expires_in: z.number().int() }) });

export const forgotPasswordBodySchema = z.object({ email: z.string() });
export const resetPasswordBodySchema = z.object({
  token: z.string(),
  email: z.string(),
  password: z.string(),
  password_confirmation: z.string(),
});
export type ResetPasswordBody = z.infer<typeof resetPasswordBodySchema>;

export const messageResponseSchema = z.object({ data: z.object({ message: z.string() }) });

export const tokenBodySchema = z.object({
  email: z.string(),
  password: z.string(),
  device_name: z.string().optional(),
  organization: z.string().nullish(),
});
export const tokenResponseSchema = z.object({
  data: z.object({ token: z.string(), token_type: z.literal('Bearer'), expires_in: z.number().int() }),
});

/** device_name: 1 to 100 printable characters. */
export const DEVICE_NAME_PATTERN = /^[\p{L}\p{N} ._\-:()@#/]{1,100}$/u;
