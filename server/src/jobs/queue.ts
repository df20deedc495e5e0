import { PgBoss, type Queue, type SendOptions } from 'pg-boss';
import type { z } from 'zod';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { AppContext } from '../context.ts';
import type { Database } from '../db/client.ts';

/**
 * A running job's lease: the process running it renews it every half of this, and a
 * job whose lease was not renewed this long (its process died, or lost the database) is failed and
 * run again by a process that has jobs on (10 s is pg-boss's least). With the supervision below, a dead
 * process's job runs again within about JOB_LEASE_SECONDS + JOB_SUPERVISE_SECONDS + the retry delay.
 */
export const JOB_LEASE_SECONDS = 10;
/** How often a process that has jobs on looks for jobs whose lease ended. */
export const JOB_SUPERVISE_SECONDS = 5;

/**
 * The payload of each job, by the job's name. Each module that declares a job adds its own entry
 * (`declare module '../../jobs/queue.ts' { interface JobPayloads { … } }` beside its `defineJob`), so
 * that a service queues a job by name in its payload's type without importing the job's handler.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the modules' declarations
export interface JobPayloads {}
export type JobName = keyof JobPayloads & string;

/**
 * A job, declared where its module is: its queue's name and options, the payload's schema, how a
 * process works it and what it does; `plugins/jobs.ts` registers the list. The domain rows (imports,
 * deliveries, notifications) stay the source of truth: a job only says "look at import N".
 */
export interface JobDefinition<N extends JobName = JobName> {
  name: N;
  /** Checked when a job is taken: a payload that does not parse fails the job (and is logged). */
  payload: z.ZodType<JobPayloads[N]>;
  /** The queue's options (retries, expiry, policy); the lease is added to every job. */
  queue: Omit<Queue, 'name'>;
  /** How often an idle worker looks, and how many jobs this process works at once. */
  worker: { pollingIntervalSeconds: number; localConcurrency: number };
  /** Options of each job sent (a singleton key, an interval), from its payload and the configuration. */
  // Methods (not function properties), so that the list of jobs of every name is one type.
  sendOptions?(payload: JobPayloads[N], config: Config): SendOptions;
  /** Does the work; `queue` queues what follows (a retry later, the mails of the reminders made). */
  handler(ctx: AppContext, payload: JobPayloads[N], queue: JobQueue): Promise<void>;
  /** After a start: what a crash left behind queued again; answers how many. */
  recover?(ctx: AppContext, queue: JobQueue): Promise<number>;
}

/** Declares a job (the identity, typed by its name's payload). */
export const defineJob = <N extends JobName>(job: JobDefinition<N>): JobDefinition<N> => job;

export interface JobQueue {
  /**
   * Queues a job, now or at `startAfter`. A job of a queue this process works wakes its worker at once
   * (not at its next poll); while the process stops, the job waits in the database for another.
   */
  send<N extends JobName>(name: N, payload: JobPayloads[N], startAfter?: Date): Promise<void>;
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
 * PGlite and on a PostgreSQL server, with one process or several, working the jobs declared.
 */
export async function startJobQueue(options: { ctx: AppContext; log: FastifyBaseLogger; jobs: readonly JobDefinition<JobName>[] }): Promise<JobQueue> {
  const { ctx, log, jobs } = options;
  const { database, config } = ctx;
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
    for (const job of jobs) await boss.createQueue(job.name, { ...job.queue, ...leased });
  });
  const byName = new Map<string, JobDefinition<JobName>>(jobs.map((job) => [job.name, job]));
  const workers = new Map<string, string>();
  let stopping: Promise<void> | null = null;
  const queue: JobQueue = {
    async send(name, payload, startAfter) {
      const job = byName.get(name);
      if (!job) throw new Error(`no job is declared by the name ${name}`);
      const later = startAfter !== undefined && startAfter.getTime() > Date.now();
      await boss.send(name, payload as object, { ...job.sendOptions?.(payload, config), ...(later ? { startAfter } : {}), ...leased });
      const worker = workers.get(name);
      if (!later && !stopping && worker) boss.notifyWorker(worker);
    },
    stop(graceSeconds) {
      stopping ??= boss.stop({ graceful: true, timeout: graceSeconds * 1000, close: false });
      return stopping;
    },
  };
  for (const job of jobs) {
    const workerId = await boss.work<unknown>(job.name, { batchSize: 1, ...job.worker }, async (taken) => {
      for (const { data } of taken) {
        const payload = job.payload.safeParse(data);
        if (!payload.success) {
          log.error({ job: job.name, payload: data }, 'a job whose payload does not parse is failed');
          throw new Error(`${job.name}: the payload does not parse`);
        }
        await job.handler(ctx, payload.data, queue);
      }
    });
    workers.set(job.name, workerId);
  }
  return queue;
}
