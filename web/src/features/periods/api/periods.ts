import type { Period, PeriodInput, PublicationPreview } from '@mss/contracts/periods';
import { http, type ApiBody } from '../../../api/http.ts';

/** Creating and moving periods (the period list's own calls; reading them is api/periods.ts, shared). */

export type PeriodAction = 'open' | 'close' | 'publish' | 'republish' | 'unpublish';

const data = <T>(body: ApiBody<T>) => body.data;

export const periodChanges = {
  createPeriod: (input: PeriodInput) => http.post<ApiBody<Period>>('periods', input).then(data),
  changePeriod: ({ uuid, action }: { uuid: string; action: PeriodAction }) => http.post<ApiBody<Period>>(`periods/${uuid}/${action}`).then(data),
  /** What publishing would show viewers, before the administrator confirms (decided, written nowhere). */
  previewPublication: (uuid: string) => http.get<ApiBody<PublicationPreview>>(`periods/${uuid}/publication-preview`).then(data),
};
