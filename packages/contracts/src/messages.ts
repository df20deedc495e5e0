import { DEFAULT_LOCALE, type Locale, LOCALES } from './enums.ts';
import type { mailMessages } from './mail-messages.ts';

/**
 * The message catalogue (docs/product.md §8). Texts must match the specification letter for letter.
 * `:name` placeholders are filled by `translate`.
 */
export const enUS = {
  // Login
  'auth.failed': 'These credentials do not match our records.',
  'auth.throttle': 'Too many login attempts. Please try again in :seconds seconds.',
  'auth.user_not_found': 'The user could not be found.',
  'auth.user_disabled': 'The user account has been disabled.',
  'auth.invalid_credentials': 'The credentials provided are not valid.',
  'auth.invalid_email': 'The email address is badly formatted.',
  'auth.invalid_password': 'The password is invalid or the user does not have a password.',
  'auth.two_factor_required': 'Enter the code from your authenticator app.',
  'auth.two_factor_invalid': 'The code is not valid. Enter the current code from your authenticator app, or one of your recovery codes.',
  'two_factor.already_on': 'Two-factor sign-in is already on.',
  'two_factor.not_on': 'Two-factor sign-in is not on.',
  'two_factor.no_setup': 'Start setting up two-factor sign-in first.',
  'two_factor.setup_required': 'Your organization requires two-factor sign-in: turn it on on your profile first.',
  'auth.password_too_short': 'The password must be 8 characters long or more.',
  'auth.email_in_use': 'The email address is already in use by another account.',
  'auth.passwords_not_matching': 'Passwords are not matching.',
  'auth.emails_not_matching': 'Emails are not matching.',
  'auth.email_not_sent': 'Email could not be sent to this email address.',
  'auth.reset_failed': 'Could not reset the password, please request a new link.',
  'auth.device_name_invalid': 'Device name is missing or invalid.',
  'auth.invalid_token': 'Invalid token.',
  'auth.no_organization': 'You have no organization(s), please contact support.',
  // Report status change
  'report_status.no_access': "You don't have access to change this report.",
  'report_status.invalid': 'Invalid status.',
  'report_status.period_closed': 'This period has been closed, please contact your market administrator.',
  'report_status.already_approved': 'This report has already been approved.',
  // Report, import and file
  'report.exists': 'This report already exists.',
  'report.invalid_status_for_action': 'Report has invalid status for this action.',
  'report.upload_not_allowed': 'Report file cannot be uploaded due to the report status.',
  'import.not_xlsx': "Invalid file. Please make sure the file you're trying to import is an xlsx-file.",
  'import.empty': 'The report file is empty.',
  'import.column_count': 'Invalid column count.',
  'import.invalid_code': 'Invalid code on row :row.',
  'import.code_not_available': 'The code is not available to you (row :row).',
  'import.code_inactive': 'The code :code is inactive (row :row).',
  'import.duplicate_code': 'Report has duplicate codes on row :row for code :code.',
  'import.column_b_invalid': 'Column B contains invalid characters on row :row.',
  'import.column_c_invalid': 'Column C contains invalid characters on row :row.',
  'import.file_invalid': 'The file :file_name could not be uploaded due to containing invalid data.',
  'import.not_markable': 'The errors could not be marked in this file. Download the error list instead.',
  // Period
  'period.exists': 'This period (:title) does already exist in this market.',
  'period.not_found': 'The period (:title) does not exist.',
  'period.not_published': 'The period is not yet published for viewing.',
  'period.not_for_company': 'The period is not available for this company.',
  'period.no_previous_report': "There is no report for the period you're trying to copy from (:previous_period_title).",
  // Communication
  'communication.preflight_required': 'A preflight must be sent before sending the mail.',
  'communication.update_requires_draft': 'Communication status must be draft to be updated.',
  'communication.preflight_requires_draft': 'Communication status must be draft to send preflight email.',
  'communication.no_access': 'You do not have access to this action.',
  // Generic
  'generic.not_found': 'Could not find what you were looking for.',
  'generic.forbidden': 'Permission denied. Your user does not have permission to view this resource.',
  'generic.error': 'Something went wrong, try again or contact support.',
  'generic.could_not_save': 'Could not save.',
  'generic.model_not_saved': ':model not saved.',
  'generic.invalid_setting': ':key is not a valid setting.',
  'generic.invalid_setting_value': ':value is not a valid value for setting :key.',
  'generic.setting_below_zero': ':key cannot be less than 0.',
  // Password reset
  'passwords.reset': 'Your password has been reset!',
  'passwords.sent': 'We have e-mailed your password reset link!',
  'passwords.token': 'This password reset token is invalid.',
  'passwords.user': "We can't find a user with that e-mail address.",

  // Messages of our own (not in the specification).
  'auth.unauthenticated': 'You are not signed in.',
  'auth.csrf': 'This request must be sent by the application (X-Requested-With header missing).',
  'auth.organization_not_member': 'You are not a member of the chosen organization.',
  'auth.token_organization': 'A token works in the organization it was issued for. Issue another token to work in another organization.',
  'auth.organization_required': 'Choose one of your organizations.',
  'generic.validation': 'The given data was invalid.',
  'generic.conflict': 'The request conflicts with the current state.',
  'generic.payload_too_large': 'The request is too large.',
  'generic.in_use': ':model is still in use and cannot be deleted.',
  // What :model of generic.in_use names, and :status of period.invalid_status_for_action (ours).
  'model.company': 'The company :name',
  'model.market': 'The market :name',
  'model.organization': 'The organization :name',
  'model.code': 'The code :code',
  'model.currency': 'The currency :code',
  'model.own_account': 'Your own account',
  'model.record': 'This record',
  'period.state.draft': 'draft',
  'period.state.open': 'open',
  'period.state.closed': 'closed',
  'communication.unknown_variable': 'The variable {{:name}} is not known. Use one of: :variables.',
  'communication.no_recipients': 'No one matches the chosen recipients.',
  'communication.status_for_action': 'The communication is :status: this cannot be done now.',
  'communication.nothing_to_retry': 'There are no failed deliveries to send again.',
  'communication.send_at_past': 'The send time must be in the future.',
  'communication.period_market': 'The period must be in one of the chosen markets.',
  'communication.recipient_unknown': 'The chosen user is not one of the recipients.',
  'communication.attachment_type': 'The file :file_name is not an accepted attachment: PDF, PNG, JPEG, xlsx, docx, text or CSV.',
  'communication.attachment_count': 'A communication can have at most :max attachments.',
  'communication.attachment_size': 'An attachment can be at most :max MB.',
  'communication.preflight_failed': 'The preflight could not be sent to :email: :reason',
  'communication.status_partly_failed': ':status — :failed of :total failed',
  'users.super_admin_no_organization': 'A super-admin must not belong to any organization.',
  'users.role_not_allowed': 'You cannot give the role :role.',
  'users.disable_self': 'You cannot disable your own account.',
  'companies.shared':
    'This company also belongs to another organization: only an administrator of every organization the company belongs to can change the :attribute.',
  'users.person_shared':
    'This user also belongs to another organization: only an administrator of every organization the user belongs to can change the :attribute.',
  'files.logotype_type': 'The logotype must be a png or jpg image.',
  'files.too_large': 'The file is too large (at most :max).',
  'currencies.unknown_code': ':code is not a standard ISO 4217 currency code: check it, or give the currency a name.',
  'currency_conversions.same_currency': 'The two currencies must differ.',
  'currency_conversions.exists': 'These currencies already have a rate valid from this date.',
  'admin.not_in_organization': 'The chosen :attribute must belong to the same organization.',
  'admin.own_organization_only': 'You can choose only your own organization.',
  'information_modals.ends_before_start': 'The end date must not be before the start date.',
  'code_sections.overlap': 'The range overlaps the code section :name.',
  // docs/product.md §9: plural forms for year, month, week and day (`formatDuration`; the web's i18next picks
  // the same keys by count). A locale's catalogue may add the forms its language has (_few, _many).
  'duration.year_one': ':count year',
  'duration.year_other': ':count years',
  'duration.month_one': ':count month',
  'duration.month_other': ':count months',
  'duration.week_one': ':count week',
  'duration.week_other': ':count weeks',
  'duration.day_one': ':count day',
  'duration.day_other': ':count days',
  'import.too_large': 'The file is too large to import, or expands to an unreasonable size.',
  'import.too_many_rows': 'The file has too many rows (at most :max).',
  'import.corrupt': 'The file is damaged and cannot be read. Save it again as an xlsx-file and retry.',
  'import.password_protected': 'The file is password-protected. Save it without a password and upload it again.',
  'import.csv_not_utf8': 'The CSV file is not UTF-8 text. Save it again as "CSV UTF-8" and retry.',
  'import.csv_open_quote': 'Row :row: a quoted field is not closed; the file ends inside it.',
  'import.failed': 'The file could not be processed. Upload it again; if this happens again, contact your administrator.',
  'import.volume_must_be_empty': 'Column B must be empty for code :code, its volume is not reported (row :row).',
  'import.value_must_be_empty': 'Column C must be empty for code :code, its value is not reported (row :row).',
  'import.formula_without_value':
    'Row :row: the formula in column :column has no value; open the file in your spreadsheet program, let it calculate, and save it again.',
  'import.too_many_errors':
    'The file has :count errors; this list stops after the first :max, at row :row. Fix them and import the file again to see the rest.',
  'history.header': 'The first row must name the columns Market, Period, Company, Code, Volume and Value (missing: :missing).',
  'history.unknown_market': 'Unknown market on row :row.',
  'history.market_not_administered': 'You do not administer the market :market (row :row).',
  'history.invalid_period': 'Invalid period on row :row: write it as YYYY-MM (2016-01).',
  'history.period_dates': 'The period :period of :market does not span the month, so the row cannot go into it (row :row).',
  'history.unknown_company': 'Unknown company on row :row.',
  'history.ambiguous_company': 'More than one company has the name on row :row: give its id instead.',
  'history.company_not_in_market': 'The company :company does not report in :market (row :row).',
  'history.code_not_available': 'The code :code is not available to the company in the market (row :row).',
  'history.volume_must_be_empty': 'Column :column must be empty for code :code, its volume is not reported (row :row).',
  'history.value_must_be_empty': 'Column :column must be empty for code :code, its value is not reported (row :row).',
  'history.figure_invalid': 'Column :column contains invalid characters on row :row.',
  'history.duplicate_row': 'Row :row repeats the market, period, company and code of row :first.',
  'history.status_comment': 'From the history import of :file_name.',
  'history.not_checked': 'The file has not been checked without errors; it cannot be imported.',
  'history.not_cancellable': 'The import is not running.',
  'history.not_publishable': 'Only a finished import can be published.',
  'history.busy': 'Another history import is running for this organization; wait for it to end.',
  'history.sheet.market': 'Market',
  'history.sheet.period': 'Period',
  'history.sheet.company': 'Company',
  'idempotency.invalid_key': 'The Idempotency-Key must be 1 to 255 visible ASCII characters.',
  'idempotency.mismatch': 'This Idempotency-Key was used for another request; use a new key for each request.',
  'idempotency.in_progress': 'A request with this Idempotency-Key is still being answered; send it again in a moment.',
  'import.rows_body': 'Send the rows as JSON (an array of {"code", "volume", "value"}) or as CSV (text/csv).',
  'auth.token_scope': "This token may only upload its company's reports.",
  'import.sheet.row': 'Row',
  'import.sheet.code': 'Code',
  'import.sheet.volume': 'Volume',
  'import.sheet.value': 'Value',
  'import.sheet.name': 'Name',
  'import.sheet.note': 'Note',
  'import.sheet.error': 'Error',
  'import.sheet.column': 'Column',
  'import.sheet.cell': 'In the cell',
  'import.sheet.note_volume_disabled': 'Volume not reported for this code: leave column B (Volume) empty.',
  'import.sheet.note_value_disabled': 'Value not reported for this code: leave column C (Value) empty.',
  'report.preflight_has_errors': 'The report cannot be submitted while its preflight has errors.',
  'report.unapprove_needs_republication': 'The period is published: undoing this approval publishes the period again without this report.',
  'preflight.empty': 'The report is empty.',
  'preflight.missing_code': 'Code :code (:name) was reported in :period but is missing now.',
  'preflight.deviation': 'Code :code (:name): :field changed by :percent % against :period.',
  'preflight.ok': 'No findings.',
  'preflight.identical':
    'The report is identical to :period: every code with the same volume and value. Was it copied without the new figures? Check it before you submit.',
  'preflight.deviation_rise': 'Code :code (:name): :field rose by :percent % against :period.',
  'preflight.deviation_fall': 'Code :code (:name): :field fell by :percent % against :period.',
  'preflight.negative': 'Code :code (:name) has a negative :field (:amount). Is it a return or a correction? Check it before you submit.',
  'preflight.negative_more': 'And :count more negative figures.',
  'period.invalid_status_for_action': 'The period is :status, so this cannot be done.',
  'period.no_access': 'You do not have access to the periods of this market.',
  'period.completeness_range': 'Choose a range from an earlier month to a later one, at most :months months.',
  // Statistics (docs/architecture.md §8): a conversion the figures need is missing.
  'statistics.no_rate': 'There is no conversion rate from :from to :to valid on :date.',
  'statistics.unknown_currency': 'The currency :currency does not exist.',
  'statistics.no_access': 'You do not have access to these statistics.',

  // Standard field messages
  'validation.required': 'The :attribute field is required.',
  'validation.string': 'The :attribute must be a string.',
  'validation.email': 'The :attribute must be a valid email address.',
  'validation.unique': 'The :attribute has already been taken.',
  'validation.date': 'The :attribute is not a valid date.',
  'validation.numeric': 'The :attribute must be a number.',
  'validation.integer': 'The :attribute must be an integer.',
  'validation.boolean': 'The :attribute field must be true or false.',
  'validation.min.string': 'The :attribute must be at least :min characters.',
  'validation.max.string': 'The :attribute may not be greater than :max characters.',
  'validation.min.numeric': 'The :attribute must be at least :min.',
  'validation.max.numeric': 'The :attribute may not be greater than :max.',
  'validation.in': 'The selected :attribute is invalid.',
  'validation.uuid': 'The :attribute must be a valid UUID.',
  'validation.invalid': 'The :attribute is invalid.',
  'validation.decimal': 'The :attribute must be a number with at most :digits digits before the decimal point and :scale after it.',
  'validation.search_min': 'The search must be longer than 2 characters.',
  // Of our own: NUL, other control characters or half a UTF-16 surrogate pair in a text input.
  'validation.characters': 'The :attribute contains characters that are not allowed.',
  // Of our own: field messages a person can act on.
  'validation.gt.numeric': 'The :attribute must be greater than :min.',
  'validation.array': 'The :attribute must be a list.',
  'validation.currency_code': 'The :attribute must be three letters, such as EUR.',
  'validation.market_code': 'The :attribute must be two or three letters, such as SE.',
  'validation.code_characters': 'The :attribute may contain only letters, digits, dots, hyphens and underscores.',
  // Of our own: a key that a write body's schema does not name. A misspelt key used to be
  // ignored, so a PUT that meant to keep a list emptied it; :attribute is the key as sent, not a label.
  'validation.unknown_key': 'The :attribute field is not allowed.',

  // Of our own: what a field is called in a field message (":attribute", and ":key" of the settings
  // messages), by its wire name; the last segment that is not a list index counts ("markets.0.roles"
  // is "roles"). Written as in the middle of a sentence; at the start of one the first letter is
  // made upper case. A field without a label is called by its wire name ("from_currency_id" is
  // "from currency"): every field of a form has one here.
  'attribute.active': 'active',
  'attribute.body': 'text',
  'attribute.code': 'code',
  'attribute.code_ids': 'codes',
  'attribute.comment': 'comment',
  'attribute.company_id': 'company',
  'attribute.company_ids': 'companies',
  'attribute.currency_id': 'currency',
  'attribute.deadline': 'deadline',
  'attribute.device_name': 'device name',
  'attribute.direction': 'sort direction',
  'attribute.disabled': 'disabled state',
  'attribute.disabled_at': 'disabled-from date',
  'attribute.disabled_status': 'disabled status',
  'attribute.deviation_percentage': 'deviation percentage',
  'attribute.dominance_percentage': 'dominance percentage',
  'attribute.email': 'e-mail address',
  'attribute.ends_on': 'end date',
  'attribute.file': 'file',
  'attribute.first_name': 'first name',
  'attribute.foot_notes': 'foot notes',
  'attribute.from_currency_id': 'from currency',
  'attribute.international_name': 'international name',
  'attribute.iso_code': 'ISO code',
  'attribute.last_name': 'last name',
  'attribute.length': 'length',
  'attribute.local_name': 'local name',
  'attribute.locale': 'language',
  'attribute.mail_description': 'mail description',
  'attribute.market_id': 'market',
  'attribute.market_ids': 'markets',
  'attribute.markets': 'markets',
  'attribute.min_contributors': 'minimum contributors',
  'attribute.name': 'name',
  'attribute.notes': 'notes',
  'attribute.organization': 'organization',
  'attribute.organization_id': 'organization',
  'attribute.organization_ids': 'organizations',
  'attribute.page': 'page',
  'attribute.password': 'password',
  'attribute.password_confirmation': 'password confirmation',
  'attribute.per_page': 'rows per page',
  'attribute.period_uuid': 'period',
  'attribute.phone': 'phone number',
  'attribute.protection_percentage': 'protection percentage',
  'attribute.estimate_missing_reports': 'estimate missing reports',
  'attribute.require_two_factor': 'require two-factor sign-in',
  'attribute.rate': 'rate',
  'attribute.recipient_user_id': 'recipient',
  'attribute.release_date': 'release date',
  'attribute.reminder_days': 'reminder days',
  'attribute.report_statuses': 'report statuses',
  'attribute.roles': 'roles',
  'attribute.search': 'search',
  'attribute.send_at': 'send time',
  'attribute.settings': 'settings',
  'attribute.sort': 'sort column',
  'attribute.start': 'start',
  'attribute.starts_on': 'start date',
  'attribute.status': 'status',
  // A report row's figures, as the preflight's messages name them (ours).
  'attribute.volume': 'volume',
  'attribute.value': 'value',
  'attribute.subject': 'subject',
  'attribute.title': 'title',
  'attribute.to_currency_id': 'to currency',
  'attribute.token': 'token',
  'attribute.user_ids': 'users',
  'attribute.valid_from': 'valid-from date',
  'attribute.version': 'version',

  // Enumeration labels: enum.<name>.<value>
  'enum.report_status.10': 'Processing file',
  'enum.report_status.11': 'Invalid file',
  'enum.report_status.20': 'Ongoing',
  'enum.report_status.30': 'Processing data',
  'enum.report_status.40': 'Waiting for approval',
  'enum.report_status.50': 'Waiting for completion',
  'enum.report_status.60': 'Approved',
  'enum.preflight_severity.10': 'Success',
  'enum.preflight_severity.20': 'Info',
  'enum.preflight_severity.30': 'Warning',
  'enum.preflight_severity.40': 'Error',
  'enum.code_disabled_status.0': 'All allowed',
  'enum.code_disabled_status.10': 'Value disabled',
  'enum.code_disabled_status.20': 'Volume disabled',
  'enum.code_disabled_status.30': 'All disabled',
  'enum.communication_status.0': 'Draft',
  'enum.communication_status.1': 'Sending preflight',
  'enum.communication_status.2': 'Preflight sent',
  'enum.communication_status.10': 'Waiting to be sent',
  'enum.communication_status.20': 'Sent',
  'enum.communication_status.30': 'Failed',
  'enum.role.admin': 'Administrator',
  'enum.role.super-admin': 'Super administrator',
  'enum.role.reporter': 'Reporter',
  'enum.role.cluster-admin': 'Market cluster administrator',
  'enum.role.market-admin': 'Market administrator',
  'enum.role.viewer': 'Statistics viewer',
  'enum.role.cluster-viewer': 'Cluster statistics viewer',
  'enum.role.just-stats': 'Only statistics',
  'enum.role.company': 'Company',
  'enum.locale.en-US': 'English (US)',
  'enum.locale.sv-SE': 'Svenska',
  'enum.locale.fi-FI': 'Suomi',
  'enum.locale.dk-DK': 'Dansk',
  'enum.locale.no-NO': 'Norsk',
} as const;

