import { useMutation, useQueryClient } from '@tanstack/react-query';
import { importKeys } from './imports.ts';
import { periodKeys } from './periods.ts';
import { reportKeys } from './reports.ts';

/**
 * The reporting API (issue 4) is split by noun: periods.ts, reports.ts, imports.ts. Every
 * reporting mutation invalidates all three (a period change creates reports, an import changes
 * its report, a status change moves lists and counts).
 */
export function useInvalidateReporting() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: periodKeys.periods }),
      client.invalidateQueries({ queryKey: reportKeys.reports }),
      client.invalidateQueries({ queryKey: importKeys.imports }),
    ]);
}

/** A reporting mutation: shows its own errors (the caller decides how), refreshes lists after. */
export function useReportingMutation<V, R>(mutationFn: (variables: V) => Promise<R>) {
  const invalidate = useInvalidateReporting();
  return useMutation({ mutationFn, onSettled: () => invalidate(), meta: { handlesErrors: true } });
}
