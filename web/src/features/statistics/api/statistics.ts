import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api, type CallOptions, data, type RouteOf } from '../../../api/client.ts';
import { buildUrl } from '../../../api/transport.ts';
import { STATISTICS_ROOT } from '../../../api/reporting.ts';

/**
 * Statistics (docs/architecture.md §8): the market, cluster, trend and company answers, and their downloads.
 * Figures arrive as decimal strings and stay strings (lib/numbers.ts formats them). Keys start
 * with 'statistics'; an approval changes them, so reporting mutations invalidate them too.
 */

/** A statistics route's query, as the API document has it (ids are numbers; the contracts' query schemas coerce them from strings). */
type RouteQuery<P extends RouteOf<'get'>> = NonNullable<CallOptions<'get', P>['query']>;
export type MarketQuery = RouteQuery<'/statistics/market'>;
export type ClusterQuery = RouteQuery<'/statistics/cluster'>;
export type TrendQuery = RouteQuery<'/statistics/trend'>;
export type CompanyQuery = RouteQuery<'/statistics/company'>;

/** The query without its empty values (undefined, ''). */
const clean = <Q extends object>(query: Q): Q => Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== '')) as Q;

export const statisticsKeys = {
  /** Every key starts with it: reporting mutations refresh them all (api/reporting.ts). */
  statistics: STATISTICS_ROOT,
  market: (query: MarketQuery) => [...STATISTICS_ROOT, 'market', clean(query)] as const,
  cluster: (query: ClusterQuery) => [...STATISTICS_ROOT, 'cluster', clean(query)] as const,
  trend: (query: TrendQuery) => [...STATISTICS_ROOT, 'trend', clean(query)] as const,
  company: (query: CompanyQuery) => [...STATISTICS_ROOT, 'company', clean(query)] as const,
  choices: [...STATISTICS_ROOT, 'choices'] as const,
};

export const statisticsApi = {
  market: (query: MarketQuery) => api.get('/statistics/market', { query: clean(query) }).then(data),
  cluster: (query: ClusterQuery) => api.get('/statistics/cluster', { query: clean(query) }).then(data),
  trend: (query: TrendQuery) => api.get('/statistics/trend', { query: clean(query) }).then(data),
  company: (query: CompanyQuery) => api.get('/statistics/company', { query: clean(query) }).then(data),
  choices: () => api.get('/statistics/choices').then(data),
};

/** A table as a download: the same query with format=xlsx or csv (a plain link; the session cookie goes with it). */
export function statisticsDownload(endpoint: 'market' | 'cluster' | 'trend' | 'company', query: object, format: 'xlsx' | 'csv'): string {
  return buildUrl(`statistics/${endpoint}`, { query: { ...clean(query), format } });
}

// The previous answer stays on screen while the next loads (switching breakdown or currency).
export const statisticsQueries = {
  market: (query: MarketQuery) =>
    queryOptions({ queryKey: statisticsKeys.market(query), queryFn: () => statisticsApi.market(query), placeholderData: keepPreviousData }),
  cluster: (query: ClusterQuery) =>
    queryOptions({ queryKey: statisticsKeys.cluster(query), queryFn: () => statisticsApi.cluster(query), placeholderData: keepPreviousData }),
  trend: (query: TrendQuery) =>
    queryOptions({ queryKey: statisticsKeys.trend(query), queryFn: () => statisticsApi.trend(query), placeholderData: keepPreviousData }),
  company: (query: CompanyQuery) =>
    queryOptions({ queryKey: statisticsKeys.company(query), queryFn: () => statisticsApi.company(query), placeholderData: keepPreviousData }),
  choices: () => queryOptions({ queryKey: statisticsKeys.choices, queryFn: statisticsApi.choices, staleTime: 60_000 }),
};
