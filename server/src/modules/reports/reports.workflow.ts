import { audit, type AuditActor } from '../../audit/audit.ts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { PgTransaction } from 'drizzle-orm/pg-core';
import { ReportStatus } from '@mss/contracts/enums';
import type { MessageKey } from '@mss/contracts/messages';
import { nextReportStatus, type ReportEvent, type ReportEventRefusal, reportEventRefusal } from '@mss/contracts/reports';
import type { Executor } from '../../db/client.ts';
import { sqlArray } from '../../db/sql-array.ts';
import { auditEntries, markets, periods, reports, reportStatusChanges, users } from '../../db/schema.ts';
import { AppError, type ErrorCode } from '../../errors.ts';
import { addApprovedReport, removeApprovedReport } from '../statistics/figures/statistics.cells.ts';
import { type NotificationKind, recordWorkflowNotifications } from '../communications/notifications.ts';

/** The events the people concerned are mailed about (workflow notifications). */
const NOTIFIED_EVENTS: Partial<Record<ReportEvent, NotificationKind>> = {
  submit: 'submitted',
  withdraw: 'withdrawn',
  send_back: 'sent_back',
  approve: 'approved',
  unapprove: 'unapproved',
};

/*
 * The report workflow (docs/architecture.md §5): the ONLY code that writes `reports.status` or records a status
 * change (reports.workflow.test.ts checks the server's sources for any other). Persons (through
 * the reports, imports and periods services), the import job and "copy from previous period"
 * all come here.
 *
 * Guards, in one fixed order (reportEventRefusal in the contracts):
 *   0. (in the service) the report or period is visible to the actor: 404; a status a user may
 *      ask for: 422 "Invalid status."
 *   1. access (403), decided by the service that knows the person and passed as `mayAct`
 *   2. period closed (409)          3. already approved (409)
 *   4. the transition table (409, the event's own message)
 * A service checks them with `assertReportEvent` before its slow or irreversible work (reading
 * an upload, running the preflight), and `applyReportEvent` checks them again on the locked row,
 * so the answer to a request that lost a race is the message of the state it lost to.
 */

const REFUSAL_CODE: Record<ReportEventRefusal, ErrorCode> = {
  'report_status.no_access': 'forbidden',
  'report_status.period_closed': 'conflict',
  'report_status.already_approved': 'conflict',
  'report.exists': 'conflict',
  'report.upload_not_allowed': 'conflict',
  'report.invalid_status_for_action': 'conflict',
};

// Every refusal is a catalogue message (a compile-time check).
const _refusalsAreMessages: ReportEventRefusal extends MessageKey ? true : never = true;
void _refusalsAreMessages;

/** Throws the guards' first refusal (403 or 409), in the fixed order above. */
export function assertReportEvent(state: { status: number | null; periodStatus: string }, event: ReportEvent, mayAct = true): void {
  const refusal = reportEventRefusal(state, event, mayAct);
  if (refusal) throw new AppError(REFUSAL_CODE[refusal], refusal);
}

export interface ReportTransition {
  reportId: number;
  from: ReportStatus | null;
  to: ReportStatus;
}

interface ChangeInput {
  event: Exclude<ReportEvent, 'create'>;
  reportId: number;
  /** The person who asked, or null for the import job. */
  actor: number | null;
  /** Who asked, as the audit trail tells it (session, address); by default the actor alone. */
  by?: AuditActor;
  /** Whether that person may do this to this report (1st guard); the job passes nothing. */
  mayAct?: boolean;
  comment?: string | null;
  /** The status the report had when its last file was uploaded, for `rows_stored` and `copy_previous` from 11. */
  before?: number | null;
  /** For `unapprove` in a published period: the caller publishes it again after (else 409). */
  republish?: boolean;
}

interface CreateInput {
  event: 'create';
  /** The reports to create: one per company, in the period. */
  create: { periodId: number; companyIds: number[] };
  actor: number | null;
  mayAct?: boolean;
}

