import { and, asc, count, eq, gt, inArray, isNull, ne, notInArray, or, sql } from 'drizzle-orm';
import type { ListQuery } from '@mss/contracts/common';
import type { Company, CompanyInput, CompanyListItem } from '@mss/contracts/admin';
import type { Db } from '../../db/client.ts';
import {
  codes,
  companies,
  companyCodes,
  companyMarkets,
  companyOrganizations,
  markets,
  organizations,
  userMarkets,
  userOrganizations,
  userRoles,
  users,
} from '../../db/schema.ts';
import { AppError, notFound, validationError } from '../../errors.ts';
import { deleteFile, storeFile } from '../../lib/files.ts';
import { type Paged, planList } from '../../lib/list.ts';
import { inUse } from '../../lib/scope.ts';
import { administersAll, organizationCondition } from '../../auth/policy.ts';
import { type Principal } from '../../auth/principal.ts';

/** Roles a company market may carry: organization-wide roles belong to users, not companies. */
const COMPANY_MARKET_ROLES = new Set(['reporter', 'viewer', 'cluster-viewer', 'just-stats', 'company', 'market-admin', 'cluster-admin']);

const marketColumns = {
  id: markets.id,
  international_name: markets.international_name,
  local_name: markets.local_name,
  iso_code: markets.iso_code,
};

/** Companies the actor administers: those of their organization (a super-admin: all). */
function companyScope(principal: Principal, organizationId?: number) {
  const org = principal.organizationId ?? organizationId;
  if (org === undefined || org === null) return undefined;
  return inArray(
    companies.id,
    sql`(select ${companyOrganizations.company_id} from ${companyOrganizations} where ${companyOrganizations.organization_id} = ${org})`,
  );
}

/** Markets the actor may see on a company: those of their organization (a super-admin: all). */
function marketScope(principal: Principal) {
  return organizationCondition(principal, markets.organization_id);
}

const enabledNow = or(isNull(companies.disabled_at), gt(companies.disabled_at, sql`now()`));

async function listItems(
  db: Db,
  principal: Principal,
  rows: { id: number; uuid: string; name: string; disabled_at: Date | null; logotype_file_id: number | null }[],
): Promise<CompanyListItem[]> {
  if (rows.length === 0) return [];
  const marketRows = await db
    .select({ company_id: companyMarkets.company_id, ...marketColumns })
    .from(companyMarkets)
    .innerJoin(markets, eq(markets.id, companyMarkets.market_id))
    .where(
      and(
        inArray(
          companyMarkets.company_id,
          rows.map((r) => r.id),
        ),
        marketScope(principal),
      ),
    )
    .orderBy(asc(markets.international_name));
  return rows.map((r) => ({
    id: r.id,
    uuid: r.uuid,
    name: r.name,
    disabled_at: r.disabled_at?.toISOString() ?? null,
    has_logotype: r.logotype_file_id !== null,
    markets: marketRows.filter((m) => m.company_id === r.id).map(({ company_id: _, ...m }) => m),
  }));
}

/**
 * GET /companies lists the companies enabled now; GET /companies/companies-with-disabled every
 * company, by name ascending unless sorted otherwise (docs/product.md §2).
 */
export async function findCompanies(db: Db, principal: Principal, query: ListQuery, options: { includeDisabled: boolean }): Promise<Paged<CompanyListItem>> {
  const plan = planList(query, {
    sortable: { name: sql`lower(${companies.name})`, disabled_at: companies.disabled_at, id: companies.id },
    searchable: [companies.name],
  });
  const where = and(companyScope(principal, query.organization_id), options.includeDisabled ? undefined : enabledNow, plan.search);
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: companies.id,
        uuid: companies.uuid,
        name: companies.name,
        disabled_at: companies.disabled_at,
        logotype_file_id: companies.logotype_file_id,
      })
      .from(companies)
      .where(where)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    db.select({ n: count() }).from(companies).where(where),
  ]);
  return { data: await listItems(db, principal, rows), meta: plan.meta(total!.n) };
}

async function findCompanyRow(db: Db, principal: Principal, id: number) {
  const [row] = await db
    .select()
    .from(companies)
    .where(and(eq(companies.id, id), companyScope(principal)));
  if (!row) throw notFound();
  return row;
}

