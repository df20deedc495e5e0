import { z } from 'zod';

export { MIN_PASSWORD_LENGTH } from './constants.ts';
export const PASSWORD_RESET_LIFETIME_HOURS = 24;
export const LOGIN_MAX_ATTEMPTS = 5;
export const LOGIN_DECAY_SECONDS = 60;

export const organizationRefSchema = z.object({ uuid: z.string(), name: z.string() });

/*
 * Every text has a maximum length: a megabyte string reached indexed columns (a 500)
 * and the e-mail shape check, which is quadratic on long input. 254 characters is the longest
 * e-mail address SMTP can carry; 1024 leaves room for any passphrase.
 */
export const MAX_EMAIL_LENGTH = 254;
export const MAX_PASSWORD_LENGTH = 1024;
const email = z.string().max(MAX_EMAIL_LENGTH);
const password = z.string().max(MAX_PASSWORD_LENGTH);
/** An organization's uuid. */
const organization = z.string().max(100).nullish();
/** Two-factor sign-in: the authenticator app's 6-digit code, or a recovery code ("xxxx-xxxx"); asked after the password. */
const code = z.string().max(20).nullish();

// Bodies are strict (docs/decisions.md "Write bodies are strict"): a key they do not name is refused (422 naming it).
export const loginBodySchema = z.strictObject({
  email,
  password,
  organization,
  code,
});
export type LoginBody = z.infer<typeof loginBodySchema>;

export const loginResponseSchema = z.object({
  data: z.object({
    expires_in: z.number().int(),
    must_choose_organization: z.boolean(),
    organizations: z.array(organizationRefSchema).optional(),
    /** The user has two-factor sign-in on: send the same again with `code`; no session yet. */
    must_enter_code: z.boolean().optional(),
  }),
});
export type LoginResponse = z.infer<typeof loginResponseSchema>['data'];

export const refreshResponseSchema = z.object({ data: z.object({ expires_in: z.number().int() }) });

export const forgotPasswordBodySchema = z.strictObject({ email });
export const resetPasswordBodySchema = z.strictObject({
  token: z.string().max(200),
  email,
  password,
  password_confirmation: password,
  code,
});
export type ResetPasswordBody = z.infer<typeof resetPasswordBodySchema>;

export const messageResponseSchema = z.object({ data: z.object({ message: z.string() }) });

/**
 * What an integration token may do: everything its user may (`all`), or only send its company's
 * reports' rows and files and read those reports and imports (`upload-reports`).
 */
export const TOKEN_SCOPES = ['all', 'upload-reports'] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

export const tokenBodySchema = z.strictObject({
  email,
  password,
  scope: z.enum(TOKEN_SCOPES).optional(),
  // Longer than DEVICE_NAME_PATTERN allows, so that a name just too long still gets the
  // specification's "Device name is missing or invalid."
  device_name: z.string().max(255).optional(),
  organization,
  code,
});
export const tokenResponseSchema = z.object({
  data: z.object({ token: z.string(), token_type: z.literal('Bearer'), expires_in: z.number().int() }),
});

/** device_name: 1 to 100 printable characters. */
export const DEVICE_NAME_PATTERN = /^[\p{L}\p{N} ._\-:()@#/]{1,100}$/u;

/** POST /auth/organization: a signed-in user of several organizations works in another one. */
export const switchOrganizationBodySchema = z.strictObject({ organization: z.string().max(100) });

/** An integration token as its owner sees it on the profile (never the token itself). */
export const integrationTokenSchema = z.object({
  id: z.number().int(),
  device_name: z.string().nullable(),
  scope: z.enum(TOKEN_SCOPES),
  created_at: z.string(),
  last_used_at: z.string(),
  expires_at: z.string(),
});
export type IntegrationToken = z.infer<typeof integrationTokenSchema>;
/** POST /users/me/tokens: a new token for the signed-in user (shown once). */
export const newTokenBodySchema = z.strictObject({
  device_name: z.string().max(255),
  scope: z.enum(TOKEN_SCOPES).default('all'),
});
