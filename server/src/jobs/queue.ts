import { PgBoss } from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client.ts';

export const IMPORT_QUEUE = 'report-import';
export const COMMUNICATION_QUEUE = 'communication-send';

export interface JobQueue {
  /** Queues the processing of an import; a second request for the same import is folded in. */
  sendImport(importId: number): Promise<void>;
  /** Queues a run of a communication's send, now or at `startAfter`. Runs are idempotent. */
  sendCommunication(communicationId: number, startAfter?: Date): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The PostgreSQL-backed job queue (pg-boss) over the app's own pool, so that it works the same on
 * PGlite and on a PostgreSQL server. The domain rows (imports, reports) stay the source of truth:
 * a job only says "look at import N".
 */
export async function startJobQueue(options: {
  database: Database;
  log: FastifyBaseLogger;
  processImport: (importId: number) => Promise<void>;
  processCommunication: (communicationId: number) => Promise<void>;
  /** Files processed at once by this process. */
  concurrency?: number;
  /** Runs of one import in all (the first and the retries). */
  attempts: number;
}): Promise<JobQueue> {
  const { database, log } = options;
  const boss = new PgBoss({
    db: { executeSql: (text: string, values?: unknown[]) => database.pool.query(text, values as unknown[]) },
    schedule: false,
  });
  boss.on('error', (error: unknown) => log.error({ err: error }, 'job queue error'));
  await boss.start();
  // Retries cover a crash mid-job: the job expires, comes back, and processing starts over.
  await boss.createQueue(IMPORT_QUEUE, { retryLimit: options.attempts - 1, retryDelay: 2, expireInSeconds: 600 });
  const workerId = await boss.work<{ importId: number }>(
    IMPORT_QUEUE,
    { batchSize: 1, pollingIntervalSeconds: 0.5, localConcurrency: options.concurrency ?? 2 },
    async (jobs) => {
      for (const job of jobs) await options.processImport(job.data.importId);
    },
  );
  // A send runs until its deliveries are done or wait for a retry (it then queues itself again).
  await boss.createQueue(COMMUNICATION_QUEUE, { retryLimit: 5, retryDelay: 5, retryBackoff: true, expireInSeconds: 3600 });
  const communicationWorker = await boss.work<{ communicationId: number }>(
    COMMUNICATION_QUEUE,
    { batchSize: 1, pollingIntervalSeconds: 1, localConcurrency: 1 },
    async (jobs) => {
      for (const job of jobs) await options.processCommunication(job.data.communicationId);
    },
  );
  return {
    async sendCommunication(communicationId, startAfter) {
      await boss.send(COMMUNICATION_QUEUE, { communicationId }, startAfter && startAfter.getTime() > Date.now() ? { startAfter } : {});
      if (!startAfter || startAfter.getTime() <= Date.now()) boss.notifyWorker(communicationWorker);
    },
    async sendImport(importId) {
      await boss.send(IMPORT_QUEUE, { importId }, { singletonKey: `import-${importId}` });
      // The worker is in this process: wake it now instead of at its next poll.
      boss.notifyWorker(workerId);
    },
    async stop() {
      await boss.stop({ graceful: true, timeout: 10_000, close: false });
    },
  };
}