/** A key of the shared catalogue, or of the mails' texts (`mail-messages.ts`, the server's only). */
export type MessageKey = keyof typeof enUS | keyof typeof mailMessages;
export type Catalogue = Partial<Record<MessageKey, string>>;

/**
 * The catalogue of each language. Here only en-US: the translations are in `locales/`, put into
 * these by `@mss/contracts/locales` (the server imports it; the web loads one language at a time).
 * A key a catalogue lacks falls back to en-US.
 */
export const catalogues: Record<Locale, Catalogue> = {
  'en-US': enUS,
  'sv-SE': {},
  'fi-FI': {},
  'dk-DK': {},
  'no-NO': {},
};

export type MessageParams = Record<string, string | number>;

export function fillPlaceholders(text: string, params: MessageParams = {}): string {
  // Longest names first, so that :row does not eat the start of :rows.
  const names = Object.keys(params).sort((a, b) => b.length - a.length);
  let out = text;
  for (const name of names) out = out.split(`:${name}`).join(String(params[name]));
  return out;
}

/**
 * Placeholders that name fields, by the field's wire name (`{ attribute: 'from_currency_id' }`) or
 * names (a list is joined with ", "): `translate` writes each field's label in the locale.
 */
export type FieldParams = Record<string, string | readonly string[]>;

