import { useMutation, useQueryClient } from '@tanstack/react-query';

/*
 * The roots of the reporting query keys. Each feature's key factory starts its keys from its root
 * (features/reports/api/reports.ts, features/periods/api/period-queries.ts,
 * features/approvals/api/approvals.ts, features/imports/api/imports.ts,
 * features/statistics/api/statistics.ts), so this file imports no feature and still refreshes them all.
 */
export const REPORTS_ROOT = ['reports'] as const;
export const PERIODS_ROOT = ['periods'] as const;
export const APPROVALS_ROOT = ['approvals'] as const;
/** The root of the imports feature's query keys: reporting mutations refresh them too. */
export const IMPORTS_ROOT = ['imports'] as const;
/**
 * The root of the statistics feature's query keys: an approval, a report sent back, a period
 * published or published again changes what they answer, so every reporting mutation refreshes
 * them too (not 30 s later).
 */
export const STATISTICS_ROOT = ['statistics'] as const;

/**
 * The reporting API is split by noun, each in its feature: periods, reports, approvals, imports.
 * Every reporting mutation invalidates all four, and the statistics (a period change creates reports,
 * an import changes its report, a status change moves lists and counts and the figures).
 */
export function useInvalidateReporting() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: PERIODS_ROOT }),
      client.invalidateQueries({ queryKey: REPORTS_ROOT }),
      client.invalidateQueries({ queryKey: IMPORTS_ROOT }),
      client.invalidateQueries({ queryKey: APPROVALS_ROOT }),
      client.invalidateQueries({ queryKey: STATISTICS_ROOT }),
    ]);
}

/** A reporting mutation: shows its own errors (the caller decides how), refreshes lists after. */
export function useReportingMutation<V, R>(mutationFn: (variables: V) => Promise<R>) {
  const invalidate = useInvalidateReporting();
  return useMutation({ mutationFn, onSettled: () => invalidate(), meta: { handlesErrors: true } });
}
