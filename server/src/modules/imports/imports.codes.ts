// The codes a report may carry (its organization's, in its market, available to its company): what the
// validator looks codes up in and what the template lists.
import { and, eq, sql } from 'drizzle-orm';
import { type CodeDisabledStatus } from '@mss/contracts/enums';
import type { Db } from '../../db/client.ts';
import { codeMarkets, codes, companyCodes, markets, periods, reports } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { type TemplateCode } from './imports.sheets.ts';
import type { CodeInfo, CodeLookup } from './imports.validator.ts';

/** Where a report's codes come from: its organization, market and company. */
async function codeScopeOf(db: Db, reportId: number) {
  const [report] = await db
    .select({ company_id: reports.company_id, market_id: periods.market_id, organization_id: markets.organization_id })
    .from(reports)
    .innerJoin(periods, eq(periods.id, reports.period_id))
    .innerJoin(markets, eq(markets.id, periods.market_id))
    .where(eq(reports.id, reportId));
  if (!report) throw notFound();
  return report;
}

/** Available = assigned to the market and reported by the company: two sets, not two lookups per code. */
const isAvailable = (scope: { market_id: number; company_id: number }) =>
  sql<boolean>`(${codes.id} in (select ${codeMarkets.code_id} from ${codeMarkets} where ${codeMarkets.market_id} = ${scope.market_id})
    and ${codes.id} in (select ${companyCodes.code_id} from ${companyCodes} where ${companyCodes.company_id} = ${scope.company_id}))`;

/**
 * The validator's lookup: every code of the report's organization (a code of another
 * organization is an invalid code), whether it is available, without names or order: with
 * 100,000 codes this query runs while the file is read.
 */
export async function codeLookupFor(db: Db, reportId: number): Promise<CodeLookup> {
  const scope = await codeScopeOf(db, reportId);
  // The driver's rows as they are: mapping 100,000 of them through the query builder took ~85 ms
  // of this thread, while the database waited for the first rows to write.
  const { rows } = await db.execute<{ id: number; code: string; disabled_status: CodeDisabledStatus; available: boolean }>(
    sql`select ${codes.id}, ${codes.code}, ${codes.disabled_status}, ${isAvailable(scope)} as available from ${codes} where ${codes.organization_id} = ${scope.organization_id}`,
  );
  // The rows are the code infos (same fields): no second object per code.
  const byCode = new Map<string, CodeInfo>();
  for (const r of rows) byCode.set(r.code, r);
  return { byCode };
}

/** The codes available to the report's company in its market, by code, with their names (the template). */
export async function availableCodesFor(db: Db, reportId: number): Promise<TemplateCode[]> {
  const scope = await codeScopeOf(db, reportId);
  const rows = await db
    .select({ code: codes.code, name: codes.name, disabled_status: codes.disabled_status })
    .from(codes)
    .where(and(eq(codes.organization_id, scope.organization_id), isAvailable(scope)))
    .orderBy(sql`${codes.code} collate "C"`);
  return rows.map((r) => ({ ...r, disabled_status: r.disabled_status as CodeDisabledStatus }));
}
