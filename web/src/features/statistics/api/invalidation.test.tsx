import { describe, expect, it } from 'vitest';
import { renderHook } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useInvalidateReporting } from '../../../api/reporting.ts';
import { statisticsKeys } from './statistics.ts';

describe('what a reporting mutation refreshes', () => {
  it('when a report is approved or a period published, then every statistics answer held is stale at once (not 30 s later)', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { staleTime: 30_000 } } });
    const keys = [
      statisticsKeys.market({ period_uuid: 'p', by: 'code' }),
      statisticsKeys.cluster({ cluster_id: 1, month: '2026-10', by: 'code', currency: 'EUR' }),
      statisticsKeys.trend({ market_id: 1 }),
      statisticsKeys.company({ company_id: 1, period_uuid: 'p' }),
      statisticsKeys.choices,
    ];
    for (const key of keys) client.setQueryData(key, { data: 'as before' });
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
    const { result } = renderHook(() => useInvalidateReporting(), { wrapper });
    for (const key of keys) expect(client.getQueryState(key)?.isInvalidated, String(key)).toBe(false);
    await result.current();
    for (const key of keys) expect(client.getQueryState(key)?.isInvalidated, String(key)).toBe(true);
  });
});
