import { and, desc, eq, gte, ilike, lt, sql, type SQL } from 'drizzle-orm';
import type { AuditEntry, AuditQuery } from '@mss/contracts/audit';
import type { Db } from '../../db/client.ts';
import { auditEntries, organizations, users } from '../../db/schema.ts';
import type { Principal } from '../../auth/principal.ts';
import { notFound, validationError } from '../../errors.ts';
import type { Paged } from '../../lib/list.ts';
import { MIN_SEARCH_LENGTH } from '@mss/contracts/common';
import { administersSessionOrganization, inOrganization, organizationCondition } from '../../auth/policy.ts';

/*
 * Reading the audit trail (docs/decisions.md "Audit trail"): an administrator reads the entries of
 * the organization the session is in; a super-administrator reads every entry, those of no
 * organization too (failed sign-ins of unknown e-mails, their own sign-ins), or one organization's.
 */

/** Whether the principal may read the audit trail: a super-administrator, or an administrator of the session's organization. */
export function mayReadAudit(principal: Principal): boolean {
  return administersSessionOrganization(principal);
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The day after `day` (YYYY-MM-DD), so that "to" includes the whole day. */
const dayAfter = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

function conditions(principal: Principal, query: Omit<AuditQuery, 'page' | 'per_page'>): SQL[] {
  const where: SQL[] = [];
  const inScope = organizationCondition(principal, auditEntries.organization_id, query.organization_id);
  if (inScope) where.push(inScope);
  if (query.user_id) where.push(eq(auditEntries.user_id, query.user_id));
  if (query.person) {
    if (query.person.length < MIN_SEARCH_LENGTH) throw validationError('person', 'validation.search_min');
    where.push(ilike(auditEntries.email, `%${escapeLike(query.person)}%`));
  }
  if (query.action) {
    // "report." (or "report") is every action on reports; "report.status_changed" is that one.
    const [kind, name] = query.action.split('.');
    where.push(name ? eq(auditEntries.action, query.action) : ilike(auditEntries.action, `${escapeLike(kind!)}.%`));
  }
  if (query.record_type) where.push(eq(auditEntries.record_type, query.record_type));
  if (query.record_id) where.push(eq(auditEntries.record_id, query.record_id));
  if (query.from && query.to && query.from > query.to) throw validationError('to', 'validation.invalid');
  if (query.from) where.push(gte(auditEntries.at, sql`${query.from}::date`));
  if (query.to) where.push(lt(auditEntries.at, sql`${dayAfter(query.to)}::date`));
  return where;
}

const columns = {
  id: auditEntries.id,
  at: auditEntries.at,
  organization_id: auditEntries.organization_id,
  organization_name: organizations.name,
  user_id: auditEntries.user_id,
  user_name: sql<string | null>`nullif(trim(${users.first_name} || ' ' || ${users.last_name}), '')`,
  email: auditEntries.email,
  via: auditEntries.via,
  session_id: auditEntries.session_id,
  ip: auditEntries.ip,
  action: auditEntries.action,
  record_type: auditEntries.record_type,
  record_id: auditEntries.record_id,
  before: auditEntries.before,
  after: auditEntries.after,
  details: auditEntries.details,
};

type Row = { [K in keyof typeof columns]: unknown } & { id: number; at: Date; organization_id: number | null; user_id: number | null };

function toWire(row: Row): AuditEntry {
  return {
    id: row.id,
    at: row.at.toISOString(),
    organization: row.organization_id === null ? null : { id: row.organization_id, name: (row.organization_name as string | null) ?? '' },
    user: row.user_id === null ? null : { id: row.user_id, name: (row.user_name as string | null) ?? (row.email as string | null) ?? '' },
    email: row.email as string | null,
    via: row.via as AuditEntry['via'],
    session_id: row.session_id as number | null,
    ip: row.ip as string | null,
    action: row.action as string,
    record_type: row.record_type as string | null,
    record_id: row.record_id as string | null,
    before: row.before ?? null,
    after: row.after ?? null,
    details: row.details ?? null,
  };
}

const selectEntries = (db: Db) =>
  db
    .select(columns)
    .from(auditEntries)
    .leftJoin(organizations, eq(organizations.id, auditEntries.organization_id))
    .leftJoin(users, eq(users.id, auditEntries.user_id));

/** One page of the entries the principal may read, newest first. */
export async function findAuditEntries(db: Db, principal: Principal, query: AuditQuery): Promise<Paged<AuditEntry>> {
  const where = and(...conditions(principal, query));
  const [rows, [count]] = await Promise.all([
    selectEntries(db)
      .where(where)
      .orderBy(desc(auditEntries.at), desc(auditEntries.id))
      .limit(query.per_page)
      .offset((query.page - 1) * query.per_page),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(auditEntries)
      .where(where),
  ]);
  return { data: (rows as Row[]).map(toWire), meta: { page: query.page, per_page: query.per_page, total: count!.total } };
}

/** One entry; another organization's (or one of no organization, for an administrator) is 404. */
export async function findAuditEntry(db: Db, principal: Principal, id: number): Promise<AuditEntry> {
  const [row] = await selectEntries(db).where(eq(auditEntries.id, id));
  if (!row) throw notFound();
  if (!inOrganization(principal, row.organization_id)) throw notFound();
  return toWire(row);
}

/** Every entry the filters match (at most `limit`), newest first, in pages of 5,000 read one after another. */
export async function* auditEntriesFor(db: Db, principal: Principal, query: Omit<AuditQuery, 'page' | 'per_page'>, limit: number): AsyncGenerator<AuditEntry> {
  const where = conditions(principal, query);
  let last: { at: Date; id: number } | null = null;
  let sent = 0;
  while (sent < limit) {
    const page = Math.min(5000, limit - sent);
    const after: SQL[] = last ? [sql`(${auditEntries.at}, ${auditEntries.id}) < (${last.at.toISOString()}::timestamptz, ${last.id})`] : [];
    const rows = (await selectEntries(db)
      .where(and(...where, ...after))
      .orderBy(desc(auditEntries.at), desc(auditEntries.id))
      .limit(page)) as Row[];
    for (const row of rows) yield toWire(row);
    sent += rows.length;
    if (rows.length < page) return;
    last = { at: rows.at(-1)!.at, id: rows.at(-1)!.id };
  }
}