/**
 * Applies one workflow event, in a transaction of its own (a savepoint inside the caller's, so
 * that the caller's writes and the status change commit together):
 * - `create`: locks the period row, refuses companies that already have a report there, inserts
 *   the reports (20) and their first history rows;
 * - any other event: locks the report row (`select … for update`: of two concurrent requests the
 *   second waits and is judged on the state the first left) and shares its period's (a close
 *   waits for the change, a change after the close is refused), checks the guards on it, writes the
 *   new status (with `submitted_at`/`approved_at` for submit and approve) and the history row
 *   (actor or null, from, to, comment). An event that leaves the status as it is (copy from the
 *   previous period in 20 or 50) writes nothing: nothing changed.
 */
export async function applyReportEvent(db: Executor, input: CreateInput): Promise<ReportTransition[]>;
export async function applyReportEvent(db: Executor, input: ChangeInput): Promise<ReportTransition & { from: ReportStatus }>;
export async function applyReportEvent(db: Executor, input: CreateInput | ChangeInput): Promise<ReportTransition | ReportTransition[]> {
  const run = (tx: Executor): Promise<ReportTransition | ReportTransition[]> => (input.event === 'create' ? createReports(tx, input) : changeStatus(tx, input));
  // In the caller's transaction as it is: no savepoint (none of the callers goes on after a
  // refused step; its error ends their transaction). Two statements fewer per step of an import.
  return db instanceof PgTransaction ? run(db) : db.transaction(run);
}

async function createReports(tx: Executor, input: CreateInput): Promise<ReportTransition[]> {
  const { periodId, companyIds } = input.create;
  const [period] = await tx.select({ status: periods.status }).from(periods).where(eq(periods.id, periodId)).for('update');
  if (!period) throw new AppError('not_found', 'generic.not_found');
  if (companyIds.length === 0) {
    assertReportEvent({ status: null, periodStatus: period.status }, 'create', input.mayAct);
    return [];
  }
  const existing = await tx
    .select({ status: reports.status })
    .from(reports)
    .where(and(eq(reports.period_id, periodId), inArray(reports.company_id, companyIds)))
    .limit(1);
  assertReportEvent({ status: existing[0]?.status ?? null, periodStatus: period.status }, 'create', input.mayAct);
  const to = nextReportStatus(null, 'create')!;
  const created = await tx
    .insert(reports)
    .values(companyIds.map((company_id) => ({ period_id: periodId, company_id, status: to })))
    .returning({ id: reports.id });
  await tx
    .insert(reportStatusChanges)
    .values(created.map((r) => ({ report_id: r.id, user_id: input.actor, from_status: null, to_status: to, event: 'create', comment: null })));
  return created.map((r) => ({ reportId: r.id, from: null, to }));
}

async function changeStatus(tx: Executor, input: ChangeInput): Promise<ReportTransition & { from: ReportStatus }> {
  // The report locked for the change; its period shared: changes of the period's reports run side
  // by side, closing the period waits for them. One statement (a deadline makes thousands).
  const {
    rows: [report],
  } = await tx.execute<{
    uuid: string;
    market_id: number;
    company_id: number;
    status: number;
    period_status: string;
    published: boolean;
    submitted_from: number | null;
  }>(sql`
    select r.uuid, p.market_id, r.company_id, r.status, p.status as period_status, p.published_at is not null as published,
      ${
        input.event === 'withdraw'
          ? // The last submission's origin (20 or 50); an undone approval also leads into 40, from 60.
            sql`(select c.from_status from ${reportStatusChanges} c where c.report_id = r.id and c.to_status = ${ReportStatus.WaitingForApproval}
              and c.from_status in (${ReportStatus.Ongoing}, ${ReportStatus.WaitingForCompletion}) order by c.id desc limit 1)`
          : sql`null::int`
      } as submitted_from
    from ${reports} r join ${periods} p on p.id = r.period_id
    where r.id = ${input.reportId} for update of r for share of p`);
  if (!report) throw new AppError('not_found', 'generic.not_found');
  assertReportEvent({ status: report.status, periodStatus: report.period_status }, input.event, input.mayAct);
  // Viewers read a published period's publication, which counts this report: undoing the approval
  // is only done together with publishing the period again (the caller does, after this commits).
  if (input.event === 'unapprove' && report.published && !input.republish) throw new AppError('conflict', 'report.unapprove_needs_republication');
  const from = report.status as ReportStatus;
  const to = nextReportStatus(from, input.event, input.event === 'withdraw' ? report.submitted_from : input.before)!;
  if (to === from) return { reportId: input.reportId, from, to };
  // The new status and its history row, in one statement.
  await tx.execute(sql`
    with changed as (
      update ${reports} set status = ${to}, updated_at = now()
        ${input.event === 'submit' ? sql`, submitted_at = now()` : sql``}
        ${input.event === 'withdraw' ? sql`, submitted_at = null` : sql``}
        ${input.event === 'approve' ? sql`, approved_at = now()` : sql``}
        ${input.event === 'unapprove' ? sql`, approved_at = null` : sql``}
      where id = ${input.reportId}
      returning id
    )
    insert into ${reportStatusChanges} (report_id, user_id, from_status, to_status, event, comment)
    select id, ${input.actor}::int, ${from}::int, ${to}::int, ${input.event}::text, ${input.comment ?? null}::text from changed`);
  // The statistics count approved reports: the period's cells grow with it, in this transaction,
  // or are built again without it on the next read.
  await audit(tx, {
    action: 'report.status_changed',
    actor: input.by ?? { userId: input.actor, organizationId: null },
    marketId: report.market_id,
    record: { type: 'report', id: report.uuid },
    before: { status: from },
    after: { status: to },
    details: { event: input.event, company_id: report.company_id, ...(input.comment ? { comment: input.comment } : {}) },
  });
  if (to === ReportStatus.Approved) await addApprovedReport(tx, input.reportId);
  if (from === ReportStatus.Approved) await removeApprovedReport(tx, input.reportId);
  // Who is told (mailed later by the job process; nothing if this rolls back).
  const kind = NOTIFIED_EVENTS[input.event];
  if (kind) await recordWorkflowNotifications(tx, { reportId: input.reportId, kind, actor: input.actor, comment: input.comment });
  return { reportId: input.reportId, from, to };
}

