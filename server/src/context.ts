import type { Health } from './health.ts';
import type { FastifyBaseLogger, RouteOptions, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import type { Database, Db } from './db/client.ts';
import type { Mailer } from './mail/mailer.ts';
import type { JobQueue } from './jobs/queue.ts';
import type { PrincipalCache } from './auth/principal-cache.ts';
import type { RequestsInFlight } from './lib/requests-in-flight.ts';

export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  mailer: Mailer;
  /** Null when this process runs no jobs: queued work waits in the database for a worker. */
  queue: JobQueue | null;
  log: FastifyBaseLogger;
  /** Resolved sessions by credential (auth/principal-cache.ts). */
  principals: PrincipalCache;
  /** The requests this process is serving (plugins/in-flight.ts): long background work lets them go first. */
  requests: RequestsInFlight;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route of the app, as registered (the authorization and input tests read them). */
    registeredRoutes: RouteOptions[];
    /** /readyz's state: set `draining` when the process starts stopping (health.ts). */
    health: Health;
    /** The requests being served (plugins/in-flight.ts). */
    requestsInFlight: RequestsInFlight;
  }
}

export type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, ZodTypeProvider>;
