// A communication as the module reads, checks, audits and answers it: loaded within what the caller may act on,
// its status in words, its events in the audit trail and its wire shape.
import { actorOf, audit as auditTrail } from '../../audit/audit.ts';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { type Communication, type DeliveryCounts, partlyFailed } from '@mss/contracts/communications';
import { CommunicationStatus, type Locale } from '@mss/contracts/enums';
import { enumLabel, translate } from '@mss/contracts/messages';
import type { JobQueue } from '../../jobs/queue.ts';
import type { Db, Executor } from '../../db/client.ts';
import { communicationAttachments, communicationDeliveries, communicationEvents, communications, files, periods, users } from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../errors.ts';
import { assertInOrganization, mayInAll } from '../../auth/policy.ts';
import type { Principal } from '../../auth/principal.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { textIn } from './communications.render.ts';
import { storedFilterOf } from './communications.recipients.ts';
import { isUuid } from '../../lib/uuid.ts';

/*
 * Communications (docs/architecture.md §6, docs/product.md §4): drafts written by those who hold send-communications in
 * every market of the recipients, a preflight to the author, then a send in the job queue with
 * one delivery record per recipient (communications.sender.ts).
 */

export type Row = typeof communications.$inferSelect;

export interface CommunicationDeps {
  db: Db;
  mailer: Mailer;
  appUrl: string;
  /** Queues the send (at `startAfter`); null when this process runs no jobs. */
  queue: JobQueue | null;
}

const statusName = (status: number, locale: Locale) => enumLabel('communication_status', status, locale);

/** The status in words: "Sent — 2 of 5 failed" when the send did not reach everyone. */
function statusTextOf(status: number, deliveries: DeliveryCounts, locale: Locale): string {
  const name = statusName(status, locale);
  if (!partlyFailed(status, deliveries)) return name;
  return translate('communication.status_partly_failed', { status: name, failed: deliveries.failed, total: deliveries.total }, locale);
}

export function refuse(key: 'communication.update_requires_draft' | 'communication.preflight_requires_draft' | 'communication.preflight_required'): AppError {
  return new AppError('conflict', key);
}

export function refuseStatus(row: Row, principal: Principal): AppError {
  return new AppError('conflict', 'communication.status_for_action', { status: statusName(row.status, principal.locale) });
}

/** The user may send communications in every one of the markets. */
export function mayActIn(principal: Principal, marketIds: readonly number[]): boolean {
  return mayInAll(principal, 'send-communications', marketIds);
}

/** One communication the caller may act on: another organization's is 404, one of markets the caller cannot send to is 403. */
export async function loadFor(db: Executor, principal: Principal, uuid: string): Promise<Row> {
  if (!isUuid(uuid)) throw notFound();
  const [row] = await db.select().from(communications).where(eq(communications.uuid, uuid));
  if (!row) throw notFound();
  assertInOrganization(principal, row.organization_id);
  if (!mayActIn(principal, row.market_ids)) throw forbidden('communication.no_access');
  return row;
}

/** The communication's own event (its history) and the same in the audit trail, with who, through what and from where. */
export async function audit(
  db: Executor,
  row: Pick<Row, 'id' | 'uuid' | 'organization_id'>,
  principal: Principal,
  action: keyof typeof AUDITED_AS,
  detail: Record<string, unknown> = {},
) {
  await db.insert(communicationEvents).values({ communication_id: row.id, organization_id: row.organization_id, user_id: principal.userId, action, detail });
  await auditTrail(db, {
    action: `communication.${AUDITED_AS[action]}`,
    actor: actorOf(principal),
    organizationId: row.organization_id,
    record: { type: 'communication', id: row.uuid },
    details: detail,
  });
}

/** A communication's events as the audit trail names them. */
const AUDITED_AS = {
  created: 'created',
  updated: 'updated',
  attachment_added: 'attachment_added',
  attachment_removed: 'attachment_removed',
  preflight: 'preflight_sent',
  preflight_failed: 'preflight_failed',
  send: 'sent',
  draft: 'returned_to_draft',
  retry: 'retried',
} as const;

