import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type {
  ClusterStatistics,
  ClusterStatisticsQuery,
  CompanyStatistics,
  CompanyStatisticsQuery,
  MarketStatistics,
  MarketStatisticsQuery,
  StatisticsChoices,
  TrendStatistics,
  TrendStatisticsQuery,
} from '@mss/contracts/statistics';
import { http, type ApiBody } from '../../../api/http.ts';
import { buildUrl } from '../../../api/transport.ts';
import { STATISTICS_ROOT } from '../../../api/reporting.ts';

/**
 * Statistics (docs/architecture.md §8): the market, cluster, trend and company answers, and their downloads.
 * Figures arrive as decimal strings and stay strings (lib/numbers.ts formats them). Keys start
 * with 'statistics'; an approval changes them, so reporting mutations invalidate them too.
 */

type Query = Record<string, string | number | undefined>;
const data = <T>(body: ApiBody<T>) => body.data;
const clean = (query: object): Query => Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== '')) as Query;

export const statisticsKeys = {
  /** Every key starts with it: reporting mutations refresh them all (api/reporting.ts). */
  statistics: STATISTICS_ROOT,
  market: (query: MarketStatisticsQuery) => [...STATISTICS_ROOT, 'market', clean(query)] as const,
  cluster: (query: ClusterStatisticsQuery) => [...STATISTICS_ROOT, 'cluster', clean(query)] as const,
  trend: (query: TrendStatisticsQuery) => [...STATISTICS_ROOT, 'trend', clean(query)] as const,
  company: (query: CompanyStatisticsQuery) => [...STATISTICS_ROOT, 'company', clean(query)] as const,
  choices: [...STATISTICS_ROOT, 'choices'] as const,
};

export const statisticsApi = {
  market: (query: MarketStatisticsQuery) => http.get<ApiBody<MarketStatistics>>('statistics/market', { query: clean(query) }).then(data),
  cluster: (query: ClusterStatisticsQuery) => http.get<ApiBody<ClusterStatistics>>('statistics/cluster', { query: clean(query) }).then(data),
  trend: (query: TrendStatisticsQuery) => http.get<ApiBody<TrendStatistics>>('statistics/trend', { query: clean(query) }).then(data),
  company: (query: CompanyStatisticsQuery) => http.get<ApiBody<CompanyStatistics>>('statistics/company', { query: clean(query) }).then(data),
  choices: () => http.get<ApiBody<StatisticsChoices>>('statistics/choices').then(data),
};

/** A table as a download: the same query with format=xlsx or csv (a plain link; the session cookie goes with it). */
export function statisticsDownload(endpoint: 'market' | 'cluster' | 'trend' | 'company', query: object, format: 'xlsx' | 'csv'): string {
  return buildUrl(`statistics/${endpoint}`, { query: { ...clean(query), format } });
}

// The previous answer stays on screen while the next loads (switching breakdown or currency).
export const statisticsQueries = {
  market: (query: MarketStatisticsQuery) =>
    queryOptions({ queryKey: statisticsKeys.market(query), queryFn: () => statisticsApi.market(query), placeholderData: keepPreviousData }),
  cluster: (query: ClusterStatisticsQuery) =>
    queryOptions({ queryKey: statisticsKeys.cluster(query), queryFn: () => statisticsApi.cluster(query), placeholderData: keepPreviousData }),
  trend: (query: TrendStatisticsQuery) =>
    queryOptions({ queryKey: statisticsKeys.trend(query), queryFn: () => statisticsApi.trend(query), placeholderData: keepPreviousData }),
  company: (query: CompanyStatisticsQuery) =>
    queryOptions({ queryKey: statisticsKeys.company(query), queryFn: () => statisticsApi.company(query), placeholderData: keepPreviousData }),
  choices: () => queryOptions({ queryKey: statisticsKeys.choices, queryFn: statisticsApi.choices, staleTime: 60_000 }),
};
