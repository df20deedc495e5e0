import { actorOf, audit as auditTrail } from '../../audit/audit.ts';
import { and, asc, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { ATTACHMENT_MAX_COUNT, COMMUNICATION_VARIABLES, type Communication, type CommunicationInput, type CompanyReach, type Delivery, type DeliveryCounts, partlyFailed, type Recipient, type RenderedMail, unknownVariables } from '@mss/contracts/communications';
import { CommunicationStatus, type Locale } from '@mss/contracts/enums';
import { enumLabel, translate } from '@mss/contracts/messages';
import type { JobQueue } from '../../jobs/queue.ts';
import { allows, COMMUNICATION_LIFECYCLE, type CommunicationEvent, DELIVERY_LIFECYCLE } from '@mss/contracts/lifecycles';
import type { Db, Executor } from '../../db/client.ts';
import { sqlArray } from '../../db/sql-array.ts';
import { communicationAttachments, communicationDeliveries, communicationDeliveryAttempts, communicationEvents, communications, companyOrganizations, files, markets, organizations, periods, users } from '../../db/schema.ts';
import { AppError, forbidden, notFound, validationError } from '../../errors.ts';
import { deleteFile, fileContent, storeFile } from '../../lib/files.ts';
import { type Paged, planList } from '../../lib/list.ts';
import { assertInOrganization, grantedMarkets, mayInAll, organizationCondition } from '../../auth/policy.ts';
import type { Principal } from '../../auth/principal.ts';
import type { Mailer, MailAttachment } from '../../mail/mailer.ts';
import { mailFailureOf } from '../../mail/mailer.ts';
import { renderMail, sanitizeBody, textIn } from './communications.render.ts';
import { companiesReached, findRecipients, storedFilterOf, variablesOf } from './communications.recipients.ts';
import { attachmentIdentity, isAttachmentType, sniffAttachment } from './communications.attachments.ts';
import { isUuid } from '../../lib/uuid.ts';

/*
 * Communications (docs/architecture.md §6, docs/product.md §4): drafts written by those who hold send-communications in
 * every market of the recipients, a preflight to the author, then a send in the job queue with
 * one delivery record per recipient (communications.sender.ts).
 */

type Row = typeof communications.$inferSelect;

export interface CommunicationDeps {
  db: Db;
  mailer: Mailer;
  appUrl: string;
  /** Queues the send (at `startAfter`); null when this process runs no jobs. */
  queue: JobQueue | null;
}

const S = CommunicationStatus;

const statusName = (status: number, locale: Locale) => enumLabel('communication_status', status, locale);

/** The status in words: "Sent — 2 of 5 failed" when the send did not reach everyone. */
function statusTextOf(status: number, deliveries: DeliveryCounts, locale: Locale): string {
  const name = statusName(status, locale);
  if (!partlyFailed(status, deliveries)) return name;
  return translate('communication.status_partly_failed', { status: name, failed: deliveries.failed, total: deliveries.total }, locale);
}

function refuse(key: 'communication.update_requires_draft' | 'communication.preflight_requires_draft' | 'communication.preflight_required'): AppError {
  return new AppError('conflict', key);
}

function refuseStatus(row: Row, principal: Principal): AppError {
  return new AppError('conflict', 'communication.status_for_action', { status: statusName(row.status, principal.locale) });
}

/** The user may send communications in every one of the markets. */
function mayActIn(principal: Principal, marketIds: readonly number[]): boolean {
  return mayInAll(principal, 'send-communications', marketIds);
}

/** One communication the caller may act on: another organization's is 404, one of markets the caller cannot send to is 403. */
async function loadFor(db: Executor, principal: Principal, uuid: string): Promise<Row> {
  if (!isUuid(uuid)) throw notFound();
  const [row] = await db.select().from(communications).where(eq(communications.uuid, uuid));
  if (!row) throw notFound();
  assertInOrganization(principal, row.organization_id);
  if (!mayActIn(principal, row.market_ids)) throw forbidden('communication.no_access');
  return row;
}

/** The communication's own event (its history) and the same in the audit trail, with who, through what and from where. */
async function audit(
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

const iso = (d: Date | null) => (d ? d.toISOString() : null);

async function toWire(db: Executor, rows: Row[], locale: Locale): Promise<Communication[]> {
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

async function one(db: Executor, row: Row, principal: Principal): Promise<Communication> {
  return (await toWire(db, [row], principal.locale))[0]!;
}

// ---------------------------------------------------------------------------------------------
// Drafts
// ---------------------------------------------------------------------------------------------

/** Validates and resolves the input: its organization, the stored filter, the sanitised body. */
async function resolveInput(db: Executor, principal: Principal, input: CommunicationInput, organizationId?: number) {
  for (const field of ['subject', 'body', 'foot_notes'] as const) {
    const unknown = unknownVariables(input[field] ?? '');
    if (unknown.length) throw validationError(field, 'communication.unknown_variable', { name: unknown[0]!, variables: COMMUNICATION_VARIABLES.join(', ') });
  }
  const marketIds = [...new Set(input.recipients.market_ids)].sort((a, b) => a - b);
  const marketRows = await db.select({ id: markets.id, organization_id: markets.organization_id }).from(markets).where(inArray(markets.id, marketIds));
  const organizationIds = new Set(marketRows.map((m) => m.organization_id));
  const organization = organizationId ?? principal.organizationId ?? marketRows[0]?.organization_id;
  if (
    marketRows.length !== marketIds.length ||
    organization === undefined ||
    organizationIds.size !== 1 ||
    !organizationIds.has(organization) ||
    (principal.organizationId !== null && principal.organizationId !== organization)
  )
    throw validationError('recipients.market_ids', 'validation.in');
  if (!mayActIn(principal, marketIds)) throw forbidden('communication.no_access');
  const companyIds = [...new Set(input.recipients.company_ids)];
  if (companyIds.length) {
    const known = await db
      .select({ id: companyOrganizations.company_id })
      .from(companyOrganizations)
      .where(and(eq(companyOrganizations.organization_id, organization), inArray(companyOrganizations.company_id, companyIds)));
    if (known.length !== companyIds.length) throw validationError('recipients.company_ids', 'validation.in');
  }
  let periodId: number | null = null;
  if (input.recipients.period_uuid) {
    const uuid = input.recipients.period_uuid;
    const [period] = isUuid(uuid) ? await db.select({ id: periods.id, market_id: periods.market_id }).from(periods).where(eq(periods.uuid, uuid)) : [];
    if (!period || !marketIds.includes(period.market_id)) throw validationError('recipients.period_uuid', 'communication.period_market');
    periodId = period.id;
  }
  const body = sanitizeBody(input.body);
  if (body === '') throw validationError('body', 'validation.required');
  return {
    organization_id: organization,
    subject: input.subject.trim(),
    body,
    foot_notes: input.foot_notes?.trim() ? input.foot_notes.trim() : null,
    market_ids: marketIds,
    recipients: {
      roles: [...new Set(input.recipients.roles)].sort(),
      company_ids: companyIds,
      period_id: periodId,
      report_statuses: periodId === null ? [] : [...new Set(input.recipients.report_statuses)],
    },
  };
}

export async function findCommunications(
  db: Db,
  principal: Principal,
  query: { page: number; per_page: number; sort?: string; direction: 'asc' | 'desc'; search?: string; status?: number },
): Promise<Paged<Communication>> {
  const plan = planList(query, {
    sortable: { created_at: communications.created_at, subject: communications.subject, status: communications.status, sent_at: communications.sent_at },
    searchable: [communications.subject],
    nullsLast: ['sent_at'],
  });
  // Only communications whose every market the caller may send to.
  const sendMarkets = grantedMarkets(principal, 'send-communications');
  const where = and(
    organizationCondition(principal, communications.organization_id),
    sendMarkets === 'all' ? undefined : sql`${communications.market_ids} <@ ${sqlArray(sendMarkets, 'int')}`,
    query.status === undefined ? undefined : eq(communications.status, query.status),
    plan.search,
  );
  const [{ total }] = (await db
    .select({ total: sql<number>`count(*)::int` })
    .from(communications)
    .where(where)) as [{ total: number }];
  const rows = await db
    .select()
    .from(communications)
    .where(where)
    .orderBy(...plan.orderBy, desc(communications.id))
    .limit(plan.limit)
    .offset(plan.offset);
  return { data: await toWire(db, rows, principal.locale), meta: plan.meta(total) };
}

export async function findCommunication(db: Db, principal: Principal, uuid: string): Promise<Communication> {
  return one(db, await loadFor(db, principal, uuid), principal);
}

export async function createCommunication(db: Db, principal: Principal, input: CommunicationInput): Promise<Communication> {
  const values = await resolveInput(db, principal, input);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(communications)
      .values({ ...values, author_id: principal.userId, status: COMMUNICATION_LIFECYCLE.create.to })
      .returning();
    await audit(tx, row!, principal, 'created', { subject: row!.subject });
    return one(tx, row!, principal);
  });
}

export async function updateCommunication(db: Db, principal: Principal, uuid: string, input: CommunicationInput): Promise<Communication> {
  const current = await loadFor(db, principal, uuid);
  if (!allows(COMMUNICATION_LIFECYCLE, current.status, 'edit')) throw refuse('communication.update_requires_draft');
  const values = await resolveInput(db, principal, input, current.organization_id);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(communications)
      .set({ ...values, updated_at: sql`now()` })
      .where(and(eq(communications.id, current.id), inArray(communications.status, statusesOf(COMMUNICATION_LIFECYCLE.edit.from))))
      .returning();
    if (!row) throw refuse('communication.update_requires_draft');
    await audit(tx, row, principal, 'updated', { subject: row.subject });
    return one(tx, row, principal);
  });
}

