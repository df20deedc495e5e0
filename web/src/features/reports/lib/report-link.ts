import { ReportStatus } from '@mss/contracts/enums';
import type { ReportSummary } from '@mss/contracts/reports';

/**
 * Where a report's "Open" leads: its upload screen while its company's user can still work on it
 * (not yet approved, the period open), else its figures. An open report's statistics would only
 * say that the period is not yet published, with no way to the upload.
 */
export function reportLink(report: ReportSummary, ownCompanyUploader: boolean): string {
  const workable = report.status !== ReportStatus.Approved && report.period.status === 'open';
  return ownCompanyUploader && workable
    ? `/import/${report.uuid}`
    : `/report-statistics/${report.company.id}/${report.market.id}/${report.period.uuid}/${report.uuid}`;
}
