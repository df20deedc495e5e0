import { i18n } from '../i18n/index.ts';

/*
 * The texts of a report's import screen that say what to do about a refused file (the hints beside
 * its errors, why Submit is gone): they load with the screens that show a file's errors, not with
 * the first screen, whose JavaScript has a budget (docs/performance.md). Importing this module adds
 * them to the en-US catalogue; each language's translation is in its locale file.
 */
export const importTexts = {
  'reporting.import.invalid_file_title': 'The last file was not imported, so the report cannot be submitted',
  'reporting.import.invalid_file_body':
    'The report keeps the rows it had before that file. Correct the errors listed below in your file and upload it again; then Submit comes back.',
  'reporting.import.what_to_do': 'What to do',
  'reporting.import.hint.remove_unit': 'Remove the unit or text, keep only the number: {{number}}',
  'reporting.import.hint.ambiguous': '{{cell}} can be read as a thousand-something or as a decimal: write {{thousands}} or {{decimal}}',
  'reporting.import.hint.number': 'Write a number only (such as 1234 or 12,5), or leave the cell empty.',
  'reporting.import.hint.invalid_code': '{{code}} is not a code: the template lists the codes you report.',
  'reporting.import.hint.code_not_available': '{{code}} is not one of your codes in this market: see the template, or ask your administrator.',
  'reporting.import.hint.code_inactive': 'The code is no longer reported: remove the row.',
  'reporting.import.hint.duplicate_code': 'Keep one row for code {{code}}: add the figures of its rows together.',
  'reporting.import.hint.column_count': 'Keep the figures in columns A to C; an extra column needs a name in the header row (as the template’s Name and Note).',
} as const;

i18n.addResourceBundle('en-US', 'translation', importTexts, true, false);