export async function deleteCommunication(db: Db, principal: Principal, uuid: string): Promise<void> {
  const current = await loadFor(db, principal, uuid);
  if (!allows(COMMUNICATION_LIFECYCLE, current.status, 'edit')) throw refuse('communication.update_requires_draft');
  const fileIds = await db.transaction(async (tx) => {
    const attached = await tx
      .select({ file_id: communicationAttachments.file_id })
      .from(communicationAttachments)
      .where(eq(communicationAttachments.communication_id, current.id));
    const [deleted] = await tx
      .delete(communications)
      .where(and(eq(communications.id, current.id), inArray(communications.status, statusesOf(COMMUNICATION_LIFECYCLE.edit.from))))
      .returning({ id: communications.id });
    if (!deleted) throw refuse('communication.update_requires_draft');
    await tx.insert(communicationEvents).values({
      communication_id: null,
      organization_id: current.organization_id,
      user_id: principal.userId,
      action: 'deleted',
      detail: { uuid: current.uuid, subject: current.subject },
    });
    await auditTrail(tx, {
      action: 'communication.deleted',
      actor: actorOf(principal),
      organizationId: current.organization_id,
      record: { type: 'communication', id: current.uuid },
      before: { subject: current.subject },
    });
    return attached.map((a) => a.file_id);
  });
  for (const id of fileIds) await deleteFile(db, id);
}

