import { i18n } from '../i18n/index.ts';

/*
 * The texts of the long lists' filters and pages (the period lists, Reporting companies): they load
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
} as const;

i18n.addResourceBundle('en-US', 'translation', listTexts, true, false);
