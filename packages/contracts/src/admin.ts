import { z } from 'zod';
import { decimalInputSchema, decimalStringSchema, RATE_LIMITS } from './decimal.ts';
import { CodeDisabledStatus, LOCALES, ROLES } from './enums.ts';
import { personSchema } from './users.ts';
import { currencyRefSchema, isoDateSchema, listQuerySchema, marketSummarySchema, refSchema } from './common.ts';

/*
 * Wire schemas of the administration endpoints. Entities are what the API answers;
 * inputs are what create (POST) and update (PUT) accept.
 *
 * Inputs are strict and whole (docs/decisions.md "Write bodies are strict"): a key the
 * schema does not name is refused (422 naming it), and every field the form holds is required,
 * an empty one sent as null, "" or []. A PUT replaces the record, so a field it could leave out
 * would be reset: a misspelt `markets` emptied a company's markets. Only a password (absent:
 * kept), an `organization_id` that only a super-admin picks and a currency's `name` (absent: the
 * ISO 4217 name) may be left out.
 */

const name = (max = 200) => z.string().trim().min(1).max(max);
/** Ids of the records a resource holds (its markets, codes, users): required, [] for none. */
const ids = z.array(z.number().int().positive()).max(1000);

/**
 * Query of the dated lists (currency conversions, release notes): without a sort or a direction
 * the newest come first, so `direction` has no default here.
 */
export const newestFirstListQuerySchema = listQuerySchema.extend({ direction: z.enum(['asc', 'desc']).optional() });
export type NewestFirstListQuery = z.infer<typeof newestFirstListQuerySchema>;

// Currencies ----------------------------------------------------------------------------------
export const currencySchema = z.object({ id: z.number().int(), iso_code: z.string(), name: z.string() });
export type Currency = z.infer<typeof currencySchema>;
export const currencyInputSchema = z.strictObject({
  iso_code: z
    .string()
    .trim()
    .toUpperCase()
    .min(1, { abort: true })
    .regex(/^[A-Z]{3}$/, 'validation.currency_code'),
  /** Missing or empty: the standard English name of the ISO 4217 code (docs/decisions.md). */
  name: z.string().trim().max(100).nullish(),
});
export type CurrencyInput = z.infer<typeof currencyInputSchema>;

// Currency conversions --------------------------------------------------------------------------
export const currencyConversionSchema = z.object({
  id: z.number().int(),
  /** Multiplier: an amount in from_currency × rate is the amount in to_currency; exact, 10 decimals. */
  rate: decimalStringSchema,
  from_currency: currencyRefSchema,
  to_currency: currencyRefSchema,
  valid_from: z.string(),
});
export type CurrencyConversion = z.infer<typeof currencyConversionSchema>;
export const currencyConversionInputSchema = z.strictObject({
  from_currency_id: z.number().int().positive(),
  to_currency_id: z.number().int().positive(),
  /** A decimal string ("0.0873912345"): at most 10 digits before the point and 10 after. */
  rate: decimalInputSchema(RATE_LIMITS),
  valid_from: isoDateSchema,
});
export type CurrencyConversionInput = z.infer<typeof currencyConversionInputSchema>;

// Organizations, settings, information modals ---------------------------------------------------
/** Settings an organization may hold, their kind and default. */
export const ORGANIZATION_SETTINGS = {
  /** Preflight: a change against the previous period above this percentage is reported (Info). */
  deviation_percentage: { kind: 'number', default: 20 },
  /**
   * Automatic reminders: this many days before an open period's deadline, and the day after it,
   * the reporters of companies that have not submitted get one (communications.reminders.ts); 0
   * (the default) sends none.
   */
  reminder_days: { kind: 'integer', default: 0 },
  /** Statistics: a cell with fewer contributing companies than this is confidential (docs/architecture.md §8). */
  min_contributors: { kind: 'integer', default: 3 },
  /** Statistics: a cell whose largest contributor holds more than this percentage of it is confidential. */
  dominance_percentage: { kind: 'number', default: 85 },
  /**
   * Statistics: no one who holds every published figure (and, as a member, its own) may narrow a
   * confidential cell to within this percentage of its true value (docs/decisions.md "Disclosure control").
   */
  protection_percentage: { kind: 'number', default: 10 },
  /**
   * Statistics: 1 publishes a period that is not complete with estimates for the missing reports
   * (each company's last published report times the change of the companies that reported in both
   * periods), marked as estimated and replaced when the report comes (docs/decisions.md "Estimates
   * for missing reports"); 0 leaves them out.
   */
  estimate_missing_reports: { kind: 'switch', default: 0 },
  /**
   * Sign-in: 1 requires two-factor sign-in of administrators, market administrators and market
   * cluster administrators (who read every member's figures); one who has not set it up reaches
   * only the profile until they do (docs/decisions.md "Two-factor sign-in").
   */
  require_two_factor: { kind: 'switch', default: 0 },
} as const;
export type OrganizationSettingKey = keyof typeof ORGANIZATION_SETTINGS;

