import { and, count, eq, ne, or, sql } from 'drizzle-orm';
import type { ListQuery } from '@mss/contracts/common';
import type { Currency, CurrencyInput } from '@mss/contracts/admin';
import type { Db } from '../../db/client.ts';
import { currencies, currencyConversions, markets } from '../../db/schema.ts';
import { notFound, validationError } from '../../errors.ts';
import { type Paged, planList } from '../../lib/list.ts';
import { inUse } from '../../lib/scope.ts';

const columns = { id: currencies.id, iso_code: currencies.iso_code, name: currencies.name };

// Currencies are shared by every organization: no organization scope.
export async function findCurrencies(db: Db, query: ListQuery): Promise<Paged<Currency>> {
  const plan = planList(query, {
    sortable: { iso_code: currencies.iso_code, name: currencies.name, id: currencies.id },
    searchable: [currencies.iso_code, currencies.name],
  });
  const [rows, [total]] = await Promise.all([
    db
      .select(columns)
      .from(currencies)
      .where(plan.search)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    db.select({ n: count() }).from(currencies).where(plan.search),
  ]);
  return { data: rows, meta: plan.meta(total!.n) };
}

export async function findCurrency(db: Db, id: number): Promise<Currency> {
  const [row] = await db.select(columns).from(currencies).where(eq(currencies.id, id));
  if (!row) throw notFound();
  return row;
}

async function assertIsoCodeFree(db: Db, isoCode: string, exceptId?: number) {
  const [taken] = await db
    .select({ id: currencies.id })
    .from(currencies)
    .where(and(eq(currencies.iso_code, isoCode), exceptId ? ne(currencies.id, exceptId) : undefined));
  if (taken) throw validationError('iso_code', 'validation.unique');
}

// The ISO 4217 codes in use and their English names, from the ICU data Node ships with.
const ISO_CURRENCIES = new Set(Intl.supportedValuesOf('currency'));
const currencyNames = new Intl.DisplayNames(['en'], { type: 'currency', fallback: 'none' });

/**
 * The currency as stored: a name left out is the standard name of the code. A code the standard
 * does not know needs a name from the administrator (a new currency, a unit of account); without
 * one it is most likely a typo: 422 on the code, saying both ways out.
 */
function withName(input: CurrencyInput): { iso_code: string; name: string } {
  if (input.name) return { iso_code: input.iso_code, name: input.name };
  const standard = ISO_CURRENCIES.has(input.iso_code) ? currencyNames.of(input.iso_code) : undefined;
  if (!standard) throw validationError('iso_code', 'currencies.unknown_code', { code: input.iso_code });
  return { iso_code: input.iso_code, name: standard };
}

export async function createCurrency(db: Db, input: CurrencyInput): Promise<Currency> {
  const values = withName(input);
  await assertIsoCodeFree(db, values.iso_code);
  const [row] = await db.insert(currencies).values(values).returning(columns);
  return row!;
}

export async function updateCurrency(db: Db, id: number, input: CurrencyInput): Promise<Currency> {
  await findCurrency(db, id);
  const values = withName(input);
  await assertIsoCodeFree(db, values.iso_code, id);
  const [row] = await db
    .update(currencies)
    .set({ ...values, updated_at: sql`now()` })
    .where(eq(currencies.id, id))
    .returning(columns);
  return row!;
}

export async function deleteCurrency(db: Db, id: number): Promise<void> {
  const currency = await findCurrency(db, id);
  const [[usedByMarkets], [usedByConversions]] = await Promise.all([
    db.select({ n: count() }).from(markets).where(eq(markets.currency_id, id)),
    db
      .select({ n: count() })
      .from(currencyConversions)
      .where(or(eq(currencyConversions.from_currency_id, id), eq(currencyConversions.to_currency_id, id))),
  ]);
  if (usedByMarkets!.n > 0 || usedByConversions!.n > 0) throw inUse({ key: 'model.currency', params: { code: currency.iso_code } });
  await db.delete(currencies).where(eq(currencies.id, id));
}
