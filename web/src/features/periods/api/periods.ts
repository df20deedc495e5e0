import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { CompletenessState, PeriodInput } from '@mss/contracts/periods';
import { api, data } from '../../../api/client.ts';
import { periodKeys } from './period-queries.ts';
import { buildUrl } from '../../../api/transport.ts';

/** Creating and moving periods (the period list's own calls; reading them is ./period-queries.ts, which other features use too). */

import type { PeriodAction } from '@mss/contracts/lifecycles';
export type { PeriodAction };

export const periodChanges = {
  createPeriod: (input: PeriodInput) => api.post('/periods', { body: input }).then(data),
  changePeriod: ({ uuid, action }: { uuid: string; action: PeriodAction }) => api.post(`/periods/{uuid}/${action}`, { path: { uuid } }).then(data),
  /** What publishing would show viewers, before the administrator confirms (decided, written nowhere). */
  previewPublication: (uuid: string) => api.get('/periods/{uuid}/publication-preview', { path: { uuid } }).then(data),
};

/** The completeness overview's query as the screen keeps it (the URL's filters). */
export interface CompletenessFilter {
  from: string;
  to: string;
  market_id?: number;
  status: CompletenessState;
}

const completenessQuery = (filter: CompletenessFilter) => ({
  from: filter.from,
  to: filter.to,
  market_id: filter.market_id,
  status: filter.status === 'all' ? undefined : filter.status,
});

export const completenessQueries = {
  // Under 'periods': every reporting mutation refreshes it (api/reporting.ts).
  completeness: (filter: CompletenessFilter) =>
    queryOptions({
      queryKey: [...periodKeys.periods, 'completeness', filter] as const,
      queryFn: () => api.get('/completeness', { query: completenessQuery(filter) }).then(data),
      placeholderData: keepPreviousData,
    }),
};

/** The same rows as a download (a plain link; the session cookie goes with it). */
export const completenessDownload = (filter: CompletenessFilter, format: 'xlsx' | 'csv') =>
  buildUrl('completeness', { query: { ...completenessQuery(filter), format } });