export const organizationSchema = z.object({
  id: z.number().int(),
  uuid: z.string(),
  name: z.string(),
  mail_description: z.string().nullable(),
  settings: z.record(z.string(), z.number()),
});
export type Organization = z.infer<typeof organizationSchema>;
export const organizationInputSchema = z.strictObject({ name: name(200), mail_description: z.string().max(2000).nullable() });
export type OrganizationInput = z.infer<typeof organizationInputSchema>;
/** A setting's value is checked by the server (docs/product.md §8 messages); here only its size is bounded. */
const settingValue = z.unknown().superRefine((value, ctx) => {
  if (typeof value === 'string' && value.length > 50) ctx.addIssue({ code: 'too_big', origin: 'string', maximum: 50, inclusive: true, input: value });
});
export const organizationSettingsInputSchema = z.strictObject({
  settings: z.record(z.string(), settingValue).refine((settings) => Object.keys(settings).every((key) => key.length <= 100), 'validation.invalid'),
});

export const informationModalSchema = z.object({
  id: z.number().int(),
  organization_id: z.number().int(),
  title: z.string(),
  body: z.string(),
  active: z.boolean(),
  starts_on: z.string().nullable(),
  ends_on: z.string().nullable(),
});
export type InformationModal = z.infer<typeof informationModalSchema>;
export const informationModalInputSchema = z.strictObject({
  organization_id: z.number().int().positive(),
  title: name(200),
  body: z.string().trim().min(1).max(20000),
  active: z.boolean(),
  starts_on: isoDateSchema.nullable(),
  ends_on: isoDateSchema.nullable(),
});
export type InformationModalInput = z.infer<typeof informationModalInputSchema>;

// Releases ---------------------------------------------------------------------------------------
export const releaseSchema = z.object({
  id: z.number().int(),
  version: z.string(),
  release_date: z.string(),
  title: z.string(),
  notes: z.string(),
  views: z.number().int(),
});
export type Release = z.infer<typeof releaseSchema>;
export const releaseInputSchema = z.strictObject({
  version: z.string().trim().min(1).max(50),
  release_date: isoDateSchema,
  title: z.string().trim().max(200),
  notes: z.string().max(50000),
});
export type ReleaseInput = z.infer<typeof releaseInputSchema>;

// Markets and clusters ---------------------------------------------------------------------------
export const marketSchema = marketSummarySchema.extend({
  uuid: z.string(),
  organization: refSchema,
  currency: currencyRefSchema.nullable(),
  has_logotype: z.boolean(),
});
export type Market = z.infer<typeof marketSchema>;
export const marketInputSchema = z.strictObject({
  /** Required of a super-admin; an administrator's markets belong to their organization. */
  organization_id: z.number().int().positive().optional(),
  international_name: name(100),
  local_name: name(100),
  iso_code: z
    .string()
    .trim()
    .toUpperCase()
    .min(1, { abort: true })
    .regex(/^[A-Z]{2,3}$/, 'validation.market_code'),
  currency_id: z.number().int().positive().nullable(),
});
export type MarketInput = z.infer<typeof marketInputSchema>;

export const clusterSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  organization: refSchema,
  markets: z.array(marketSummarySchema),
});
export type Cluster = z.infer<typeof clusterSchema>;
export const clusterInputSchema = z.strictObject({
  organization_id: z.number().int().positive().optional(),
  name: name(100),
  market_ids: ids,
});
export type ClusterInput = z.infer<typeof clusterInputSchema>;

// Codes, code sections, code groups ------------------------------------------------------------
const disabledStatus = z.union([
  z.literal(CodeDisabledStatus.AllAllowed),
  z.literal(CodeDisabledStatus.ValueDisabled),
  z.literal(CodeDisabledStatus.VolumeDisabled),
  z.literal(CodeDisabledStatus.AllDisabled),
]);
export const codeRefSchema = z.object({ id: z.number().int(), code: z.string(), name: z.string() });
export const codeSchema = codeRefSchema.extend({
  organization: refSchema,
  disabled_status: z.number().int(),
  markets: z.array(marketSummarySchema),
  section: refSchema.nullable(),
  groups: z.array(z.object({ id: z.number().int(), title: z.string() })),
});
export type Code = z.infer<typeof codeSchema>;
export const codeInputSchema = z.strictObject({
  organization_id: z.number().int().positive().optional(),
  code: z
    .string()
    .trim()
    .min(1, { abort: true })
    .max(50)
    .regex(/^[\p{L}\p{N}._-]+$/u, 'validation.code_characters'),
  name: name(200),
  disabled_status: disabledStatus,
  market_ids: ids,
});
export type CodeInput = z.infer<typeof codeInputSchema>;

