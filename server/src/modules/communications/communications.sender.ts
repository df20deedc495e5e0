import { and, eq, inArray, sql } from 'drizzle-orm';
import { CommunicationStatus } from '@mss/contracts/enums';
import { COMMUNICATION_LIFECYCLE, DELIVERY_LIFECYCLE } from '@mss/contracts/lifecycles';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client.ts';
import { communicationDeliveries, communicationDeliveryAttempts, communicationEvents, communications } from '../../db/schema.ts';
import { INSTANCE_NAME } from '../../lib/instance.ts';
import { type Mailer, mailFailureOf } from '../../mail/mailer.ts';
import { renderMail, textIn, type Variables } from './communications.render.ts';
import { findRecipients, storedFilterOf, variablesOf } from './communications.recipients.ts';
import { mailAttachmentsOf, mailFooterOf } from './communications.files.ts';
import { statusesOf } from './communications.records.ts';

/*
 * The send, run by the job queue (docs/architecture.md §6). Per-recipient idempotence:
 *
 * 1. Dispatch, once: the recipients are evaluated now (not when the send was asked for) and fixed
 *    as one delivery row per user, unique per (communication, user), in the transaction that
 *    sets `dispatched_at`. A second run finds them and does not add any.
 * 2. Each delivery is claimed (`sending`, attempts + 1, a new attempt row) in a committed statement
 *    before its SMTP conversation and marked `sent` with the server's answer after it, the attempt
 *    with it. A run claims with `for update skip locked`, so two runs (two processes, or a retry
 *    beside a late run) never claim the same recipient.
 * 3. A process that dies leaves its claimed deliveries `sending`: with the embedded database (one
 *    process) they are queued again when the app starts; with a PostgreSQL server, where another
 *    process may still be sending them, when their claim is older than MAIL_LEASE_SECONDS (a live
 *    process renews its claims every third of that while it sends them). A mail
 *    the server accepted in the last milliseconds before the process died, before `sent` was
 *    written, is sent again with the same Message-ID (docs/decisions.md "Communications"). The
 *    attempt it left `sending` is marked `interrupted` when the delivery is claimed again.
 * 4. A temporary failure (4xx, connection lost) is queued again with exponential backoff; a
 *    permanent one (5xx: recipient refused) or the last attempt of the round fails the delivery
 *    with the answer. Every attempt keeps its own answer (communication_delivery_attempts); a
 *    retry of failed deliveries starts a new round and adds attempts, it never resets them.
 * 5. When nothing is queued or being sent any more: 20 Sent if any delivery was sent, 30 Failed if none.
 */

export interface SenderDeps {
  db: Db;
  mailer: Mailer;
  log: FastifyBaseLogger;
  appUrl: string;
  retryBaseSeconds: number;
  maxAttempts: number;
  leaseSeconds: number;
  /** Runs the job again at that time (the next retry, or when a lease ends). */
  later: (communicationId: number, at: Date) => Promise<void>;
}

const S = CommunicationStatus;
/** Deliveries claimed at a time: the pool's connections work on them side by side. */
const CLAIM_BATCH = 10;

type CommunicationRow = typeof communications.$inferSelect;

/** Fixes the recipients as deliveries, once. */
async function dispatch(deps: SenderDeps, row: CommunicationRow): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const [locked] = await tx.select({ dispatched_at: communications.dispatched_at }).from(communications).where(eq(communications.id, row.id)).for('update');
    if (!locked || locked.dispatched_at) return;
    const { rows } = await findRecipients(tx, row.organization_id, storedFilterOf(row));
    if (rows.length) {
      await tx
        .insert(communicationDeliveries)
        .values(
          rows.map((r) => ({
            communication_id: row.id,
            user_id: r.user_id,
            email: r.email,
            name: r.name,
            variables: variablesOf(r, deps.appUrl),
            locale: r.locale,
            message_id: `<${row.uuid}.${r.user_id}@mss>`,
          })),
        )
        .onConflictDoNothing();
    }
    await tx
      .update(communications)
      .set({ dispatched_at: sql`now()` })
      .where(eq(communications.id, row.id));
    await tx.insert(communicationEvents).values({
      communication_id: row.id,
      organization_id: row.organization_id,
      user_id: null,
      action: 'dispatched',
      detail: { recipients: rows.map((r) => r.email) },
    });
  });
}

