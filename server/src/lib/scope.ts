import { and, eq, inArray } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { MessageKey, MessageParams } from '@mss/contracts/messages';
import type { Db } from '../db/client.ts';
import { AppError, validationError } from '../errors.ts';

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
