import { queryOptions } from '@tanstack/react-query';
import type { BulkStatusInput, BulkStatusResult } from '@mss/contracts/approvals';
import type { ReportSummary } from '@mss/contracts/reports';
import { http, type ApiBody } from './http.ts';

/** Approving: a period's list of reports, and bulk status changes. Keys start with 'approvals'. */

export const approvalKeys = {
  approvals: ['approvals'] as const,
  approvalList: (periodUuid: string) => ['approvals', 'list', periodUuid] as const,
};

const data = <T>(body: ApiBody<T>) => body.data;

export const approvalsApi = {
  approvalList: (periodUuid: string) => http.get<ApiBody<ReportSummary[]>>(`periods/${periodUuid}/approval-list`).then(data),
  bulkStatus: (input: BulkStatusInput) => http.post<ApiBody<BulkStatusResult>>('reports/bulk-status', input).then(data),
};

export const approvalQueries = {
  approvalList: (periodUuid: string) => queryOptions({ queryKey: approvalKeys.approvalList(periodUuid), queryFn: () => approvalsApi.approvalList(periodUuid) }),
};
