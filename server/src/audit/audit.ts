import { sql } from 'drizzle-orm';
import { auditEntries } from '../db/schema.ts';
import type { Db, Executor } from '../db/client.ts';
import type { FastifyRequest } from 'fastify';
import { principalOf, type Principal } from '../auth/principal.ts';

/*
 * The audit trail (docs/decisions.md "Audit trail"): one append-only entry per change or read of
 * individual figures, written in the transaction of what it records when there is one (an entry
 * never tells of something that did not happen), with who, through what, from where.
 */

/** What an entry records. */
export type AuditAction =
  | 'auth.sign_in'
  | 'auth.sign_in_failed'
  | 'auth.sign_out'
  | 'auth.token_issued'
  | 'auth.token_revoked'
  // Reads of a company's individual figures by anyone who is not its own user.
  | 'report.read'
  | 'report.rows_read'
  | 'report.file_read'
  | 'statistics.company_read'
  | 'statistics.downloaded'
  // Changes: a record created, updated or deleted, and what the workflow does to periods, reports and messages.
  | `${AuditRecordType}.${'created' | 'updated' | 'deleted'}`
  | 'auth.password_changed'
  | 'auth.password_reset'
  | 'auth.two_factor_enabled'
  | 'auth.two_factor_disabled'
  | 'auth.two_factor_reset'
  | `period.${'opened' | 'closed' | 'published' | 'republished' | 'unpublished'}`
  | 'report.status_changed'
  | `history_import.${'uploaded' | 'import_requested' | 'publish_requested' | 'cancel_requested'}`
  | `communication.${'sent' | 'preflight_sent' | 'preflight_failed' | 'returned_to_draft' | 'retried' | 'attachment_added' | 'attachment_removed'}`;

/** The kinds of record an entry can be about. */
export type AuditRecordType =
  | 'user'
  | 'cluster'
  | 'code'
  | 'code_group'
  | 'code_section'
  | 'company'
  | 'currency'
  | 'currency_conversion'
  | 'information_modal'
  | 'organization'
  | 'release_note'
  | 'market'
  | 'period'
  | 'report'
  | 'communication'
  | 'history_import'
  | 'session';

export interface AuditActor {
  userId: number | null;
  email?: string | null;
  organizationId: number | null;
  /** A browser session or an integration token, and its id. */
  via?: 'session' | 'token' | null;
  sessionId?: number | null;
  ip?: string | null;
}

export interface AuditRecord {
  action: AuditAction;
  actor: AuditActor;
  /** The organization the entry belongs to, when not the actor's (a super-administrator acting in one). */
  organizationId?: number | null;
  record?: { type: string; id: string | number };
  /** The market the record is in: the entry belongs to its organization (a super-administrator's read too). */
  marketId?: number;
  before?: unknown;
  after?: unknown;
  details?: unknown;
}

/** The signed-in actor of a request. */
export function actorOf(principal: Principal, ip = principal.ip ?? null): AuditActor & { userId: number } {
  return {
    userId: principal.userId,
    email: principal.user.email,
    organizationId: principal.organizationId,
    via: principal.sessionKind,
    sessionId: principal.sessionId,
    ip,
  };
}

/** The signed-in actor of a request (401 when nobody is signed in). */
export const actorOfRequest = (request: FastifyRequest) => actorOf(principalOf(request), request.ip);

/** Who reads: the actor, and their company (a company's own users reading its figures are not recorded). */
export type Reader = AuditActor & { companyId: number | null };

export function readerOf(principal: Principal, ip = principal.ip ?? null): Reader {
  return { ...actorOf(principal, ip), companyId: principal.companyId };
}

/**
 * A read of a company's individual figures (a report, its rows or file, its statistics), by anyone
 * who is not that company's own user: an entry of the market's organization.
 */
export async function auditRead(
  db: Executor,
  reader: Reader | undefined,
  read: { action: AuditAction; companyId: number | null; marketId: number; record: { type: string; id: string | number }; details?: unknown },
): Promise<void> {
  // companyId null: several companies' figures at once (a breakdown by company), never one's own.
  if (!reader || (read.companyId !== null && reader.companyId === read.companyId)) return;
  const { companyId: _own, ...actor } = reader;
  await audit(db, {
    action: read.action,
    actor,
    marketId: read.marketId,
    record: read.record,
    details: { company_id: read.companyId, ...(read.details as object | undefined) },
  });
}

/** Keys whose values an entry never holds (a password, a token, a hash, a secret, a recovery code). */
const SECRET = /password|token|secret|hash|recovery|totp|otp/i;

