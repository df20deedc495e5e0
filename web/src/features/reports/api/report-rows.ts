import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ReportRowsPage } from '@mss/contracts/reports';
import { api } from '../../../api/client.ts';
import { reportKeys } from './reports.ts';

/**
 * GET /reports/{uuid}/rows: a page of a report's rows, searched, sorted and filtered by the server
 * (the report itself carries only its row count and totals), each beside the same company's
 * previous period and same period last year; `comparison` names those periods. The keys sit under the report's key,
 * ['reports', 'detail', uuid, 'rows', query], so whatever invalidates the report (an import
 * done, a copy from the previous period, any reporting mutation) refetches its rows too.
 */

export interface ReportRowsQuery {
  page: number;
  per_page: number;
  /** Sent only when longer than 2 characters (the table decides). */
  search?: string;
  /** volume_change, value_change: by the size of the change against the previous period. */
  sort?: 'code' | 'name' | 'volume' | 'value' | 'volume_change' | 'value_change';
  direction?: 'asc' | 'desc';
  /** '1': only the rows that deviate from the previous period by more than the organization's setting. */
  deviating?: '1';
}

export type { ReportRowsPage };

export const reportRowsKeys = {
  all: (reportUuid: string) => [...reportKeys.report(reportUuid), 'rows'] as const,
  page: (reportUuid: string, query: ReportRowsQuery) => [...reportKeys.report(reportUuid), 'rows', query] as const,
};

export const fetchReportRows = (reportUuid: string, query: ReportRowsQuery) =>
  api.get('/reports/{uuid}/rows', { path: { uuid: reportUuid }, query: { ...query } });

export const reportRowsQuery = (reportUuid: string, query: ReportRowsQuery) =>
  queryOptions({
    queryKey: reportRowsKeys.page(reportUuid, query),
    queryFn: () => fetchReportRows(reportUuid, query),
    staleTime: 0,
    // The page shown stays while the next one (or the next search) loads.
    placeholderData: keepPreviousData,
  });

export function useReportRows(reportUuid: string, query: ReportRowsQuery, options: { enabled?: boolean } = {}) {
  return useQuery({ ...reportRowsQuery(reportUuid, query), enabled: options.enabled ?? true, meta: { handlesErrors: true } });
}