// ---------------------------------------------------------------------------------------------
// Recipients and deliveries
// ---------------------------------------------------------------------------------------------

const recipientOut = (r: Awaited<ReturnType<typeof findRecipients>>['rows'][number]): Recipient => ({
  user_id: r.user_id,
  name: r.name,
  email: r.email,
  company: r.company_id === null ? null : { id: r.company_id, name: r.company_name ?? '' },
  market: { id: r.market_id, name: r.market_name },
  report_status: r.report_status,
});

export async function findCommunicationRecipients(
  db: Db,
  principal: Principal,
  uuid: string,
  page: { page: number; per_page: number },
): Promise<Paged<Recipient>> {
  const row = await loadFor(db, principal, uuid);
  const { rows, total } = await findRecipients(db, row.organization_id, storedFilterOf(row), { limit: page.per_page, offset: (page.page - 1) * page.per_page });
  const count = rows.length || page.page === 1 ? total : (await findRecipients(db, row.organization_id, storedFilterOf(row), { limit: 1, offset: 0 })).total;
  return { data: rows.map(recipientOut), meta: { page: page.page, per_page: page.per_page, total: count } };
}

/** The companies the communication is about, and who of each would get it now ("no recipient" when none). */
export async function findCommunicationCompanies(db: Db, principal: Principal, uuid: string): Promise<CompanyReach[]> {
  const row = await loadFor(db, principal, uuid);
  return companiesReached(db, row.organization_id, storedFilterOf(row));
}

