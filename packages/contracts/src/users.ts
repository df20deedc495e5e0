import { z } from 'zod';
import { MAX_PASSWORD_LENGTH, organizationRefSchema } from './auth.ts';
import { LOCALES } from './enums.ts';

export const roleRefSchema = z.object({ name: z.string() });
export const marketRefSchema = z.object({
  id: z.number().int(),
  international_name: z.string(),
  local_name: z.string(),
  iso_code: z.string(),
});

export const companyMarketSchema = z.object({
  id: z.number().int(),
  market_id: z.number().int(),
  market: marketRefSchema,
  abilities: z.array(z.string()),
  roles: z.array(roleRefSchema),
});
export type CompanyMarket = z.infer<typeof companyMarketSchema>;

/** The fields every view of a user shares (docs/product.md §3). */
export const personSchema = z.object({
  id: z.number().int(),
  uuid: z.string(),
  email: z.string(),
  name: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  phone: z.string().nullable(),
  locale: z.string(),
});

export const userSchema = personSchema.extend({
  /** The main role: the first direct role, or the first company-market role. */
  role: z.string().nullable(),
  organization: organizationRefSchema.nullable(),
  organizations: z.array(organizationRefSchema),
  markets: z.array(marketRefSchema),
  roles: z.array(roleRefSchema),
  company: z.object({ id: z.number().int(), name: z.string(), markets: z.array(companyMarketSchema) }).nullable(),
  /** The organization requires two-factor sign-in of this user, who has not set it up: only the profile is open. */
  two_factor_required: z.boolean().optional(),
});
export type User = z.infer<typeof userSchema>;

export const abilitySchema = z.object({
  name: z.string(),
  entity_id: z.number().int().nullable(),
  entity_type: z.string().nullable(),
});

/**
 * PUT /users/me: what a user changes of their own account (the profile screen). The e-mail, roles,
 * markets and company stay the administrators'.
 */
export const profileBodySchema = z.strictObject({
  first_name: z.string().trim().max(100),
  last_name: z.string().trim().max(100),
  phone: z.string().trim().max(50).nullable(),
  locale: z.enum(LOCALES),
});
export type ProfileBody = z.infer<typeof profileBodySchema>;

/** PUT /users/me/password: the current password, then the new one twice (spec: 8 characters or more, matching). */
export const passwordChangeBodySchema = z.strictObject({
  current_password: z.string().max(MAX_PASSWORD_LENGTH),
  password: z.string().max(MAX_PASSWORD_LENGTH),
  password_confirmation: z.string().max(MAX_PASSWORD_LENGTH),
});
export type PasswordChangeBody = z.infer<typeof passwordChangeBodySchema>;

/** Two-factor sign-in on the profile (GET /users/me/two-factor). */
export const twoFactorStatusSchema = z.object({
  enabled: z.boolean(),
  enabled_at: z.string().nullable(),
  recovery_codes_left: z.number().int(),
});
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;
/** The secret of a setup, for the authenticator app: typed in, or read from the otpauth:// address as a QR code. */
export const twoFactorSetupSchema = z.object({ secret: z.string(), otpauth_uri: z.string() });
export const twoFactorEnableBodySchema = z.strictObject({ code: z.string().max(20) });
/** Ten one-time recovery codes, shown once. */
export const recoveryCodesSchema = z.object({ recovery_codes: z.array(z.string()) });
export const twoFactorDisableBodySchema = z.strictObject({ password: z.string().max(MAX_PASSWORD_LENGTH), code: z.string().max(20) });
