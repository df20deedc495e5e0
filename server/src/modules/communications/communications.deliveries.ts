// Who a communication reaches: its recipients, the companies it reaches and its deliveries.
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { type CompanyReach, type Delivery, type Recipient } from '@mss/contracts/communications';
import type { Db } from '../../db/client.ts';
import { communicationDeliveries, communicationDeliveryAttempts } from '../../db/schema.ts';
import { type Paged, planList } from '../../lib/list.ts';
import type { Principal } from '../../auth/principal.ts';
import { companiesReached, findRecipients, storedFilterOf } from './communications.recipients.ts';
import { iso, loadFor } from './communications.records.ts';

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
