import { z } from 'zod';
import { appUrlOf } from '../../config.ts';
import { defineJob } from '../../jobs/queue.ts';
import { recoverCommunications, runCommunicationSend } from './communications.sender.ts';
import { createDueReminders } from './communications.reminders.ts';
import { sendWorkflowNotifications } from './notifications.ts';

declare module '../../jobs/queue.ts' {
  interface JobPayloads {
    'communication-send': { communicationId: number };
    'workflow-notifications': Record<string, never>;
  }
}

/** A run of a communication's send: until its deliveries are done or wait for a retry (it then queues itself again). Runs are idempotent. */
export const communicationJob = defineJob({
  name: 'communication-send',
  payload: z.object({ communicationId: z.number().int().positive() }),
  queue: { retryLimit: 5, retryDelay: 5, retryBackoff: true, expireInSeconds: 3600 },
  worker: { pollingIntervalSeconds: 1, localConcurrency: 1 },
  handler: (ctx, { communicationId }, queue) =>
    runCommunicationSend(
      {
        db: ctx.db,
        mailer: ctx.mailer,
        log: ctx.log,
        appUrl: appUrlOf(ctx.config),
        retryBaseSeconds: ctx.config.MAIL_RETRY_BASE_SECONDS,
        maxAttempts: ctx.config.MAIL_MAX_ATTEMPTS,
        leaseSeconds: ctx.config.MAIL_LEASE_SECONDS,
        later: (id, at) => queue.send('communication-send', { communicationId: id }, at),
      },
      communicationId,
    ),
  recover: (ctx, queue) => recoverCommunications(ctx.db, ctx.database.kind === 'pglite', (id) => queue.send('communication-send', { communicationId: id })),
});

/**
 * The sweep of the workflow notifications: what waits is mailed by one sweep at a time, whichever
 * process runs it (policy singleton), at most one asked for per interval (singletonSeconds); then the
 * automatic reminders due today are created (each once, whoever sweeps) and sent.
 */
export const notificationSweepJob = defineJob({
  name: 'workflow-notifications',
  payload: z.object({}).strict(),
  queue: { policy: 'singleton', retryLimit: 2, retryDelay: 5, expireInSeconds: 900 },
  worker: { pollingIntervalSeconds: 1, localConcurrency: 1 },
  sendOptions: (_, config) => ({ singletonKey: 'sweep', singletonSeconds: Math.max(1, Math.round(config.NOTIFY_SWEEP_SECONDS)) }),
  handler: async (ctx, _, queue) => {
    await sendWorkflowNotifications({ db: ctx.db, mailer: ctx.mailer, log: ctx.log, appUrl: appUrlOf(ctx.config) });
    const reminders = await createDueReminders(ctx.db);
    for (const id of reminders) await queue.send('communication-send', { communicationId: id });
    if (reminders.length) ctx.log.info({ reminders: reminders.length }, 'automatic reminders created');
  },
});
