import { queryOptions } from '@tanstack/react-query';
import type { BulkStatusInput } from '@mss/contracts/approvals';
import { api, data } from '../../../api/client.ts';
import { APPROVALS_ROOT } from '../../../api/reporting.ts';

/** Approving: a period's list of reports, and bulk status changes. Keys start with APPROVALS_ROOT ('approvals'), which every reporting mutation invalidates (api/reporting.ts). */

export const approvalKeys = {
  approvals: APPROVALS_ROOT,
  approvalList: (periodUuid: string) => [...APPROVALS_ROOT, 'list', periodUuid] as const,
};

export const approvalsApi = {
  approvalList: (periodUuid: string) => api.get('/periods/{uuid}/approval-list', { path: { uuid: periodUuid } }).then(data),
  bulkStatus: (input: BulkStatusInput) => api.post('/reports/bulk-status', { body: input }).then(data),
};

export const approvalQueries = {
  approvalList: (periodUuid: string) => queryOptions({ queryKey: approvalKeys.approvalList(periodUuid), queryFn: () => approvalsApi.approvalList(periodUuid) }),
};