/** The edit screen's company: markets (with roles), organizations, users (with markets and roles) and codes. */
export async function findCompany(db: Db, principal: Principal, id: number): Promise<Company> {
  const row = await findCompanyRow(db, principal, id);
  const [[item], orgRows, cmRows, userRows, codeRows] = await Promise.all([
    listItems(db, principal, [row]),
    db
      .select({ id: organizations.id, name: organizations.name })
      .from(companyOrganizations)
      .innerJoin(organizations, eq(organizations.id, companyOrganizations.organization_id))
      .where(and(eq(companyOrganizations.company_id, id), organizationCondition(principal, organizations.id)))
      .orderBy(asc(organizations.name)),
    db
      .select({ id: companyMarkets.id, market_id: companyMarkets.market_id, roles: companyMarkets.roles, market: marketColumns })
      .from(companyMarkets)
      .innerJoin(markets, eq(markets.id, companyMarkets.market_id))
      .where(and(eq(companyMarkets.company_id, id), marketScope(principal)))
      .orderBy(asc(markets.international_name)),
    db
      .select({ id: users.id, first_name: users.first_name, last_name: users.last_name, email: users.email })
      .from(users)
      .where(
        and(
          eq(users.company_id, id),
          principal.organizationId === null
            ? undefined
            : inArray(
                users.id,
                sql`(select ${userOrganizations.user_id} from ${userOrganizations} where ${userOrganizations.organization_id} = ${principal.organizationId})`,
              ),
        ),
      )
      .orderBy(asc(users.email)),
    db
      .select({ id: codes.id, code: codes.code, name: codes.name })
      .from(companyCodes)
      .innerJoin(codes, eq(codes.id, companyCodes.code_id))
      .where(and(eq(companyCodes.company_id, id), organizationCondition(principal, codes.organization_id)))
      .orderBy(asc(codes.code)),
  ]);
  const userIds = userRows.map((u) => u.id);
  const [userMarketRows, userRoleRows] = userIds.length
    ? await Promise.all([
        db
          .select({ user_id: userMarkets.user_id, ...marketColumns })
          .from(userMarkets)
          .innerJoin(markets, eq(markets.id, userMarkets.market_id))
          .where(and(inArray(userMarkets.user_id, userIds), marketScope(principal)))
          .orderBy(asc(markets.international_name)),
        db.select().from(userRoles).where(inArray(userRoles.user_id, userIds)).orderBy(asc(userRoles.role)),
      ])
    : [[], []];
  return {
    ...item!,
    company_editable: administersAll(principal, await companyOrganizationIds(db, id)),
    organizations: orgRows,
    company_markets: cmRows.map((cm) => ({ ...cm, roles: cm.roles.map((name) => ({ name })) })),
    users: userRows.map((u) => ({
      id: u.id,
      email: u.email,
      name: `${u.first_name} ${u.last_name}`.trim(),
      markets: userMarketRows.filter((m) => m.user_id === u.id).map(({ user_id: _, ...m }) => m),
      roles: userRoleRows.filter((r) => r.user_id === u.id).map((r) => ({ name: r.role })),
    })),
    codes: codeRows,
  };
}

/**
 * The organizations whose part of the company the actor edits. An administrator edits only their
 * organization's part (memberships, markets, codes and users elsewhere stay as they are); a
 * super-admin edits all of it.
 */
async function organizationsToEdit(db: Db, principal: Principal, input: CompanyInput): Promise<number[]> {
  const requested = [...new Set(input.organization_ids)];
  if (principal.organizationId !== null) {
    if (requested.some((id) => id !== principal.organizationId)) throw validationError('organization_ids', 'admin.own_organization_only');
    return [principal.organizationId];
  }
  if (requested.length === 0) throw validationError('organization_ids', 'validation.required');
  const found = await db.select({ id: organizations.id }).from(organizations).where(inArray(organizations.id, requested));
  if (found.length !== requested.length) throw validationError('organization_ids', 'validation.in');
  return requested;
}

async function assertAllIn(db: Db, field: string, ids: number[], check: (ids: number[]) => Promise<{ id: number }[]>) {
  if (ids.length === 0) return;
  const rows = await check(ids);
  if (rows.length !== ids.length) throw validationError(field, 'admin.not_in_organization');
}

async function companyOrganizationIds(db: Db, companyId: number): Promise<number[]> {
  const rows = await db.select({ id: companyOrganizations.organization_id }).from(companyOrganizations).where(eq(companyOrganizations.company_id, companyId));
  return rows.map((r) => r.id);
}

/**
 * A company or user shared with organizations the actor does not administer: its name, disabled
 * state and logotype act there too (403 unless unchanged), and so does which company a shared
 * user works for (403 for adding such a user to the company or taking them off it).
 */