export const codeSectionSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  start: z.number().int(),
  length: z.number().int(),
  organization: refSchema,
  organization_id: z.number().int(),
  markets: z.array(marketSummarySchema),
});
export type CodeSection = z.infer<typeof codeSectionSchema>;
export const codeSectionInputSchema = z.strictObject({
  organization_id: z.number().int().positive().optional(),
  name: name(100),
  start: z.number().int().min(0).max(999_999_999),
  length: z.number().int().min(1).max(999_999_999),
  market_ids: ids,
});
export type CodeSectionInput = z.infer<typeof codeSectionInputSchema>;

export const codeGroupSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  organization: refSchema,
  codes: z.array(codeRefSchema),
});
export type CodeGroup = z.infer<typeof codeGroupSchema>;
export const codeGroupInputSchema = z.strictObject({
  organization_id: z.number().int().positive().optional(),
  title: name(200),
  code_ids: ids,
});
export type CodeGroupInput = z.infer<typeof codeGroupInputSchema>;

// Companies --------------------------------------------------------------------------------------
const roleName = z.enum(ROLES);
export const companyMarketInputSchema = z.strictObject({ market_id: z.number().int().positive(), roles: z.array(roleName).max(9) });
export const companyListItemSchema = z.object({
  id: z.number().int(),
  uuid: z.string(),
  name: z.string(),
  disabled_at: z.string().nullable(),
  has_logotype: z.boolean(),
  markets: z.array(marketSummarySchema),
});
export type CompanyListItem = z.infer<typeof companyListItemSchema>;
export const companySchema = companyListItemSchema.extend({
  organizations: z.array(refSchema),
  company_markets: z.array(
    z.object({ id: z.number().int(), market_id: z.number().int(), market: marketSummarySchema, roles: z.array(z.object({ name: z.string() })) }),
  ),
  users: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      email: z.string(),
      markets: z.array(marketSummarySchema),
      roles: z.array(z.object({ name: z.string() })),
    }),
  ),
  codes: z.array(codeRefSchema),
  /**
   * Whether the caller may change what the company is everywhere (name, disabled, logotype): only
   * an administrator of every organization the company belongs to, or a super-admin.
   */
  company_editable: z.boolean(),
});
export type Company = z.infer<typeof companySchema>;
export const companyInputSchema = z.strictObject({
  name: name(200),
  /** ISO date-time; null keeps the company enabled. */
  disabled_at: z.string().datetime({ offset: true }).nullable(),
  /** A super-admin's choice; an administrator sends [] (their own organization is meant). */
  organization_ids: ids,
  markets: z.array(companyMarketInputSchema).max(500),
  code_ids: ids,
  user_ids: ids,
});
export type CompanyInput = z.infer<typeof companyInputSchema>;

// Users (administration) ---------------------------------------------------------------------------
export const adminUserSchema = personSchema.extend({
  disabled_at: z.string().nullable(),
  company: refSchema.nullable(),
  organizations: z.array(z.object({ id: z.number().int(), uuid: z.string(), name: z.string() })),
  markets: z.array(marketSummarySchema),
  roles: z.array(z.object({ name: z.string() })),
  /** Memberships in organizations the caller does not see (a user shared with other organizations). */
  other_organizations: z.number().int(),
  /**
   * Whether the caller may change what belongs to the person (e-mail, password, names, phone,
   * language, company, roles, disabled): only an administrator of every organization the user
   * belongs to, or a super-admin. Otherwise only the caller's organization's part (its markets).
   */
  person_editable: z.boolean(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;
export const adminUserInputSchema = z.strictObject({
  email: z.string().trim().max(200),
  first_name: z.string().trim().max(100),
  last_name: z.string().trim().max(100),
  phone: z.string().trim().max(50).nullable(),
  locale: z.enum(LOCALES),
  /** Required when creating; on update, empty or absent keeps the password. */
  password: z.string().max(200).optional(),
  password_confirmation: z.string().max(200).optional(),
  company_id: z.number().int().positive().nullable(),
  /** A super-admin's choice; an administrator sends [] (their own organization is meant). */
  organization_ids: ids,
  market_ids: ids,
  roles: z.array(roleName).max(9),
  disabled: z.boolean(),
});
export type AdminUserInput = z.infer<typeof adminUserInputSchema>;
