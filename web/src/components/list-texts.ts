import { i18n } from '../i18n/index.ts';

/*
 * The texts of the long lists' filters and pages (the period lists, Reporting companies, the
 * completeness overview): they load
 * with those screens, not with the first screen, whose JavaScript has a budget (docs/performance.md).
 * Importing this module adds them to the en-US catalogue; each language's translation is in its
 * locale file.
 */
export const listTexts = {
  'list.all_markets': 'All markets ({{count}})',
  'list.all': 'All ({{count}})',
  'list.not_all_approved': 'Not all approved ({{count}})',
  'list.overdue': 'Overdue ({{count}})',
  'list.showing': '{{from}}–{{to}} of {{total}}',
  'list.pages': 'Pages of the list',
  'list.no_match': 'Nothing matches the filter.',
  'list.clear': 'Show all',
  'completeness.year': 'Year',
  'completeness.other_range': 'Other months',
  'completeness.from': 'From month',
  'completeness.to': 'To month',
  'completeness.show': 'Show',
  'completeness.state.all': 'All periods ({{count}})',
  'completeness.state.missing': 'Reports missing ({{count}})',
  'completeness.state.overdue': 'Overdue ({{count}})',
  'completeness.state.waiting': 'Waiting for approval ({{count}})',
  'completeness.state.complete': 'All approved ({{count}})',
  'completeness.expected': 'Expected',
  'completeness.submitted': 'Submitted',
  'completeness.waiting': 'Waiting',
  'completeness.approved': 'Approved',
  'completeness.missing': 'Missing',
  'completeness.overdue_periods': 'Overdue periods',
  'completeness.summary': '{{periods}} periods, {{from}} to {{to}}',
  'completeness.progress': '{{approved}} of {{expected}} approved',
  'completeness.download_xlsx': 'Download xlsx',
  'completeness.download_csv': 'Download csv',
  'completeness.none': 'No opened period in these months.',
  'completeness.explained':
    'Companies expected to report: those reporting in the market and not disabled when the period ends. Submitted: waiting for approval or approved. Overdue: the period is open, its deadline has passed and a company has not submitted.',
} as const;

i18n.addResourceBundle('en-US', 'translation', listTexts, true, false);