export async function findDeliveries(
  db: Db,
  principal: Principal,
  uuid: string,
  query: { page: number; per_page: number; status?: string; search?: string },
): Promise<Paged<Delivery>> {
  const row = await loadFor(db, principal, uuid);
  const plan = planList(
    { ...query, direction: 'asc' },
    { sortable: { name: sql`lower(${communicationDeliveries.name})` }, searchable: [communicationDeliveries.name, communicationDeliveries.email] },
  );
  const where = and(
    eq(communicationDeliveries.communication_id, row.id),
    query.status ? eq(communicationDeliveries.status, query.status) : undefined,
    plan.search,
  );
  const [{ total }] = (await db
    .select({ total: sql<number>`count(*)::int` })
    .from(communicationDeliveries)
    .where(where)) as [{ total: number }];
  const rows = await db
    .select()
    .from(communicationDeliveries)
    .where(where)
    .orderBy(...plan.orderBy, asc(communicationDeliveries.id))
    .limit(plan.limit)
    .offset(plan.offset);
  const attempts = rows.length
    ? await db
        .select()
        .from(communicationDeliveryAttempts)
        .where(
          inArray(
            communicationDeliveryAttempts.delivery_id,
            rows.map((d) => d.id),
          ),
        )
        .orderBy(asc(communicationDeliveryAttempts.delivery_id), asc(communicationDeliveryAttempts.number))
    : [];
  return {
    data: rows.map((d) => ({
      id: d.id,
      user_id: d.user_id,
      name: d.name,
      email: d.email,
      status: d.status as Delivery['status'],
      attempts: d.attempts,
      smtp_response: d.smtp_response,
      attempt_history: attempts
        .filter((a) => a.delivery_id === d.id)
        .map((a) => ({
          number: a.number,
          outcome: a.outcome as Delivery['attempt_history'][number]['outcome'],
          smtp_response: a.smtp_response,
          started_at: a.started_at.toISOString(),
          finished_at: iso(a.finished_at),
        })),
      sent_at: iso(d.sent_at),
      updated_at: d.updated_at.toISOString(),
    })),
    meta: plan.meta(total),
  };
}

// ---------------------------------------------------------------------------------------------
// Attachments
// ---------------------------------------------------------------------------------------------

export async function addAttachment(
  db: Db,
  principal: Principal,
  uuid: string,
  readFile: () => Promise<{ name: string; content: Buffer }>,
): Promise<{ id: number; name: string; mime_type: string; size: number }> {
  const row = await loadFor(db, principal, uuid);
  if (!allows(COMMUNICATION_LIFECYCLE, row.status, 'edit')) throw refuse('communication.update_requires_draft');
  const [{ count }] = (await db
    .select({ count: sql<number>`count(*)::int` })
    .from(communicationAttachments)
    .where(eq(communicationAttachments.communication_id, row.id))) as [{ count: number }];
  if (count >= ATTACHMENT_MAX_COUNT) throw validationError('file', 'communication.attachment_count', { max: ATTACHMENT_MAX_COUNT });
  const upload = await readFile();
  const sniffed = sniffAttachment(upload.content);
  if (!sniffed) throw validationError('file', 'communication.attachment_type', { file_name: upload.name });
  // Stored under a name whose extension says the type it is sent as (x.html that is text: x.txt).
  const { name, type } = attachmentIdentity(upload.name, sniffed);
  const file = { name, content: upload.content };
  const fileId = await storeFile(db, { name, mimeType: type, content: file.content });
  try {
    return await db.transaction(async (tx) => {
      // Counted again under the communication's row lock: two uploads at once cannot pass the limit.
      const [locked] = await tx.select({ status: communications.status }).from(communications).where(eq(communications.id, row.id)).for('update');
      if (!locked || !allows(COMMUNICATION_LIFECYCLE, locked.status, 'edit')) throw refuse('communication.update_requires_draft');
      const [{ n }] = (await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(communicationAttachments)
        .where(eq(communicationAttachments.communication_id, row.id))) as [{ n: number }];
      if (n >= ATTACHMENT_MAX_COUNT) throw validationError('file', 'communication.attachment_count', { max: ATTACHMENT_MAX_COUNT });
      const [attachment] = await tx
        .insert(communicationAttachments)
        .values({ communication_id: row.id, file_id: fileId })
        .returning({ id: communicationAttachments.id });
      await audit(tx, row, principal, 'attachment_added', { name: file.name, uploaded_as: upload.name, size: file.content.length, type });
      return { id: attachment!.id, name: file.name, mime_type: type, size: file.content.length };
    });
  } catch (error) {
    await deleteFile(db, fileId).catch(() => {});
    throw error;
  }
}

