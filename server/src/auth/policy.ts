import { eq, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { canAny, canInMarket, canSomewhere } from '@mss/contracts/abilities';
import type { AbilityName } from '@mss/contracts/enums';
import type { MessageKey } from '@mss/contracts/messages';
import type { Db } from '../db/client.ts';
import { markets, organizations } from '../db/schema.ts';
import { forbidden, notFound, validationError } from '../errors.ts';
import type { Principal } from './principal.ts';

/*
 * The one access policy (docs/architecture.md §9 "One access policy, asked first"): who may do what to which
 * record, by organization, market and company. A service method asks it first, before it reads or
 * writes anything of the record: the record's organization (another organization's record is not
 * found, 404), then the ability in the record's market (403), then, for a company's own records, the
 * caller's company. Nothing else in the server reads a principal's abilities (an eslint rule keeps
 * `can*` of the contracts' abilities to this file); the routes' guards (auth/permissions.ts) ask the
 * same abilities before a request's body is read.
 */

const list = (abilities: AbilityName | readonly AbilityName[]): readonly AbilityName[] => (typeof abilities === 'string' ? [abilities] : abilities);

// --- Organization ---------------------------------------------------------------------------------

/** A super-admin's session has no organization and crosses all of them (docs/product.md §5). */
export function isCrossOrganization(principal: Principal): boolean {
  return principal.organizationId === null;
}

/**
 * Whether a record of this organization is inside what the caller acts in: their organization's, or
 * any for a super-admin (who alone sees what belongs to no organization, null).
 */
export function inOrganization(principal: Principal, organizationId: number | null): boolean {
  return principal.organizationId === null || principal.organizationId === organizationId;
}

/** 404 unless the record is inside the caller's organization (or the caller is a super-admin). */
export function assertInOrganization(principal: Principal, organizationId: number | null | undefined): void {
  if (organizationId === undefined || organizationId === null || !inOrganization(principal, organizationId)) throw notFound();
}

/**
 * The condition that keeps a query inside what the caller administers: their organization, or,
 * for a super-admin, everything (or the organization asked for).
 */
export function organizationCondition(principal: Principal, column: AnyPgColumn, requested?: number): SQL | undefined {
  if (principal.organizationId !== null) return eq(column, principal.organizationId);
  return requested ? eq(column, requested) : undefined;
}

/** The organization a new record belongs to: the caller's own, or the one a super-admin names. */
export async function organizationForWrite(db: Db, principal: Principal, requested: number | undefined | null): Promise<number> {
  if (principal.organizationId !== null) {
    if (requested && requested !== principal.organizationId) throw validationError('organization_id', 'admin.own_organization_only');
    return principal.organizationId;
  }
  if (!requested) throw validationError('organization_id', 'validation.required');
  const [org] = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, requested));
  if (!org) throw validationError('organization_id', 'validation.in');
  return org.id;
}

/** Whether the caller administers every one of these organizations (see `Principal.administers`). */
export function administersAll(principal: Principal, organizationIds: readonly number[]): boolean {
  const administered = principal.administers;
  return administered === 'all' || organizationIds.every((id) => administered.includes(id));
}

/** A super-administrator, or an administrator of the session's organization. */
export function administersSessionOrganization(principal: Principal): boolean {
  if (principal.administers === 'all') return true;
  return principal.organizationId !== null && principal.administers.includes(principal.organizationId);
}

// --- Market -----------------------------------------------------------------------------------------

/** Holds one of the abilities in the market (globally, for the market, or through a company market). */
export function mayIn(principal: Principal, abilities: AbilityName | readonly AbilityName[], marketId: number): boolean {
  return list(abilities).some((a) => canInMarket(principal.subject, a, marketId));
}

/** Holds the ability in every one of the markets (and there is at least one). */
export function mayInAll(principal: Principal, ability: AbilityName, marketIds: readonly number[]): boolean {
  return marketIds.length > 0 && marketIds.every((id) => canInMarket(principal.subject, ability, id));
}

/** Holds one of the abilities somewhere: globally, for a market or through a company market. */
export function maySomewhere(principal: Principal, abilities: AbilityName | readonly AbilityName[]): boolean {
  return list(abilities).some((a) => canSomewhere(principal.subject, a));
}

/** Holds one of the abilities globally or for some entity (the administration screens' guard). */
export function mayAny(principal: Principal, abilities: readonly AbilityName[]): boolean {
  return canAny(principal.subject, abilities);
}

/** The markets where the ability is held by a grant of its own ('all': a global grant), for a query's condition. */
export function grantedMarkets(principal: Principal, ability: AbilityName): 'all' | number[] {
  const grants = (principal.subject.abilities ?? []).filter((a) => a.name === ability);
  if (grants.some((a) => a.entity_id === null)) return 'all';
  return grants.flatMap((a) => (a.entity_type === 'market' && a.entity_id !== null ? [a.entity_id] : []));
}

/**
 * The markets of the organization chosen at sign-in (every market for a super-admin). Looked up
 * once per resolved session (the principal's memo): markets are created and deleted by requests
 * that clear the principal cache. Read-only: the same array serves every request of the session.
 */
export function organizationMarketIds(db: Db, principal: Principal): Promise<readonly number[]> {
  const memo = principal.memo;
  if (memo?.organizationMarketIds) return memo.organizationMarketIds;
  const ids = db
    .select({ id: markets.id })
    .from(markets)
    .where(principal.organizationId === null ? undefined : eq(markets.organization_id, principal.organizationId))
    .then((rows) => rows.map((m) => m.id));
  if (memo) {
    memo.organizationMarketIds = ids;
    ids.catch(() => delete memo.organizationMarketIds);
  }
  return ids;
}

/** Those of the markets where the caller holds one of the abilities. */
export function marketsWith(principal: Principal, abilities: readonly AbilityName[], marketIds: readonly number[]): number[] {
  return marketIds.filter((id) => mayIn(principal, abilities, id));
}

/** The markets (ids) of the caller's organization where the caller holds any of the abilities. */
export async function marketsWhere(db: Db, principal: Principal, abilities: readonly AbilityName[]): Promise<number[]> {
  return marketsWith(principal, abilities, await organizationMarketIds(db, principal));
}

// --- Company ----------------------------------------------------------------------------------------

/** Acts for the company in the market: holds one of the abilities there, and it is the caller's own company. */
export function mayForCompany(principal: Principal, abilities: AbilityName | readonly AbilityName[], marketId: number, companyId: number): boolean {
  return principal.companyId === companyId && mayIn(principal, abilities, marketId);
}

// --- Answers ------------------------------------------------------------------------------------------

/** 403 (with the refusal's message, else "You do not have access to this action.") unless allowed. */
export function authorize(allowed: boolean, refusal?: MessageKey): void {
  if (!allowed) throw forbidden(refusal);
}
