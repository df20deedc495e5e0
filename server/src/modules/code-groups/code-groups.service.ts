import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { ListQuery } from '@mss/contracts/common';
import type { CodeGroup, CodeGroupInput } from '@mss/contracts/admin';
import type { Db } from '../../db/client.ts';
import { codeGroupCodes, codeGroups, codes, organizations } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { replaceLinks } from '../../lib/links.ts';
import { type Paged, planList } from '../../lib/list.ts';
import { assertIdsInOrganization, assertOrganizationUnchanged } from '../../lib/scope.ts';
import { assertInOrganization, organizationCondition, organizationForWrite } from '../../auth/policy.ts';
import { type Principal } from '../../auth/principal.ts';

const columns = { id: codeGroups.id, title: codeGroups.title, organization_id: codeGroups.organization_id, organization_name: organizations.name };
type Row = { id: number; title: string; organization_id: number; organization_name: string };

async function hydrate(db: Db, rows: Row[]): Promise<CodeGroup[]> {
  if (rows.length === 0) return [];
  const codeRows = await db
    .select({ group_id: codeGroupCodes.code_group_id, id: codes.id, code: codes.code, name: codes.name })
    .from(codeGroupCodes)
    .innerJoin(codes, eq(codes.id, codeGroupCodes.code_id))
    .where(
      inArray(
        codeGroupCodes.code_group_id,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(codes.code));
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    organization: { id: r.organization_id, name: r.organization_name },
    codes: codeRows.filter((c) => c.group_id === r.id).map(({ group_id: _, ...c }) => c),
  }));
}

const selectGroups = (db: Db) => db.select(columns).from(codeGroups).innerJoin(organizations, eq(organizations.id, codeGroups.organization_id));

/** The list of docs/product.md §2: id, title and organization. */
export async function findCodeGroups(db: Db, principal: Principal, query: ListQuery): Promise<Paged<CodeGroup>> {
  const plan = planList(query, { sortable: { title: sql`lower(${codeGroups.title})`, id: codeGroups.id }, searchable: [codeGroups.title] });
  const where = and(organizationCondition(principal, codeGroups.organization_id, query.organization_id), plan.search);
  const [rows, [total]] = await Promise.all([
    selectGroups(db)
      .where(where)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    db.select({ n: count() }).from(codeGroups).where(where),
  ]);
  return { data: await hydrate(db, rows), meta: plan.meta(total!.n) };
}

export async function findCodeGroup(db: Db, principal: Principal, id: number): Promise<CodeGroup> {
  const [row] = await selectGroups(db).where(eq(codeGroups.id, id));
  if (!row) throw notFound();
  assertInOrganization(principal, row.organization_id);
  return (await hydrate(db, [row]))[0]!;
}

async function saveGroup(db: Db, organizationId: number, input: CodeGroupInput, id?: number): Promise<number> {
  const codeIds = await assertIdsInOrganization(db, codes, input.code_ids, organizationId, 'code_ids');
  return db.transaction(async (tx) => {
    let groupId = id;
    if (groupId === undefined) {
      const [row] = await tx.insert(codeGroups).values({ title: input.title, organization_id: organizationId }).returning({ id: codeGroups.id });
      groupId = row!.id;
    } else {
      await tx
        .update(codeGroups)
        .set({ title: input.title, updated_at: sql`now()` })
        .where(eq(codeGroups.id, groupId));
    }
    await replaceLinks(tx, codeGroupCodes, 'code_group_id', groupId, 'code_id', codeIds);
    return groupId;
  });
}

export async function createCodeGroup(db: Db, principal: Principal, input: CodeGroupInput): Promise<CodeGroup> {
  const organizationId = await organizationForWrite(db, principal, input.organization_id);
  return findCodeGroup(db, principal, await saveGroup(db, organizationId, input));
}

export async function updateCodeGroup(db: Db, principal: Principal, id: number, input: CodeGroupInput): Promise<CodeGroup> {
  const existing = await findCodeGroup(db, principal, id);
  assertOrganizationUnchanged(input.organization_id, existing.organization.id);
  await saveGroup(db, existing.organization.id, input, id);
  return findCodeGroup(db, principal, id);
}

/** A group only gathers codes for statistics; deleting it keeps the codes. */
export async function deleteCodeGroup(db: Db, principal: Principal, id: number): Promise<void> {
  await findCodeGroup(db, principal, id);
  await db.delete(codeGroups).where(eq(codeGroups.id, id));
}