// ---------------------------------------------------------------------------------------------
// Wire shape
// ---------------------------------------------------------------------------------------------

export const iso = (d: Date | null) => (d ? d.toISOString() : null);

export async function toWire(db: Executor, rows: Row[], locale: Locale): Promise<Communication[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const authorIds = [...new Set(rows.map((r) => r.author_id).filter((id): id is number => id !== null))];
  const periodIds = [...new Set(rows.map((r) => storedFilterOf(r).period_id).filter((id): id is number => id !== null))];
  const [authors, periodRows, attachments, counts] = await Promise.all([
    authorIds.length
      ? db.select({ id: users.id, first: users.first_name, last: users.last_name, email: users.email }).from(users).where(inArray(users.id, authorIds))
      : [],
    periodIds.length ? db.select({ id: periods.id, uuid: periods.uuid, title: periods.title }).from(periods).where(inArray(periods.id, periodIds)) : [],
    db
      .select({
        communication_id: communicationAttachments.communication_id,
        id: communicationAttachments.id,
        name: files.name,
        mime_type: files.mime_type,
        size: files.size,
      })
      .from(communicationAttachments)
      .innerJoin(files, eq(files.id, communicationAttachments.file_id))
      .where(inArray(communicationAttachments.communication_id, ids))
      .orderBy(asc(communicationAttachments.id)),
    db
      .select({
        communication_id: communicationDeliveries.communication_id,
        total: sql<number>`count(*)::int`,
        queued: sql<number>`(count(*) filter (where ${communicationDeliveries.status} in ('queued', 'sending')))::int`,
        sent: sql<number>`(count(*) filter (where ${communicationDeliveries.status} = 'sent'))::int`,
        failed: sql<number>`(count(*) filter (where ${communicationDeliveries.status} = 'failed'))::int`,
      })
      .from(communicationDeliveries)
      .where(inArray(communicationDeliveries.communication_id, ids))
      .groupBy(communicationDeliveries.communication_id),
  ]);
  return rows.map((row) => {
    const filter = storedFilterOf(row);
    const author = authors.find((a) => a.id === row.author_id);
    const period = periodRows.find((p) => p.id === filter.period_id);
    const c = counts.find((x) => x.communication_id === row.id);
    const deliveries = { total: c?.total ?? 0, queued: c?.queued ?? 0, sent: c?.sent ?? 0, failed: c?.failed ?? 0 };
    // A reminder reads in the reader's language, as each of its recipients gets it.
    const text = textIn(row, locale);
    return {
      uuid: row.uuid,
      status: row.status,
      status_text: statusTextOf(row.status, deliveries, locale),
      subject: text.subject,
      body: text.body,
      reminder: row.reminder === 'before' || row.reminder === 'after' ? row.reminder : null,
      foot_notes: row.foot_notes,
      recipients: {
        market_ids: filter.market_ids,
        roles: filter.roles as Communication['recipients']['roles'],
        company_ids: filter.company_ids,
        period_uuid: period?.uuid ?? null,
        report_statuses: filter.report_statuses,
      },
      period_title: period?.title ?? null,
      author: author ? { id: author.id, name: `${author.first} ${author.last}`.trim() || author.email } : null,
      attachments: attachments.filter((a) => a.communication_id === row.id).map(({ communication_id: _, ...a }) => a),
      deliveries,
      preflight_sent_at: iso(row.preflight_sent_at),
      preflight_to: row.preflight_to,
      send_at: iso(row.send_at),
      sent_at: iso(row.sent_at),
      created_at: row.created_at.toISOString(),
      updated_at: row.updated_at.toISOString(),
    };
  });
}

export async function one(db: Executor, row: Row, principal: Principal): Promise<Communication> {
  return (await toWire(db, [row], principal.locale))[0]!;
}

/** The statuses of a lifecycle's `from`, without its null (not yet created). */
export const statusesOf = (from: readonly (CommunicationStatus | null)[]) => from.filter((s): s is CommunicationStatus => s !== null);
