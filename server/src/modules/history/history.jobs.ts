import { z } from 'zod';
import { defineJob } from '../../jobs/queue.ts';
import { processHistory, recoverHistoryImports } from './history.service.ts';

declare module '../../jobs/queue.ts' {
  interface JobPayloads {
    'history-import': { historyImportId: number };
  }
}

/** The next step of a history import (check, import or publish: its status says which). */
export const historyJob = defineJob({
  name: 'history-import',
  payload: z.object({ historyImportId: z.number().int().positive() }),
  // A step may run for many minutes (millions of rows); the lease, not the expiry, tells a dead
  // process's step. Retried from the start of the step (it is idempotent).
  queue: { retryLimit: 3, retryDelay: 2, expireInSeconds: 4 * 3600 },
  worker: { pollingIntervalSeconds: 1, localConcurrency: 1 },
  handler: (ctx, { historyImportId }) => processHistory(ctx.db, ctx.log, historyImportId, ctx.requests),
  recover: (ctx, queue) => recoverHistoryImports(ctx.db, queue),
});