/** The catalogue's text in the locale (en-US fills what a catalogue lacks). */
function textOf(key: MessageKey, locale: Locale): string {
  return catalogues[locale]?.[key] ?? catalogues['en-US'][key] ?? key;
}

/** The field's last segment that is not a list index: "markets.0.roles" → "roles". */
function fieldName(field: string): string {
  return (
    field
      .split('.')
      .filter((segment) => !/^\d+$/.test(segment))
      .pop() ?? field
  );
}

/**
 * What a field is called in a message, written as in the middle of a sentence: its label of the
 * catalogue ("from_currency_id" → "from currency"), or, for a field without one, its wire name
 * in words, without an id suffix.
 */
export function fieldLabel(field: string, locale: Locale = DEFAULT_LOCALE): string {
  const name = fieldName(field);
  const key = `attribute.${name}`;
  if (isMessageKey(key)) return textOf(key, locale);
  return name.replace(/_ids?$/, '').replace(/_/g, ' ');
}

/** Whether the catalogue has this key (a key built at run time, e.g. from a stored status). */
export const isMessageKey = (key: string): key is MessageKey => Object.hasOwn(catalogues['en-US'], key);

/** The label of an enumeration's value (`enum.<name>.<value>`), or the value itself when the catalogue has none. */
export function enumLabel(name: string, value: string | number, locale: Locale = DEFAULT_LOCALE): string {
  const key = `enum.${name}.${value}`;
  return isMessageKey(key) ? translate(key, undefined, locale) : String(value);
}

