import { queryOptions } from '@tanstack/react-query';
import { HISTORY_RUNNING, type HistoryImport, type HistoryImportDetail, type HistoryStatus } from '@mss/contracts/history';
import { http, type ApiBody } from '../../api/http.ts';
import { buildUrl } from '../../api/transport.ts';
import { uploadFile, type UploadOptions } from '../../api/upload.ts';

/** History imports (docs/decisions.md "History import"): an association's past in one file. */
export const historyKeys = {
  all: ['history-imports'] as const,
  list: ['history-imports', 'list'] as const,
  detail: (uuid: string) => ['history-imports', 'detail', uuid] as const,
};

const data = <T>(body: ApiBody<T>) => body.data;

export const historyRunning = (status: HistoryStatus | undefined) => status !== undefined && HISTORY_RUNNING.includes(status);
/** How often a running step is looked at. */
export const HISTORY_POLL_MS = 1000;

export const historyApi = {
  list: () => http.get<ApiBody<HistoryImport[]>>('history-imports').then(data),
  detail: (uuid: string) => http.get<ApiBody<HistoryImportDetail>>(`history-imports/${uuid}`).then(data),
  act: (uuid: string, action: 'import' | 'publish' | 'cancel') => http.post<ApiBody<HistoryImportDetail>>(`history-imports/${uuid}/${action}`).then(data),
  upload: (file: File, options: UploadOptions) => uploadFile('history-imports', file, options),
};

export const historyQueries = {
  list: () => queryOptions({ queryKey: historyKeys.list, queryFn: historyApi.list, staleTime: 0 }),
  /** Polled while a step runs, then left alone. */
  detail: (uuid: string) =>
    queryOptions({
      queryKey: historyKeys.detail(uuid),
      queryFn: () => historyApi.detail(uuid),
      staleTime: 0,
      refetchInterval: (query) => (historyRunning(query.state.data?.status) ? HISTORY_POLL_MS : false),
    }),
};

export const historyDownloads = {
  template: (format: 'xlsx' | 'csv') => buildUrl('history-imports/template', format === 'csv' ? { query: { format } } : {}),
  errors: (uuid: string) => buildUrl(`history-imports/${uuid}/errors`),
};
