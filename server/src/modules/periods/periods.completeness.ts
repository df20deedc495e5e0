import { sql } from 'drizzle-orm';
import {
  COMPLETENESS_MAX_MONTHS,
  COMPLETENESS_STATES,
  type Completeness,
  type CompletenessQuery,
  type CompletenessRow,
  type CompletenessState,
} from '@mss/contracts/periods';
import { ReportStatus } from '@mss/contracts/enums';
import type { Db } from '../../db/client.ts';
import { sqlArray } from '../../db/sql-array.ts';
import { AppError, forbidden, validationError } from '../../errors.ts';
import { type Principal } from '../../auth/principal.ts';
import { authorize, inOrganization, marketsWhere, maySomewhere } from '../../auth/policy.ts';
import { ALL_PERIODS } from './periods.queries.ts';

/*
 * The completeness overview: who still owes what, per market and period, for those who run a
 * market's reporting (they manage its periods or approve its reports): an administrator across the
 * organization, a cluster administrator across the cluster's markets, a market administrator in
 * theirs. Drafts are left out (they have no reports yet). The counts are read from
 * period_report_counts, which triggers keep with the reports (migration 0030): one indexed read
 * per request, whatever the range.
 */

const SUBMITTED: readonly number[] = [ReportStatus.WaitingForApproval, ReportStatus.Approved];

const monthStart = (month: string) => `${month}-01`;
const monthsBetween = (from: string, to: string) => {
  const [fy, fm] = from.split('-').map(Number) as [number, number];
  const [ty, tm] = to.split('-').map(Number) as [number, number];
  return (ty - fy) * 12 + (tm - fm) + 1;
};

/** The range asked for: January to December of this year by default; `to` defaults to the end of `from`'s year. */
export function completenessRange(query: Pick<CompletenessQuery, 'from' | 'to'>, today: string): { from: string; to: string } {
  const from = query.from ?? `${today.slice(0, 4)}-01`;
  const to = query.to ?? `${from.slice(0, 4)}-12`;
  const months = monthsBetween(from, to);
  if (months < 1 || months > COMPLETENESS_MAX_MONTHS) {
    throw validationError(query.to ? 'to' : 'from', 'period.completeness_range', { months: COMPLETENESS_MAX_MONTHS });
  }
  return { from, to };
}

function stateOf(row: Pick<CompletenessRow, 'expected' | 'approved' | 'missing' | 'overdue'>): Exclude<CompletenessState, 'all'>[] {
  if (row.missing > 0) return row.overdue ? ['missing', 'overdue'] : ['missing'];
  return row.approved === row.expected ? ['complete'] : ['waiting'];
}

export async function findCompleteness(db: Db, principal: Principal, query: CompletenessQuery): Promise<Completeness> {
  const today = new Date().toISOString().slice(0, 10);
  const { from, to } = completenessRange(query, today);
  authorize(maySomewhere(principal, ALL_PERIODS), 'period.no_access');
  let marketIds = await marketsWhere(db, principal, ALL_PERIODS);
  if (query.market_id) {
    if (!marketIds.includes(query.market_id)) {
      const [market] = (await db.execute<{ organization_id: number }>(sql`select organization_id from markets where id = ${query.market_id}`)).rows;
      // Another organization's market is as if it did not exist; one of the caller's own where they run nothing is 403.
      if (!market || !inOrganization(principal, market.organization_id)) {
        throw new AppError('not_found', 'generic.not_found');
      }
      throw forbidden('period.no_access');
    }
    marketIds = [query.market_id];
  }
  const rows = marketIds.length === 0 ? [] : await completenessRows(db, marketIds, from, to, today);
  const totals = { periods: rows.length, expected: 0, submitted: 0, approved: 0, missing: 0, overdue: 0 };
  const states = Object.fromEntries(COMPLETENESS_STATES.map((s) => [s, 0])) as Record<CompletenessState, number>;
  for (const row of rows) {
    totals.expected += row.expected;
    totals.submitted += row.submitted;
    totals.approved += row.approved;
    totals.missing += row.missing;
    if (row.overdue) totals.overdue += 1;
    states.all += 1;
    for (const s of stateOf(row)) states[s] += 1;
  }
  const shown = query.status === 'all' ? rows : rows.filter((row) => stateOf(row).includes(query.status as Exclude<CompletenessState, 'all'>));
  return { from, to, today, rows: shown, totals, states };
}

async function completenessRows(db: Db, marketIds: readonly number[], from: string, to: string, today: string): Promise<CompletenessRow[]> {
  const { rows } = await db.execute<{
    uuid: string;
    title: string;
    starts_on: string;
    ends_on: string;
    deadline: string | null;
    status: CompletenessRow['period']['status'];
    published: boolean;
    market_id: number;
    international_name: string;
    local_name: string;
    iso_code: string;
    counts: { status: number; count: number }[] | null;
  }>(sql`
    select p.uuid, p.title, p.starts_on::text, p.ends_on::text, p.deadline::text, p.status, p.published_at is not null as published,
      m.id as market_id, m.international_name, m.local_name, m.iso_code,
      (select json_agg(json_build_object('status', c.status, 'count', c.n) order by c.status)
        from period_report_counts c where c.period_id = p.id and c.n <> 0) as counts
    from periods p join markets m on m.id = p.market_id
    where p.market_id = any(${sqlArray(marketIds, 'int')}) and p.status <> 'draft'
      and p.starts_on >= ${monthStart(from)}::date and p.starts_on < (${monthStart(to)}::date + interval '1 month')
    order by p.starts_on desc, lower(m.international_name), m.id, p.id`);
  return rows.map((r) => {
    const byStatus = r.counts ?? [];
    const sum = (pick: (status: number) => boolean) => byStatus.filter((c) => pick(c.status)).reduce((n, c) => n + c.count, 0);
    const expected = sum(() => true);
    const submitted = sum((s) => SUBMITTED.includes(s));
    const missing = expected - submitted;
    return {
      period: { uuid: r.uuid, title: r.title, starts_on: r.starts_on, ends_on: r.ends_on, deadline: r.deadline, status: r.status, published: r.published },
      market: { id: r.market_id, international_name: r.international_name, local_name: r.local_name, iso_code: r.iso_code },
      expected,
      submitted,
      approved: sum((s) => s === ReportStatus.Approved),
      waiting: sum((s) => s === ReportStatus.WaitingForApproval),
      missing,
      // As the period lists have it: a closed period is no longer chased, its missing companies are only missing.
      overdue: r.status === 'open' && missing > 0 && r.deadline !== null && r.deadline < today,
      by_status: byStatus,
    };
  });
}
