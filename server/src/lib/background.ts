import type { FastifyBaseLogger } from 'fastify';

/*
 * Short work that a request starts but does not wait for (a password-reset mail), kept in this
 * process. Not the job queue: that one is off in API-only processes (JOBS=off), and a lost reset
 * mail (the process dies within the second it takes) only means asking again. Every task is
 * tracked so that `app.close()` (shutdown, the end of a test) waits for it instead of cutting the
 * database or the mailer from under it, and a failure is logged rather than left unhandled.
 */
const pending = new Set<Promise<void>>();

export function runInBackground(log: FastifyBaseLogger, what: string, task: () => Promise<void>): void {
  const running: Promise<void> = Promise.resolve()
    // Deferred to the next turn, so the task's own synchronous part never delays the answer.
    .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
    .then(task)
    .catch((error: unknown) => log.error({ err: error }, `${what} failed`))
    .finally(() => pending.delete(running));
  pending.add(running);
}

/** Resolves when every background task started so far, and any they started, has finished. */
export async function backgroundWorkDone(): Promise<void> {
  while (pending.size > 0) await Promise.allSettled([...pending]);
}
