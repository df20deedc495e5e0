import { sql } from 'drizzle-orm';
import type { Locale } from '@mss/contracts/enums';
import { translate } from '@mss/contracts/messages';
import '@mss/contracts/mail-messages';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Executor } from '../../db/client.ts';
import { sqlArray } from '../../db/sql-array.ts';
import { type Mailer, mailFailureOf } from '../../mail/mailer.ts';
import { oneLine } from './communications.render.ts';

/*
 * Workflow notifications: when a report is submitted its market's approvers are told,
 * in one digest an hour at most each; when it is sent back or approved its company's users are
 * told at once, with the comment. Written in the transaction of the status change (so a change
 * that rolls back notifies no one), mailed by a sweep of the process that runs jobs. A user turns
 * them off on the profile (users.workflow_mails). A withdrawn submission is taken out of the
 * digests not yet sent, and the approvers who were already told of it are told it was withdrawn;
 * an undone approval is told to the company's users, as an approval is.
 */

export type NotificationKind = 'submitted' | 'withdrawn' | 'sent_back' | 'approved' | 'unapproved';

/** Approvers get at most one digest in this time. */
export const DIGEST_INTERVAL_MINUTES = 60;

/** Records who is to be told about a report's status change (called by the workflow, in its transaction). */
export async function recordWorkflowNotifications(
  tx: Executor,
  input: { reportId: number; kind: NotificationKind; actor: number | null; comment?: string | null },
): Promise<void> {
  if (input.kind === 'withdrawn') {
    // Nobody need be told of a submission that is no longer waiting; who was told is told it is gone.
    await tx.execute(sql`delete from workflow_notifications where report_id = ${input.reportId} and kind = 'submitted' and status = 'queued'`);
    await tx.execute(sql`
      insert into workflow_notifications (user_id, report_id, kind, comment)
      select distinct n.user_id, ${input.reportId}::int, 'withdrawn', ${input.comment ?? null}::text from workflow_notifications n
      join users u on u.id = n.user_id and u.disabled_at is null and u.workflow_mails
      where n.report_id = ${input.reportId} and n.kind = 'submitted' and n.status = 'sent' and n.user_id is distinct from ${input.actor}`);
    return;
  }
  const recipients =
    input.kind === 'submitted'
      ? // The market's approvers: market and cluster administrators of the market, the organization's administrators.
        sql`
        select distinct u.id from reports r
        join periods p on p.id = r.period_id join markets m on m.id = p.market_id
        join users u on u.disabled_at is null and u.workflow_mails
        join user_organizations uo on uo.user_id = u.id and uo.organization_id = m.organization_id
        where r.id = ${input.reportId}
          and (exists (select 1 from user_roles ur join user_markets um on um.user_id = ur.user_id
                  where ur.user_id = u.id and ur.role in ('market-admin', 'cluster-admin') and um.market_id = m.id)
            or exists (select 1 from user_roles ur where ur.user_id = u.id and ur.role = 'admin'))`
      : // The company's users.
        sql`
        select u.id from reports r join users u on u.company_id = r.company_id
        where r.id = ${input.reportId} and u.disabled_at is null and u.workflow_mails`;
  await tx.execute(sql`
    insert into workflow_notifications (user_id, report_id, kind, comment)
    select id, ${input.reportId}, ${input.kind}, ${input.comment ?? null} from (${recipients}) x
    where x.id is distinct from ${input.actor}`);
}

type Pending = {
  id: number;
  user_id: number;
  email: string;
  locale: string;
  kind: NotificationKind;
  comment: string | null;
  report_uuid: string;
  company: string;
  period: string;
  market: string;
  last_digest: Date | null;
};

/**
 * Mails what is waiting: each sent-back or approved report at once, the submitted ones as one
 * digest per approver when the last digest is an hour old. Returns the number of mails sent.
 */
export async function sendWorkflowNotifications(deps: { db: Db; mailer: Mailer; log: FastifyBaseLogger; appUrl: string }): Promise<number> {
  const { db } = deps;
  const { rows } = await db.execute<Pending>(sql`
    select n.id, n.user_id, u.email, u.locale, n.kind, n.comment, r.uuid::text as report_uuid, co.name as company, p.title as period,
      m.international_name as market,
      (select max(sent_at) from workflow_notifications s where s.user_id = n.user_id and s.kind = 'submitted' and s.status = 'sent') as last_digest
    from workflow_notifications n
    join users u on u.id = n.user_id
    join reports r on r.id = n.report_id join companies co on co.id = r.company_id
    join periods p on p.id = r.period_id join markets m on m.id = p.market_id
    where n.status = 'queued' and u.disabled_at is null and u.workflow_mails
    order by n.user_id, n.id`);
  const base = deps.appUrl.replace(/\/$/, '');
  const link = (uuid: string) => `${base}/import/${uuid}`;
  let mails = 0;
  const deliver = async (items: Pending[], subject: string, lines: string[]) => {
    const first = items[0]!;
    const locale = first.locale as Locale;
    const text = [...lines, '', translate('notification.turn_off', { link: `${base}/profile` }, locale)].join('\n');
    const ids = sqlArray(
      items.map((i) => i.id),
      'int',
    );
    try {
      await deps.mailer.send({ to: first.email, subject: oneLine(subject), text });
      await db.execute(sql`update workflow_notifications set status = 'sent', sent_at = now(), attempts = attempts + 1 where id = any(${ids})`);
      mails++;
    } catch (error) {
      const failure = mailFailureOf(error);
      deps.log.warn({ to: first.email, response: failure.response }, 'workflow notification failed');
      await db.execute(sql`
        update workflow_notifications set attempts = attempts + 1, smtp_response = ${failure.response},
          status = case when ${!failure.temporary} or attempts + 1 >= 5 then 'failed' else 'queued' end
        where id = any(${ids})`);
    }
  };
  const byUser = new Map<number, Pending[]>();
  for (const row of rows) {
    const list = byUser.get(row.user_id);
    if (list) list.push(row);
    else byUser.set(row.user_id, [row]);
  }
  for (const items of byUser.values()) {
    const locale = items[0]!.locale as Locale;
    for (const item of items.filter((i) => i.kind !== 'submitted')) {
      const params = { period: item.period, market: item.market, company: item.company };
      await deliver([item], translate(`notification.${item.kind}.subject`, params, locale), [
        translate(`notification.${item.kind}.intro`, params, locale),
        ...(item.comment ? ['', translate('notification.comment', { comment: item.comment }, locale)] : []),
        '',
        translate('notification.open_report', { link: link(item.report_uuid) }, locale),
      ]);
    }
    const submitted = items.filter((i) => i.kind === 'submitted');
    const last = submitted[0]?.last_digest;
    if (submitted.length && (!last || Date.now() - new Date(last).getTime() >= DIGEST_INTERVAL_MINUTES * 60_000)) {
      await deliver(submitted, translate('notification.submitted.subject', undefined, locale), [
        translate('notification.submitted.intro', undefined, locale),
        '',
        ...submitted.map((i) => `- ${i.company}, ${i.market} ${i.period}: ${link(i.report_uuid)}`),
      ]);
    }
  }
  return mails;
}
