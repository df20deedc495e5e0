import { useMutation, useQueryClient } from '@tanstack/react-query';
import { approvalKeys } from './approvals.ts';
import { importKeys } from './imports.ts';
import { periodKeys } from './periods.ts';
import { reportKeys } from './reports.ts';

/**
 * The reporting API (issue 4) is split by noun: periods.ts, reports.ts, imports.ts, approvals.ts.
 * Every reporting mutation invalidates all four (a period change creates reports, an import changes
 * its report, a status change moves lists and counts).
 */
export function useInvalidateReporting() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: periodKeys.periods }),
      client.invalidateQueries({ queryKey: reportKeys.reports }),
      client.invalidateQueries({ queryKey: importKeys.imports }),
      client.invalidateQueries({ queryKey: approvalKeys.approvals }),
    ]);
}

/** A reporting mutation: shows its own errors (the caller decides how), refreshes lists after. */
export function useReportingMutation<V, R>(mutationFn: (variables: V) => Promise<R>) {
  const invalidate = useInvalidateReporting();
  return useMutation({ mutationFn, onSettled: () => invalidate(), meta: { handlesErrors: true } });
}
