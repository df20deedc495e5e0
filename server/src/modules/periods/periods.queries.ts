import { and, desc, eq, inArray, isNotNull, lt, ne, or, type SQL, sql } from 'drizzle-orm';
import type { AbilityName } from '@mss/contracts/enums';
import type { Db, Executor } from '../../db/client.ts';
import { markets, periods, reports } from '../../db/schema.ts';
import { forbidden, periodNotFound } from '../../errors.ts';
import { type Principal } from '../../auth/principal.ts';
import { isUuid } from '../../lib/uuid.ts';
import { inOrganization, mayIn } from '../../auth/policy.ts';

/*
 * The periods module's lookups: which periods a user sees and finding one. Reports, approvals and
 * the preflight use them; they import nothing of those modules, so the period workflow
 * (periods.service.ts, which moves reports and publishes) can sit above them without a cycle.
 */

/*
 * Which periods of a market a user sees (docs/permissions.md "Which periods a user sees"): those who run the
 * market's reporting see every period; those who report, or follow their company's reports, see
 * the periods that have reports (open and closed: not drafts); everyone else only published ones.
 */
export const ALL_PERIODS: readonly AbilityName[] = ['manage-periods', 'approve-reports'];
const REPORTING_PERIODS: readonly AbilityName[] = ['upload-reports', 'view-company-reports'];
const PUBLISHED_PERIODS: readonly AbilityName[] = ['view-statistics', 'view-report-history'];
/** Abilities that let a user see a market's periods at all. */
export const PERIOD_READERS = [...ALL_PERIODS, ...REPORTING_PERIODS, ...PUBLISHED_PERIODS];

export type PeriodView = 'all' | 'reporting' | 'published';

/** Which of the market's periods the actor sees, or null for none. */
export function periodViewIn(principal: Principal, marketId: number): PeriodView | null {
  const holds = (abilities: readonly AbilityName[]) => mayIn(principal, abilities, marketId);
  if (holds(ALL_PERIODS)) return 'all';
  if (holds(REPORTING_PERIODS)) return 'reporting';
  if (holds(PUBLISHED_PERIODS)) return 'published';
  return null;
}

function isVisible(view: PeriodView, period: { status: string; published_at: Date | null }): boolean {
  if (view === 'all') return true;
  if (view === 'reporting') return period.status !== 'draft';
  return period.published_at !== null;
}

/** The SQL condition of the periods the actor sees among these markets. */
export function visiblePeriods(principal: Principal, marketIds: readonly number[]): SQL {
  const byView: Record<PeriodView, number[]> = { all: [], reporting: [], published: [] };
  for (const id of marketIds) {
    const view = periodViewIn(principal, id);
    if (view) byView[view].push(id);
  }
  const parts: SQL[] = [];
  if (byView.all.length) parts.push(inArray(periods.market_id, byView.all));
  if (byView.reporting.length) parts.push(and(inArray(periods.market_id, byView.reporting), ne(periods.status, 'draft'))!);
  if (byView.published.length) parts.push(and(inArray(periods.market_id, byView.published), isNotNull(periods.published_at))!);
  return parts.length ? or(...parts)! : sql`false`;
}

const periodColumns = {
  id: periods.id,
  uuid: periods.uuid,
  title: periods.title,
  starts_on: periods.starts_on,
  ends_on: periods.ends_on,
  deadline: periods.deadline,
  status: periods.status,
  opened_at: periods.opened_at,
  closed_at: periods.closed_at,
  published_at: periods.published_at,
  market_id: markets.id,
  organization_id: markets.organization_id,
  market: { id: markets.id, international_name: markets.international_name, local_name: markets.local_name, iso_code: markets.iso_code },
  report_count: sql<number>`(select count(*)::int from ${reports} where ${reports.period_id} = ${periods.id})`,
};

export type PeriodRow = Awaited<ReturnType<typeof selectPeriods>>[number];
export const selectPeriods = (db: Db) => db.select(periodColumns).from(periods).innerJoin(markets, eq(markets.id, periods.market_id));

/** A period the actor can reach, or 404 (`periodNotFound`: never a uuid as the period's title). */
export async function findPeriodRow(db: Db, principal: Principal, uuid: string): Promise<PeriodRow> {
  const [row] = isUuid(uuid) ? await selectPeriods(db).where(eq(periods.uuid, uuid)) : [];
  if (!row || !inOrganization(principal, row.organization_id)) {
    throw periodNotFound(uuid);
  }
  const view = periodViewIn(principal, row.market_id);
  if (!view) throw forbidden('period.no_access');
  if (!isVisible(view, row)) throw forbidden('period.not_published');
  return row;
}

/** The period before this one in the same market (by start date), if any. */
export async function findPreviousPeriod(db: Executor, periodId: number): Promise<{ id: number; title: string } | null> {
  const [current] = await db.select({ market_id: periods.market_id, starts_on: periods.starts_on }).from(periods).where(eq(periods.id, periodId));
  if (!current) return null;
  const [previous] = await db
    .select({ id: periods.id, title: periods.title })
    .from(periods)
    .where(and(eq(periods.market_id, current.market_id), lt(periods.starts_on, current.starts_on), ne(periods.id, periodId)))
    .orderBy(desc(periods.starts_on))
    .limit(1);
  return previous ?? null;
}