const upperFirst = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export function translate(key: MessageKey, params?: MessageParams, locale: Locale = DEFAULT_LOCALE, fields: FieldParams = {}): string {
  const text = textOf(key, locale);
  const labelled: MessageParams = {};
  for (const [name, value] of Object.entries(fields)) {
    // A value of the caller's own wins (a name the service chose).
    if (params && Object.hasOwn(params, name)) continue;
    const label = (typeof value === 'string' ? [value] : value).map((field) => fieldLabel(field, locale)).join(', ');
    labelled[name] = text.startsWith(`:${name}`) ? upperFirst(label) : label;
  }
  return fillPlaceholders(text, { ...labelled, ...params });
}

export const DURATION_UNITS = ['year', 'month', 'week', 'day'] as const;
export type DurationUnit = (typeof DURATION_UNITS)[number];

// Danish and Norwegian are tagged dk-DK and no-NO in the product; Intl knows them as da and nb.
const INTL_LOCALE: Partial<Record<Locale, string>> = { 'dk-DK': 'da-DK', 'no-NO': 'nb-NO' };
const pluralLocale = (locale: Locale): string => INTL_LOCALE[locale] ?? locale;

/**
 * "1 day", "45 days", "2 years": a count of a unit in the locale's plural form (Intl.PluralRules),
 * the form's text from the locale's catalogue, then en-US; a form the catalogue lacks is "other".
 */
