import { useCallback } from 'react';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { HISTORY_RUNNING, type HistoryStatus } from '@mss/contracts/history';
import { api, data } from '../../api/client.ts';
import { buildUrl } from '../../api/transport.ts';
import { uploadFile, type UploadOptions } from '../../api/upload.ts';

/** History imports (docs/decisions.md "History import"): an association's past in one file. */
export const historyKeys = {
  all: ['history-imports'] as const,
  list: ['history-imports', 'list'] as const,
  detail: (uuid: string) => ['history-imports', 'detail', uuid] as const,
};

export const historyRunning = (status: HistoryStatus | undefined) => status !== undefined && HISTORY_RUNNING.includes(status);
/** How often a running step is looked at. */
export const HISTORY_POLL_MS = 1000;

export const historyApi = {
  list: () => api.get('/history-imports').then(data),
  detail: (uuid: string) => api.get('/history-imports/{uuid}', { path: { uuid } }).then(data),
  act: (uuid: string, action: 'import' | 'publish' | 'cancel') => api.post(`/history-imports/{uuid}/${action}`, { path: { uuid } }).then(data),
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

/**
 * The list of history imports fetched again: after a file is accepted, and whenever the import on
 * screen changes its status (the list says each import's status). Stable, for effects.
 */
export function useRefreshHistoryList() {
  const client = useQueryClient();
  return useCallback(() => client.invalidateQueries({ queryKey: historyKeys.list }), [client]);
}

/**
 * A step of one history import (import, publish, cancel): its answer replaces the import at once,
 * then the list is fetched again. The screen shows its errors.
 */
export function useHistoryAction(uuid: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (action: 'import' | 'publish' | 'cancel') => historyApi.act(uuid, action),
    onSuccess: (detail) => {
      client.setQueryData(historyKeys.detail(uuid), detail);
      return client.invalidateQueries({ queryKey: historyKeys.list });
    },
    meta: { handlesErrors: true },
  });
}

export const historyDownloads = {
  template: (format: 'xlsx' | 'csv') => buildUrl('history-imports/template', format === 'csv' ? { query: { format } } : {}),
  errors: (uuid: string) => buildUrl(`history-imports/${uuid}/errors`),
};
