import { and, asc, eq } from 'drizzle-orm';
import { abilitiesOfRoles, companyMarketAbilities, type Ability, type CompanyMarketLike } from '@mss/contracts/abilities';
import type { User } from '@mss/contracts/users';
import type { Actor } from '../../context.ts';
import type { Db } from '../../db/client.ts';
import { companies, companyMarkets, markets, organizations, userMarkets, userOrganizations, userRoles, users } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';

const marketColumns = {
  id: markets.id,
  international_name: markets.international_name,
  local_name: markets.local_name,
  iso_code: markets.iso_code,
};

/**
 * The signed-in user as GET /users/me serves it. Markets and company markets are those of the
 * organization chosen at sign-in (all of them for a super-admin, who belongs to none).
 */
export async function findCurrentUser(db: Db, actor: Actor): Promise<User> {
  const [user] = await db.select().from(users).where(eq(users.id, actor.userId)).limit(1);
  if (!user) throw notFound();
  const inOrganization = (column: typeof markets.organization_id) =>
    actor.organizationId === null ? undefined : eq(column, actor.organizationId);

  const [orgRows, roleRows, marketRows] = await Promise.all([
    db
      .select({ id: organizations.id, uuid: organizations.uuid, name: organizations.name })
      .from(userOrganizations)
      .innerJoin(organizations, eq(organizations.id, userOrganizations.organization_id))
      .where(eq(userOrganizations.user_id, user.id))
      .orderBy(asc(organizations.name)),
    db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.user_id, user.id)).orderBy(asc(userRoles.role)),
    db
      .select(marketColumns)
      .from(userMarkets)
      .innerJoin(markets, eq(markets.id, userMarkets.market_id))
      .where(and(eq(userMarkets.user_id, user.id), inOrganization(markets.organization_id)))
      .orderBy(asc(markets.international_name)),
  ]);

  let company: User['company'] = null;
  if (user.company_id !== null) {
    const [companyRow] = await db.select({ id: companies.id, name: companies.name }).from(companies).where(eq(companies.id, user.company_id));
    const cmRows = await db
      .select({ id: companyMarkets.id, market_id: companyMarkets.market_id, roles: companyMarkets.roles, market: marketColumns })
      .from(companyMarkets)
      .innerJoin(markets, eq(markets.id, companyMarkets.market_id))
      .where(and(eq(companyMarkets.company_id, user.company_id), inOrganization(markets.organization_id)))
      .orderBy(asc(markets.international_name));
    if (companyRow) {
      company = {
        ...companyRow,
        markets: cmRows.map((cm) => ({
          id: cm.id,
          market_id: cm.market_id,
          market: cm.market,
          abilities: companyMarketAbilities(cm.roles),
          roles: cm.roles.map((name) => ({ name })),
        })),
      };
    }
  }

  const roles = roleRows.map((r) => ({ name: r.role }));
  const current = orgRows.find((o) => o.id === actor.organizationId) ?? null;
  return {
    id: user.id,
    uuid: user.uuid,
    email: user.email,
    name: `${user.first_name} ${user.last_name}`.trim(),
    first_name: user.first_name,
    last_name: user.last_name,
    phone: user.phone,
    locale: user.locale,
    role: roles[0]?.name ?? company?.markets.flatMap((m) => m.roles)[0]?.name ?? null,
    organization: current ? { uuid: current.uuid, name: current.name } : null,
    organizations: orgRows.map((o) => ({ uuid: o.uuid, name: o.name })),
    markets: marketRows,
    roles,
    company,
  };
}

/** The abilities of the user's direct roles over the user's markets (docs/permissions.md). */
export async function findCurrentAbilities(db: Db, actor: Actor): Promise<Ability[]> {
  const roleRows = await db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.user_id, actor.userId));
  if (roleRows.length === 0) return [];
  const marketRows = await db
    .select({ id: markets.id })
    .from(userMarkets)
    .innerJoin(markets, eq(markets.id, userMarkets.market_id))
    .where(
      and(
        eq(userMarkets.user_id, actor.userId),
        actor.organizationId === null ? undefined : eq(markets.organization_id, actor.organizationId),
      ),
    );
  return abilitiesOfRoles(
    roleRows.map((r) => r.role),
    marketRows.map((m) => m.id),
  );
}

/** The company markets of the user's company in the chosen organization, with their abilities. */
export async function findCompanyMarketAbilities(db: Db, actor: Actor): Promise<CompanyMarketLike[]> {
  const rows = await db
    .select({ id: companyMarkets.id, market_id: companyMarkets.market_id, roles: companyMarkets.roles })
    .from(users)
    .innerJoin(companyMarkets, eq(companyMarkets.company_id, users.company_id))
    .innerJoin(markets, eq(markets.id, companyMarkets.market_id))
    .where(and(eq(users.id, actor.userId), actor.organizationId === null ? undefined : eq(markets.organization_id, actor.organizationId)));
  return rows.map((cm) => ({ id: cm.id, market_id: cm.market_id, abilities: companyMarketAbilities(cm.roles), roles: cm.roles.map((name) => ({ name })) }));
}
