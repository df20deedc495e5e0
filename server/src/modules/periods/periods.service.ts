import { and, asc, desc, eq, gt, inArray, isNull, ne, notExists, or, sql } from 'drizzle-orm';
import type { Period, PeriodCoverage, PeriodInput, PeriodPublication, PeriodStatus, PublicationPreview } from '@mss/contracts/periods';
import { ReportStatus } from '@mss/contracts/enums';
import { PERIOD_LIFECYCLE, type PeriodAction, periodAllows, PUBLISHABLE_PERIOD_STATUSES } from '@mss/contracts/lifecycles';
import { sqlArray } from '../../db/sql-array.ts';
import { countedCompany } from '../statistics/figures/statistics.cells.ts';
import type { Db, Executor } from '../../db/client.ts';
import { companies, companyMarkets, markets, periodReportCounts, periods, reports } from '../../db/schema.ts';
import { AppError, validationError } from '../../errors.ts';
import { applyReportEvent } from '../reports/reports.workflow.ts';
import { publicationStates, publishPeriod } from '../statistics/disclosure/statistics.publications.ts';
import { previewPublication } from '../statistics/disclosure/statistics.preview.ts';
import { type Principal } from '../../auth/principal.ts';
import { authorize, inOrganization, marketsWhere, mayIn } from '../../auth/policy.ts';
import { ALL_PERIODS, PERIOD_READERS, type PeriodRow, findPeriodRow, periodViewIn, selectPeriods, visiblePeriods } from './periods.queries.ts';

function toPeriod(row: PeriodRow, publication: PeriodPublication | null = null, coverage: PeriodCoverage | null = null): Period {
  return {
    uuid: row.uuid,
    title: row.title,
    market: row.market,
    starts_on: row.starts_on,
    ends_on: row.ends_on,
    deadline: row.deadline,
    status: row.status as Period['status'],
    published: row.published_at !== null,
    opened_at: row.opened_at?.toISOString() ?? null,
    closed_at: row.closed_at?.toISOString() ?? null,
    published_at: row.published_at?.toISOString() ?? null,
    report_count: Number(row.report_count),
    coverage,
    publication: row.published_at === null ? null : publication,
  };
}

/**
 * The coverage of each period (as statistics count it: reports of companies not disabled at the
 * period's end), with the reports not approved by status and company: the numbers from the kept
 * counts (`period_report_counts`, migration 0030), the companies' names only of the periods where
 * some report is not approved (a closed or published period usually has none).
 */
async function coverages(db: Executor, periodIds: readonly number[]): Promise<Map<number, PeriodCoverage>> {
  const out = new Map<number, PeriodCoverage>(periodIds.map((id) => [id, { approved: 0, expected: 0, missing: [] }]));
  if (periodIds.length === 0) return out;
  const counts = await db
    .select({ period_id: periodReportCounts.period_id, status: periodReportCounts.status, n: periodReportCounts.n })
    .from(periodReportCounts)
    .where(and(inArray(periodReportCounts.period_id, [...periodIds]), ne(periodReportCounts.n, 0)))
    .orderBy(periodReportCounts.period_id, periodReportCounts.status);
  const waiting = new Map<string, string[]>();
  for (const row of counts) {
    const coverage = out.get(row.period_id)!;
    coverage.expected += row.n;
    if (row.status === ReportStatus.Approved) coverage.approved += row.n;
    else {
      const companies: string[] = [];
      coverage.missing.push({ status: row.status, companies });
      waiting.set(`${row.period_id}:${row.status}`, companies);
    }
  }
  if (waiting.size === 0) return out;
  const unapproved = [...new Set(counts.filter((c) => c.status !== ReportStatus.Approved).map((c) => c.period_id))];
  const { rows } = await db.execute<{ period_id: number; status: number; companies: string[] }>(sql`
    select r.period_id, r.status, array_agg(co.name order by lower(co.name), co.id) as companies
    from ${reports} r join ${periods} p on p.id = r.period_id join ${companies} co on co.id = r.company_id
    where r.period_id = any(${sqlArray(unapproved, 'int')}) and r.status <> ${ReportStatus.Approved} and ${countedCompany(sql`co`, sql`p`)}
    group by r.period_id, r.status`);
  for (const row of rows) waiting.get(`${row.period_id}:${row.status}`)?.push(...row.companies);
  return out;
}

async function toPeriods(db: Db, principal: Principal, rows: readonly PeriodRow[]): Promise<Period[]> {
  const managed = rows.filter((r) => r.published_at !== null && mayIn(principal, 'manage-periods', r.market_id)).map((r) => r.id);
  const states = await publicationStates(db, managed);
  // Who has not reported is for those who approve or manage in the market, not for reporters or viewers.
  const covered = await coverages(
    db,
    rows.filter((r) => periodViewIn(principal, r.market_id) === 'all').map((r) => r.id),
  );
  return rows.map((r) => toPeriod(r, states.get(r.id) ?? null, covered.get(r.id) ?? null));
}

function assertMarketReachable(principal: Principal, organizationId: number) {
  if (!inOrganization(principal, organizationId)) throw new AppError('not_found', 'generic.not_found');
}

/** Periods of one market, or (cluster) of every market where the actor manages periods or approves. */
export async function findPeriods(db: Db, principal: Principal, query: { market_id?: number; cluster?: '0' | '1' }): Promise<Period[]> {
  let marketIds: number[];
  if (query.market_id) {
    const [market] = await db.select({ id: markets.id, organization_id: markets.organization_id }).from(markets).where(eq(markets.id, query.market_id));
    if (!market) throw new AppError('not_found', 'generic.not_found');
    assertMarketReachable(principal, market.organization_id);
    authorize(mayIn(principal, PERIOD_READERS, market.id), 'period.no_access');
    marketIds = [market.id];
  } else {
    marketIds = await marketsWhere(db, principal, query.cluster === '1' ? ALL_PERIODS : PERIOD_READERS);
  }
  if (marketIds.length === 0) return [];
  const rows = await selectPeriods(db).where(visiblePeriods(principal, marketIds)).orderBy(desc(periods.starts_on), asc(markets.international_name));
  return toPeriods(db, principal, rows);
}