export function formatDuration(count: number, unit: DurationUnit, locale: Locale = DEFAULT_LOCALE): string {
  const rule = new Intl.PluralRules(pluralLocale(locale)).select(count);
  const specific = `duration.${unit}_${rule}`;
  // A locale's catalogue may hold plural forms en-US has no key for ("_few", "_many"): textOf looks them up by name.
  const key = (
    Object.hasOwn(catalogues['en-US'], specific) || Object.hasOwn(catalogues[locale] ?? {}, specific) ? specific : `duration.${unit}_other`
  ) as MessageKey;
  return translate(key, { count: count.toLocaleString(pluralLocale(locale)) }, locale);
}

/**
 * A calendar date ("2026-11-10") as the locale writes it in a sentence: "November 10, 2026",
 * "10 november 2026" (sv-SE), "10. november 2026" (dk-DK). Read as a date, not a moment: no time
 * zone can move it to another day.
 */
export function formatDateIn(isoDate: string, locale: Locale = DEFAULT_LOCALE): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return isoDate;
  return new Intl.DateTimeFormat(pluralLocale(locale), { dateStyle: 'long', timeZone: 'UTC' }).format(date);
}

/**
 * Picks the best supported locale from an Accept-Language header ("sv-SE,sv;q=0.9,en;q=0.8"),
 * matching full tags first and then primary languages; en-US when nothing matches.
 */
export function negotiateLocale(header: string | undefined | null): Locale {
  if (!header) return DEFAULT_LOCALE;
  const wanted = header
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: (tag ?? '').trim().toLowerCase(), q: q ? Number(q.slice(2)) || 0 : 1, index };
    })
    .filter((w) => w.tag && w.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { tag } of wanted) {
    const exact = LOCALES.find((l) => l.toLowerCase() === tag);
    if (exact) return exact;
    const primary = tag.split('-')[0];
    const byLanguage = LOCALES.find((l) => l.split('-')[0]!.toLowerCase() === primary || languageAlias[primary!] === l);
    if (byLanguage) return byLanguage;
  }
  return DEFAULT_LOCALE;
}

// Danish and Norwegian are written da/nb/nn in most browsers; the product's tags are dk-DK and no-NO.
const languageAlias: Record<string, Locale> = { da: 'dk-DK', nb: 'no-NO', nn: 'no-NO', en: 'en-US' };
