import { and, asc, count, eq, isNull, notExists, or, sql } from 'drizzle-orm';
import type { ListQuery } from '@mss/contracts/common';
import type { InformationModal, InformationModalInput } from '@mss/contracts/admin';
import type { Db } from '../../db/client.ts';
import { informationModalDismissals, informationModals } from '../../db/schema.ts';
import { notFound, validationError } from '../../errors.ts';
import { type Paged, planList } from '../../lib/list.ts';
import { assertInOrganization, organizationCondition, organizationForWrite } from '../../auth/policy.ts';
import { type Principal } from '../../auth/principal.ts';

// The id first: planList's second sort key is the first selected column.
const columns = {
  id: informationModals.id,
  organization_id: informationModals.organization_id,
  title: informationModals.title,
  body: informationModals.body,
  active: informationModals.active,
  starts_on: informationModals.starts_on,
  ends_on: informationModals.ends_on,
};

/**
 * `organization_id` narrows the list to one organization; an administrator asking for another
 * organization than their own gets an empty list rather than their own modals.
 */
export async function findInformationModals(db: Db, principal: Principal, query: ListQuery): Promise<Paged<InformationModal>> {
  const plan = planList(query, {
    sortable: {
      id: informationModals.id,
      title: sql`lower(${informationModals.title})`,
      starts_on: informationModals.starts_on,
      ends_on: informationModals.ends_on,
      active: informationModals.active,
    },
    searchable: [informationModals.title, informationModals.body],
  });
  const where = and(
    organizationCondition(principal, informationModals.organization_id, query.organization_id),
    query.organization_id ? eq(informationModals.organization_id, query.organization_id) : undefined,
    plan.search,
  );
  const [rows, [total]] = await Promise.all([
    db
      .select(columns)
      .from(informationModals)
      .where(where)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    db.select({ n: count() }).from(informationModals).where(where),
  ]);
  return { data: rows, meta: plan.meta(total!.n) };
}

export async function findInformationModal(db: Db, principal: Principal, id: number): Promise<InformationModal> {
  const [row] = await db.select(columns).from(informationModals).where(eq(informationModals.id, id));
  assertInOrganization(principal, row?.organization_id);
  return row!;
}

async function toValues(db: Db, principal: Principal, input: InformationModalInput) {
  const organizationId = await organizationForWrite(db, principal, input.organization_id);
  const startsOn = input.starts_on ?? null;
  const endsOn = input.ends_on ?? null;
  // YYYY-MM-DD strings compare as dates.
  if (startsOn && endsOn && endsOn < startsOn) throw validationError('ends_on', 'information_modals.ends_before_start');
  return { organization_id: organizationId, title: input.title, body: input.body, active: input.active, starts_on: startsOn, ends_on: endsOn };
}

export async function createInformationModal(db: Db, principal: Principal, input: InformationModalInput): Promise<InformationModal> {
  const values = await toValues(db, principal, input);
  const [row] = await db.insert(informationModals).values(values).returning(columns);
  return row!;
}

export async function updateInformationModal(db: Db, principal: Principal, id: number, input: InformationModalInput): Promise<InformationModal> {
  await findInformationModal(db, principal, id);
  const values = await toValues(db, principal, input);
  const [row] = await db
    .update(informationModals)
    .set({ ...values, updated_at: sql`now()` })
    .where(eq(informationModals.id, id))
    .returning(columns);
  return row!;
}

export async function deleteInformationModal(db: Db, principal: Principal, id: number): Promise<void> {
  await findInformationModal(db, principal, id);
  // Dismissals go with it (on delete cascade).
  await db.delete(informationModals).where(eq(informationModals.id, id));
}

/**
 * The modals to show the signed-in user now: active ones of the session's organization whose
 * dates (if set) include today and that the user has not dismissed. A super-admin's session has
 * no organization, so none.
 */
export async function findActiveInformationModals(db: Db, principal: Principal): Promise<InformationModal[]> {
  if (principal.organizationId === null) return [];
  return db
    .select(columns)
    .from(informationModals)
    .where(
      and(
        eq(informationModals.organization_id, principal.organizationId),
        eq(informationModals.active, true),
        or(isNull(informationModals.starts_on), sql`${informationModals.starts_on} <= current_date`),
        or(isNull(informationModals.ends_on), sql`${informationModals.ends_on} >= current_date`),
        notExists(
          db
            .select({ one: sql`1` })
            .from(informationModalDismissals)
            .where(and(eq(informationModalDismissals.information_modal_id, informationModals.id), eq(informationModalDismissals.user_id, principal.userId))),
        ),
      ),
    )
    .orderBy(asc(informationModals.id));
}

/** The user will not be shown the modal again; dismissing twice changes nothing. */
export async function dismissInformationModal(db: Db, principal: Principal, id: number): Promise<void> {
  const [row] = await db.select({ organization_id: informationModals.organization_id }).from(informationModals).where(eq(informationModals.id, id));
  if (!row || principal.organizationId === null || row.organization_id !== principal.organizationId) throw notFound();
  await db.insert(informationModalDismissals).values({ information_modal_id: id, user_id: principal.userId }).onConflictDoNothing();
}
