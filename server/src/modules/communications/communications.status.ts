// A communication's status changes through its lifecycle (contracts/lifecycles.ts): preflight, send, back to draft, retry.
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { type Communication, type RenderedMail } from '@mss/contracts/communications';
import { CommunicationStatus } from '@mss/contracts/enums';
import { allows, COMMUNICATION_LIFECYCLE, type CommunicationEvent, DELIVERY_LIFECYCLE } from '@mss/contracts/lifecycles';
import type { Db, Executor } from '../../db/client.ts';
import { communicationDeliveries, communications } from '../../db/schema.ts';
import { AppError, validationError } from '../../errors.ts';
import type { Principal } from '../../auth/principal.ts';
import { mailFailureOf } from '../../mail/mailer.ts';
import { renderMail } from './communications.render.ts';
import { findRecipients, storedFilterOf, variablesOf } from './communications.recipients.ts';
import { mailAttachmentsOf, mailFooterOf } from './communications.files.ts';
import { audit, type CommunicationDeps, loadFor, one, refuse, refuseStatus, type Row, statusesOf } from './communications.records.ts';

// ---------------------------------------------------------------------------------------------
// Status changes: preflight, send, back to draft, retry
// ---------------------------------------------------------------------------------------------

/** Applies an event of the communication's lifecycle (contracts/lifecycles.ts): null when its status no longer allows it. */
async function moveCommunication(
  db: Executor,
  row: Row,
  event: CommunicationEvent,
  // A column takes its value or an SQL expression (`now()`), as drizzle's update does.
  set: { [K in keyof typeof communications.$inferInsert]?: (typeof communications.$inferInsert)[K] | SQL } = {},
): Promise<Row | null> {
  const { from, to } = COMMUNICATION_LIFECYCLE[event];
  const [moved] = await db
    .update(communications)
    .set({ ...set, status: to, updated_at: sql`now()` })
    .where(and(eq(communications.id, row.id), inArray(communications.status, statusesOf(from))))
    .returning();
  return moved ?? null;
}

/**
 * Renders the mail for one recipient (the first when none is chosen) and sends it to the caller:
 * 0 → 1 while it is sent → 2. A failure returns the communication to draft and says why.
 */
export async function sendPreflight(
  deps: CommunicationDeps,
  principal: Principal,
  uuid: string,
  input: { recipient_user_id?: number | null },
): Promise<{ data: Communication; mail: RenderedMail }> {
  const { db } = deps;
  const row = await loadFor(db, principal, uuid);
  if (!allows(COMMUNICATION_LIFECYCLE, row.status, 'preflight')) throw refuse('communication.preflight_requires_draft');
  const filter = storedFilterOf(row);
  const candidates = await findRecipients(db, row.organization_id, filter);
  if (candidates.total === 0) throw new AppError('validation', 'communication.no_recipients');
  const recipient = input.recipient_user_id ? candidates.rows.find((r) => r.user_id === input.recipient_user_id) : candidates.rows[0];
  if (!recipient) throw validationError('recipient_user_id', 'communication.recipient_unknown');
  const moving = await moveCommunication(db, row, 'preflight');
  if (!moving) throw refuse('communication.preflight_requires_draft');
  const to = principal.user.email;
  const parts = renderMail(moving, variablesOf(recipient, deps.appUrl), await mailFooterOf(db, row.organization_id));
  try {
    await deps.mailer.send({ to, ...parts, attachments: await mailAttachmentsOf(db, row.id) });
  } catch (error) {
    await moveCommunication(db, moving, 'preflight_failed');
    await audit(db, row, principal, 'preflight_failed', { to, error: mailFailureOf(error).response });
    throw new AppError('validation', 'communication.preflight_failed', { email: to, reason: mailFailureOf(error).response });
  }
  const sent = await db.transaction(async (tx) => {
    const done = await moveCommunication(tx, moving, 'preflight_sent', { preflight_sent_at: sql`now()`, preflight_to: to });
    await audit(tx, row, principal, 'preflight', { to, rendered_for: recipient.email, subject: parts.subject });
    return done;
  });
  if (!sent) throw refuse('communication.preflight_requires_draft');
  return { data: await one(db, sent, principal), mail: { to, recipient_name: recipient.name, ...parts } };
}

/** Sends to every recipient (2 → 10; the job then makes it 20 or 30). */
export async function sendCommunication(
  deps: CommunicationDeps,
  principal: Principal,
  uuid: string,
  input: { send_at?: string | null },
): Promise<Communication> {
  const { db } = deps;
  const row = await loadFor(db, principal, uuid);
  if (row.status === CommunicationStatus.Draft || row.status === CommunicationStatus.SendingPreflight) throw refuse('communication.preflight_required');
  if (!allows(COMMUNICATION_LIFECYCLE, row.status, 'send')) throw refuseStatus(row, principal);
  const sendAt = input.send_at ? new Date(input.send_at) : null;
  if (sendAt && sendAt.getTime() <= Date.now()) throw validationError('send_at', 'communication.send_at_past');
  const { total } = await findRecipients(db, row.organization_id, storedFilterOf(row), { limit: 1, offset: 0 });
  if (total === 0) throw new AppError('validation', 'communication.no_recipients');
  const moved = await db.transaction(async (tx) => {
    const done = await moveCommunication(tx, row, 'send', { send_at: sendAt });
    if (done) await audit(tx, row, principal, 'send', { subject: row.subject, recipients_now: total, send_at: sendAt?.toISOString() ?? null });
    return done;
  });
  if (!moved) throw refuse('communication.preflight_required');
  await deps.queue?.send('communication-send', { communicationId: moved.id }, sendAt ?? undefined);
  return one(db, moved, principal);
}

/** Back to draft to change it (after a preflight, or a preflight cut off): needs a new preflight. */
export async function returnToDraft(db: Db, principal: Principal, uuid: string): Promise<Communication> {
  const row = await loadFor(db, principal, uuid);
  const moved = await moveCommunication(db, row, 'to_draft', { preflight_sent_at: null, preflight_to: null });
  if (!moved) throw refuseStatus(row, principal);
  await audit(db, row, principal, 'draft');
  return one(db, moved, principal);
}

/**
 * Sends again to the failed recipients only: they are queued again and the communication waits to
 * be sent. Their attempts go on counting and the earlier ones stay with their answers; only the
 * round (what the backoff and the give-up count) starts again.
 */
export async function retryFailed(deps: CommunicationDeps, principal: Principal, uuid: string): Promise<Communication> {
  const { db } = deps;
  const row = await loadFor(db, principal, uuid);
  if (!allows(COMMUNICATION_LIFECYCLE, row.status, 'retry')) throw refuseStatus(row, principal);
  const moved = await db.transaction(async (tx) => {
    const done = await moveCommunication(tx, row, 'retry', { sent_at: null });
    if (!done) return null;
    const again = await tx
      .update(communicationDeliveries)
      .set({ status: DELIVERY_LIFECYCLE.retry.to, next_attempt_at: sql`now()`, round_attempts: 0, updated_at: sql`now()` })
      .where(and(eq(communicationDeliveries.communication_id, row.id), inArray(communicationDeliveries.status, [...DELIVERY_LIFECYCLE.retry.from])))
      .returning({ email: communicationDeliveries.email });
    if (again.length === 0) throw new AppError('conflict', 'communication.nothing_to_retry');
    await audit(tx, row, principal, 'retry', { recipients: again.map((d) => d.email) });
    return done;
  });
  if (!moved) throw refuseStatus(row, principal);
  await deps.queue?.send('communication-send', { communicationId: moved.id });
  return one(db, moved, principal);
}