export async function findPeriod(db: Db, principal: Principal, uuid: string): Promise<Period> {
  return (await toPeriods(db, principal, [await findPeriodRow(db, principal, uuid)]))[0]!;
}

function assertManages(principal: Principal, marketId: number) {
  authorize(mayIn(principal, 'manage-periods', marketId), 'period.no_access');
}

export async function createPeriod(db: Db, principal: Principal, input: PeriodInput): Promise<Period> {
  const [market] = await db.select({ id: markets.id, organization_id: markets.organization_id }).from(markets).where(eq(markets.id, input.market_id));
  if (!market) throw validationError('market_id', 'validation.in');
  assertMarketReachable(principal, market.organization_id);
  assertManages(principal, market.id);
  const [taken] = await db
    .select({ id: periods.id })
    .from(periods)
    .where(and(eq(periods.market_id, market.id), eq(sql`lower(${periods.title})`, input.title.toLowerCase())));
  if (taken) throw validationError('title', 'period.exists', { title: input.title });
  const [row] = await db
    .insert(periods)
    .values({ market_id: market.id, title: input.title, starts_on: input.starts_on, ends_on: input.ends_on, deadline: input.deadline ?? null })
    .returning({ uuid: periods.uuid });
  return findPeriod(db, principal, row!.uuid);
}

/**
 * What publishing (or publishing again) the period would show viewers, before the administrator
 * confirms: for those who manage the market's periods, of a period that can be published.
 */
export async function periodPublicationPreview(db: Db, principal: Principal, uuid: string): Promise<PublicationPreview> {
  const period = await findPeriodRow(db, principal, uuid);
  assertManages(principal, period.market_id);
  if (!PUBLISHABLE_PERIOD_STATUSES.includes(period.status as PeriodStatus)) throw periodStateRefusal(period.status as PeriodStatus);
  return previewPublication(db, period.id);
}

/** "The period is closed, so this cannot be done.", the state in the request's language. */
const periodStateRefusal = (status: PeriodStatus) =>
  new AppError('conflict', 'period.invalid_status_for_action', {}, undefined, {}, {}, { status: { key: `period.state.${status}` } });

/**
 * Period state changes. Opening (from draft, or re-opening a closed period) creates an Ongoing
 * report for every company reporting in the market that has none yet and is not disabled.
 * Publishing decides what viewers see (statistics.publications.ts): a new publication when the
 * figures or settings changed since the latest, else the latest again; republishing does the same
 * for a period that is published.
 */
export async function changePeriod(db: Db, principal: Principal, uuid: string, action: PeriodAction): Promise<Period> {
  const period = await findPeriodRow(db, principal, uuid);
  assertManages(principal, period.market_id);
  // The lifecycle's table decides what may happen (contracts/lifecycles.ts); this is its only writer.
  const state = { status: period.status as PeriodStatus, published: period.published_at !== null };
  if (!periodAllows(state, action)) throw periodStateRefusal(state.status);
  // The status is the lifecycle's `from` in the write's condition too: a change that lost a race to another changes nothing.
  const movedOrRefused = (moved: unknown[]) => {
    if (moved.length === 0) throw periodStateRefusal(state.status);
  };
  if (action === 'publish' || action === 'republish') {
    // Not in a transaction: the pattern takes a while to decide, and is written in a short one.
    await publishPeriod(db, period.id, { actorId: principal.userId, mark: true });
    return findPeriod(db, principal, uuid);
  }
  await db.transaction(async (tx) => {
    if (action === 'open') {
      await tx
        .update(periods)
        .set({ status: PERIOD_LIFECYCLE.open.to, opened_at: sql`coalesce(${periods.opened_at}, now())`, closed_at: null, updated_at: sql`now()` })
        .where(and(eq(periods.id, period.id), inArray(periods.status, [...PERIOD_LIFECYCLE.open.from])))
        .returning({ id: periods.id })
        .then(movedOrRefused);
      const eligible = await tx
        .select({ id: companies.id })
        .from(companyMarkets)
        .innerJoin(companies, eq(companies.id, companyMarkets.company_id))
        .where(
          and(
            eq(companyMarkets.market_id, period.market_id),
            or(isNull(companies.disabled_at), gt(companies.disabled_at, sql`now()`)),
            notExists(
              tx
                .select({ one: sql`1` })
                .from(reports)
                .where(and(eq(reports.period_id, period.id), eq(reports.company_id, companies.id))),
            ),
          ),
        );
      if (eligible.length)
        await applyReportEvent(tx, { event: 'create', create: { periodId: period.id, companyIds: eligible.map((c) => c.id) }, actor: principal.userId });
    } else if (action === 'close') {
      await tx
        .update(periods)
        .set({ status: PERIOD_LIFECYCLE.close.to, closed_at: sql`now()`, updated_at: sql`now()` })
        .where(and(eq(periods.id, period.id), inArray(periods.status, [...PERIOD_LIFECYCLE.close.from])))
        .returning({ id: periods.id })
        .then(movedOrRefused);
    } else {
      await tx
        .update(periods)
        .set({ published_at: null, updated_at: sql`now()` })
        .where(eq(periods.id, period.id));
    }
  });
  return findPeriod(db, principal, uuid);
}
