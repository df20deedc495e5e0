import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from './context.ts';

/*
 * Health for load balancers and orchestrators (README "Health"), outside /api and
 * without a session:
 * - GET /healthz: the process is alive and its event loop answers. Nothing else is asked: an
 *   orchestrator restarts a process whose liveness fails, and a database that is down is no
 *   reason to restart the app.
 * - GET /readyz: this process should get requests: the database answers (within 2 s), every
 *   migration this build knows is applied, and the process is not draining (stopping). 503 with
 *   the reason otherwise, so a load balancer sends requests elsewhere.
 * Both answer JSON `{ status }`, never cached.
 */

const READY_TIMEOUT_MS = 2_000;

/** The newest migration this build knows (its journal's `when`, which drizzle stores as `created_at`). */
function newestMigration(): number {
  const journal = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, 'db', 'migrations', 'meta', '_journal.json'), 'utf8')) as {
    entries: { when: number }[];
  };
  return Math.max(...journal.entries.map((e) => e.when));
}

export interface Health {
  /** Set when the process starts stopping: /readyz answers 503 from then on. */
  draining: boolean;
}

export function healthRoutes(app: FastifyInstance, ctx: AppContext): Health {
  const health: Health = { draining: false };
  const newest = newestMigration();
  const answer = { schema: { hide: true } };
  app.get('/healthz', answer, async (_request, reply) => reply.header('Cache-Control', 'no-store').send({ status: 'ok' }));
  app.get('/readyz', answer, async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
    if (health.draining) return reply.code(503).send({ status: 'draining' });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), READY_TIMEOUT_MS)));
    const applied = ctx.db
      .execute<{ newest: number | null }>(sql`select max(created_at)::bigint as newest from drizzle.__drizzle_migrations`)
      .then((r) => Number(r.rows[0]?.newest ?? 0))
      .catch(() => 'unreachable' as const);
    const result = await Promise.race([applied, timeout]).finally(() => clearTimeout(timer));
    if (result === 'timeout' || result === 'unreachable') return reply.code(503).send({ status: 'database unreachable' });
    if (result < newest) return reply.code(503).send({ status: 'migrations pending' });
    return reply.send({ status: 'ready' });
  });
  return health;
}
