import { i18n } from '../../i18n/index.ts';

/*
 * The organization screens' texts (the settings among them): they load with those screens, not
 * with the first screen, whose JavaScript has a budget (docs/performance.md). Importing this module
 * adds them to the en-US catalogue; each language's translation is in its locale file.
 */
export const organizationTexts = {
  'admin.organization.model': 'Organization',
  'admin.organization.mail_description': 'Mail description',
  'admin.organization.settings': 'Settings',
  'admin.organization.save_settings': 'Save settings',
  'admin.organization.settings_saved': 'Settings saved.',
  'admin.organization.setting.deviation_percentage': 'Deviation percentage',
  'admin.organization.setting.deviation_percentage_help': 'A change against the previous period above this percentage is reported in the preflight.',
  'admin.organization.setting.reminder_days': 'Reminder days',
  'admin.organization.setting.reminder_days_help': 'Automatic reminders: this many days before a deadline, and the day after it. 0: none.',
  'admin.organization.setting.min_contributors': 'Minimum contributors',
  'admin.organization.setting.min_contributors_help':
    'A statistics cell with fewer contributing companies than this (a figure of 0 does not count) is confidential.',
  'admin.organization.setting.dominance_percentage': 'Dominance percentage',
  'admin.organization.setting.dominance_percentage_help':
    'A statistics cell whose largest contributor holds at least this percentage of it (figures counted by their size, returns too) is confidential.',
  'admin.organization.setting.protection_percentage': 'Protection percentage',
  'admin.organization.setting.protection_percentage_help':
    'No one who holds every published figure can narrow a confidential cell to within this percentage of its true value.',
  'admin.organization.setting.estimate_missing_reports': 'Estimate missing reports',
  'admin.organization.setting.estimate_missing_reports_help':
    'A period published before every report is in counts an estimate for each missing report (the company’s last published report times the change of the companies that reported in both periods), marked as estimated and replaced when the report comes.',
  'admin.organization.setting.require_two_factor': 'Require two-factor sign-in',
  'admin.organization.setting.require_two_factor_help':
    'Administrators, market administrators and market cluster administrators must use two-factor sign-in; until they turn it on, they reach only their profile.',
  'admin.organization.information_modals': 'Information modals',
  'admin.organization.add_information_modal': 'Add information modal',
} as const;

i18n.addResourceBundle('en-US', 'translation', organizationTexts, true, false);
