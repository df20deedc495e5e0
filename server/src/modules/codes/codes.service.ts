import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm';
import type { ListQuery } from '@mss/contracts/common';
import type { Code, CodeInput } from '@mss/contracts/admin';
import type { Db } from '../../db/client.ts';
import { codeGroupCodes, codeGroups, codeMarkets, codes, codeSections, companyCodes, markets, organizations, reportRows } from '../../db/schema.ts';
import { notFound, validationError } from '../../errors.ts';
import { replaceLinks } from '../../lib/links.ts';
import { type Paged, planList } from '../../lib/list.ts';
import { assertIdsInOrganization, assertOrganizationUnchanged, inUse } from '../../lib/scope.ts';
import { assertInOrganization, organizationCondition, organizationForWrite } from '../../auth/policy.ts';
import { type Principal } from '../../auth/principal.ts';

const marketColumns = {
  id: markets.id,
  international_name: markets.international_name,
  local_name: markets.local_name,
  iso_code: markets.iso_code,
};

interface SectionRange {
  id: number;
  name: string;
  organization_id: number;
  start: number;
  length: number;
}

/** The section whose range holds a numeric code (the narrowest, should ranges ever nest). */
export function sectionOf(code: string, organizationId: number, sections: SectionRange[]): SectionRange | null {
  if (!/^\d+$/.test(code)) return null;
  const value = Number(code);
  const matching = sections.filter((s) => s.organization_id === organizationId && value >= s.start && value < s.start + s.length);
  return matching.sort((a, b) => a.length - b.length)[0] ?? null;
}

/** Codes with their markets, section and groups, in the order given. */
async function hydrate(
  db: Db,
  rows: { id: number; code: string; name: string; disabled_status: number; organization_id: number; organization_name: string }[],
): Promise<Code[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const organizationIds = [...new Set(rows.map((r) => r.organization_id))];
  const [marketRows, groupRows, sections] = await Promise.all([
    db
      .select({ code_id: codeMarkets.code_id, ...marketColumns })
      .from(codeMarkets)
      .innerJoin(markets, eq(markets.id, codeMarkets.market_id))
      .where(inArray(codeMarkets.code_id, ids))
      .orderBy(asc(markets.international_name)),
    db
      .select({ code_id: codeGroupCodes.code_id, id: codeGroups.id, title: codeGroups.title })
      .from(codeGroupCodes)
      .innerJoin(codeGroups, eq(codeGroups.id, codeGroupCodes.code_group_id))
      .where(inArray(codeGroupCodes.code_id, ids))
      .orderBy(asc(codeGroups.title)),
    db
      .select({
        id: codeSections.id,
        name: codeSections.name,
        organization_id: codeSections.organization_id,
        start: codeSections.start,
        length: codeSections.length,
      })
      .from(codeSections)
      .where(inArray(codeSections.organization_id, organizationIds)),
  ]);
  return rows.map((r) => {
    const section = sectionOf(r.code, r.organization_id, sections);
    return {
      id: r.id,
      code: r.code,
      name: r.name,
      disabled_status: r.disabled_status,
      organization: { id: r.organization_id, name: r.organization_name },
      markets: marketRows.filter((m) => m.code_id === r.id).map(({ code_id: _, ...m }) => m),
      groups: groupRows.filter((g) => g.code_id === r.id).map(({ code_id: _, ...g }) => g),
      section: section ? { id: section.id, name: section.name } : null,
    };
  });
}

const columns = {
  id: codes.id,
  code: codes.code,
  name: codes.name,
  disabled_status: codes.disabled_status,
  organization_id: codes.organization_id,
  organization_name: organizations.name,
};

export async function findCodes(db: Db, principal: Principal, query: ListQuery): Promise<Paged<Code>> {
  const plan = planList(query, {
    sortable: { code: codes.code, name: sql`lower(${codes.name})`, disabled_status: codes.disabled_status, id: codes.id },
    searchable: [codes.code, codes.name],
  });
  const where = and(organizationCondition(principal, codes.organization_id, query.organization_id), plan.search);
  const [rows, [total]] = await Promise.all([
    db
      .select(columns)
      .from(codes)
      .innerJoin(organizations, eq(organizations.id, codes.organization_id))
      .where(where)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    db.select({ n: count() }).from(codes).where(where),
  ]);
  return { data: await hydrate(db, rows), meta: plan.meta(total!.n) };
}

export async function findCode(db: Db, principal: Principal, id: number): Promise<Code> {
  const [row] = await db.select(columns).from(codes).innerJoin(organizations, eq(organizations.id, codes.organization_id)).where(eq(codes.id, id));
  if (!row) throw notFound();
  assertInOrganization(principal, row.organization_id);
  return (await hydrate(db, [row]))[0]!;
}

async function saveCode(db: Db, organizationId: number, input: CodeInput, id?: number): Promise<number> {
  const [taken] = await db
    .select({ id: codes.id })
    .from(codes)
    .where(and(eq(codes.organization_id, organizationId), eq(codes.code, input.code), id ? ne(codes.id, id) : undefined));
  if (taken) throw validationError('code', 'validation.unique');
  const marketIds = await assertIdsInOrganization(db, markets, input.market_ids, organizationId, 'market_ids');
  return db.transaction(async (tx) => {
    let codeId = id;
    const values = { code: input.code, name: input.name, disabled_status: input.disabled_status };
    if (codeId === undefined) {
      const [row] = await tx
        .insert(codes)
        .values({ ...values, organization_id: organizationId })
        .returning({ id: codes.id });
      codeId = row!.id;
    } else {
      await tx
        .update(codes)
        .set({ ...values, updated_at: sql`now()` })
        .where(eq(codes.id, codeId));
    }
    await replaceLinks(tx, codeMarkets, 'code_id', codeId, 'market_id', marketIds);
    return codeId;
  });
}

export async function createCode(db: Db, principal: Principal, input: CodeInput): Promise<Code> {
  const organizationId = await organizationForWrite(db, principal, input.organization_id);
  return findCode(db, principal, await saveCode(db, organizationId, input));
}

export async function updateCode(db: Db, principal: Principal, id: number, input: CodeInput): Promise<Code> {
  const existing = await findCode(db, principal, id);
  assertOrganizationUnchanged(input.organization_id, existing.organization.id);
  await saveCode(db, existing.organization.id, input, id);
  return findCode(db, principal, id);
}

export async function deleteCode(db: Db, principal: Principal, id: number): Promise<void> {
  const code = await findCode(db, principal, id);
  const [[assigned], [reported]] = await Promise.all([
    db.select({ n: count() }).from(companyCodes).where(eq(companyCodes.code_id, id)),
    db.select({ n: count() }).from(reportRows).where(eq(reportRows.code_id, id)),
  ]);
  if (assigned!.n > 0 || reported!.n > 0) throw inUse({ key: 'model.code', params: { code: code.code } });
  try {
    await db.delete(codes).where(eq(codes.id, id));
  } catch (error) {
    // Rows written since the count: the database's check (migration 0010) waited for their import
    // to commit and refused the delete; answered as the count would have.
    if (sqlStateOf(error) === '23503') throw inUse({ key: 'model.code', params: { code: code.code } });
    throw error;
  }
}

/** Drizzle wraps the driver's error; the SQLSTATE is on the cause. */
function sqlStateOf(error: unknown): string | undefined {
  const { code, cause } = error as { code?: unknown; cause?: { code?: unknown } };
  const state = typeof code === 'string' ? code : cause?.code;
  return typeof state === 'string' ? state : undefined;
}
