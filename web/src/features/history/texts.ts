import { i18n } from '../../i18n/index.ts';

/*
 * The history import screen's texts: they load with the screen, not with the first screen, whose
 * JavaScript has a budget (docs/performance.md). Importing this module adds them to the en-US
 * catalogue; each language's translation is in its locale file.
 */
export const historyTexts = {
  'history.intro':
    "Bring in the association's past figures in one file: one row per market, period, company and code, with its volume and value. The file is checked first; nothing changes until you import it, and the periods are published only when you ask.",
  'history.columns': 'Columns: Market (ISO code), Period (YYYY-MM), Company (name or id), Code, Volume, Value.',
  'history.template_xlsx': 'Template (xlsx)',
  'history.template_csv': 'Template (CSV)',
  'history.upload_title': 'Check a file',
  'history.file': 'History file (xlsx or CSV)',
  'history.check': 'Check the file',
  'history.status.queued': 'Waiting to be checked…',
  'history.status.checking': 'Checking the file…',
  'history.status.checked': 'The file is ready to import',
  'history.status.invalid': 'The file has errors',
  'history.status.importing': 'Importing…',
  'history.status.imported': 'Imported',
  'history.status.cancelled': 'Cancelled',
  'history.status.failed': 'The step failed',
  'history.status.publishing': 'Publishing…',
  'history.status.published': 'Published',
  'history.rows_read': '{{read}} of {{total}} rows read',
  'history.progress_rows': '{{done}} of {{total}} rows written ({{periods}} of {{periods_total}} periods)',
  'history.progress_periods': '{{done}} of {{total}} periods published',
  'history.rate': '{{rate}} rows a second',
  'history.left': '{{left}} left',
  'history.minutes_one': 'about {{count}} minute',
  'history.minutes_other': 'about {{count}} minutes',
  'history.seconds_one': '{{count}} second',
  'history.seconds_other': '{{count}} seconds',
  'history.cancel_button': 'Cancel',
  'history.cancelling': 'Cancelling…',
  'history.plan_summary':
    '{{rows}} rows in {{periods}} periods of {{markets}} market(s): {{new_periods}} periods to create and {{reports}} reports, of which {{existing}} exist already (replaced only where the file’s rows differ).',
  'history.plan_label': 'What the import writes, per market and period',
  'history.plan.market': 'Market',
  'history.plan.period': 'Period',
  'history.plan.state': 'In the app',
  'history.plan.new': 'New',
  'history.plan.exists': 'Exists ({{count}} reports)',
  'history.plan.companies': 'Companies',
  'history.plan.rows': 'Rows',
  'history.import_button': 'Import',
  'history.confirm_import': 'Import {{reports}} reports into {{periods}} periods? Existing reports are replaced where the file’s rows differ, and approved.',
  'history.result':
    '{{periods_created}} periods created; {{reports_created}} reports created, {{reports_replaced}} replaced and {{reports_unchanged}} unchanged.',
  'history.result_published': '{{count}} periods published.',
  'history.publish': 'Publish {{count}} periods',
  'history.publish_button': 'Publish',
  'history.confirm_publish': 'Publish {{count}} periods? Viewers will see their statistics, under the disclosure control.',
  'history.nothing_to_publish': 'The import changed no period: nothing to publish.',
  'history.import_again': 'Import again',
  'history.cancelled_note':
    'The import stopped between two periods: each period is imported whole or not at all. Import again to finish it; what is already in stays as it is.',
  'history.failed_note': 'Nothing of a period was half written. Try the step again; if it fails again, ask your system administrator.',
  'history.errors_count_one': 'The file has {{formatted}} error; nothing was imported.',
  'history.errors_count_other': 'The file has {{formatted}} errors; the first {{shown}} are shown, and nothing was imported.',
  'history.download_errors': 'Download the error list',
  'history.earlier': 'History imports',
  'history.col.file': 'File',
  'history.col.created': 'Uploaded',
  'history.col.user': 'By',
  'history.col.status': 'Status',
  'history.show': 'Show',
  'history.show_file': 'Show {{file}}',
} as const;

i18n.addResourceBundle('en-US', 'translation', historyTexts, true, false);
