import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isApiError } from './transport.ts';

/**
 * Errors surface in one place (docs/architecture.md §9): the app registers a reporter (a toast for failed
 * queries, the error modal for failed mutations). A query or mutation that shows its own errors
 * (forms mapping 422 field errors onto inputs) sets `meta: { handlesErrors: true }`.
 */
export type ErrorReporter = (error: unknown, kind: 'query' | 'mutation') => void;

let reportError: ErrorReporter = (error) => console.error(error);

export function setErrorReporter(reporter: ErrorReporter): void {
  reportError = reporter;
}

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: { handlesErrors?: boolean };
    mutationMeta: { handlesErrors?: boolean };
  }
}

// A 401 already signed the user out and moved to /login: nothing more to show.
const shouldReport = (error: unknown) => !(isApiError(error) && error.status === 401);

export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (!query.meta?.handlesErrors && shouldReport(error)) reportError(error, 'query');
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _variables, _context, mutation) => {
        if (!mutation.meta?.handlesErrors && shouldReport(error)) reportError(error, 'mutation');
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // Client errors (4xx) will not change by retrying; network and server errors get one retry.
        retry: (failureCount, error) => failureCount < 1 && !(isApiError(error) && error.status >= 400 && error.status < 500),
      },
    },
  });
}

/** The one query client of the app; logout clears it. */
export const queryClient = createQueryClient();