async function assertMaySharedChanges(db: Db, principal: Principal, input: CompanyInput, disabledAt: Date | null, userIds: number[], id?: number) {
  if (principal.administers === 'all') return;
  if (id !== undefined) {
    const [company] = await db.select().from(companies).where(eq(companies.id, id));
    if (company && !administersAll(principal, await companyOrganizationIds(db, id))) {
      const changed = [
        ...(input.name !== company.name ? ['name'] : []),
        ...((disabledAt?.getTime() ?? null) !== (company.disabled_at?.getTime() ?? null) ? ['disabled_at'] : []),
      ];
      if (changed.length) {
        // Every field's message names all the changed fields, by their labels.
        const fields = { attribute: changed };
        throw new AppError(
          'forbidden',
          'companies.shared',
          {},
          Object.fromEntries(changed.map((f) => [f, [{ key: 'companies.shared' as const, fields }]])),
          {},
          fields,
        );
      }
    }
  }
  // Users whose company this save changes: those added, and those of the actor's organization taken off.
  const current = id === undefined ? [] : (await db.select({ id: users.id }).from(users).where(eq(users.company_id, id))).map((u) => u.id);
  const moved = [...userIds.filter((u) => !current.includes(u)), ...current.filter((u) => !userIds.includes(u))];
  if (moved.length === 0) return;
  const memberships = await db
    .select({ user_id: userOrganizations.user_id, id: userOrganizations.organization_id })
    .from(userOrganizations)
    .where(inArray(userOrganizations.user_id, moved));
  const inActorsOrganization = new Set(memberships.filter((m) => m.id === principal.organizationId).map((m) => m.user_id));
  const shared = moved.filter(
    (u) =>
      inActorsOrganization.has(u) &&
      !administersAll(
        principal,
        memberships.filter((m) => m.user_id === u).map((m) => m.id),
      ),
  );
  if (shared.length)
    throw new AppError(
      'forbidden',
      'users.person_shared',
      { attribute: 'company' },
      { user_ids: [{ key: 'users.person_shared', params: { attribute: 'company' } }] },
    );
}

async function saveCompany(db: Db, principal: Principal, input: CompanyInput, id?: number): Promise<number> {
  const orgIds = await organizationsToEdit(db, principal, input);
  const marketIds = [...new Set(input.markets.map((m) => m.market_id))];
  if (marketIds.length !== input.markets.length) throw validationError('markets', 'validation.invalid');
  for (const m of input.markets) {
    const bad = m.roles.find((r) => !COMPANY_MARKET_ROLES.has(r));
    if (bad) throw validationError('markets', 'users.role_not_allowed', { role: bad });
  }
  const codeIds = [...new Set(input.code_ids)];
  const userIds = [...new Set(input.user_ids)];
  await assertAllIn(db, 'markets', marketIds, (ids) =>
    db
      .select({ id: markets.id })
      .from(markets)
      .where(and(inArray(markets.id, ids), inArray(markets.organization_id, orgIds))),
  );
  await assertAllIn(db, 'code_ids', codeIds, (ids) =>
    db
      .select({ id: codes.id })
      .from(codes)
      .where(and(inArray(codes.id, ids), inArray(codes.organization_id, orgIds))),
  );
  await assertAllIn(db, 'user_ids', userIds, (ids) =>
    db
      .selectDistinct({ id: userOrganizations.user_id })
      .from(userOrganizations)
      .where(and(inArray(userOrganizations.user_id, ids), inArray(userOrganizations.organization_id, orgIds))),
  );
  const disabledAt = input.disabled_at ? new Date(input.disabled_at) : null;
  await assertMaySharedChanges(db, principal, input, disabledAt, userIds, id);

  return db.transaction(async (tx) => {
    let companyId = id;
    if (companyId === undefined) {
      const [row] = await tx.insert(companies).values({ name: input.name, disabled_at: disabledAt }).returning({ id: companies.id });
      companyId = row!.id;
    } else {
      await tx
        .update(companies)
        .set({ name: input.name, disabled_at: disabledAt, updated_at: sql`now()` })
        .where(eq(companies.id, companyId));
    }
    const cid = companyId;
    const editedMarkets = sql`(select ${markets.id} from ${markets} where ${inArray(markets.organization_id, orgIds)})`;
    const editedCodes = sql`(select ${codes.id} from ${codes} where ${inArray(codes.organization_id, orgIds)})`;
    const editedUsers = sql`(select ${userOrganizations.user_id} from ${userOrganizations} where ${inArray(userOrganizations.organization_id, orgIds)})`;

    // Organizations: a super-admin sets them; an administrator makes sure theirs is there.
    if (principal.organizationId === null)
      await tx.delete(companyOrganizations).where(and(eq(companyOrganizations.company_id, cid), notInArray(companyOrganizations.organization_id, orgIds)));
    await tx
      .insert(companyOrganizations)
      .values(orgIds.map((organization_id) => ({ company_id: cid, organization_id })))
      .onConflictDoNothing();

    if (principal.organizationId === null) {
      // An organization taken off the company takes its markets and codes along.
      await tx.delete(companyMarkets).where(and(eq(companyMarkets.company_id, cid), notInArray(companyMarkets.market_id, editedMarkets)));
      await tx.delete(companyCodes).where(and(eq(companyCodes.company_id, cid), notInArray(companyCodes.code_id, editedCodes)));
    }

    // Company markets: keep the row (and its id) of a market that stays, update its roles.
    await tx
      .delete(companyMarkets)
      .where(
        and(
          eq(companyMarkets.company_id, cid),
          inArray(companyMarkets.market_id, editedMarkets),
          marketIds.length ? notInArray(companyMarkets.market_id, marketIds) : undefined,
        ),
      );
    for (const m of input.markets) {
      await tx
        .insert(companyMarkets)
        .values({ company_id: cid, market_id: m.market_id, roles: [...new Set(m.roles)] })
        .onConflictDoUpdate({ target: [companyMarkets.company_id, companyMarkets.market_id], set: { roles: [...new Set(m.roles)], updated_at: sql`now()` } });
    }

    await tx.delete(companyCodes).where(and(eq(companyCodes.company_id, cid), inArray(companyCodes.code_id, editedCodes)));
    if (codeIds.length) await tx.insert(companyCodes).values(codeIds.map((code_id) => ({ company_id: cid, code_id })));

    // Users: the listed ones work for this company; others of the edited organizations leave it.
    await tx
      .update(users)
      .set({ company_id: null, updated_at: sql`now()` })
      .where(and(eq(users.company_id, cid), inArray(users.id, editedUsers), userIds.length ? notInArray(users.id, userIds) : undefined));
    if (userIds.length)
      await tx
        .update(users)
        .set({ company_id: cid, updated_at: sql`now()` })
        .where(inArray(users.id, userIds));
    return cid;
  });
}