/** The value with every secret's value replaced by "[hidden]", at any depth. */
export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value instanceof Date) return value.toISOString();
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, SECRET.test(k) ? '[hidden]' : redact(v)]));
  }
  return value;
}

const json = (value: unknown) => (value === undefined ? null : redact(value));

/** Writes one entry, in the caller's transaction when it passes one. */
export async function audit(db: Executor, entry: AuditRecord): Promise<void> {
  const { actor } = entry;
  const organization =
    entry.organizationId !== undefined
      ? sql`${entry.organizationId}::int`
      : entry.marketId !== undefined
        ? sql`(select organization_id from markets where id = ${entry.marketId}::int)`
        : sql`${actor.organizationId}::int`;
  const jsonb = (value: unknown) => {
    const redacted = json(value);
    return redacted === null ? sql`null` : sql`${JSON.stringify(redacted)}::jsonb`;
  };
  // One statement, written as SQL (a little less work per entry than the query builder).
  await db.execute(sql`
    insert into ${auditEntries} (organization_id, user_id, email, via, session_id, ip, action, record_type, record_id, before, after, details)
    values (${organization}, ${actor.userId}::int, ${actor.email ?? null}, ${actor.via ?? null}, ${actor.sessionId ?? null}::int, ${actor.ip ?? null},
      ${entry.action}, ${entry.record?.type ?? null}, ${entry.record ? String(entry.record.id) : null},
      ${jsonb(entry.before)}, ${jsonb(entry.after)}, ${jsonb(entry.details)})`);
}

/** The top-level fields whose values differ (an update's entry keeps only what changed, and the id). */
export function changedFields(before: unknown, after: unknown): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const b = (redact(before) ?? {}) as Record<string, unknown>;
  const a = (redact(after) ?? {}) as Record<string, unknown>;
  const changed = [...new Set([...Object.keys(b), ...Object.keys(a)])].filter(
    (key) => key === 'id' || key === 'uuid' || JSON.stringify(b[key]) !== JSON.stringify(a[key]),
  );
  // The timestamp the change itself moves says nothing of it.
  const told = changed.filter((key) => key !== 'updated_at');
  return {
    before: Object.fromEntries(told.filter((k) => k in b).map((k) => [k, b[k]])),
    after: Object.fromEntries(told.filter((k) => k in a).map((k) => [k, a[k]])),
  };
}

/** The organization a record belongs to, when it says so (`organization_id`, or `organization: { id }`); otherwise the actor's. */
function organizationOfRecord(...values: unknown[]): number | undefined {
  for (const value of values) {
    const record = value as { organization_id?: unknown; organization?: { id?: unknown } | null } | null | undefined;
    const id = record?.organization_id ?? record?.organization?.id;
    if (typeof id === 'number') return id;
  }
  return undefined;
}

/**
 * A record created, updated or deleted: the whole record when created or deleted, the fields that
 * changed (before and after) when updated. Written after the change succeeded.
 */
export async function auditChange(
  db: Executor,
  actor: AuditActor,
  change: {
    type: AuditRecordType;
    id: string | number;
    change: 'created' | 'updated' | 'deleted';
    before?: unknown;
    after?: unknown;
    /** The market the record is in: the entry is its organization's. */
    marketId?: number;
  },
): Promise<void> {
  const diff = change.change === 'updated' ? changedFields(change.before, change.after) : { before: change.before, after: change.after };
  const organizationId =
    change.type === 'organization'
      ? Number(change.id)
      : (organizationOfRecord(change.after, change.before) ?? (change.marketId === undefined ? actor.organizationId : undefined));
  await audit(db, {
    action: `${change.type}.${change.change}`,
    actor,
    organizationId,
    marketId: change.marketId,
    record: { type: change.type, id: change.id },
    before: diff.before,
    after: diff.after,
  });
}

/**
 * Deletes the entries older than `months` (AUDIT_RETENTION_MONTHS): the only delete the table's
 * trigger lets through, and only of entries before the cut-off this transaction sets.
 */
export async function purgeAudit(db: Db, months: number): Promise<number> {
  return db.transaction(async (tx) => {
    const { rows } = await tx.execute<{ cutoff: string }>(
      sql`select set_config('mss.audit_purge_before', (now() - make_interval(months => ${months}))::text, true) as cutoff`,
    );
    const deleted = await tx.execute(sql`delete from ${auditEntries} where at < ${rows[0]!.cutoff}::timestamptz`);
    return deleted.rowCount ?? 0;
  });
}
