import { i18n } from '../i18n/index.ts';

/*
 * The texts of a report's import screen that say what to do about a refused file (the hints beside
 * its errors, why Submit is gone), and of withdrawing a submission and undoing an approval: they load with the screens that show a file's errors, not with
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
  'reporting.action.withdraw': 'Withdraw submission',
  'reporting.action.withdraw_title': 'Withdraw the submission of {{company}}',
  'reporting.action.withdraw_explained':
    'The report comes back to you to correct: upload a corrected file, then submit it again. The approvers who were told of the submission are told it was withdrawn.',
  'reporting.action.withdraw_done': 'The submission was withdrawn: correct the report and submit it again.',
  'reporting.action.unapprove': 'Undo approval',
  'reporting.action.unapprove_title': 'Undo the approval of {{company}}',
  'reporting.action.unapprove_explained':
    'The report waits for approval again and leaves the statistics of {{period}} until it is approved. Its reporters are told, with your reason.',
  'reporting.action.unapprove_republish':
    'The period {{period}} is published. Undoing the approval publishes it again without this report: the figures viewers see change, and figures that could now give a company away are hidden. Its reporters are told, with your reason.',
  'reporting.action.unapprove_and_republish': 'Undo approval and publish again',
  'reporting.action.unapprove_done': 'The approval was undone: the report waits for approval again.',
  'reporting.action.reason': 'Reason (optional)',
} as const;

i18n.addResourceBundle('en-US', 'translation', importTexts, true, false);
