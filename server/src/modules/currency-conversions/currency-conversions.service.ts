import { and, count, eq, inArray, ne, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { CurrencyConversion, CurrencyConversionInput, NewestFirstListQuery } from '@mss/contracts/admin';
import type { Db } from '../../db/client.ts';
import { currencies, currencyConversions } from '../../db/schema.ts';
import { notFound, validationError } from '../../errors.ts';
import { type Paged, planList } from '../../lib/list.ts';

const fromCurrency = alias(currencies, 'from_currency');
const toCurrency = alias(currencies, 'to_currency');

// The id first: planList's second sort key is the first selected column.
const columns = {
  id: currencyConversions.id,
  rate: currencyConversions.rate,
  valid_from: currencyConversions.valid_from,
  from_id: fromCurrency.id,
  from_iso_code: fromCurrency.iso_code,
  to_id: toCurrency.id,
  to_iso_code: toCurrency.iso_code,
};

type Row = { id: number; rate: string; valid_from: string; from_id: number; from_iso_code: string; to_id: number; to_iso_code: string };

function toConversion(row: Row): CurrencyConversion {
  return {
    id: row.id,
    // numeric comes back as a string; the wire carries the multiplier as a number.
    // As the database keeps it: 10 decimals, exact ("0.0874000000").
    rate: row.rate,
    from_currency: { id: row.from_id, iso_code: row.from_iso_code },
    to_currency: { id: row.to_id, iso_code: row.to_iso_code },
    valid_from: row.valid_from,
  };
}

function selectConversions(db: Db) {
  return db
    .select(columns)
    .from(currencyConversions)
    .innerJoin(fromCurrency, eq(fromCurrency.id, currencyConversions.from_currency_id))
    .innerJoin(toCurrency, eq(toCurrency.id, currencyConversions.to_currency_id));
}

/**
 * Currency conversions are shared by every organization: no organization scope. Without a sort
 * or a direction the newest conversions come first.
 */
export async function findCurrencyConversions(db: Db, query: NewestFirstListQuery): Promise<Paged<CurrencyConversion>> {
  const direction = query.direction ?? (query.sort === undefined ? 'desc' : 'asc');
  const plan = planList(
    { ...query, direction },
    {
      sortable: { valid_from: currencyConversions.valid_from, rate: currencyConversions.rate, id: currencyConversions.id },
      searchable: [fromCurrency.iso_code, toCurrency.iso_code],
    },
  );
  const [rows, [total]] = await Promise.all([
    selectConversions(db)
      .where(plan.search)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    db
      .select({ n: count() })
      .from(currencyConversions)
      .innerJoin(fromCurrency, eq(fromCurrency.id, currencyConversions.from_currency_id))
      .innerJoin(toCurrency, eq(toCurrency.id, currencyConversions.to_currency_id))
      .where(plan.search),
  ]);
  return { data: rows.map(toConversion), meta: plan.meta(total!.n) };
}

export async function findCurrencyConversion(db: Db, id: number): Promise<CurrencyConversion> {
  const [row] = await selectConversions(db).where(eq(currencyConversions.id, id));
  if (!row) throw notFound();
  return toConversion(row);
}

async function assertValid(db: Db, input: CurrencyConversionInput, exceptId?: number) {
  if (input.from_currency_id === input.to_currency_id) throw validationError('to_currency_id', 'currency_conversions.same_currency');
  // A multiplier of 0 or less converts nothing (and its inverse does not exist).
  if (input.rate.startsWith('-') || input.rate === '0') throw validationError('rate', 'validation.gt.numeric', { min: '0' });
  const found = await db
    .select({ id: currencies.id })
    .from(currencies)
    .where(inArray(currencies.id, [input.from_currency_id, input.to_currency_id]));
  const ids = new Set(found.map((c) => c.id));
  if (!ids.has(input.from_currency_id)) throw validationError('from_currency_id', 'validation.in');
  if (!ids.has(input.to_currency_id)) throw validationError('to_currency_id', 'validation.in');
  const [taken] = await db
    .select({ id: currencyConversions.id })
    .from(currencyConversions)
    .where(
      and(
        eq(currencyConversions.from_currency_id, input.from_currency_id),
        eq(currencyConversions.to_currency_id, input.to_currency_id),
        eq(currencyConversions.valid_from, input.valid_from),
        exceptId ? ne(currencyConversions.id, exceptId) : undefined,
      ),
    );
  if (taken) throw validationError('valid_from', 'currency_conversions.exists');
}

function toValues(input: CurrencyConversionInput) {
  return {
    from_currency_id: input.from_currency_id,
    to_currency_id: input.to_currency_id,
    rate: input.rate,
    valid_from: input.valid_from,
  };
}

export async function createCurrencyConversion(db: Db, input: CurrencyConversionInput): Promise<CurrencyConversion> {
  await assertValid(db, input);
  const [row] = await db.insert(currencyConversions).values(toValues(input)).returning({ id: currencyConversions.id });
  return findCurrencyConversion(db, row!.id);
}

export async function updateCurrencyConversion(db: Db, id: number, input: CurrencyConversionInput): Promise<CurrencyConversion> {
  await findCurrencyConversion(db, id);
  await assertValid(db, input, id);
  await db
    .update(currencyConversions)
    .set({ ...toValues(input), updated_at: sql`now()` })
    .where(eq(currencyConversions.id, id));
  return findCurrencyConversion(db, id);
}

export async function deleteCurrencyConversion(db: Db, id: number): Promise<void> {
  await findCurrencyConversion(db, id);
  await db.delete(currencyConversions).where(eq(currencyConversions.id, id));
}
