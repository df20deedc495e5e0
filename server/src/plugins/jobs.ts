import fp from 'fastify-plugin';
import { purgeAudit } from '../audit/audit.ts';
import type { AppContext } from '../context.ts';
import { startJobQueue } from '../jobs/queue.ts';
import { deleteAbandonedFiles } from '../lib/files.ts';
import { COMPACT_DATA_CHANGES_SQL } from '../lib/kept-answers.ts';
import { appUrlOf } from '../modules/communications/communications.routes.ts';
import { recoverCommunications, runCommunicationSend } from '../modules/communications/communications.sender.ts';
import { sendWorkflowNotifications } from '../modules/communications/notifications.ts';
import { createDueReminders } from '../modules/communications/communications.reminders.ts';
import { IMPORT_MAX_ATTEMPTS, processImport, recoverImports } from '../modules/imports/imports.service.ts';
import { processHistory, recoverHistoryImports } from '../modules/history/history.service.ts';
import { publishOutstanding } from '../modules/statistics/disclosure/statistics.publications.ts';

/**
 * The background work of a process that runs jobs (`JOBS=on`): imports, communication sends and
 * the workflow mails' sweep on the job queue, and what a crash left behind taken up again.
 * Without it the process serves requests only; queued work waits in the database for a worker.
 */
export const jobsPlugin = fp<{ ctx: AppContext }>(
  async (app, { ctx }) => {
    const { config, mailer } = ctx;
    ctx.queue = await startJobQueue({
      database: ctx.database,
      log: app.log,
      processImport: (id) => processImport(ctx.db, app.log, id),
      processCommunication: (id) =>
        runCommunicationSend(
          {
            db: ctx.db,
            mailer,
            log: app.log,
            appUrl: appUrlOf(ctx),
            retryBaseSeconds: config.MAIL_RETRY_BASE_SECONDS,
            maxAttempts: config.MAIL_MAX_ATTEMPTS,
            leaseSeconds: config.MAIL_LEASE_SECONDS,
            later: (communicationId, at) => ctx.queue!.sendCommunication(communicationId, at),
          },
          id,
        ),
      // Workflow notifications: what waits is mailed by one sweep at a time, whichever process runs
      // it; then the automatic reminders due today are created (each once, whoever sweeps) and sent,
      // the audit entries past their retention deleted, and the data changes counted compacted.
      sweepNotifications: async () => {
        await sendWorkflowNotifications({ db: ctx.db, mailer, log: app.log, appUrl: appUrlOf(ctx) });
        const reminders = await createDueReminders(ctx.db);
        for (const id of reminders) await ctx.queue!.sendCommunication(id);
        if (reminders.length) app.log.info({ reminders: reminders.length }, 'automatic reminders created');
        // The audit trail keeps AUDIT_RETENTION_MONTHS: older entries go (an indexed delete, mostly of nothing).
        const purged = await purgeAudit(ctx.db, config.AUDIT_RETENTION_MONTHS);
        if (purged) app.log.info({ purged }, 'audit entries past their retention deleted');
        // The changes the kept answers' version counts go into its base count (lib/kept-answers.ts).
        await ctx.database.pool.query(COMPACT_DATA_CHANGES_SQL);
      },
      processHistory: (id) => processHistory(ctx.db, app.log, id, ctx.requests),
      attempts: IMPORT_MAX_ATTEMPTS,
      notifySweepSeconds: Math.max(1, Math.round(config.NOTIFY_SWEEP_SECONDS)),
    });
    const queue = ctx.queue;
    // On close the queue takes no more jobs at once, while the server finishes the requests in
    // flight; the jobs still running after the grace are handed back (docs/decisions.md).
    app.addHook('preClose', async () => void queue.stop(config.SHUTDOWN_JOB_GRACE_SECONDS));
    app.addHook('onClose', async () => queue.stop(config.SHUTDOWN_JOB_GRACE_SECONDS));
    const recovered = await recoverImports(ctx.db, ctx.queue);
    if (recovered) app.log.info({ recovered }, 'unfinished imports queued again');
    const histories = await recoverHistoryImports(ctx.db, ctx.queue);
    if (histories) app.log.info({ histories }, 'unfinished history import steps queued again');
    const sends = await recoverCommunications(ctx.db, ctx.database.kind === 'pglite', (id) => ctx.queue!.sendCommunication(id));
    if (sends) app.log.info({ sends }, 'communications waiting to be sent queued again');
    // Every NOTIFY_SWEEP_SECONDS a sweep is asked for (digests once an hour); asked by several
    // processes in one interval, it runs once.
    const sweep = setInterval(() => {
      queue.sweepNotifications().catch((error: unknown) => app.log.error({ err: error }, 'workflow notifications failed'));
    }, config.NOTIFY_SWEEP_SECONDS * 1000);
    sweep.unref();
    app.addHook('onClose', async () => clearInterval(sweep));
    // Periods marked published without a publication (from before publications existed) are
    // published once, in the background; until then they are not published for viewing. Its query
    // is sent before main.ts seeds an empty database (the seed publishes its own periods).
    let closing = false;
    const outstanding = publishOutstanding(ctx.db, () => closing)
      .then((published) => {
        if (published) app.log.info({ published }, 'periods published before publications existed now have one');
      })
      .catch((error: unknown) => app.log.error({ err: error }, 'publishing the outstanding periods failed'));
    app.addHook('preClose', async () => {
      closing = true;
      await outstanding;
    });
    // Uploads cut off by a crash left part of a file behind; the process that runs jobs tidies up.
    const abandoned = await deleteAbandonedFiles(ctx.db);
    if (abandoned) app.log.info({ abandoned }, 'incomplete uploaded files deleted');
  },
  { name: 'jobs' },
);
