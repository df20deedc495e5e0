import { and, count, eq, ne, sql } from 'drizzle-orm';
import type { ListQuery } from '@mss/contracts/common';
import type { Market, MarketInput } from '@mss/contracts/admin';
import type { Db } from '../../db/client.ts';
import { companyMarkets, currencies, markets, organizations, userMarkets } from '../../db/schema.ts';
import { notFound, validationError } from '../../errors.ts';
import { deleteFile, storeFile } from '../../lib/files.ts';
import { type Paged, planList } from '../../lib/list.ts';
import { assertOrganizationUnchanged, inUse } from '../../lib/scope.ts';
import { assertInOrganization, organizationCondition, organizationForWrite } from '../../auth/policy.ts';
import { type Principal } from '../../auth/principal.ts';

const columns = {
  id: markets.id,
  uuid: markets.uuid,
  organization_id: markets.organization_id,
  international_name: markets.international_name,
  local_name: markets.local_name,
  iso_code: markets.iso_code,
  logotype_file_id: markets.logotype_file_id,
  organization_name: organizations.name,
  currency_id: currencies.id,
  currency_iso_code: currencies.iso_code,
};

interface Row {
  id: number;
  uuid: string;
  organization_id: number;
  international_name: string;
  local_name: string;
  iso_code: string;
  logotype_file_id: number | null;
  organization_name: string;
  currency_id: number | null;
  currency_iso_code: string | null;
}

function toMarket(row: Row): Market {
  return {
    id: row.id,
    uuid: row.uuid,
    international_name: row.international_name,
    local_name: row.local_name,
    iso_code: row.iso_code,
    organization: { id: row.organization_id, name: row.organization_name },
    currency: row.currency_id !== null && row.currency_iso_code !== null ? { id: row.currency_id, iso_code: row.currency_iso_code } : null,
    has_logotype: row.logotype_file_id !== null,
  };
}

const selectMarkets = (db: Db) =>
  db
    .select(columns)
    .from(markets)
    .innerJoin(organizations, eq(organizations.id, markets.organization_id))
    .leftJoin(currencies, eq(currencies.id, markets.currency_id));

/** The list of docs/product.md §2: shows and searches international_name. */
export async function findMarkets(db: Db, principal: Principal, query: ListQuery): Promise<Paged<Market>> {
  const plan = planList(query, {
    sortable: {
      international_name: sql`lower(${markets.international_name})`,
      local_name: sql`lower(${markets.local_name})`,
      iso_code: markets.iso_code,
      id: markets.id,
    },
    searchable: [markets.international_name],
  });
  const where = and(organizationCondition(principal, markets.organization_id, query.organization_id), plan.search);
  const [rows, [total]] = await Promise.all([
    selectMarkets(db)
      .where(where)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    db.select({ n: count() }).from(markets).where(where),
  ]);
  return { data: rows.map(toMarket), meta: plan.meta(total!.n) };
}

async function findMarketRow(db: Db, principal: Principal, id: number): Promise<Row> {
  const [row] = await selectMarkets(db).where(eq(markets.id, id));
  if (!row) throw notFound();
  assertInOrganization(principal, row.organization_id);
  return row;
}

export async function findMarket(db: Db, principal: Principal, id: number): Promise<Market> {
  return toMarket(await findMarketRow(db, principal, id));
}

async function checkMarketInput(db: Db, organizationId: number, input: MarketInput, exceptId?: number) {
  const [taken] = await db
    .select({ id: markets.id })
    .from(markets)
    .where(and(eq(markets.organization_id, organizationId), eq(markets.iso_code, input.iso_code), exceptId ? ne(markets.id, exceptId) : undefined));
  if (taken) throw validationError('iso_code', 'validation.unique');
  if (input.currency_id !== null) {
    const [currency] = await db.select({ id: currencies.id }).from(currencies).where(eq(currencies.id, input.currency_id));
    if (!currency) throw validationError('currency_id', 'validation.in');
  }
}

export async function createMarket(db: Db, principal: Principal, input: MarketInput): Promise<Market> {
  const organizationId = await organizationForWrite(db, principal, input.organization_id);
  await checkMarketInput(db, organizationId, input);
  const [row] = await db
    .insert(markets)
    .values({
      organization_id: organizationId,
      international_name: input.international_name,
      local_name: input.local_name,
      iso_code: input.iso_code,
      currency_id: input.currency_id,
    })
    .returning({ id: markets.id });
  return findMarket(db, principal, row!.id);
}

export async function updateMarket(db: Db, principal: Principal, id: number, input: MarketInput): Promise<Market> {
  const existing = await findMarketRow(db, principal, id);
  // A market stays in its organization: moving it would carry other organizations' data along.
  assertOrganizationUnchanged(input.organization_id, existing.organization_id);
  await checkMarketInput(db, existing.organization_id, input, id);
  await db
    .update(markets)
    .set({
      international_name: input.international_name,
      local_name: input.local_name,
      iso_code: input.iso_code,
      currency_id: input.currency_id,
      updated_at: sql`now()`,
    })
    .where(eq(markets.id, id));
  return findMarket(db, principal, id);
}

export async function deleteMarket(db: Db, principal: Principal, id: number): Promise<void> {
  const market = await findMarketRow(db, principal, id);
  const [[companies], [users]] = await Promise.all([
    db.select({ n: count() }).from(companyMarkets).where(eq(companyMarkets.market_id, id)),
    db.select({ n: count() }).from(userMarkets).where(eq(userMarkets.market_id, id)),
  ]);
  if (companies!.n > 0 || users!.n > 0) throw inUse({ key: 'model.market', params: { name: market.international_name } });
  await db.delete(markets).where(eq(markets.id, id));
  await deleteFile(db, market.logotype_file_id);
}

export async function setMarketLogotype(
  db: Db,
  principal: Principal,
  id: number,
  file: { name: string; mimeType: string; content: Buffer } | null,
): Promise<Market> {
  const market = await findMarketRow(db, principal, id);
  const fileId = file ? await storeFile(db, file) : null;
  await db
    .update(markets)
    .set({ logotype_file_id: fileId, updated_at: sql`now()` })
    .where(eq(markets.id, id));
  await deleteFile(db, market.logotype_file_id);
  return findMarket(db, principal, id);
}

export async function findMarketLogotypeId(db: Db, principal: Principal, id: number): Promise<number | null> {
  return (await findMarketRow(db, principal, id)).logotype_file_id;
}
