import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { catalogues, DURATION_UNITS, enUS, fieldLabel, fillPlaceholders, formatDuration, negotiateLocale, translate } from './messages.ts';
import { LOCALES } from './enums.ts';
import * as admin from './admin.ts';
import { listQuerySchema } from './common.ts';

describe('message catalogue', () => {
  it('fills placeholders, the longest names first', () => {
    expect(translate('import.duplicate_code', { row: 4, code: 'A-1' })).toBe('Report has duplicate codes on row 4 for code A-1.');
    expect(fillPlaceholders(':row and :rows', { row: 1, rows: 2 })).toBe('1 and 2');
  });

  it('falls back to en-US for the empty catalogues', () => {
    for (const locale of LOCALES) expect(translate('auth.failed', {}, locale)).toBe('These credentials do not match our records.');
    expect(Object.keys(catalogues['sv-SE'])).toHaveLength(0);
  });

  it('keeps the specification texts that carry apostrophes exactly', () => {
    expect(enUS['passwords.user']).toBe("We can't find a user with that e-mail address.");
    expect(enUS['report_status.no_access']).toBe("You don't have access to change this report.");
  });

  it('negotiates the locale from Accept-Language', () => {
    expect(negotiateLocale('sv-SE,sv;q=0.9')).toBe('sv-SE');
    expect(negotiateLocale('fi')).toBe('fi-FI');
    expect(negotiateLocale('da-DK')).toBe('dk-DK');
    expect(negotiateLocale('nb-NO,en;q=0.5')).toBe('no-NO');
    expect(negotiateLocale('de-DE,fr;q=0.8')).toBe('en-US');
    expect(negotiateLocale('de;q=1, sv;q=0.5')).toBe('sv-SE');
    expect(negotiateLocale(undefined)).toBe('en-US');
  });
});

describe('plural forms for year, month, week and day (docs/product.md §9)', () => {
  it('when a count is one, then the singular; any other count, the plural', () => {
    expect(formatDuration(1, 'year')).toBe('1 year');
    expect(formatDuration(2, 'year')).toBe('2 years');
    expect(formatDuration(1, 'month')).toBe('1 month');
    expect(formatDuration(3, 'month')).toBe('3 months');
    expect(formatDuration(1, 'week')).toBe('1 week');
    expect(formatDuration(0, 'week')).toBe('0 weeks');
    expect(formatDuration(1, 'day')).toBe('1 day');
    expect(formatDuration(45, 'day')).toBe('45 days');
    expect(formatDuration(1500, 'day')).toBe('1,500 days');
  });

  it('when a locale has no catalogue yet, then its plural rule still picks the form and en-US gives the words', () => {
    for (const locale of LOCALES) {
      for (const unit of DURATION_UNITS) {
        expect(enUS[`duration.${unit}_one`], `${locale} ${unit}`).toBeDefined();
        expect(formatDuration(1, unit, locale)).toBe(`1 ${unit}`);
        expect(formatDuration(7, unit, locale)).toBe(`7 ${unit}s`);
      }
    }
  });
});

describe('field labels', () => {
  it('when a field has a label, then messages call it by it; at the start of a sentence with a capital letter', () => {
    expect(translate('validation.required', {}, 'en-US', { attribute: 'from_currency_id' })).toBe('The from currency field is required.');
    expect(translate('generic.setting_below_zero', {}, 'sv-SE', { key: 'deviation_percentage' })).toBe('Deviation percentage cannot be less than 0.');
    expect(translate('validation.in', {}, 'en-US', { attribute: 'markets.0.market_id' })).toBe('The selected market is invalid.');
    expect(translate('users.person_shared', {}, 'en-US', { attribute: ['email', 'locale'] })).toMatch(/can change the e-mail address, language\.$/);
  });

  it('when the caller names the placeholder itself, then its text wins over the label', () => {
    expect(translate('validation.required', { attribute: 'company' }, 'en-US', { attribute: 'user_ids' })).toBe('The company field is required.');
  });

  it('when a field has no label, then it is its wire name in words, without an id suffix', () => {
    expect(fieldLabel('items.1.unknown_thing_id')).toBe('unknown thing');
    expect(fieldLabel('recipients.market_ids')).toBe('markets');
  });

  it('every field of every administration form, and every organization setting, has a label', () => {
    const inputs = Object.entries(admin).filter(([name]) => name.endsWith('InputSchema')) as [string, z.ZodObject][];
    expect(inputs.length).toBeGreaterThan(10);
    const fields = new Set<string>([...Object.keys(admin.ORGANIZATION_SETTINGS), ...Object.keys(listQuerySchema.shape)]);
    for (const [, schema] of inputs) if ('shape' in schema) for (const field of Object.keys(schema.shape)) fields.add(field);
    const missing = [...fields].filter((field) => !Object.hasOwn(enUS, `attribute.${field}`));
    expect(missing).toEqual([]);
  });
});

// Every message of docs/product.md §8, copied letter for letter from the specification.
const SPEC_MESSAGES = [
  'These credentials do not match our records.',
  'Too many login attempts. Please try again in :seconds seconds.',
  'The user could not be found.',
  'The user account has been disabled.',
  'The credentials provided are not valid.',
  'The email address is badly formatted.',
  'The password is invalid or the user does not have a password.',
  'The password must be 8 characters long or more.',
  'The email address is already in use by another account.',
  'Passwords are not matching.',
  'Emails are not matching.',
  'Email could not be sent to this email address.',
  'Could not reset the password, please request a new link.',
  'Device name is missing or invalid.',
  'Invalid token.',
  'You have no organization(s), please contact support.',
  "You don't have access to change this report.",
  'Invalid status.',
  'This period has been closed, please contact your market administrator.',
  'This report has already been approved.',
  'This report already exists.',
  'Report has invalid status for this action.',
  'Report file cannot be uploaded due to the report status.',
  "Invalid file. Please make sure the file you're trying to import is an xlsx-file.",
  'The report file is empty.',
  'Invalid column count.',
  'Invalid code on row :row.',
  'The code is not available to you (row :row).',
  'The code :code is inactive (row :row).',
  'Report has duplicate codes on row :row for code :code.',
  'Column B contains invalid characters on row :row.',
  'Column C contains invalid characters on row :row.',
  'The file :file_name could not be uploaded due to containing invalid data.',
  'This period (:title) does already exist in this market.',
  'The period (:title) does not exist.',
  'The period is not yet published for viewing.',
  'The period is not available for this company.',
  "There is no report for the period you're trying to copy from (:previous_period_title).",
  'A preflight must be sent before sending the mail.',
  'Communication status must be draft to be updated.',
  'Communication status must be draft to send preflight email.',
  'You do not have access to this action.',
  'Could not find what you were looking for.',
  'Permission denied. Your user does not have permission to view this resource.',
  'Something went wrong, try again or contact support.',
  'Could not save.',
  ':model not saved.',
  ':key is not a valid setting.',
  ':value is not a valid value for setting :key.',
  ':key cannot be less than 0.',
  'Your password has been reset!',
  'We have e-mailed your password reset link!',
  'This password reset token is invalid.',
  "We can't find a user with that e-mail address.",
];

describe('docs/product.md §8 catalogue', () => {
  it('contains every message of the specification letter for letter', () => {
    const texts = new Set<string>(Object.values(enUS));
    const missing = SPEC_MESSAGES.filter((m) => !texts.has(m));
    expect(missing).toEqual([]);
  });
});