async function findAttachment(db: Db, row: Row, id: number) {
  const [attachment] = await db
    .select({ id: communicationAttachments.id, file_id: communicationAttachments.file_id, name: files.name })
    .from(communicationAttachments)
    .innerJoin(files, eq(files.id, communicationAttachments.file_id))
    .where(and(eq(communicationAttachments.id, id), eq(communicationAttachments.communication_id, row.id)));
  if (!attachment) throw notFound();
  return attachment;
}

export async function removeAttachment(db: Db, principal: Principal, uuid: string, id: number): Promise<void> {
  const row = await loadFor(db, principal, uuid);
  if (!allows(COMMUNICATION_LIFECYCLE, row.status, 'edit')) throw refuse('communication.update_requires_draft');
  const attachment = await findAttachment(db, row, id);
  await db.transaction(async (tx) => {
    await tx.delete(communicationAttachments).where(eq(communicationAttachments.id, attachment.id));
    await audit(tx, row, principal, 'attachment_removed', { name: attachment.name });
  });
  await deleteFile(db, attachment.file_id);
}

export async function attachmentFileId(db: Db, principal: Principal, uuid: string, id: number): Promise<number> {
  const row = await loadFor(db, principal, uuid);
  return (await findAttachment(db, row, id)).file_id;
}

/** The attachments of a communication as the mail carries them. */
export async function mailAttachmentsOf(db: Db, communicationId: number): Promise<MailAttachment[]> {
  const attached = await db
    .select({ file_id: communicationAttachments.file_id, name: files.name, mime_type: files.mime_type })
    .from(communicationAttachments)
    .innerJoin(files, eq(files.id, communicationAttachments.file_id))
    .where(eq(communicationAttachments.communication_id, communicationId))
    .orderBy(asc(communicationAttachments.id));
  const out: MailAttachment[] = [];
  for (const a of attached) {
    const chunks: Buffer[] = [];
    for await (const chunk of fileContent(db, a.file_id)) chunks.push(chunk);
    // Files stored before names followed their type are mailed under a matching name too.
    const { name, type } = isAttachmentType(a.mime_type) ? attachmentIdentity(a.name, a.mime_type) : { name: a.name, type: a.mime_type };
    out.push({ filename: name, content: Buffer.concat(chunks), contentType: type });
  }
  return out;
}

export async function mailFooterOf(db: Executor, organizationId: number): Promise<string | null> {
  const [org] = await db.select({ mail_description: organizations.mail_description }).from(organizations).where(eq(organizations.id, organizationId));
  return org?.mail_description ?? null;
}

// ---------------------------------------------------------------------------------------------
// Status changes: preflight, send, back to draft, retry
// ---------------------------------------------------------------------------------------------

const statusesOf = (from: readonly (CommunicationStatus | null)[]) => from.filter((s): s is CommunicationStatus => s !== null);

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
  if (row.status === S.Draft || row.status === S.SendingPreflight) throw refuse('communication.preflight_required');
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
