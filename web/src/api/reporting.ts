import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { Import, ImportDetail, Period, PeriodInput, PeriodStatus, Preflight, Report, ReportSummary } from '@mss/contracts/reports';
import { http, type ApiBody } from './http.ts';
import { buildUrl } from './transport.ts';

/**
 * The reporting API (issue 4): periods, reports, imports. Query keys start with 'periods',
 * 'reports' or 'imports'; every mutation invalidates all three (a period change creates
 * reports, an import changes its report, a status change moves lists and counts).
 */

export type PeriodAction = 'open' | 'close' | 'publish' | 'unpublish';
export interface ReportListFilter {
  period_uuid?: string;
  company_id?: number;
  market_id?: number;
  status?: number[];
  period_status?: PeriodStatus;
}
export interface BulkStatusResult {
  changed: string[];
  refused: { uuid: string; message: string }[];
}

export const reportingKeys = {
  periods: ['periods'] as const,
  periodList: (filter: { market_id?: number; cluster?: boolean }) => ['periods', 'list', filter] as const,
  period: (uuid: string) => ['periods', 'detail', uuid] as const,
  approvalList: (uuid: string) => ['periods', 'approval-list', uuid] as const,
  reports: ['reports'] as const,
  reportList: (filter: ReportListFilter) => ['reports', 'list', filter] as const,
  report: (uuid: string) => ['reports', 'detail', uuid] as const,
  imports: ['imports'] as const,
  importList: (reportUuid?: string) => ['imports', 'list', reportUuid ?? null] as const,
  import: (uuid: string) => ['imports', 'detail', uuid] as const,
};

const data = <T>(body: ApiBody<T>) => body.data;

export const reportingApi = {
  periods: (filter: { market_id?: number; cluster?: boolean }) =>
    http.get<ApiBody<Period[]>>('periods', { query: { market_id: filter.market_id, cluster: filter.cluster ? 1 : undefined } }).then(data),
  period: (uuid: string) => http.get<ApiBody<Period>>(`periods/${uuid}`).then(data),
  createPeriod: (input: PeriodInput) => http.post<ApiBody<Period>>('periods', input).then(data),
  changePeriod: ({ uuid, action }: { uuid: string; action: PeriodAction }) => http.post<ApiBody<Period>>(`periods/${uuid}/${action}`).then(data),
  approvalList: (uuid: string) => http.get<ApiBody<ReportSummary[]>>(`periods/${uuid}/approval-list`).then(data),
  reports: (filter: ReportListFilter) => http.get<ApiBody<ReportSummary[]>>('reports', { query: { ...filter } }).then(data),
  report: (uuid: string) => http.get<ApiBody<Report>>(`reports/${uuid}`).then(data),
  changeStatus: ({ uuid, status, comment }: { uuid: string; status: number; comment?: string | null }) =>
    http.post<ApiBody<Report>>(`reports/${uuid}/status`, { status, comment: comment || null }).then(data),
  bulkStatus: (input: { uuids: string[]; status: number; comment?: string | null }) => http.post<ApiBody<BulkStatusResult>>('reports/bulk-status', input).then(data),
  copyPrevious: (uuid: string) => http.post<ApiBody<Report>>(`reports/${uuid}/copy-previous`).then(data),
  runPreflight: (uuid: string) => http.post<ApiBody<Preflight | null>>(`reports/${uuid}/preflight`).then(data),
  imports: (reportUuid?: string) => http.get<ApiBody<Import[]>>('imports', { query: { report_uuid: reportUuid } }).then(data),
  import: (uuid: string) => http.get<ApiBody<ImportDetail>>(`imports/${uuid}`).then(data),
};

/** Download addresses: plain links (GET with the session cookie). */
export const downloads = {
  template: (reportUuid: string) => buildUrl(`reports/${reportUuid}/template`),
  importFile: (importUuid: string) => buildUrl(`imports/${importUuid}/file`),
  errorSheet: (importUuid: string) => buildUrl(`imports/${importUuid}/errors`),
};

/** An import still runs while queued or processing; the screen polls it until then. */
export const IMPORT_POLL_MS = 1000;
export const importRunning = (status: ImportDetail['status'] | undefined) => status === 'queued' || status === 'processing';

export const reportingQueries = {
  periods: (filter: { market_id?: number; cluster?: boolean }) =>
    queryOptions({ queryKey: reportingKeys.periodList(filter), queryFn: () => reportingApi.periods(filter) }),
  period: (uuid: string) => queryOptions({ queryKey: reportingKeys.period(uuid), queryFn: () => reportingApi.period(uuid) }),
  approvalList: (uuid: string) => queryOptions({ queryKey: reportingKeys.approvalList(uuid), queryFn: () => reportingApi.approvalList(uuid) }),
  reports: (filter: ReportListFilter) => queryOptions({ queryKey: reportingKeys.reportList(filter), queryFn: () => reportingApi.reports(filter) }),
  report: (uuid: string) => queryOptions({ queryKey: reportingKeys.report(uuid), queryFn: () => reportingApi.report(uuid), staleTime: 0 }),
  imports: (reportUuid?: string) => queryOptions({ queryKey: reportingKeys.importList(reportUuid), queryFn: () => reportingApi.imports(reportUuid), staleTime: 0 }),
  /** Polled every second while the import runs (refetchInterval), then left alone. */
  import: (uuid: string) =>
    queryOptions({
      queryKey: reportingKeys.import(uuid),
      queryFn: () => reportingApi.import(uuid),
      staleTime: 0,
      refetchInterval: (query) => (importRunning(query.state.data?.status) ? IMPORT_POLL_MS : false),
    }),
};

export function useInvalidateReporting() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: reportingKeys.periods }),
      client.invalidateQueries({ queryKey: reportingKeys.reports }),
      client.invalidateQueries({ queryKey: reportingKeys.imports }),
    ]);
}

/** A reporting mutation: shows its own errors (the caller decides how), refreshes lists after. */
export function useReportingMutation<V, R>(mutationFn: (variables: V) => Promise<R>) {
  const invalidate = useInvalidateReporting();
  return useMutation({ mutationFn, onSettled: () => invalidate(), meta: { handlesErrors: true } });
}
