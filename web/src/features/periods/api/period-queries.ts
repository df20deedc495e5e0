import { queryOptions } from '@tanstack/react-query';
import { api, data } from '../../../api/client.ts';
import { PERIODS_ROOT } from '../../../api/reporting.ts';

/**
 * Reading reporting periods, which several features do (approvals, communications, reports,
 * statistics, through ../index.ts): keys start with PERIODS_ROOT ('periods'), which every reporting
 * mutation invalidates (api/reporting.ts). Creating and moving periods is ./periods.ts.
 */

export const periodKeys = {
  periods: PERIODS_ROOT,
  periodList: (filter: { market_id?: number; cluster?: boolean }) => [...PERIODS_ROOT, 'list', filter] as const,
  period: (uuid: string) => [...PERIODS_ROOT, 'detail', uuid] as const,
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
