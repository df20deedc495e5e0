import { COMMUNICATION_LIFECYCLE } from '@mss/contracts/lifecycles';
import { sql } from 'drizzle-orm';
import { LOCALES, type Locale, ReportStatus } from '@mss/contracts/enums';
import { formatDateIn, translate } from '@mss/contracts/messages';
import type { Db } from '../../db/client.ts';
import { communicationEvents, communications } from '../../db/schema.ts';
import { findRecipients, type StoredFilter } from './communications.recipients.ts';
import { escapeHtml } from './communications.render.ts';

/*
 * Automatic reminders (docs/decisions.md "Automatic reminders"): when an organization has set
 * `reminder_days` above 0, the reporters of each company whose report of an open period is not
 * submitted get a reminder that many days before the period's deadline ("before") and the day
 * after it ("after"), once each. Each reminder is a communication like one a person writes (no
 * author), sent through the same deliveries: attempts, failures, retry, listed with the others.
 * Its text is in each recipient's language (`texts`, one subject and body per language).
 *
 * Once each, by any number of processes: a reminder is claimed by inserting its (period, kind)
 * into `period_reminders`, in the transaction that creates its communication; a second process's
 * insert waits for the first's commit and then does nothing.
 */

export const REMINDER_KINDS = ['before', 'after'] as const;
export type ReminderKind = (typeof REMINDER_KINDS)[number];

/** Not submitted: everything but waiting for approval and approved. */
export const NOT_SUBMITTED: readonly number[] = [
  ReportStatus.ProcessingFile,
  ReportStatus.InvalidFile,
  ReportStatus.Ongoing,
  ReportStatus.ProcessingData,
  ReportStatus.WaitingForCompletion,
];
/** The reminder after the deadline goes out until this many days after it (a sweep missed on the day catches up); later it would only surprise. */
export const AFTER_DEADLINE_DAYS = 7;

type Due = {
  period_id: number;
  title: string;
  market: string;
  deadline: string;
  market_id: number;
  organization_id: number;
  kind: ReminderKind;
  days: number;
};

/** The reminders due on `today` (YYYY-MM-DD) and not yet sent, oldest deadline first. */
async function dueReminders(db: Db, today: string): Promise<Due[]> {
  const { rows } = await db.execute<Due>(sql`
    select p.id as period_id, p.title, m.international_name as market, p.deadline::text as deadline,
      p.market_id, m.organization_id, k.kind, s.value::int as days
    from periods p
    join markets m on m.id = p.market_id
    join organization_settings s on s.organization_id = m.organization_id and s.key = 'reminder_days' and s.value ~ '^[0-9]+$' and s.value::int > 0
    cross join (values ('before'), ('after')) as k(kind)
    where p.status = 'open' and p.deadline is not null
      and ((k.kind = 'before' and ${today}::date >= p.deadline - s.value::int and ${today}::date < p.deadline)
        or (k.kind = 'after' and ${today}::date > p.deadline and ${today}::date <= p.deadline + ${AFTER_DEADLINE_DAYS}::int))
      and not exists (select 1 from period_reminders r where r.period_id = p.id and r.kind = k.kind)
    order by p.deadline, p.id, k.kind`);
  return rows;
}

/**
 * The reminder's subject and body in a language. The period, its market and deadline are the same
 * for every recipient and written in here (so the list of communications reads "the report for
 * 2026-11 (Sweden)"); the other `{{…}}` are the communications' variables, rendered per recipient.
 */
export function reminderText(due: Pick<Due, 'kind' | 'days' | 'title' | 'market' | 'deadline'>, locale: Locale): { subject: string; body: string } {
  const { kind, days } = due;
  const fixed = (text: string, html: boolean) => {
    const values: Record<string, string> = { period: due.title, market: due.market, deadline: formatDateIn(due.deadline, locale) };
    return text.replace(/\{\{\s*(period|market|deadline)\s*\}\}/g, (_, name: string) => (html ? escapeHtml(values[name]!) : values[name]!));
  };
  const t = (key: Parameters<typeof translate>[0]) => fixed(escapeHtml(translate(key, { days }, locale)), true);
  return {
    subject: fixed(translate(`reminder.${kind}.subject`, { days }, locale), false),
    body: [
      `<p>${t('reminder.greeting')}</p>`,
      `<p>${t(`reminder.${kind}.intro`)}</p>`,
      `<p>${t('reminder.open_report')}</p>`,
      `<p>${t(kind === 'before' && days === 1 ? 'reminder.before.why_one' : `reminder.${kind}.why`)}</p>`,
    ].join(''),
  };
}

/** Who a reminder goes to: the reporters of the market's companies whose report of the period is not submitted. */
export const reminderFilter = (marketId: number, periodId: number): StoredFilter => ({
  market_ids: [marketId],
  roles: ['reporter'],
  company_ids: [],
  period_id: periodId,
  report_statuses: [...NOT_SUBMITTED],
});

/**
 * Creates the reminders due today, each in one transaction with its claim, and returns the
 * communications to send. A reminder no one would get (every report submitted, or no reporter)
 * is claimed all the same, with no communication: it is not tried again.
 */
export async function createDueReminders(db: Db, today = new Date().toISOString().slice(0, 10)): Promise<number[]> {
  const created: number[] = [];
  for (const due of await dueReminders(db, today)) {
    const id = await db.transaction(async (tx) => {
      const claimed = await tx.execute(sql`
        insert into period_reminders (period_id, kind, due_on) values (${due.period_id}, ${due.kind}, ${today}::date)
        on conflict do nothing returning period_id`);
      if (claimed.rows.length === 0) return null;
      const filter = reminderFilter(due.market_id, due.period_id);
      const { total } = await findRecipients(tx, due.organization_id, filter, { limit: 1, offset: 0 });
      if (total === 0) return null;
      const base = reminderText(due, 'en-US');
      const texts = Object.fromEntries(LOCALES.map((locale) => [locale, reminderText(due, locale)]));
      const [row] = await tx
        .insert(communications)
        .values({
          organization_id: due.organization_id,
          author_id: null,
          status: COMMUNICATION_LIFECYCLE.schedule_reminder.to,
          subject: base.subject,
          body: base.body,
          texts,
          reminder: due.kind,
          market_ids: filter.market_ids,
          recipients: { roles: filter.roles, company_ids: [], period_id: due.period_id, report_statuses: filter.report_statuses },
        })
        .returning({ id: communications.id });
      await tx.insert(communicationEvents).values({
        communication_id: row!.id,
        organization_id: due.organization_id,
        user_id: null,
        action: 'reminder',
        detail: { kind: due.kind, days: due.days, due_on: today, recipients_now: total },
      });
      await tx.execute(sql`update period_reminders set communication_id = ${row!.id} where period_id = ${due.period_id} and kind = ${due.kind}`);
      return row!.id;
    });
    if (id !== null) created.push(id);
  }
  return created;
}