export async function createCompany(db: Db, principal: Principal, input: CompanyInput): Promise<Company> {
  return findCompany(db, principal, await saveCompany(db, principal, input));
}

export async function updateCompany(db: Db, principal: Principal, id: number, input: CompanyInput): Promise<Company> {
  await findCompanyRow(db, principal, id);
  await saveCompany(db, principal, input, id);
  return findCompany(db, principal, id);
}

/** A company whose users still work for it is in use; disable it instead (disabled_at). */
export async function deleteCompany(db: Db, principal: Principal, id: number): Promise<void> {
  const company = await findCompanyRow(db, principal, id);
  const [[staff], [otherOrgs]] = await Promise.all([
    db.select({ n: count() }).from(users).where(eq(users.company_id, id)),
    db
      .select({ n: count() })
      .from(companyOrganizations)
      .where(
        and(
          eq(companyOrganizations.company_id, id),
          principal.organizationId === null ? undefined : ne(companyOrganizations.organization_id, principal.organizationId),
        ),
      ),
  ]);
  if (staff!.n > 0 || (principal.organizationId !== null && otherOrgs!.n > 0)) throw inUse({ key: 'model.company', params: { name: company.name } });
  await db.delete(companies).where(eq(companies.id, id));
  await deleteFile(db, company.logotype_file_id);
}

export async function setCompanyLogotype(
  db: Db,
  principal: Principal,
  id: number,
  file: { name: string; mimeType: string; content: Buffer } | null,
): Promise<Company> {
  const company = await findCompanyRow(db, principal, id);
  if (!administersAll(principal, await companyOrganizationIds(db, id))) {
    throw new AppError('forbidden', 'companies.shared', { attribute: 'logotype' });
  }
  const fileId = file ? await storeFile(db, file) : null;
  await db
    .update(companies)
    .set({ logotype_file_id: fileId, updated_at: sql`now()` })
    .where(eq(companies.id, id));
  await deleteFile(db, company.logotype_file_id);
  return findCompany(db, principal, id);
}

export async function findCompanyLogotypeId(db: Db, principal: Principal, id: number): Promise<number | null> {
  return (await findCompanyRow(db, principal, id)).logotype_file_id;
}
