// Enumerations keep the specification's numbers (docs/product.md §4) and the role and permission names (docs/product.md §6).

export const LOCALES = ['en-US', 'sv-SE', 'fi-FI', 'dk-DK', 'no-NO'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en-US';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

export const ReportStatus = {
  ProcessingFile: 10,
  InvalidFile: 11,
  Ongoing: 20,
  ProcessingData: 30,
  WaitingForApproval: 40,
  WaitingForCompletion: 50,
  Approved: 60,
} as const;
export type ReportStatus = (typeof ReportStatus)[keyof typeof ReportStatus];

export const PreflightSeverity = { Success: 10, Info: 20, Warning: 30, Error: 40 } as const;
export type PreflightSeverity = (typeof PreflightSeverity)[keyof typeof PreflightSeverity];

export const CodeDisabledStatus = { AllAllowed: 0, ValueDisabled: 10, VolumeDisabled: 20, AllDisabled: 30 } as const;
export type CodeDisabledStatus = (typeof CodeDisabledStatus)[keyof typeof CodeDisabledStatus];

export const CommunicationStatus = {
  Draft: 0,
  SendingPreflight: 1,
  PreflightSent: 2,
  WaitingToBeSent: 10,
  Sent: 20,
  Failed: 30,
} as const;
export type CommunicationStatus = (typeof CommunicationStatus)[keyof typeof CommunicationStatus];

export const ROLES = ['admin', 'super-admin', 'reporter', 'cluster-admin', 'market-admin', 'viewer', 'cluster-viewer', 'just-stats', 'company'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** The permissions of docs/product.md §6: global abilities that guard the administration screens. */
export const PERMISSIONS = [
  'manage-users',
  'list-users',
  'view-markets',
  'manage-markets',
  'manage-currencies',
  'manage-releases',
  'manage-clusters',
  'manage-organizations',
  'manage-companies',
  'manage-codes',
  'view-codes',
  'manage-currency-conversion',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/**
 * Abilities of the reporting workflow. They are granted per market (entity_type "market")
 * or, for organization-wide roles, globally. See docs/permissions.md.
 */
export const WORKFLOW_ABILITIES = [
  'upload-reports',
  'approve-reports',
  'approve-cluster-reports',
  'manage-periods',
  'view-statistics',
  'view-cluster-statistics',
  'view-report-history',
  'view-company-reports',
  'send-communications',
] as const;
export type WorkflowAbility = (typeof WORKFLOW_ABILITIES)[number];

export type AbilityName = Permission | WorkflowAbility;

/**
 * Every enumeration served by GET /protocol/enums/{locale}: values (name → number or string)
 * and the catalogue key prefix of its translated labels.
 */
export const ENUMERATIONS = {
  report_status: ReportStatus,
  preflight_severity: PreflightSeverity,
  code_disabled_status: CodeDisabledStatus,
  communication_status: CommunicationStatus,
  role: Object.fromEntries(ROLES.map((r) => [r, r])) as Record<Role, Role>,
  locale: Object.fromEntries(LOCALES.map((l) => [l, l])) as Record<Locale, Locale>,
} as const;
export type EnumerationName = keyof typeof ENUMERATIONS;
