// Communications' drafts: listing, reading, writing and deleting them.
import { actorOf, audit as auditTrail } from '../../audit/audit.ts';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { COMMUNICATION_VARIABLES, type Communication, type CommunicationInput, unknownVariables } from '@mss/contracts/communications';
import { allows, COMMUNICATION_LIFECYCLE } from '@mss/contracts/lifecycles';
import type { Db, Executor } from '../../db/client.ts';
import { sqlArray } from '../../db/sql-array.ts';
import { communicationAttachments, communicationEvents, communications, companyOrganizations, markets, periods } from '../../db/schema.ts';
import { forbidden, validationError } from '../../errors.ts';
import { deleteFile } from '../../lib/files.ts';
import { type Paged, planList } from '../../lib/list.ts';
import { grantedMarkets, inOrganization, organizationCondition } from '../../auth/policy.ts';
import type { Principal } from '../../auth/principal.ts';
import { sanitizeBody } from './communications.render.ts';
import { isUuid } from '../../lib/uuid.ts';
import { audit, loadFor, mayActIn, one, refuse, statusesOf, toWire } from './communications.records.ts';

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
    !inOrganization(principal, organization)
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
