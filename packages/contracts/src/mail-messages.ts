import { catalogues } from './messages.ts';

/*
 * The texts only the server writes: the workflow mails. Not in `enUS`, so that the web's first
 * screens, which carry the shared catalogue, do not carry them; importing this module adds them to
 * the en-US catalogue (the server does, through `./locales`). Their translations are in the
 * locale files with the rest.
 */
export const mailMessages = {
  'notification.submitted.subject': 'Reports waiting for your approval',
  'notification.submitted.intro': 'These reports were submitted and wait for your approval:',
  'notification.sent_back.subject': 'Your report for :period (:market) was sent back',
  'notification.sent_back.intro': 'Your report for :period (:market) was sent back for completion.',
  'notification.approved.subject': 'Your report for :period (:market) was approved',
  'notification.approved.intro': 'Your report for :period (:market) was approved.',
  'notification.withdrawn.subject': ':company withdrew its report for :period (:market)',
  'notification.withdrawn.intro': ':company withdrew its report for :period (:market) to correct it: it no longer waits for your approval.',
  'notification.unapproved.subject': 'The approval of your report for :period (:market) was undone',
  'notification.unapproved.intro': 'The approval of your report for :period (:market) was undone: it waits for approval again.',
  'notification.comment': 'Comment: :comment',
  'notification.open_report': 'Open the report: :link',
  'notification.turn_off': 'You get these mails because of your role. Turn them off in your profile: :link',
  // Automatic reminders (communications.reminders.ts): {{…}} are the communications' variables, rendered per recipient.
  'reminder.before.subject': 'Reminder: the report for {{period}} ({{market}}) is due {{deadline}}',
  'reminder.after.subject': 'Overdue: the report for {{period}} ({{market}}) was due {{deadline}}',
  'reminder.greeting': 'Hello {{recipient_name}},',
  'reminder.before.intro':
    'the report of {{company}} for {{period}} ({{market}}) is due {{deadline}} and has not been submitted yet (its status: {{report_status}}).',
  'reminder.after.intro':
    'the report of {{company}} for {{period}} ({{market}}) was due {{deadline}} and has not been submitted yet (its status: {{report_status}}). Please submit it as soon as you can.',
  'reminder.open_report': 'Open the report: {{report_link}}',
  'reminder.before.why':
    'The association sends this reminder automatically :days days before the deadline to the reporters of each company whose report is not submitted.',
  'reminder.before.why_one':
    'The association sends this reminder automatically the day before the deadline to the reporters of each company whose report is not submitted.',
  'reminder.after.why':
    'The association sends this reminder automatically the day after the deadline to the reporters of each company whose report is not submitted.',
} as const;

Object.assign(catalogues['en-US'], mailMessages);
