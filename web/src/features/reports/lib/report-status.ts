import { type AbilitySubject, canInMarket } from '@mss/contracts/abilities';
import { PreflightSeverity, ReportStatus } from '@mss/contracts/enums';
import { REQUESTABLE_STATUS_EVENTS, canUploadInStatus, nextReportStatus } from '@mss/contracts/report-workflow';

/** What a screen needs of a report to decide its buttons. */
export interface ReportLike {
  status: number;
  market: { id: number };
  period: { status: string };
}

export interface ReportActions {
  /** Upload a file, copy from the previous period. */
  upload: boolean;
  submit: boolean;
  /** Take a submission back to correct it (the reporter, until it is approved). */
  withdraw: boolean;
  sendBack: boolean;
  approve: boolean;
  /** Undo an approval (an approver; in a published period it is published again). */
  unapprove: boolean;
}

/** The status a user asks for to perform an event (POST /reports/{uuid}/status). */
export function statusFor(event: 'submit' | 'send_back' | 'approve'): number {
  const entry = Object.entries(REQUESTABLE_STATUS_EVENTS).find(([, e]) => e === event);
  return Number(entry![0]);
}

/**
 * The actions the status machine allows in the report's status, for a user holding the
 * ability in the report's market, while the period is open (a closed period refuses all).
 * The server decides in the end; this only avoids offering what it would refuse.
 */
export function reportActions(report: ReportLike, subject: AbilitySubject): ReportActions {
  const open = report.period.status === 'open';
  const reporter = open && canInMarket(subject, 'upload-reports', report.market.id);
  const approver = open && canInMarket(subject, 'approve-reports', report.market.id);
  return {
    upload: reporter && canUploadInStatus(report.status),
    submit: reporter && nextReportStatus(report.status, 'submit') !== null,
    withdraw: reporter && nextReportStatus(report.status, 'withdraw') !== null,
    sendBack: approver && nextReportStatus(report.status, 'send_back') !== null,
    approve: approver && nextReportStatus(report.status, 'approve') !== null,
    unapprove: approver && nextReportStatus(report.status, 'unapprove') !== null,
  };
}

/** The report is being processed (a file or its rows): the screen keeps polling it. */
export const reportProcessing = (status: number) => status === ReportStatus.ProcessingFile || status === ReportStatus.ProcessingData;

/** Statuses in which a reporter still has work to do (dashboard). */
export const OPEN_REPORT_STATUSES: number[] = [ReportStatus.Ongoing, ReportStatus.InvalidFile, ReportStatus.WaitingForCompletion];

export function reportStatusColor(status: number): string {
  switch (status) {
    case ReportStatus.Approved:
      return 'teal';
    case ReportStatus.WaitingForApproval:
      return 'blue';
    case ReportStatus.InvalidFile:
      return 'red';
    case ReportStatus.WaitingForCompletion:
      return 'orange';
    case ReportStatus.ProcessingFile:
    case ReportStatus.ProcessingData:
      return 'violet';
    default:
      return 'gray';
  }
}

export function severityColor(severity: number | null | undefined): string {
  switch (severity) {
    case PreflightSeverity.Error:
      return 'red';
    case PreflightSeverity.Warning:
      return 'yellow';
    case PreflightSeverity.Info:
      return 'blue';
    case PreflightSeverity.Success:
      return 'teal';
    default:
      return 'gray';
  }
}