/**
 * A history import's reports of one period (docs/decisions.md "History import"), in the caller's
 * transaction: the companies without a report there get one, approved; the others are approved
 * whatever their status (their rows are being replaced by the association's). Each gets one
 * history row by the administrator who ran the import, with `comment`. No notifications: nobody
 * acts on a history. The caller writes the rows and drops the period's stored cells (an approved
 * report's rows change here, which `addApprovedReport` does not cover).
 * Returns each company's report id.
 */
export async function applyHistoryReports(
  tx: Executor,
  input: { periodId: number; companyIds: readonly number[]; actor: number; comment: string },
): Promise<Map<number, number>> {
  const to = ReportStatus.Approved;
  const { rows } = await tx.execute<{ id: number; company_id: number }>(sql`
    with existing as (
      select id, company_id, status from ${reports}
      where period_id = ${input.periodId} and company_id = any(${sqlArray(input.companyIds, 'int')})
      for update
    ), created as (
      insert into ${reports} (period_id, company_id, status, approved_at)
      select ${input.periodId}, c.id, ${to}, now() from unnest(${sqlArray(input.companyIds, 'int')}) as c(id)
      where not exists (select 1 from existing e where e.company_id = c.id)
      returning id, company_id, uuid, null::int as status
    ), changed as (
      update ${reports} r set status = ${to}, approved_at = now(), updated_at = now()
      from existing e where r.id = e.id
      returning r.id, r.company_id, r.uuid, e.status
    ), history as (
      insert into ${reportStatusChanges} (report_id, user_id, from_status, to_status, event, comment)
      select id, ${input.actor}::int, status, ${to}::int, 'history_import', ${input.comment}::text from (select * from created union all select * from changed) x
    ), audited as (
      -- The audit trail's status change of each (docs/decisions.md "Audit trail"), by the administrator who ran the import.
      insert into ${auditEntries} (organization_id, user_id, email, action, record_type, record_id, before, after, details)
      select (select m.organization_id from ${periods} p join ${markets} m on m.id = p.market_id where p.id = ${input.periodId}),
        ${input.actor}::int, (select email from ${users} where id = ${input.actor}), 'report.status_changed', 'report', x.uuid::text,
        jsonb_build_object('status', x.status), jsonb_build_object('status', ${to}::int),
        jsonb_build_object('event', 'history_import', 'company_id', x.company_id, 'comment', ${input.comment}::text)
      from (select * from created union all select * from changed) x
    )
    select id, company_id from created union all select id, company_id from changed`);
  return new Map(rows.map((r) => [r.company_id, r.id]));
}
