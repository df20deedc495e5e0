import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { PeriodStatus } from '@mss/contracts/periods';
import type { Preflight } from '@mss/contracts/preflight';
import type { CopyPreview, Report, ReportSummary } from '@mss/contracts/reports';
import { http, type ApiBody } from './http.ts';
import { buildUrl } from './transport.ts';
import type { ListParams, Page } from './resource.ts';

export type ReportHistoryParams = Omit<ListParams, 'organization_id'> & { market_id: number; company_id?: number };

/** Reports: keys start with 'reports'; reporting mutations invalidate them (./reporting.ts). */

export interface ReportListFilter {
  period_uuid?: string;
  company_id?: number;
  market_id?: number;
  status?: number[];
  period_status?: PeriodStatus;
}

export const reportKeys = {
  reports: ['reports'] as const,
  reportList: (filter: ReportListFilter) => ['reports', 'list', filter] as const,
  history: (params: ReportHistoryParams) => ['reports', 'history', params] as const,
  report: (uuid: string) => ['reports', 'detail', uuid] as const,
};

const data = <T>(body: ApiBody<T>) => body.data;

export const reportsApi = {
  reports: (filter: ReportListFilter) => http.get<ApiBody<ReportSummary[]>>('reports', { query: { ...filter } }).then(data),
  report: (uuid: string) => http.get<ApiBody<Report>>(`reports/${uuid}`).then(data),
  history: (params: ReportHistoryParams) => http.get<Page<ReportSummary>>('report-history', { query: { ...params } }),
  changeStatus: ({ uuid, status, comment }: { uuid: string; status: number; comment?: string | null }) =>
    http.post<ApiBody<Report>>(`reports/${uuid}/status`, { status, comment: comment || null }).then(data),
  withdraw: ({ uuid, comment }: { uuid: string; comment?: string | null }) =>
    http.post<ApiBody<Report>>(`reports/${uuid}/withdraw`, { comment: comment || null }).then(data),
  unapprove: ({ uuid, comment, republish }: { uuid: string; comment?: string | null; republish: boolean }) =>
    http.post<ApiBody<Report>>(`reports/${uuid}/unapprove`, { comment: comment || null, republish }).then(data),
  copyPrevious: (uuid: string) => http.post<ApiBody<Report>>(`reports/${uuid}/copy-previous`).then(data),
  /** What a copy would bring, asked for before the screen asks the user. */
  copyPreview: (uuid: string) => http.get<ApiBody<CopyPreview>>(`reports/${uuid}/copy-previous`).then(data),
  runPreflight: (uuid: string) => http.post<ApiBody<Preflight | null>>(`reports/${uuid}/preflight`).then(data),
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
