import { PgBoss } from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client.ts';

export const IMPORT_QUEUE = 'report-import';
export const COMMUNICATION_QUEUE = 'communication-send';
export const NOTIFICATION_QUEUE = 'workflow-notifications';
export const HISTORY_QUEUE = 'history-import';

/**
 * A running job's lease: the process running it renews it every half of this, and a
 * job whose lease was not renewed this long (its process died, or lost the database) is failed and
 * run again by a process that has jobs on (10 s is pg-boss's least). With the supervision below, a dead
 * process's job runs again within about JOB_LEASE_SECONDS + JOB_SUPERVISE_SECONDS + the retry delay.
 */
export const JOB_LEASE_SECONDS = 10;
/** How often a process that has jobs on looks for jobs whose lease ended. */
export const JOB_SUPERVISE_SECONDS = 5;

export interface JobQueue {
  /** Queues the processing of an import; a second request for the same import is folded in. */
  sendImport(importId: number): Promise<void>;
  /** Queues a run of a communication's send, now or at `startAfter`. Runs are idempotent. */
  sendCommunication(communicationId: number, startAfter?: Date): Promise<void>;
  /** Queues the next step of a history import (check, import or publish: its status says which). */
  sendHistory(historyImportId: number): Promise<void>;
  /** Asks for a sweep of the waiting workflow notifications: one at a time across all processes. */
  sweepNotifications(): Promise<void>;
  /**
   * Takes no more jobs; waits for the running ones up to `graceSeconds`, then hands those still
   * running back (they run again on a process that has jobs on). Safe to call twice.
   */
  stop(graceSeconds: number): Promise<void>;
}

/** The advisory lock under which a process starts the queue (any number; the same in every process). */
const QUEUE_START_LOCK = 7_311_846_203;

/**
 * Runs the queue's start (which creates or upgrades its schema) holding a session-level advisory
 * lock on a connection of its own: two processes starting at once on a fresh database otherwise
 * both create the schema and one fails. The embedded database has one process, and one
 * connection that the lock would hold.
 */
async function startedAlone(database: Database, start: () => Promise<unknown>): Promise<void> {
  if (database.kind === 'pglite') {
    await start();
    return;
  }
  const client = await database.pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [QUEUE_START_LOCK]);
    try {
      await start();
    } finally {
      await client.query('select pg_advisory_unlock($1)', [QUEUE_START_LOCK]);
    }
  } finally {
    client.release();
  }
}

/**
 * The PostgreSQL-backed job queue (pg-boss) over the app's own pool, so that it works the same on
 * PGlite and on a PostgreSQL server, with one process or several. The domain rows (imports,
 * deliveries, notifications) stay the source of truth: a job only says "look at import N".
 */
export async function startJobQueue(options: {
  database: Database;
  log: FastifyBaseLogger;
  processImport: (importId: number) => Promise<void>;
  processCommunication: (communicationId: number) => Promise<void>;
  sweepNotifications: () => Promise<void>;
  processHistory: (historyImportId: number) => Promise<void>;
  /** Files processed at once by this process. */
  concurrency?: number;
  /** Runs of one import in all (the first and the retries). */
  attempts: number;
  /** A sweep is asked for at most once in this many seconds, whichever process asks. */
  notifySweepSeconds: number;
}): Promise<JobQueue> {
  const { database, log } = options;
  const boss = new PgBoss({
    db: { executeSql: (text: string, values?: unknown[]) => database.pool.query(text, values as unknown[]) },
    schedule: false,
    superviseIntervalSeconds: JOB_SUPERVISE_SECONDS,
    monitorIntervalSeconds: JOB_SUPERVISE_SECONDS,
  });
  boss.on('error', (error: unknown) => log.error({ err: error }, 'job queue error'));
  // The lease is set on each job (not only on the queue): queues made by an earlier version keep
  // their options, and a job's own heartbeat holds whatever its queue says.
  const leased = { heartbeatSeconds: JOB_LEASE_SECONDS };
  await startedAlone(database, async () => {
    await boss.start();
    // Retries cover a crash mid-job: the lease ends, the job comes back, and processing starts over.
    await boss.createQueue(IMPORT_QUEUE, { retryLimit: options.attempts - 1, retryDelay: 1, expireInSeconds: 900, ...leased });
    // A send runs until its deliveries are done or wait for a retry (it then queues itself again).
    await boss.createQueue(COMMUNICATION_QUEUE, { retryLimit: 5, retryDelay: 5, retryBackoff: true, expireInSeconds: 3600, ...leased });
    // One sweep active at a time across every process (policy singleton), at most one asked for
    // per interval (singletonSeconds): each waiting notification is mailed by one process, once.
    await boss.createQueue(NOTIFICATION_QUEUE, { policy: 'singleton', retryLimit: 2, retryDelay: 5, expireInSeconds: 900, ...leased });
    // A history import's step may run for many minutes (millions of rows); the lease, not the
    // expiry, tells a dead process's step. Retried from the start of the step (it is idempotent).
    await boss.createQueue(HISTORY_QUEUE, { retryLimit: 3, retryDelay: 2, expireInSeconds: 4 * 3600, ...leased });
  });
  const workerId = await boss.work<{ importId: number }>(
    IMPORT_QUEUE,
    { batchSize: 1, pollingIntervalSeconds: 0.5, localConcurrency: options.concurrency ?? 2 },
    async (jobs) => {
      for (const job of jobs) await options.processImport(job.data.importId);
    },
  );
  const communicationWorker = await boss.work<{ communicationId: number }>(
    COMMUNICATION_QUEUE,
    { batchSize: 1, pollingIntervalSeconds: 1, localConcurrency: 1 },
    async (jobs) => {
      for (const job of jobs) await options.processCommunication(job.data.communicationId);
    },
  );
  await boss.work(NOTIFICATION_QUEUE, { batchSize: 1, pollingIntervalSeconds: 1, localConcurrency: 1 }, async () => {
    await options.sweepNotifications();
  });
  const historyWorker = await boss.work<{ historyImportId: number }>(
    HISTORY_QUEUE,
    { batchSize: 1, pollingIntervalSeconds: 1, localConcurrency: 1 },
    async (jobs) => {
      for (const job of jobs) await options.processHistory(job.data.historyImportId);
    },
  );
  let stopping: Promise<void> | null = null;
  return {
    async sendHistory(historyImportId) {
      await boss.send(HISTORY_QUEUE, { historyImportId }, leased);
      if (!stopping) boss.notifyWorker(historyWorker);
    },
    async sendCommunication(communicationId, startAfter) {
      const later = startAfter && startAfter.getTime() > Date.now();
      await boss.send(COMMUNICATION_QUEUE, { communicationId }, later ? { startAfter, ...leased } : leased);
      if (!later && !stopping) boss.notifyWorker(communicationWorker);
    },
    async sendImport(importId) {
      await boss.send(IMPORT_QUEUE, { importId }, { singletonKey: `import-${importId}`, ...leased });
      // The worker is in this process: wake it now instead of at its next poll. While this process
      // stops, the job waits in the database for another process.
      if (!stopping) boss.notifyWorker(workerId);
    },
    async sweepNotifications() {
      await boss.send(NOTIFICATION_QUEUE, {}, { singletonKey: 'sweep', singletonSeconds: options.notifySweepSeconds, ...leased });
    },
    stop(graceSeconds) {
      stopping ??= boss.stop({ graceful: true, timeout: graceSeconds * 1000, close: false });
      return stopping;
    },
  };
}
