import { IMPORT_FINAL_STATUSES } from '@mss/contracts/lifecycles';
import { keepPreviousData, queryOptions, useQueryClient } from '@tanstack/react-query';
import type { ImportDetail } from '@mss/contracts/imports';
import { api, data } from '../../../api/client.ts';
import { IMPORTS_ROOT } from '../../../api/reporting.ts';
import type { ListParams } from '../../../api/resource.ts';
import { buildUrl } from '../../../api/transport.ts';
import { reportKeys } from '../../reports/index.ts';

/** Imports: keys start with IMPORTS_ROOT, which every reporting mutation invalidates (api/reporting.ts). */

export type ImportListParams = Omit<ListParams, 'organization_id'> & { report_uuid?: string };

export const importKeys = {
  imports: IMPORTS_ROOT,
  importList: (params: ImportListParams) => [...IMPORTS_ROOT, 'list', params] as const,
  import: (uuid: string) => [...IMPORTS_ROOT, 'detail', uuid] as const,
};

export const importsApi = {
  imports: (params: ImportListParams) => api.get('/imports', { query: { ...params } }),
  import: (uuid: string) => api.get('/imports/{uuid}', { path: { uuid } }).then(data),
};

/** Download addresses: plain links (GET with the session cookie). */
export const importDownloads = {
  importFile: (importUuid: string) => buildUrl(`imports/${importUuid}/file`),
  errorSheet: (importUuid: string) => buildUrl(`imports/${importUuid}/errors`),
  /** The uploaded file with a fill and a comment on each faulty cell. */
  markedFile: (importUuid: string) => buildUrl(`imports/${importUuid}/marked`),
};

/** An import still runs while queued or processing; the screen polls it until then. */
export const IMPORT_POLL_MS = 1000;
/** Not yet over: its lifecycle (contracts/lifecycles.ts) still leaves the status. */
export const importRunning = (status: ImportDetail['status'] | undefined) => status !== undefined && !IMPORT_FINAL_STATUSES.includes(status);

export const importQueries = {
  /** A page of the import history (of one report with `report_uuid`). */
  imports: (params: ImportListParams) =>
    queryOptions({ queryKey: importKeys.importList(params), queryFn: () => importsApi.imports(params), staleTime: 0, placeholderData: keepPreviousData }),
  /** Polled every second while the import runs (refetchInterval), then left alone. */
  import: (uuid: string) =>
    queryOptions({
      queryKey: importKeys.import(uuid),
      queryFn: () => importsApi.import(uuid),
      staleTime: 0,
      refetchInterval: (query) => (importRunning(query.state.data?.status) ? IMPORT_POLL_MS : false),
    }),
};

/**
 * The import screen's report and the imports fetched again: after a file is accepted, when its
 * import ends and after a preflight run. The report's key is the prefix of its rows' keys: its rows
 * are fetched again with it.
 */
export function useRefreshImportedReport(reportUuid: string) {
  const client = useQueryClient();
  return () => Promise.all([client.invalidateQueries({ queryKey: reportKeys.report(reportUuid) }), client.invalidateQueries({ queryKey: importKeys.imports })]);
}
