import { and, asc, count, eq, inArray, isNull, ne, notInArray, sql } from 'drizzle-orm';
import type { ListQuery } from '@mss/contracts/common';
import type { AdminUser, AdminUserInput } from '@mss/contracts/admin';
import type { Db, Executor } from '../../db/client.ts';
import { companies, companyOrganizations, markets, organizations, sessions, userMarkets, userOrganizations, userRoles, users } from '../../db/schema.ts';
import { AppError, validationError } from '../../errors.ts';
import { hashPassword } from '../../auth/passwords.ts';
import { checkPasswordRules, EMAIL_PATTERN, normalizeEmail } from '../auth/auth.service.ts';
import { type Paged, planList } from '../../lib/list.ts';
import { inUse } from '../../lib/scope.ts';
import { administersAll, organizationCondition } from '../../auth/policy.ts';
import { type Principal } from '../../auth/principal.ts';

/** Users the actor administers: members of their organization (a super-admin: everyone). */
function userScope(principal: Principal, organizationId?: number) {
  const org = principal.organizationId ?? organizationId;
  if (org === undefined || org === null) return undefined;
  return inArray(users.id, sql`(select ${userOrganizations.user_id} from ${userOrganizations} where ${userOrganizations.organization_id} = ${org})`);
}

type UserRow = typeof users.$inferSelect;

async function toAdminUsers(db: Db, principal: Principal, rows: UserRow[]): Promise<AdminUser[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const companyIds = [...new Set(rows.map((r) => r.company_id).filter((id): id is number => id !== null))];
  const [orgRows, marketRows, roleRows, companyRows] = await Promise.all([
    db
      .select({ user_id: userOrganizations.user_id, id: organizations.id, uuid: organizations.uuid, name: organizations.name })
      .from(userOrganizations)
      .innerJoin(organizations, eq(organizations.id, userOrganizations.organization_id))
      .where(inArray(userOrganizations.user_id, ids))
      .orderBy(asc(organizations.name)),
    db
      .select({
        user_id: userMarkets.user_id,
        id: markets.id,
        international_name: markets.international_name,
        local_name: markets.local_name,
        iso_code: markets.iso_code,
      })
      .from(userMarkets)
      .innerJoin(markets, eq(markets.id, userMarkets.market_id))
      .where(and(inArray(userMarkets.user_id, ids), organizationCondition(principal, markets.organization_id)))
      .orderBy(asc(markets.international_name)),
    db.select().from(userRoles).where(inArray(userRoles.user_id, ids)).orderBy(asc(userRoles.role)),
    companyIds.length ? db.select({ id: companies.id, name: companies.name }).from(companies).where(inArray(companies.id, companyIds)) : Promise.resolve([]),
  ]);
  return rows.map((u) => {
    const memberOf = orgRows.filter((o) => o.user_id === u.id).map((o) => o.id);
    return {
      id: u.id,
      uuid: u.uuid,
      email: u.email,
      name: `${u.first_name} ${u.last_name}`.trim(),
      first_name: u.first_name,
      last_name: u.last_name,
      phone: u.phone,
      locale: u.locale,
      disabled_at: u.disabled_at?.toISOString() ?? null,
      company: companyRows.find((c) => c.id === u.company_id) ?? null,
      // An administrator sees the user's membership of their own organization only.
      organizations: orgRows
        .filter((o) => o.user_id === u.id && (principal.organizationId === null || o.id === principal.organizationId))
        .map(({ user_id: _, ...o }) => o),
      markets: marketRows.filter((m) => m.user_id === u.id).map(({ user_id: _, ...m }) => m),
      roles: roleRows.filter((r) => r.user_id === u.id).map((r) => ({ name: r.role })),
      other_organizations: principal.organizationId === null ? 0 : memberOf.filter((id) => id !== principal.organizationId).length,
      person_editable: administersAll(principal, memberOf),
    };
  });
}

async function membershipsOf(db: Db, userId: number): Promise<number[]> {
  const rows = await db.select({ id: userOrganizations.organization_id }).from(userOrganizations).where(eq(userOrganizations.user_id, userId));
  return rows.map((r) => r.id);
}

/** Fields of the form that belong to the person, in the order the refusal names them. */
const PERSON_FIELDS = ['email', 'password', 'first_name', 'last_name', 'phone', 'locale', 'company_id', 'roles', 'disabled'] as const;

/**
 * What an input would change of the person (not of an organization's part of them): e-mail,
 * password, names, phone, language, company, roles (they act in every organization of the
 * user) and the disabled state.
 */
async function personChanges(db: Db, input: AdminUserInput, existing: UserRow): Promise<(typeof PERSON_FIELDS)[number][]> {
  const currentRoles = (await db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.user_id, existing.id))).map((r) => r.role).sort();
  const wantedRoles = [...new Set(input.roles)].sort();
  const changed = {
    email: input.email.trim() !== existing.email,
    password: Boolean(input.password),
    first_name: input.first_name !== existing.first_name,
    last_name: input.last_name !== existing.last_name,
    phone: (input.phone || null) !== (existing.phone || null),
    locale: input.locale !== existing.locale,
    company_id: input.company_id !== existing.company_id,
    roles: wantedRoles.join('|') !== currentRoles.join('|'),
    disabled: input.disabled !== (existing.disabled_at !== null),
  };
  return PERSON_FIELDS.filter((f) => changed[f]);
}

