import { z } from 'zod';
import { purgeAudit } from '../audit/audit.ts';
import { COMPACT_DATA_CHANGES_SQL } from '../lib/kept-answers.ts';
import { defineJob } from './queue.ts';

declare module './queue.ts' {
  interface JobPayloads {
    maintenance: Record<string, never>;
  }
}

/**
 * The app's upkeep, asked for with each sweep of the notifications and run by one process at a time:
 * the audit entries past AUDIT_RETENTION_MONTHS deleted (an indexed delete, mostly of nothing), and the
 * data changes the kept answers' version counts compacted into its base count (lib/kept-answers.ts).
 */
export const maintenanceJob = defineJob({
  name: 'maintenance',
  payload: z.object({}).strict(),
  queue: { policy: 'singleton', retryLimit: 2, retryDelay: 5, expireInSeconds: 900 },
  worker: { pollingIntervalSeconds: 1, localConcurrency: 1 },
  sendOptions: (_, config) => ({ singletonKey: 'maintenance', singletonSeconds: Math.max(1, Math.round(config.NOTIFY_SWEEP_SECONDS)) }),
  handler: async (ctx) => {
    const purged = await purgeAudit(ctx.db, ctx.config.AUDIT_RETENTION_MONTHS);
    if (purged) ctx.log.info({ purged }, 'audit entries past their retention deleted');
    await ctx.database.pool.query(COMPACT_DATA_CHANGES_SQL);
  },
});
