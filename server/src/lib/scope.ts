import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import { canInMarket } from '@mss/contracts/abilities';
import type { AbilityName } from '@mss/contracts/enums';
import type { MessageKey, MessageParams } from '@mss/contracts/messages';
import type { Db } from '../db/client.ts';
import { markets, organizations } from '../db/schema.ts';
import { AppError, notFound, validationError } from '../errors.ts';
import { type Principal } from '../auth/principal.ts';

/** A super-admin's session has no organization and crosses all of them (docs/product.md §5). */
export function isCrossOrganization(principal: Principal): boolean {
  return principal.organizationId === null;
}

/**
 * The condition that keeps a query inside what the actor administers: their organization, or,
 * for a super-admin, everything (or the organization asked for).
 */
export function organizationCondition(principal: Principal, column: AnyPgColumn, requested?: number): SQL | undefined {
  if (principal.organizationId !== null) return eq(column, principal.organizationId);
  return requested ? eq(column, requested) : undefined;
}

/** The organization a new record belongs to: the actor's own, or the one a super-admin names. */
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

/** 404 unless the record is inside the actor's organization (or the actor is a super-admin). */
export function assertInOrganization(principal: Principal, organizationId: number | null | undefined): void {
  if (organizationId === undefined || organizationId === null) throw notFound();
  if (principal.organizationId !== null && principal.organizationId !== organizationId) throw notFound();
}

/** "The company Busy AB is still in use and cannot be deleted.", the record named in the request's language. */
export function inUse(model: { key: MessageKey; params?: MessageParams }): AppError {
  return new AppError('conflict', 'generic.in_use', {}, undefined, {}, {}, { model });
}

/**
 * 422 on `field` unless every id names a row of `table` in the organization (markets of a
 * cluster, codes of a group, …). Answers the ids without duplicates.
 */
export async function assertIdsInOrganization(
  db: Db,
  table: PgTable & { id: AnyPgColumn; organization_id: AnyPgColumn },
  ids: readonly number[],
  organizationId: number,
  field: string,
): Promise<number[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return unique;
  const rows = await db
    .select({ id: table.id })
    .from(table)
    .where(and(inArray(table.id, unique), eq(table.organization_id, organizationId)));
  if (rows.length !== unique.length) throw validationError(field, 'admin.not_in_organization');
  return unique;
}

/** A record stays in its organization: moving it would carry its links into another one. */
export function assertOrganizationUnchanged(requested: number | undefined | null, current: number): void {
  if (requested && requested !== current) throw validationError('organization_id', 'validation.invalid');
}

/** Whether the actor administers every one of these organizations (see `Principal.administers`). */
export function administersAll(principal: Principal, organizationIds: readonly number[]): boolean {
  const administered = principal.administers;
  return administered === 'all' || organizationIds.every((id) => administered.includes(id));
}

/** The markets (ids) of the actor's organization where the actor holds any of the abilities. */
export async function marketsWhere(db: Db, principal: Principal, abilities: readonly AbilityName[]): Promise<number[]> {
  return marketsWith(principal, abilities, await organizationMarketIds(db, principal));
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

/** Those of the markets where the user holds one of the abilities. */
export function marketsWith(principal: Principal, abilities: readonly AbilityName[], marketIds: readonly number[]): number[] {
  return marketIds.filter((id) => abilities.some((a) => canInMarket(principal.subject, a, id)));
}