type Claimed = {
  id: number;
  email: string;
  name: string;
  variables: Variables;
  locale: string | null;
  message_id: string;
  attempts: number;
  round_attempts: number;
};

/**
 * Claims due deliveries and opens an attempt for each, numbered by the delivery's attempts, in one
 * statement; an attempt a dead process left `sending` is closed as `interrupted`.
 */
async function claim(deps: SenderDeps, communicationId: number): Promise<Claimed[]> {
  // DELIVERY_LIFECYCLE's claim, in SQL: from queued (when due) or sending (when its lease ended) to sending.
  const { rows } = await deps.db.execute<Claimed>(sql`
    with due as (
      select id from communication_deliveries
      where communication_id = ${communicationId}
        and ((status = 'queued' and next_attempt_at <= now())
          or (status = 'sending' and claimed_at < now() - ${`${deps.leaseSeconds} seconds`}::interval))
      order by id limit ${CLAIM_BATCH} for update skip locked
    ), claimed as (
      update communication_deliveries d
      set status = 'sending', claimed_at = now(), claimed_by = ${INSTANCE_NAME}, attempts = d.attempts + 1, round_attempts = d.round_attempts + 1, updated_at = now()
      from due where d.id = due.id
      returning d.id, d.email, d.name, d.variables, d.locale, d.message_id, d.attempts, d.round_attempts
    ), interrupted as (
      update communication_delivery_attempts a set outcome = 'interrupted', finished_at = now()
      from due where a.delivery_id = due.id and a.outcome = 'sending'
    ), opened as (
      insert into communication_delivery_attempts (delivery_id, number) select id, attempts from claimed
    )
    select * from claimed order by id`);
  return rows;
}

/** Records what one attempt came to, on the attempt and (while the delivery is still this run's) on the delivery. */
async function settle(
  deps: SenderDeps,
  delivery: Claimed,
  outcome: 'sent' | 'deferred' | 'failed',
  response: string,
  next: { event: 'sent' | 'wait' | 'fail'; waitSeconds?: number },
): Promise<void> {
  // The delivery's lifecycle (contracts/lifecycles.ts): from sending to sent, queued again or failed.
  const to = DELIVERY_LIFECYCLE[next.event].to;
  const nextAttempt = next.waitSeconds ? sql`now() + ${`${next.waitSeconds} seconds`}::interval` : sql`now()`;
  await deps.db.execute(sql`
    with attempt as (
      update communication_delivery_attempts set outcome = ${outcome}, smtp_response = ${response}, finished_at = now()
      where delivery_id = ${delivery.id} and number = ${delivery.attempts}
    )
    update communication_deliveries
    set status = ${to}, smtp_response = ${response}, updated_at = now(),
      sent_at = ${to === 'sent' ? sql`now()` : sql`sent_at`},
      next_attempt_at = ${to === 'sent' ? sql`next_attempt_at` : nextAttempt}
    where id = ${delivery.id} and status = 'sending' and attempts = ${delivery.attempts}`);
}

/** Renews the lease on the deliveries this run still has `sending`. */
async function renew(deps: SenderDeps, batch: Claimed[]): Promise<void> {
  const pending = batch.map((d) => sql`(${d.id}::int, ${d.attempts}::int)`);
  await deps.db
    .execute(
      sql`update communication_deliveries set claimed_at = now()
        where status = 'sending' and (id, attempts) in (${sql.join(pending, sql`, `)})`,
    )
    .catch((error: unknown) => deps.log.warn({ err: error }, 'delivery lease not renewed'));
}

