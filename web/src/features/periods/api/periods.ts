import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import type { Completeness, CompletenessState, Period, PeriodInput, PublicationPreview } from '@mss/contracts/periods';
import { http, type ApiBody } from '../../../api/http.ts';
import { periodKeys } from '../../../api/periods.ts';
import { buildUrl } from '../../../api/transport.ts';

/** Creating and moving periods (the period list's own calls; reading them is api/periods.ts, shared). */

export type PeriodAction = 'open' | 'close' | 'publish' | 'republish' | 'unpublish';

const data = <T>(body: ApiBody<T>) => body.data;

export const periodChanges = {
  createPeriod: (input: PeriodInput) => http.post<ApiBody<Period>>('periods', input).then(data),
  changePeriod: ({ uuid, action }: { uuid: string; action: PeriodAction }) => http.post<ApiBody<Period>>(`periods/${uuid}/${action}`).then(data),
  /** What publishing would show viewers, before the administrator confirms (decided, written nowhere). */
  previewPublication: (uuid: string) => http.get<ApiBody<PublicationPreview>>(`periods/${uuid}/publication-preview`).then(data),
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
      queryFn: () => http.get<ApiBody<Completeness>>('completeness', { query: completenessQuery(filter) }).then(data),
      placeholderData: keepPreviousData,
    }),
};

/** The same rows as a download (a plain link; the session cookie goes with it). */
export const completenessDownload = (filter: CompletenessFilter, format: 'xlsx' | 'csv') =>
  buildUrl('completeness', { query: { ...completenessQuery(filter), format } });
