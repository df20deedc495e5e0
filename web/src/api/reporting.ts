import { useMutation, useQueryClient } from '@tanstack/react-query';
import { approvalKeys } from './approvals.ts';
import { periodKeys } from './periods.ts';
import { reportKeys } from './reports.ts';

/** The root of the imports feature's query keys (features/imports/api/imports.ts): reporting mutations refresh them too. */
export const IMPORTS_ROOT = ['imports'] as const;
/**
 * The root of the statistics feature's query keys (features/statistics/api/statistics.ts): an
 * approval, a report sent back, a period published or published again changes what they answer,
 * so every reporting mutation refreshes them too (not 30 s later).
 */
export const STATISTICS_ROOT = ['statistics'] as const;

/**
 * The reporting API is split by noun: periods.ts, reports.ts, approvals.ts here, the imports feature's own.
 * Every reporting mutation invalidates all four, and the statistics (a period change creates reports,
 * an import changes its report, a status change moves lists and counts and the figures).
 */
export function useInvalidateReporting() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: periodKeys.periods }),
      client.invalidateQueries({ queryKey: reportKeys.reports }),
      client.invalidateQueries({ queryKey: IMPORTS_ROOT }),
      client.invalidateQueries({ queryKey: approvalKeys.approvals }),
      client.invalidateQueries({ queryKey: STATISTICS_ROOT }),
    ]);
}

/** A reporting mutation: shows its own errors (the caller decides how), refreshes lists after. */
export function useReportingMutation<V, R>(mutationFn: (variables: V) => Promise<R>) {
  const invalidate = useInvalidateReporting();
  return useMutation({ mutationFn, onSettled: () => invalidate(), meta: { handlesErrors: true } });
}
