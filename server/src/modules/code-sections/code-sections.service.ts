import { and, asc, count, eq, gt, inArray, lt, ne, sql } from 'drizzle-orm';
import type { ListQuery } from '@mss/contracts/common';
import type { CodeSection, CodeSectionInput } from '@mss/contracts/admin';
import type { Db } from '../../db/client.ts';
import { codeSectionMarkets, codeSections, markets, organizations } from '../../db/schema.ts';
import { notFound, validationError } from '../../errors.ts';
import { replaceLinks } from '../../lib/links.ts';
import { type Paged, planList } from '../../lib/list.ts';
import { assertIdsInOrganization, assertOrganizationUnchanged } from '../../lib/scope.ts';
import { assertInOrganization, organizationCondition, organizationForWrite } from '../../auth/policy.ts';
import { type Principal } from '../../auth/principal.ts';

const columns = {
  id: codeSections.id,
  name: codeSections.name,
  start: codeSections.start,
  length: codeSections.length,
  organization_id: codeSections.organization_id,
  organization_name: organizations.name,
};
type Row = { id: number; name: string; start: number; length: number; organization_id: number; organization_name: string };

async function hydrate(db: Db, rows: Row[]): Promise<CodeSection[]> {
  if (rows.length === 0) return [];
  const marketRows = await db
    .select({
      section_id: codeSectionMarkets.code_section_id,
      id: markets.id,
      international_name: markets.international_name,
      local_name: markets.local_name,
      iso_code: markets.iso_code,
    })
    .from(codeSectionMarkets)
    .innerJoin(markets, eq(markets.id, codeSectionMarkets.market_id))
    .where(
      inArray(
        codeSectionMarkets.code_section_id,
        rows.map((r) => r.id),
      ),
    )
    .orderBy(asc(markets.international_name));
  return rows.map(({ organization_name, ...r }) => ({
    ...r,
    organization: { id: r.organization_id, name: organization_name },
    markets: marketRows.filter((m) => m.section_id === r.id).map(({ section_id: _, ...m }) => m),
  }));
}

const selectSections = (db: Db) => db.select(columns).from(codeSections).innerJoin(organizations, eq(organizations.id, codeSections.organization_id));

/** The list of docs/product.md §2: id, name, start, length and each section's organization. */
export async function findCodeSections(db: Db, principal: Principal, query: ListQuery): Promise<Paged<CodeSection>> {
  const plan = planList(query, {
    sortable: { start: codeSections.start, id: codeSections.id, name: sql`lower(${codeSections.name})`, length: codeSections.length },
    searchable: [codeSections.name],
  });
  const where = and(organizationCondition(principal, codeSections.organization_id, query.organization_id), plan.search);
  const [rows, [total]] = await Promise.all([
    selectSections(db)
      .where(where)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    db.select({ n: count() }).from(codeSections).where(where),
  ]);
  return { data: await hydrate(db, rows), meta: plan.meta(total!.n) };
}

export async function findCodeSection(db: Db, principal: Principal, id: number): Promise<CodeSection> {
  const [row] = await selectSections(db).where(eq(codeSections.id, id));
  if (!row) throw notFound();
  assertInOrganization(principal, row.organization_id);
  return (await hydrate(db, [row]))[0]!;
}

async function saveSection(db: Db, organizationId: number, input: CodeSectionInput, id?: number): Promise<number> {
  // Ranges [start, start + length) of one organization must not overlap: a code has one section.
  const [overlap] = await db
    .select({ name: codeSections.name })
    .from(codeSections)
    .where(
      and(
        eq(codeSections.organization_id, organizationId),
        lt(codeSections.start, input.start + input.length),
        gt(sql`${codeSections.start} + ${codeSections.length}`, input.start),
        id ? ne(codeSections.id, id) : undefined,
      ),
    )
    .limit(1);
  if (overlap) throw validationError('start', 'code_sections.overlap', { name: overlap.name });
  const marketIds = await assertIdsInOrganization(db, markets, input.market_ids, organizationId, 'market_ids');
  return db.transaction(async (tx) => {
    let sectionId = id;
    const values = { name: input.name, start: input.start, length: input.length };
    if (sectionId === undefined) {
      const [row] = await tx
        .insert(codeSections)
        .values({ ...values, organization_id: organizationId })
        .returning({ id: codeSections.id });
      sectionId = row!.id;
    } else {
      await tx
        .update(codeSections)
        .set({ ...values, updated_at: sql`now()` })
        .where(eq(codeSections.id, sectionId));
    }
    await replaceLinks(tx, codeSectionMarkets, 'code_section_id', sectionId, 'market_id', marketIds);
    return sectionId;
  });
}

export async function createCodeSection(db: Db, principal: Principal, input: CodeSectionInput): Promise<CodeSection> {
  const organizationId = await organizationForWrite(db, principal, input.organization_id);
  return findCodeSection(db, principal, await saveSection(db, organizationId, input));
}

export async function updateCodeSection(db: Db, principal: Principal, id: number, input: CodeSectionInput): Promise<CodeSection> {
  const existing = await findCodeSection(db, principal, id);
  assertOrganizationUnchanged(input.organization_id, existing.organization_id);
  await saveSection(db, existing.organization_id, input, id);
  return findCodeSection(db, principal, id);
}

/** Codes are not stored in a section (it is a range), so deleting one loses no data. */
export async function deleteCodeSection(db: Db, principal: Principal, id: number): Promise<void> {
  await findCodeSection(db, principal, id);
  await db.delete(codeSections).where(eq(codeSections.id, id));
}
