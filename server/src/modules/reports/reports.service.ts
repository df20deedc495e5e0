import { and, asc, count, desc, eq, inArray, lt, ne, or, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import { actorOf, auditChange, auditRead, type Reader } from '../../audit/audit.ts';
import { alias, type PgSelect } from 'drizzle-orm/pg-core';
import { type AbilityName, PreflightSeverity, ReportStatus } from '@mss/contracts/enums';
import type { ListQuery } from '@mss/contracts/common';
import { type PeriodStatus } from '@mss/contracts/periods';
import { type ComparedPeriod, type CopyPreview, REQUESTABLE_STATUS_EVENTS, type Report, type ReportRowsPage, type ReportSummary } from '@mss/contracts/reports';
import type { Db } from '../../db/client.ts';
import {
  codes,
  companies,
  companyMarkets,
  imports,
  markets,
  periods,
  preflights,
  reportRows,
  reportRowSets,
  reports,
  reportStatusChanges,
  users,
} from '../../db/schema.ts';
import { AppError, forbidden, notFound, validationError } from '../../errors.ts';
import { findPeriodRow } from '../periods/periods.queries.ts';
import { authorize, marketsWith, mayForCompany, mayIn, organizationMarketIds } from '../../auth/policy.ts';
import { type Paged, planList } from '../../lib/list.ts';
import { deviationThreshold, findPreviousReport, latestPreflight, runPreflight } from '../preflight/preflight.service.ts';
import { copyCurrentRows, countCopyableRows, createRowSet, deleteStaleRowSets } from './row-sets.ts';
import { applyReportEvent, assertReportEvent } from './reports.workflow.ts';
import { publishPeriod } from '../statistics/disclosure/statistics.publications.ts';
import { type Principal } from '../../auth/principal.ts';
import { isUuid } from '../../lib/uuid.ts';

/** Abilities with which a company's own users see its reports. */
const COMPANY_READERS: readonly AbilityName[] = ['upload-reports', 'view-company-reports', 'view-report-history'];

/**
 * What the actor may see: every report in the markets where they approve, and their own
 * company's reports in the markets where they report or follow them.
 */
export async function visibleReports(db: Db, principal: Principal): Promise<SQL> {
  const marketIds = await organizationMarketIds(db, principal);
  const companyId = principal.companyId;
  const approverMarkets = marketsWith(principal, ['approve-reports'], marketIds);
  const ownMarkets = marketsWith(principal, COMPANY_READERS, marketIds);
  const parts: SQL[] = [];
  if (approverMarkets.length) parts.push(inArray(periods.market_id, approverMarkets));
  if (companyId !== null && ownMarkets.length) parts.push(and(eq(reports.company_id, companyId), inArray(periods.market_id, ownMarkets))!);
  return parts.length ? or(...parts)! : sql`false`;
}

const summaryColumns = {
  id: reports.id,
  uuid: reports.uuid,
  status: reports.status,
  submitted_at: reports.submitted_at,
  approved_at: reports.approved_at,
  updated_at: reports.updated_at,
  company: { id: companies.id, name: companies.name },
  market: { id: markets.id, international_name: markets.international_name, local_name: markets.local_name, iso_code: markets.iso_code },
  period: { id: periods.id, uuid: periods.uuid, title: periods.title, status: periods.status, deadline: periods.deadline, published_at: periods.published_at },
  // Kept on the row set by triggers (migration 0018), not counted per read.
  row_count: sql<number>`coalesce((select ${reportRowSets.row_count} from ${reportRowSets} where ${reportRowSets.id} = ${reports.row_set_id}), 0)`,
  preflight_severity: sql<
    number | null
  >`(select ${preflights.severity} from ${preflights} where ${preflights.report_id} = ${reports.id} order by ${preflights.id} desc limit 1)`,
  // The comment of the last send-back, until the report is submitted again (or approved): an
  // upload after the send-back does not hide what the approver asked for.
  sent_back_comment: sql<
    string | null
  >`(select case when ${reportStatusChanges.to_status} = ${ReportStatus.WaitingForCompletion} then ${reportStatusChanges.comment} end
     from ${reportStatusChanges}
     where ${reportStatusChanges.report_id} = ${reports.id} and ${reportStatusChanges.event} is distinct from 'withdraw'
       and ${reportStatusChanges.to_status} in (${ReportStatus.WaitingForApproval}, ${ReportStatus.WaitingForCompletion}, ${ReportStatus.Approved})
     order by ${reportStatusChanges.id} desc limit 1)`,
};

/** A report's period, market and company, joined to a select from reports. */
const joinReportParts = <Q extends PgSelect>(query: Q) =>
  query
    .innerJoin(periods, eq(periods.id, reports.period_id))
    .innerJoin(markets, eq(markets.id, periods.market_id))
    .innerJoin(companies, eq(companies.id, reports.company_id));

export const selectReports = (db: Db) => joinReportParts(db.select(summaryColumns).from(reports).$dynamic());

type ReportRow = Awaited<ReturnType<typeof selectReports>>[number];

export function toSummary(row: ReportRow): ReportSummary {
  return {
    uuid: row.uuid,
    status: row.status,
    company: row.company,
    market: row.market,
    period: {
      uuid: row.period.uuid,
      title: row.period.title,
      status: row.period.status as ReportSummary['period']['status'],
      deadline: row.period.deadline,
      published: row.period.published_at !== null,
    },
    submitted_at: row.submitted_at?.toISOString() ?? null,
    approved_at: row.approved_at?.toISOString() ?? null,
    updated_at: row.updated_at.toISOString(),
    row_count: Number(row.row_count),
    preflight_severity: row.preflight_severity === null ? null : Number(row.preflight_severity),
    sent_back_comment: row.sent_back_comment ?? null,
  };
}

export async function findReports(
  db: Db,
  principal: Principal,
  query: { period_uuid?: string; company_id?: number; market_id?: number; status?: number[]; period_status?: PeriodStatus },
): Promise<ReportSummary[]> {
  const rows = await selectReports(db)
    .where(
      and(
        await visibleReports(db, principal),
        query.period_uuid ? eq(periods.uuid, query.period_uuid) : undefined,
        query.company_id ? eq(reports.company_id, query.company_id) : undefined,
        query.market_id ? eq(periods.market_id, query.market_id) : undefined,
        query.status?.length ? inArray(reports.status, query.status) : undefined,
        query.period_status ? eq(periods.status, query.period_status) : undefined,
      ),
    )
    .orderBy(desc(periods.starts_on), asc(sql`lower(${companies.name})`));
  return rows.map(toSummary);
}

/**
 * One market's reports over its periods, a page at a time (the report history screen): what the
 * actor may see (a reporter their company's), sorted and searched like every list.
 */
export async function findReportHistory(
  db: Db,
  principal: Principal,
  query: { market_id: number; company_id?: number; page: number; per_page: number; sort?: string; direction: 'asc' | 'desc'; search?: string },
): Promise<Paged<ReportSummary>> {
  const plan = planList(query, {
    sortable: {
      period: periods.starts_on,
      company: sql`lower(${companies.name})`,
      status: reports.status,
      submitted_at: reports.submitted_at,
      approved_at: reports.approved_at,
      row_count: summaryColumns.row_count,
    },
    searchable: [periods.title, companies.name],
    nullsLast: ['submitted_at', 'approved_at'],
  });
  const where = and(
    await visibleReports(db, principal),
    eq(periods.market_id, query.market_id),
    query.company_id ? eq(reports.company_id, query.company_id) : undefined,
    plan.search,
  );
  const [counted] = await joinReportParts(db.select({ total: count() }).from(reports).$dynamic()).where(where);
  const rows = await selectReports(db)
    .where(where)
    // Equal sort values: newest period first, then by company (not planList's id order).
    .orderBy(plan.orderBy[0]!, desc(periods.starts_on), asc(sql`lower(${companies.name})`), asc(reports.id))
    .limit(plan.limit)
    .offset(plan.offset);
  return { data: rows.map(toSummary), meta: plan.meta(counted?.total ?? 0) };
}

/** A report the actor may see, or 404. */
export async function findReportRow(db: Db, principal: Principal, uuid: string): Promise<ReportRow> {
  if (!isUuid(uuid)) throw notFound();
  const [row] = await selectReports(db).where(and(eq(reports.uuid, uuid), await visibleReports(db, principal)));
  if (!row) throw notFound();
  return row;
}

/** The report's totals, summed by the database: exact decimal strings at the columns' scale. */
export async function reportTotals(db: Db, reportId: number): Promise<{ volume: string; value: string }> {
  const [totals] = await db
    .select({
      volume: sql<string>`round(coalesce(sum(${reportRows.volume}), 0), 4)::text`,
      value: sql<string>`round(coalesce(sum(${reportRows.value}), 0), 4)::text`,
    })
    .from(reportRows)
    .innerJoin(reports, eq(reports.row_set_id, reportRows.row_set_id))
    .where(eq(reports.id, reportId));
  return totals!;
}

/** `reader`: a read of the company's figures (its totals) for the audit trail, unless by the company's own user. */
export async function findReport(db: Db, principal: Principal, uuid: string, reader?: Reader): Promise<Report> {
  const row = await findReportRow(db, principal, uuid);
  // The read's audit entry goes with the reads (on a server's pool at the same time); if it fails, so does the answer.
  const [, totals, preflight, currentImport, history] = await Promise.all([
    auditRead(db, reader, { action: 'report.read', companyId: row.company.id, marketId: row.market.id, record: { type: 'report', id: row.uuid } }),
    reportTotals(db, row.id),
    latestPreflight(db, row.id, principal.locale),
    findCurrentImport(db, row.id),
    db
      .select({
        from_status: reportStatusChanges.from_status,
        to_status: reportStatusChanges.to_status,
        comment: reportStatusChanges.comment,
        created_at: reportStatusChanges.created_at,
        user_id: users.id,
        first_name: users.first_name,
        last_name: users.last_name,
        email: users.email,
      })
      .from(reportStatusChanges)
      .leftJoin(users, eq(users.id, reportStatusChanges.user_id))
      .where(eq(reportStatusChanges.report_id, row.id))
      .orderBy(asc(reportStatusChanges.id)),
  ]);
  return {
    ...toSummary(row),
    totals,
    preflight,
    current_import: currentImport,
    history: history.map((h) => ({
      from_status: h.from_status,
      to_status: h.to_status,
      comment: h.comment,
      created_at: h.created_at.toISOString(),
      user: h.user_id === null ? null : { id: h.user_id, name: `${h.first_name ?? ''} ${h.last_name ?? ''}`.trim() || (h.email ?? '') },
    })),
  };
}

/**
 * The report's latest import, unless its rows were replaced after that import ended (a copy from
 * the previous period): then no import describes the report and its errors are only history.
 */
async function findCurrentImport(db: Db, reportId: number): Promise<Report['current_import']> {
  const { rows } = await db.execute<{ uuid: string; status: string; replaced: boolean }>(sql`
    select i.uuid, i.status,
           coalesce(i.finished_at < (select rs.created_at from ${reportRowSets} rs join ${reports} r on r.row_set_id = rs.id where r.id = ${reportId}), false) as replaced
    from ${imports} i where i.report_id = ${reportId} order by i.id desc limit 1`);
  const [latest] = rows;
  return latest && !latest.replaced ? { uuid: latest.uuid, status: latest.status } : null;
}

/**
 * What a copy from the previous period would bring (GET /reports/{uuid}/copy-previous), for those
 * who may copy: counted on request, not with every read of the report (a report of 100,000 rows).
 */
export async function previewCopyPrevious(db: Db, principal: Principal, uuid: string): Promise<CopyPreview> {
  const row = await findReportRow(db, principal, uuid);
  if (!(await reportsFor(db, principal, row))) throw forbidden('report_status.no_access');
  const reportId = row.id;
  const previous = await findPreviousReport(db, reportId);
  if (previous.periodTitle === null) return null;
  if (previous.reportId === null) return { period_title: previous.periodTitle, row_count: null, left_out: 0 };
  const { copied, left_out } = await countCopyableRows(db, previous.reportId, reportId);
  return { period_title: previous.periodTitle, row_count: copied, left_out };
}

/**
 * The period a report is compared with, found by `where` among the periods of the report's market,
 * latest first, with the same company's report in it (any status; null when there is none).
 */
async function comparedPeriod(db: Db, marketId: number, companyId: number, where: SQL): Promise<(ComparedPeriod & { reportId: number | null }) | null> {
  const [row] = await db
    .select({ period_uuid: periods.uuid, title: periods.title, report_id: reports.id, report_uuid: reports.uuid, status: reports.status })
    .from(periods)
    .leftJoin(reports, and(eq(reports.period_id, periods.id), eq(reports.company_id, companyId)))
    .where(and(eq(periods.market_id, marketId), where))
    .orderBy(desc(periods.starts_on))
    .limit(1);
  if (!row) return null;
  return {
    period: { uuid: row.period_uuid, title: row.title },
    report: row.report_uuid === null || row.status === null ? null : { uuid: row.report_uuid, status: row.status },
    reportId: row.report_id,
  };
}

/**
 * The periods the rows of a report are compared with ("What changed, for the approver"): the
 * previous period of the market (as the preflight finds it: the latest that starts earlier) and
 * the market's period starting 12 months earlier (as the statistics compare, docs/architecture.md §8). Only the
 * same company's reports: nobody sees another company's figures here that the rows did not show.
 */
async function comparedPeriods(db: Db, report: { period: { id: number }; market: { id: number }; company: { id: number } }) {
  const [current] = await db.select({ starts_on: periods.starts_on }).from(periods).where(eq(periods.id, report.period.id));
  const startsOn = current!.starts_on;
  const [previous, lastYear] = await Promise.all([
    comparedPeriod(db, report.market.id, report.company.id, and(lt(periods.starts_on, startsOn), ne(periods.id, report.period.id))!),
    comparedPeriod(db, report.market.id, report.company.id, eq(periods.starts_on, sql`(${startsOn}::date - interval '12 months')::date`)),
  ]);
  return { previous, lastYear };
}

/** The current row set of a report, as a subquery (null when there is no report: nothing joins). */
const currentRowSet = (reportId: number | null) =>
  reportId === null ? sql`null::int` : sql`(select ${reports.row_set_id} from ${reports} where ${reports.id} = ${reportId})`;

/**
 * (now − then) / |then| in percent, rounded half-up to one decimal, as text ("-92.0"), exact:
 * div() is numeric's exact integer quotient, so tenths of a percent are rounded once, at the end
 * (a rounded division could round twice). Null when either figure is missing or then is 0.
 */
function changePct(now: SQLWrapper, then: SQLWrapper): SQL<string | null> {
  return sql<
    string | null
  >`case when ${then} <> 0 and ${now} is not null then round(sign(${now} - ${then}) * div(abs(${now} - ${then}) * 2000 + abs(${then}), 2 * abs(${then})) / 10, 1)::text end`;
}

/** Whether now is more than `percent` away from then (as the preflight decides it: exact, strictly more, never against 0). */
function beyond(now: SQLWrapper, then: SQLWrapper, percent: string): SQL {
  return sql`coalesce(${then} <> 0 and abs(${now} - ${then}) * 100 > ${percent}::numeric * abs(${then}), false)`;
}

/**
 * A page of the report's rows (GET /reports/{uuid}/rows), for whoever may see the report: by
 * code unless sorted otherwise, searched on code or name, optionally only the deviating ones. Each
 * row carries the same company's figures for the code in the previous period and a year earlier,
 * the changes, and whether it deviates (`reportRowSchema`). The figures and the changes are the
 * database's exact decimal strings. The earlier rows are joined by their primary key
 * (row_set_id, code_id).
 */
export async function findReportRows(
  db: Db,
  principal: Principal,
  uuid: string,
  query: Omit<ListQuery, 'organization_id'> & { deviating?: '0' | '1' },
  reader?: Reader,
): Promise<ReportRowsPage> {
  const report = await findReportRow(db, principal, uuid);
  const [, { previous, lastYear }, threshold] = await Promise.all([
    auditRead(db, reader, {
      action: 'report.rows_read',
      companyId: report.company.id,
      marketId: report.market.id,
      record: { type: 'report', id: report.uuid },
      details: { page: query.page, search: query.search ?? null },
    }),
    comparedPeriods(db, report),
    deviationThreshold(db, report.id),
  ]);
  const percent = String(threshold);
  const before = alias(reportRows, 'previous_rows');
  const yearBefore = alias(reportRows, 'last_year_rows');
  const joinBefore = (code: SQLWrapper) => and(eq(before.row_set_id, currentRowSet(previous?.reportId ?? null)), eq(before.code_id, code));
  const joinYearBefore = (code: SQLWrapper) => and(eq(yearBefore.row_set_id, currentRowSet(lastYear?.reportId ?? null)), eq(yearBefore.code_id, code));
  const deviatesOf = (now: { volume: SQLWrapper; value: SQLWrapper }) =>
    sql<boolean>`(${beyond(now.volume, before.volume, percent)} or ${beyond(now.value, before.value, percent)})`;
  const size = (now: SQLWrapper, then: SQLWrapper) => sql`abs(${now} - ${then}) / nullif(abs(${then}), 0)`;
  const sortsOf = (row: { code: SQLWrapper; name: SQLWrapper; volume: SQLWrapper; value: SQLWrapper }) => ({
    code: sql`${row.code}`,
    name: sql`lower(${row.name})`,
    volume: sql`${row.volume}`,
    value: sql`${row.value}`,
    volume_change: size(row.volume, before.volume),
    value_change: size(row.value, before.value),
  });
  const spec = { searchable: [codes.code, codes.name], nullsLast: ['volume_change', 'value_change'] };
  const plan = planList(query, { ...spec, sortable: sortsOf({ code: codes.code, name: codes.name, volume: reportRows.volume, value: reportRows.value }) });
  const onlyDeviating = query.deviating === '1';
  // The previous rows take part in choosing the page only when it is sorted or filtered by the change.
  const beforeChooses = onlyDeviating || query.sort === 'volume_change' || query.sort === 'value_change';
  const where = and(eq(reportRows.row_set_id, currentRowSet(report.id)), plan.search, onlyDeviating ? deviatesOf(reportRows) : undefined);
  // A dynamic query's joins change it in place (drizzle); its selection stays the same.
  const chosen = <T extends PgSelect>(q: T): T => (beforeChooses ? (q.leftJoin(before, joinBefore(reportRows.code_id)) as unknown as T) : q);
  // First the page (sorted, searched, filtered, limited), then the earlier figures of its rows
  // only, by primary key: a 100,000-row report is not joined whole to show 100 rows.
  // code_id first: planList's second sort key is the first selected column (unique in a set).
  const page = chosen(
    db
      .select({ code_id: reportRows.code_id, code: codes.code, name: codes.name, volume: reportRows.volume, value: reportRows.value })
      .from(reportRows)
      .innerJoin(codes, eq(codes.id, reportRows.code_id))
      .$dynamic(),
  )
    .where(where)
    .orderBy(...plan.orderBy)
    .limit(plan.limit)
    .offset(plan.offset)
    .as('page');
  const pageRow = { code_id: page.code_id, code: page.code, name: page.name, volume: page.volume, value: page.value };
  const outer = planList(query, { ...spec, sortable: sortsOf(pageRow) });
  const rowsQuery = db
    .select({
      ...pageRow,
      volume_previous: before.volume,
      value_previous: before.value,
      volume_previous_change_pct: changePct(page.volume, before.volume),
      value_previous_change_pct: changePct(page.value, before.value),
      volume_last_year: yearBefore.volume,
      value_last_year: yearBefore.value,
      volume_last_year_change_pct: changePct(page.volume, yearBefore.volume),
      value_last_year_change_pct: changePct(page.value, yearBefore.value),
      deviates: deviatesOf(page),
      volume_deviates: beyond(page.volume, before.volume, percent),
      value_deviates: beyond(page.value, before.value, percent),
    })
    .from(page)
    .leftJoin(before, joinBefore(page.code_id))
    .leftJoin(yearBefore, joinYearBefore(page.code_id))
    .orderBy(...outer.orderBy);
  // Without a search or filter the count needs no join; row_count is the report's own.
  const countQuery =
    plan.search || onlyDeviating
      ? chosen(db.select({ n: count() }).from(reportRows).innerJoin(codes, eq(codes.id, reportRows.code_id)).$dynamic()).where(where)
      : Promise.resolve([{ n: Number(report.row_count) }]);
  const [rows, [total]] = await Promise.all([rowsQuery, countQuery]);
  const strip = (p: (ComparedPeriod & { reportId: number | null }) | null): ComparedPeriod | null => (p ? { period: p.period, report: p.report } : null);
  return {
    data: rows.map((r) => ({ ...r, deviates: Boolean(r.deviates), volume_deviates: Boolean(r.volume_deviates), value_deviates: Boolean(r.value_deviates) })),
    meta: plan.meta(total!.n),
    comparison: { previous: strip(previous), last_year: strip(lastYear), deviation_percentage: percent },
  };
}

/** Whether the actor reports for the report's company in its market (upload, submit, copy). */
export async function reportsFor(db: Db, principal: Principal, row: ReportRow): Promise<boolean> {
  return mayForCompany(principal, 'upload-reports', row.market.id, row.company.id);
}

export async function createReport(db: Db, principal: Principal, input: { company_id: number; period_uuid: string }): Promise<Report> {
  const period = await findPeriodRow(db, principal, input.period_uuid);
  const ownCompany = mayForCompany(principal, 'upload-reports', period.market_id, input.company_id);
  authorize(ownCompany || mayIn(principal, 'manage-periods', period.market_id), 'report_status.no_access');
  const [reporting] = await db
    .select({ id: companyMarkets.id })
    .from(companyMarkets)
    .where(and(eq(companyMarkets.company_id, input.company_id), eq(companyMarkets.market_id, period.market_id)));
  if (!reporting) throw validationError('company_id', 'period.not_for_company');
  // Period closed, then "This report already exists." (the workflow's order).
  const [created] = await applyReportEvent(db, { event: 'create', create: { periodId: period.id, companyIds: [input.company_id] }, actor: principal.userId });
  const [report] = await db.select({ uuid: reports.uuid }).from(reports).where(eq(reports.id, created!.reportId));
  await auditChange(db, actorOf(principal), {
    type: 'report',
    id: report!.uuid,
    change: 'created',
    marketId: period.market_id,
    after: { company_id: input.company_id, period_uuid: input.period_uuid, status: created!.to },
  });
  return findReport(db, principal, report!.uuid);
}

/**
 * Where users ask for a status (docs/architecture.md §5): submit (40) by the company's reporter, send back (50)
 * or approve (60) by an approver of the market. The change itself is the workflow's.
 */
export async function changeReportStatus(db: Db, principal: Principal, uuid: string, input: { status: number; comment?: string | null }): Promise<Report> {
  const row = await findReportRow(db, principal, uuid);
  const event = REQUESTABLE_STATUS_EVENTS[input.status];
  if (!event) throw validationError('status', 'report_status.invalid');
  const mayAct = event === 'submit' ? await reportsFor(db, principal, row) : mayIn(principal, 'approve-reports', row.market.id);
  assertReportEvent({ status: row.status, periodStatus: row.period.status }, event, mayAct);
  if (event === 'submit') {
    const preflight = await runPreflight(db, row.id);
    if (preflight.severity >= PreflightSeverity.Error) throw new AppError('conflict', 'report.preflight_has_errors');
  }
  await applyReportEvent(db, { event, reportId: row.id, actor: principal.userId, by: actorOf(principal), mayAct, comment: input.comment });
  return findReport(db, principal, uuid);
}

/**
 * The reporter takes a submitted report back to correct it, until it is approved: it goes back to
 * the status it was submitted from, with the reason in its history; the approvers already told of
 * the submission are told (docs/architecture.md §5).
 */
export async function withdrawReport(db: Db, principal: Principal, uuid: string, input: { comment?: string | null }): Promise<Report> {
  const row = await findReportRow(db, principal, uuid);
  const mayAct = await reportsFor(db, principal, row);
  assertReportEvent({ status: row.status, periodStatus: row.period.status }, 'withdraw', mayAct);
  await applyReportEvent(db, { event: 'withdraw', reportId: row.id, actor: principal.userId, by: actorOf(principal), mayAct, comment: input.comment });
  return findReport(db, principal, uuid);
}

/**
 * An approver undoes an approval: the report waits for approval again and leaves the statistics.
 * A published period is published again without it (`republish`, which the dialog asks for; 409
 * without), right after the change commits: the pattern takes a while to decide. Should that
 * publishing fail, the change stands and the period list shows the period as changed since its
 * publication, to be published again.
 */
export async function unapproveReport(db: Db, principal: Principal, uuid: string, input: { comment?: string | null; republish?: boolean }): Promise<Report> {
  const row = await findReportRow(db, principal, uuid);
  const mayAct = mayIn(principal, 'approve-reports', row.market.id);
  assertReportEvent({ status: row.status, periodStatus: row.period.status }, 'unapprove', mayAct);
  await applyReportEvent(db, {
    event: 'unapprove',
    reportId: row.id,
    actor: principal.userId,
    by: actorOf(principal),
    mayAct,
    comment: input.comment,
    republish: input.republish,
  });
  const [period] = await db.select({ published_at: periods.published_at }).from(periods).where(eq(periods.id, row.period.id));
  if (period?.published_at) await publishPeriod(db, row.period.id, { actorId: principal.userId, mark: true });
  return findReport(db, principal, uuid);
}

/** Starts the report from the same company's report of the previous period. */
export async function copyPreviousReport(db: Db, principal: Principal, uuid: string): Promise<Report> {
  const row = await findReportRow(db, principal, uuid);
  const mayAct = await reportsFor(db, principal, row);
  assertReportEvent({ status: row.status, periodStatus: row.period.status }, 'copy_previous', mayAct);
  const previous = await findPreviousReport(db, row.id);
  if (!previous.reportId) {
    throw new AppError('validation', 'period.no_previous_report', { previous_period_title: previous.periodTitle ?? '-' });
  }
  const previousReportId = previous.reportId;
  await db.transaction(async (tx) => {
    const rowSetId = await createRowSet(tx, row.id);
    await copyCurrentRows(tx, previousReportId, row.id, rowSetId);
    // A report whose last file was invalid has rows again: back to where that upload came from.
    const [last] = await tx
      .select({ before: imports.report_status_before })
      .from(imports)
      .where(eq(imports.report_id, row.id))
      .orderBy(desc(imports.id))
      .limit(1);
    await applyReportEvent(tx, { event: 'copy_previous', reportId: row.id, actor: principal.userId, by: actorOf(principal), mayAct, before: last?.before });
    // The copy becomes the report's rows.
    await tx
      .update(reports)
      .set({ row_set_id: rowSetId, updated_at: sql`now()` })
      .where(eq(reports.id, row.id));
  });
  await deleteStaleRowSets(db, row.id);
  await runPreflight(db, row.id);
  return findReport(db, principal, uuid);
}

/**
 * The latest preflight, or (rerun) a new one. Running it writes a result, so it is for those who
 * work on the report: its company's reporter and the market's approvers. Those who only follow
 * the company's reports (company role) read it.
 */
export async function findReportPreflight(db: Db, principal: Principal, uuid: string, rerun: boolean) {
  const row = await findReportRow(db, principal, uuid);
  if (!rerun) return latestPreflight(db, row.id, principal.locale);
  authorize(mayIn(principal, 'approve-reports', row.market.id) || (await reportsFor(db, principal, row)), 'report_status.no_access');
  return runPreflight(db, row.id, principal.locale);
}
