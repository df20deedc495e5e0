import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { PeriodStatus } from '@mss/contracts/periods';

import { api, data } from '../../../api/client.ts';
import { REPORTS_ROOT } from '../../../api/reporting.ts';
import { buildUrl } from '../../../api/transport.ts';
import type { ListParams } from '../../../api/resource.ts';

export type ReportHistoryParams = Omit<ListParams, 'organization_id'> & { market_id: number; company_id?: number };

/** Reports: keys start with REPORTS_ROOT ('reports'), which every reporting mutation invalidates (api/reporting.ts). */

export interface ReportListFilter {
  period_uuid?: string;
  company_id?: number;
  market_id?: number;
  status?: number[];
  period_status?: PeriodStatus;
}

export const reportKeys = {
  reports: REPORTS_ROOT,
  reportList: (filter: ReportListFilter) => [...REPORTS_ROOT, 'list', filter] as const,
  history: (params: ReportHistoryParams) => [...REPORTS_ROOT, 'history', params] as const,
  report: (uuid: string) => [...REPORTS_ROOT, 'detail', uuid] as const,
};

export const reportsApi = {
  reports: (filter: ReportListFilter) => api.get('/reports', { query: filter }).then(data),
  report: (uuid: string) => api.get('/reports/{uuid}', { path: { uuid } }).then(data),
  history: (params: ReportHistoryParams) => api.get('/report-history', { query: params }),
  changeStatus: ({ uuid, status, comment }: { uuid: string; status: number; comment?: string | null }) =>
    api.post('/reports/{uuid}/status', { path: { uuid }, body: { status, comment: comment || null } }).then(data),
  withdraw: ({ uuid, comment }: { uuid: string; comment?: string | null }) =>
    api.post('/reports/{uuid}/withdraw', { path: { uuid }, body: { comment: comment || null } }).then(data),
  unapprove: ({ uuid, comment, republish }: { uuid: string; comment?: string | null; republish: boolean }) =>
    api.post('/reports/{uuid}/unapprove', { path: { uuid }, body: { comment: comment || null, republish } }).then(data),
  copyPrevious: (uuid: string) => api.post('/reports/{uuid}/copy-previous', { path: { uuid } }).then(data),
  /** What a copy would bring, asked for before the screen asks the user. */
  copyPreview: (uuid: string) => api.get('/reports/{uuid}/copy-previous', { path: { uuid } }).then(data),
  runPreflight: (uuid: string) => api.post('/reports/{uuid}/preflight', { path: { uuid } }).then(data),
};

/** Download addresses: plain links (GET with the session cookie). */
export const reportDownloads = {
  template: (reportUuid: string, format: 'xlsx' | 'csv' = 'xlsx') => buildUrl(`reports/${reportUuid}/template`, format === 'csv' ? { query: { format } } : {}),
};

export const reportQueries = {
  reports: (filter: ReportListFilter) => queryOptions({ queryKey: reportKeys.reportList(filter), queryFn: () => reportsApi.reports(filter) }),
  report: (uuid: string) => queryOptions({ queryKey: reportKeys.report(uuid), queryFn: () => reportsApi.report(uuid), staleTime: 0 }),
  /** A page of one market's report history. */
  history: (params: ReportHistoryParams) =>
    queryOptions({ queryKey: reportKeys.history(params), queryFn: () => reportsApi.history(params), placeholderData: keepPreviousData }),
};