/**
 * A user shared with organizations the actor does not administer: 403 for any change of what
 * belongs to the person, naming the fields (the actor may still change their organization's part).
 */
async function assertMayChangePerson(db: Db, principal: Principal, input: AdminUserInput, existing: UserRow): Promise<void> {
  if (administersAll(principal, await membershipsOf(db, existing.id))) return;
  const changed = await personChanges(db, input, existing);
  if (changed.length === 0) return;
  // Each field's message names that field; the top-level message all of them (by their labels).
  const fieldErrors = Object.fromEntries(changed.map((f) => [f, [{ key: 'users.person_shared' as const }]]));
  throw new AppError('forbidden', 'users.person_shared', {}, fieldErrors, {}, { attribute: changed });
}

export async function findAdminUsers(db: Db, principal: Principal, query: ListQuery): Promise<Paged<AdminUser>> {
  const plan = planList(query, {
    sortable: {
      email: users.email,
      last_name: sql`lower(${users.last_name})`,
      first_name: sql`lower(${users.first_name})`,
      id: users.id,
    },
    searchable: [users.email, users.first_name, users.last_name],
  });
  const where = and(userScope(principal, query.organization_id), plan.search);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(users)
      .where(where)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    db.select({ n: count() }).from(users).where(where),
  ]);
  return { data: await toAdminUsers(db, principal, rows), meta: plan.meta(total!.n) };
}

async function findUserRow(db: Db, principal: Principal, id: number): Promise<UserRow> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), userScope(principal)));
  // docs/product.md §8 "The user could not be found.": the same for an id that does not exist and one of
  // another organization, so the answer tells nothing about other organizations' users.
  if (!row) throw new AppError('not_found', 'auth.user_not_found');
  return row;
}

export async function findAdminUser(db: Db, principal: Principal, id: number): Promise<AdminUser> {
  return (await toAdminUsers(db, principal, [await findUserRow(db, principal, id)]))[0]!;
}

/** Checks the input against docs/product.md §5 and the actor's reach; answers the organizations to set. */
async function checkUserInput(db: Db, principal: Principal, input: AdminUserInput, existing?: UserRow): Promise<number[]> {
  const email = normalizeEmail(input.email);
  if (!EMAIL_PATTERN.test(email)) throw validationError('email', 'auth.invalid_email');
  const [taken] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(sql`lower(${users.email})`, email), existing ? ne(users.id, existing.id) : undefined));
  if (taken) throw validationError('email', 'auth.email_in_use');
  if (!existing || input.password) checkPasswordRules(input.password ?? '', input.password_confirmation ?? '');

  const roles = [...new Set(input.roles)];
  const orgIds = [...new Set(input.organization_ids)];
  if (roles.includes('super-admin')) {
    if (principal.organizationId !== null) throw validationError('roles', 'users.role_not_allowed', { role: 'super-admin' });
    if (orgIds.length) throw validationError('organization_ids', 'users.super_admin_no_organization');
    return [];
  }
  if (principal.organizationId !== null) {
    if (orgIds.some((id) => id !== principal.organizationId)) throw validationError('organization_ids', 'admin.own_organization_only');
    return [principal.organizationId];
  }
  if (orgIds.length === 0) throw validationError('organization_ids', 'validation.required');
  const found = await db.select({ id: organizations.id }).from(organizations).where(inArray(organizations.id, orgIds));
  if (found.length !== orgIds.length) throw validationError('organization_ids', 'validation.in');
  return orgIds;
}

