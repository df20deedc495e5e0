// Every message, enumeration and e-mail in the reader's language (the translations into the shared catalogue).
import '@mss/contracts/locales';
import Fastify, { type RouteOptions } from 'fastify';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { App, AppContext } from './context.ts';
import { PrincipalCache } from './auth/principal-cache.ts';
import { createMailer } from './mail/mailer.ts';
import { backgroundWorkDone } from './lib/background.ts';
import { startEmbeddedMaintenance } from './db/maintenance.ts';
import { healthRoutes } from './health.ts';
import { apiRoutes } from './api-routes.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { inFlightPlugin } from './plugins/in-flight.ts';
import { RequestsInFlight } from './lib/requests-in-flight.ts';
import { jobsPlugin } from './plugins/jobs.ts';
import { keptAnswersPlugin } from './plugins/kept-answers.ts';
import { openApiPlugin } from './plugins/openapi.ts';
import { securityPlugin } from './plugins/security.ts';
import { sessionsPlugin } from './plugins/sessions.ts';
import { webPlugin } from './plugins/web.ts';

/** Requests larger than this are refused before they are read (file uploads set their own limit). */
const BODY_LIMIT_BYTES = 1024 * 1024;

export interface BuildOptions {
  logger?: boolean | object;
}

/**
 * The app, as plugins in their order: errors first (every later route answers in its shape), the
 * requests in flight (counted; closed once stopping), cookies and uploads, security, the API document, sessions, kept answers of reads, the API's routes (api-routes.ts), the
 * web app. A process that runs jobs starts them first.
 */
export async function buildApp(deps: Pick<AppContext, 'config' | 'database'>, options: BuildOptions = {}): Promise<App> {
  const { config } = deps;
  const app = Fastify({
    logger: options.logger ?? { level: config.LOG_LEVEL },
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: config.TRUST_PROXY,
    // While the process stops, a request that still reaches it (on a connection opened before the
    // listening socket closed) is served like the ones in flight, not refused with 503: a load
    // balancer would not pass a refused upload on to another process.
    return503OnClosing: false,
    // Query arrays come in bracket form (docs/product.md §7): ids[]=1&ids[]=2 → { ids: ['1', '2'] }.
    routerOptions: { querystringParser: parseQuery },
  }).withTypeProvider<ZodTypeProvider>();
  const mailer = createMailer({
    smtpUrl: config.SMTP_URL,
    from: config.MAIL_FROM,
    dataDir: config.dataDir,
    log: app.log,
    pool: { maxConnections: config.MAIL_MAX_CONNECTIONS, ratePerSecond: config.MAIL_RATE_PER_SECOND },
  });
  const principals = new PrincipalCache();
  const ctx: AppContext = { ...deps, db: deps.database.db, mailer, log: app.log, queue: null, principals, requests: new RequestsInFlight() };
  // Work a request left running (a reset mail) finishes before the mailer and database go.
  app.addHook('onClose', async () => {
    await backgroundWorkDone();
    mailer.close();
  });
  if (deps.database.kind === 'pglite' && config.DB_MAINTENANCE_MINUTES > 0) {
    const stopMaintenance = startEmbeddedMaintenance(deps.database.pool, app.log, config.DB_MAINTENANCE_MINUTES * 60_000);
    app.addHook('onClose', stopMaintenance);
  }
  if (config.JOBS === 'on') await app.register(jobsPlugin, { ctx });

  // Every route, as registered: the authorization matrix test reads it, so a new route without
  // an entry there fails the test.
  const registeredRoutes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => void registeredRoutes.push(route));
  app.decorate('registeredRoutes', registeredRoutes);

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(errorsPlugin);
  await app.register(inFlightPlugin, { ctx });
  app.decorateRequest('principal', null);

  await app.register(cookie);
  // Uploads: one file per request; each route sets its own size limit (logotypes 2 MiB).
  await app.register(multipart, { limits: { files: 1, fields: 10, fileSize: 20 * 1024 * 1024 } });
  await app.register(securityPlugin, { ctx });
  await app.register(openApiPlugin);
  await app.register(sessionsPlugin, { ctx });
  await app.register(keptAnswersPlugin, { ctx });

  app.decorate('health', healthRoutes(app, ctx));
  await app.register(apiRoutes, { prefix: '/api/v1', ctx });
  await app.register(webPlugin, { config });
  return app;
}

export function parseQuery(query: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(query)) {
    if (key.endsWith('[]')) {
      const name = key.slice(0, -2);
      const list = out[name];
      out[name] = Array.isArray(list) ? [...list, value] : [value];
    } else out[key] = value;
  }
  return out;
}