/** One run of the send job for a communication waiting to be sent. */
export async function runCommunicationSend(deps: SenderDeps, communicationId: number): Promise<void> {
  const { db } = deps;
  const [row] = await db.select().from(communications).where(eq(communications.id, communicationId));
  if (!row || row.status !== S.WaitingToBeSent) return;
  if (row.send_at && row.send_at.getTime() > Date.now()) {
    await deps.later(row.id, row.send_at);
    return;
  }
  if (!row.dispatched_at) await dispatch(deps, row);
  const footer = await mailFooterOf(db, row.organization_id);
  const attachments = await mailAttachmentsOf(db, row.id);
  for (;;) {
    const batch = await claim(deps, row.id);
    if (batch.length === 0) break;
    // The claims' lease, renewed while this process sends them (a third of MAIL_LEASE_SECONDS).
    const renewal = setInterval(() => void renew(deps, batch), (deps.leaseSeconds * 1000) / 3);
    await Promise.all(
      batch.map(async (delivery) => {
        const parts = renderMail(textIn(row, delivery.locale), delivery.variables, footer);
        try {
          const { response } = await deps.mailer.sendBulk({
            to: `"${delivery.name.replace(/["\\\r\n]/g, '')}" <${delivery.email}>`,
            ...parts,
            attachments,
            messageId: delivery.message_id,
          });
          await settle(deps, delivery, 'sent', response.slice(0, 1000), { event: 'sent' });
        } catch (error) {
          const failure = mailFailureOf(error);
          const giveUp = !failure.temporary || delivery.round_attempts >= deps.maxAttempts;
          const wait = deps.retryBaseSeconds * 2 ** (delivery.round_attempts - 1);
          deps.log.warn({ to: delivery.email, response: failure.response, giveUp }, 'communication delivery failed');
          await settle(deps, delivery, giveUp ? 'failed' : 'deferred', failure.response, giveUp ? { event: 'fail' } : { event: 'wait', waitSeconds: wait });
        }
      }),
    ).finally(() => clearInterval(renewal));
  }
  await finish(deps, row);
}

/** Either the send is done (20 or 30), or the job comes back when the next retry or lease is due. */
async function finish(deps: SenderDeps, row: CommunicationRow): Promise<void> {
  const { db } = deps;
  const [state] = (
    await db.execute<{ queued_at: Date | null; sending_since: Date | null; sent: number; failed: number }>(sql`
      select min(next_attempt_at) filter (where status = 'queued') as queued_at,
        min(claimed_at) filter (where status = 'sending') as sending_since,
        (count(*) filter (where status = 'sent'))::int as sent, (count(*) filter (where status = 'failed'))::int as failed
      from communication_deliveries where communication_id = ${row.id}`)
  ).rows;
  if (state?.queued_at) {
    await deps.later(row.id, new Date(Math.max(Date.now(), new Date(state.queued_at).getTime())));
    return;
  }
  if (state?.sending_since) {
    await deps.later(row.id, new Date(new Date(state.sending_since).getTime() + deps.leaseSeconds * 1000 + 500));
    return;
  }
  const { from, to: status } = COMMUNICATION_LIFECYCLE[(state?.sent ?? 0) > 0 ? 'delivered' : 'undelivered'];
  await db.transaction(async (tx) => {
    const [done] = await tx
      .update(communications)
      .set({ status, sent_at: sql`now()`, updated_at: sql`now()` })
      .where(and(eq(communications.id, row.id), inArray(communications.status, statusesOf(from))))
      .returning({ id: communications.id });
    if (done)
      await tx.insert(communicationEvents).values({
        communication_id: row.id,
        organization_id: row.organization_id,
        user_id: null,
        action: status === S.Sent ? 'sent' : 'failed',
        detail: { sent: state?.sent ?? 0, failed: state?.failed ?? 0 },
      });
  });
}

/**
 * At start-up of the process that runs jobs: with the embedded database this process is the only
 * sender, so deliveries left `sending` by the last one are queued again at once; then every
 * communication waiting to be sent gets its job.
 */
export async function recoverCommunications(db: Db, exclusive: boolean, send: (id: number) => Promise<void>): Promise<number> {
  if (exclusive) {
    await db
      .update(communicationDeliveryAttempts)
      .set({ outcome: 'interrupted', finished_at: sql`now()` })
      .where(eq(communicationDeliveryAttempts.outcome, 'sending'));
    await db
      .update(communicationDeliveries)
      .set({ status: DELIVERY_LIFECYCLE.interrupted.to, next_attempt_at: sql`now()`, updated_at: sql`now()` })
      .where(inArray(communicationDeliveries.status, [...DELIVERY_LIFECYCLE.interrupted.from]));
  }
  const waiting = await db.select({ id: communications.id }).from(communications).where(eq(communications.status, S.WaitingToBeSent));
  for (const w of waiting) await send(w.id);
  return waiting.length;
}
