import { queryOptions } from '@tanstack/react-query';
import { api, data } from './client.ts';

/**
 * Reading reporting periods, which several features do (approvals, communications, reports,
 * statistics): keys start with 'periods'; reporting mutations invalidate them (./reporting.ts).
 * Creating and moving periods is the periods feature's own (features/periods/api/periods.ts).
 */

export const periodKeys = {
  periods: ['periods'] as const,
  periodList: (filter: { market_id?: number; cluster?: boolean }) => ['periods', 'list', filter] as const,
  period: (uuid: string) => ['periods', 'detail', uuid] as const,
};

export const periodsApi = {
  periods: (filter: { market_id?: number; cluster?: boolean }) =>
    api.get('/periods', { query: { market_id: filter.market_id, cluster: filter.cluster ? '1' : undefined } }).then(data),
  period: (uuid: string) => api.get('/periods/{uuid}', { path: { uuid } }).then(data),
};

export const periodQueries = {
  periods: (filter: { market_id?: number; cluster?: boolean }) =>
    queryOptions({ queryKey: periodKeys.periodList(filter), queryFn: () => periodsApi.periods(filter) }),
  period: (uuid: string) => queryOptions({ queryKey: periodKeys.period(uuid), queryFn: () => periodsApi.period(uuid) }),
};