async function saveUser(db: Db, principal: Principal, input: AdminUserInput, existing?: UserRow): Promise<number> {
  if (existing) await assertMayChangePerson(db, principal, input, existing);
  const orgIds = await checkUserInput(db, principal, input, existing);
  const marketIds = [...new Set(input.market_ids)];
  if (marketIds.length) {
    const found = orgIds.length
      ? await db
          .select({ id: markets.id })
          .from(markets)
          .where(and(inArray(markets.id, marketIds), inArray(markets.organization_id, orgIds)))
      : [];
    if (found.length !== marketIds.length) throw validationError('market_ids', 'admin.not_in_organization');
  }
  if (input.company_id !== null) {
    const [company] = orgIds.length
      ? await db
          .select({ id: companyOrganizations.company_id })
          .from(companyOrganizations)
          .where(and(eq(companyOrganizations.company_id, input.company_id), inArray(companyOrganizations.organization_id, orgIds)))
          .limit(1)
      : [];
    if (!company) throw validationError('company_id', 'admin.not_in_organization');
  }
  if (existing && existing.id === principal.userId && input.disabled) throw validationError('disabled', 'users.disable_self');
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  const roles = [...new Set(input.roles)];

  return db.transaction(async (tx) => {
    const values = {
      email: input.email.trim(),
      first_name: input.first_name,
      last_name: input.last_name,
      phone: input.phone ?? null,
      locale: input.locale,
      company_id: input.company_id,
      disabled_at: input.disabled ? (existing?.disabled_at ?? new Date()) : null,
      ...(passwordHash ? { password_hash: passwordHash } : {}),
    };
    let userId = existing?.id;
    if (userId === undefined) {
      const [row] = await tx.insert(users).values(values).returning({ id: users.id });
      userId = row!.id;
    } else {
      await tx
        .update(users)
        .set({ ...values, updated_at: sql`now()` })
        .where(eq(users.id, userId));
    }
    const uid = userId;
    // Disabling a user, or a new password, ends their sessions.
    if (existing && (input.disabled || passwordHash)) {
      await tx
        .update(sessions)
        .set({ revoked_at: sql`now()` })
        .where(and(eq(sessions.user_id, uid), isNull(sessions.revoked_at)));
    }
    await tx.delete(userRoles).where(eq(userRoles.user_id, uid));
    if (roles.length) await tx.insert(userRoles).values(roles.map((role) => ({ user_id: uid, role })));

    // An administrator edits the user's part in their organization; memberships elsewhere stay.
    const editedOrgs = principal.organizationId === null ? undefined : [principal.organizationId];
    const left = await tx
      .delete(userOrganizations)
      .where(
        and(
          eq(userOrganizations.user_id, uid),
          editedOrgs ? inArray(userOrganizations.organization_id, editedOrgs) : undefined,
          orgIds.length ? notInArray(userOrganizations.organization_id, orgIds) : undefined,
        ),
      )
      .returning({ id: userOrganizations.organization_id });
    // Taken out of an organization: their sessions and tokens there end now.
    await revokeSessionsIn(
      tx,
      uid,
      left.map((o) => o.id),
    );
    if (orgIds.length)
      await tx
        .insert(userOrganizations)
        .values(orgIds.map((organization_id) => ({ user_id: uid, organization_id })))
        .onConflictDoNothing();
    const editedMarkets = editedOrgs
      ? sql`(select ${markets.id} from ${markets} where ${inArray(markets.organization_id, editedOrgs)})`
      : sql`(select ${markets.id} from ${markets})`;
    await tx.delete(userMarkets).where(and(eq(userMarkets.user_id, uid), inArray(userMarkets.market_id, editedMarkets)));
    if (marketIds.length) await tx.insert(userMarkets).values(marketIds.map((market_id) => ({ user_id: uid, market_id })));
    return uid;
  });
}

export async function createAdminUser(db: Db, principal: Principal, input: AdminUserInput): Promise<AdminUser> {
  return findAdminUser(db, principal, await saveUser(db, principal, input));
}

export async function updateAdminUser(db: Db, principal: Principal, id: number, input: AdminUserInput): Promise<AdminUser> {
  const existing = await findUserRow(db, principal, id);
  await saveUser(db, principal, input, existing);
  return findAdminUser(db, principal, id);
}

async function revokeSessionsIn(tx: Executor, userId: number, organizationIds: number[]): Promise<void> {
  if (organizationIds.length === 0) return;
  await tx
    .update(sessions)
    .set({ revoked_at: sql`now()` })
    .where(and(eq(sessions.user_id, userId), inArray(sessions.organization_id, organizationIds), isNull(sessions.revoked_at)));
}

/**
 * An administrator deletes a user of their organization. A user who also belongs to another
 * organization is only taken out of this one (membership, this organization's markets, and
 * the sessions and tokens in it); the account itself goes when no organization is left, or
 * when a super-admin deletes it.
 */
export async function deleteAdminUser(db: Db, principal: Principal, id: number): Promise<void> {
  const user = await findUserRow(db, principal, id);
  if (user.id === principal.userId) throw inUse({ key: 'model.own_account' });
  const organizationId = principal.organizationId;
  if (organizationId !== null) {
    const [elsewhere] = await db
      .select({ n: count() })
      .from(userOrganizations)
      .where(and(eq(userOrganizations.user_id, id), ne(userOrganizations.organization_id, organizationId)));
    if (elsewhere!.n > 0) {
      await db.transaction(async (tx) => {
        await tx.delete(userOrganizations).where(and(eq(userOrganizations.user_id, id), eq(userOrganizations.organization_id, organizationId)));
        await tx
          .delete(userMarkets)
          .where(
            and(
              eq(userMarkets.user_id, id),
              inArray(userMarkets.market_id, sql`(select ${markets.id} from ${markets} where ${markets.organization_id} = ${organizationId})`),
            ),
          );
        await revokeSessionsIn(tx, id, [organizationId]);
      });
      return;
    }
  }
  await db.delete(users).where(eq(users.id, id));
}
