import { and, asc, eq, sql } from 'drizzle-orm';
import type { BulkStatusInput, BulkStatusResult } from '@mss/contracts/approvals';
import { translate } from '@mss/contracts/messages';
import type { ReportSummary } from '@mss/contracts/reports';
import type { Db } from '../../db/client.ts';
import { companies, reports } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { Principal } from '../../auth/principal.ts';
import { findPeriodRow } from '../periods/periods.queries.ts';
import { changeReportStatus, selectReports, toSummary } from '../reports/reports.service.ts';
import { authorize, mayIn } from '../../auth/policy.ts';

/** Every reporting company's report for the period (companies disabled by now are hidden). */
export async function findApprovalList(db: Db, principal: Principal, periodUuid: string): Promise<ReportSummary[]> {
  const period = await findPeriodRow(db, principal, periodUuid);
  authorize(mayIn(principal, 'approve-reports', period.market_id));
  const rows = await selectReports(db)
    .where(and(eq(reports.period_id, period.id), sql`(${companies.disabled_at} is null or ${companies.disabled_at} > now())`))
    .orderBy(asc(sql`lower(${companies.name})`));
  return rows.map(toSummary);
}

/**
 * Approve (or send back) several reports at once. Each goes through the one report workflow on
 * its own (reports.service changeReportStatus), so one refusal does not stop the others; the
 * refusals answer in the request's language.
 */
export async function changeReportStatuses(db: Db, principal: Principal, input: BulkStatusInput): Promise<BulkStatusResult> {
  const changed: BulkStatusResult['changed'] = [];
  const refused: BulkStatusResult['refused'] = [];
  for (const uuid of [...new Set(input.uuids)]) {
    try {
      await changeReportStatus(db, principal, uuid, input);
      changed.push(uuid);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      refused.push({ uuid, message: translate(error.messageKey, error.params, principal.locale) });
    }
  }
  return { changed, refused };
}
