import { i18n } from '../../i18n/index.ts';

/*
 * The audit screen's texts: they load with the screen, not with the first screen, whose JavaScript
 * has a budget (docs/performance.md). Importing this module adds them to the en-US catalogue; each
 * language's translation is in its locale file.
 *
 * An action shows as its record kind (a badge) and what happened to it: `audit.kind.*` and
 * `audit.verb.*` (the part of the action after the dot).
 */
export const auditTexts = {
  'audit.intro':
    'Who read members’ figures and who changed what: every change, every read of a company’s own figures by someone outside the company, every download. Entries cannot be changed or deleted; they are kept for the retention time the server is set to.',
  'audit.filter.person': 'Person (e-mail)',
  'audit.filter.action': 'Kind',
  'audit.filter.all_actions': 'Everything',
  'audit.filter.record': 'Record id',
  'audit.filter.from': 'From',
  'audit.filter.to': 'To',
  'audit.filter.clear': 'Clear filters',
  'audit.download': 'Download CSV',
  'audit.col.at': 'When',
  'audit.col.who': 'Who',
  'audit.col.action': 'What',
  'audit.col.record': 'Record',
  'audit.col.change': 'Change or details',
  'audit.col.from': 'From where',
  'audit.system': 'The system',
  'audit.unknown_person': 'Unknown',
  'audit.via.session': 'Browser',
  'audit.via.token': 'Integration token',
  'audit.kind.auth': 'Sign-in',
  'audit.kind.user': 'User',
  'audit.kind.cluster': 'Cluster',
  'audit.kind.code': 'Code',
  'audit.kind.code_group': 'Code group',
  'audit.kind.code_section': 'Code section',
  'audit.kind.company': 'Company',
  'audit.kind.currency': 'Currency',
  'audit.kind.currency_conversion': 'Currency conversion',
  'audit.kind.information_modal': 'Information message',
  'audit.kind.organization': 'Organization',
  'audit.kind.release_note': 'Release note',
  'audit.kind.market': 'Market',
  'audit.kind.period': 'Period',
  'audit.kind.report': 'Report',
  'audit.kind.statistics': 'Statistics',
  'audit.kind.communication': 'Communication',
  'audit.kind.history_import': 'History import',
  'audit.verb.created': 'created',
  'audit.verb.updated': 'changed',
  'audit.verb.deleted': 'deleted',
  'audit.verb.sign_in': 'signed in',
  'audit.verb.sign_in_failed': 'sign-in failed',
  'audit.verb.sign_out': 'signed out',
  'audit.verb.token_issued': 'token issued',
  'audit.verb.token_revoked': 'token revoked',
  'audit.verb.password_changed': 'password changed',
  'audit.verb.password_reset': 'password reset by link',
  'audit.verb.opened': 'opened',
  'audit.verb.closed': 'closed',
  'audit.verb.published': 'published',
  'audit.verb.republished': 'published again',
  'audit.verb.unpublished': 'withdrawn from viewers',
  'audit.verb.status_changed': 'status changed',
  'audit.verb.read': 'opened',
  'audit.verb.rows_read': 'rows read',
  'audit.verb.file_read': 'file downloaded',
  'audit.verb.company_read': 'a company’s figures read',
  'audit.verb.downloaded': 'downloaded',
  'audit.verb.uploaded': 'file uploaded',
  'audit.verb.import_requested': 'import started',
  'audit.verb.publish_requested': 'publication started',
  'audit.verb.cancel_requested': 'cancelled',
  'audit.verb.sent': 'sent',
  'audit.verb.preflight_sent': 'test mail sent',
  'audit.verb.preflight_failed': 'test mail failed',
  'audit.verb.returned_to_draft': 'back to draft',
  'audit.verb.retried': 'sent again to failed recipients',
  'audit.verb.attachment_added': 'attachment added',
  'audit.verb.attachment_removed': 'attachment removed',
} as const;

i18n.addResourceBundle('en-US', 'translation', auditTexts, true, false);

/** The record kinds the kind filter offers, in this order. */
export const AUDIT_KINDS = Object.keys(auditTexts)
  .filter((key) => key.startsWith('audit.kind.'))
  .map((key) => key.slice('audit.kind.'.length));
