import fp from 'fastify-plugin';
import type { AppContext } from '../context.ts';
import { maintenanceJob } from '../jobs/maintenance.ts';
import { type JobDefinition, type JobName, startJobQueue } from '../jobs/queue.ts';
import { deleteAbandonedFiles } from '../lib/files.ts';
import { communicationJob, notificationSweepJob } from '../modules/communications/communications.jobs.ts';
import { historyJob } from '../modules/history/history.jobs.ts';
import { importJob } from '../modules/imports/imports.jobs.ts';
import { publishOutstanding } from '../modules/statistics/disclosure/statistics.publications.ts';

/** Every job of the app, each declared beside its module (name, payload, queue options, handler). */
const JOBS: readonly JobDefinition<JobName>[] = [importJob, communicationJob, notificationSweepJob, historyJob, maintenanceJob];

/**
 * The background work of a process that runs jobs (`JOBS=on`): the jobs above on the job queue, and
 * what a crash left behind taken up again. Without it the process serves requests only; queued work
 * waits in the database for a worker.
 */
export const jobsPlugin = fp<{ ctx: AppContext }>(
  async (app, { ctx }) => {
    const { config } = ctx;
    const queue = await startJobQueue({ ctx, log: app.log, jobs: JOBS });
    ctx.queue = queue;
    // On close the queue takes no more jobs at once, while the server finishes the requests in
    // flight; the jobs still running after the grace are handed back (docs/decisions.md).
    app.addHook('preClose', async () => void queue.stop(config.SHUTDOWN_JOB_GRACE_SECONDS));
    app.addHook('onClose', async () => queue.stop(config.SHUTDOWN_JOB_GRACE_SECONDS));
    for (const job of JOBS) {
      const recovered = (await job.recover?.(ctx, queue)) ?? 0;
      if (recovered) app.log.info({ job: job.name, recovered }, 'unfinished work queued again');
    }
    // Every NOTIFY_SWEEP_SECONDS a sweep and the upkeep are asked for (digests once an hour); asked
    // by several processes in one interval, each runs once.
    const sweep = setInterval(() => {
      for (const name of ['workflow-notifications', 'maintenance'] as const) {
        queue.send(name, {}).catch((error: unknown) => app.log.error({ err: error, job: name }, 'asking for a sweep failed'));
      }
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
