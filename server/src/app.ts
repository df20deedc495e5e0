import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyError, type FastifyReply, type FastifyRequest, type RouteOptions } from 'fastify';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { REQUESTED_WITH_VALUE } from '@mss/contracts/common';
import { isMessageKey, type FieldParams, type MessageKey, type MessageParams, translate } from '@mss/contracts/messages';
import type { App, AppContext } from './context.ts';
import { AppError, type FieldErrors, validationError } from './errors.ts';
import { findDisallowedText } from './lib/text.ts';
import { INVALIDATION_CHANNEL, listenForInvalidations, PrincipalCache } from './auth/principal-cache.ts';
import { resolvePrincipal } from './auth/session-auth.ts';
import { createMailer } from './mail/mailer.ts';
import { backgroundWorkDone } from './lib/background.ts';
import { startJobQueue } from './jobs/queue.ts';
import { appUrlOf, communicationsRoutes } from './modules/communications/communications.routes.ts';
import { recoverCommunications, runCommunicationSend } from './modules/communications/communications.sender.ts';
import { sendWorkflowNotifications } from './modules/communications/notifications.ts';
import { startEmbeddedMaintenance } from './db/maintenance.ts';
import { deleteAbandonedFiles } from './lib/files.ts';
import { IMPORT_MAX_ATTEMPTS, processImport, recoverImports } from './modules/imports/imports.service.ts';
import { importsRoutes } from './modules/imports/imports.routes.ts';
import { localeOf } from './i18n.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { currenciesRoutes } from './modules/currencies/currencies.routes.ts';
import { currencyConversionsRoutes } from './modules/currency-conversions/currency-conversions.routes.ts';
import { releasesRoutes } from './modules/releases/releases.routes.ts';
import { organizationsRoutes } from './modules/organizations/organizations.routes.ts';
import { informationModalsRoutes } from './modules/information-modals/information-modals.routes.ts';
import { clustersRoutes } from './modules/clusters/clusters.routes.ts';
import { marketsRoutes } from './modules/markets/markets.routes.ts';
import { codesRoutes } from './modules/codes/codes.routes.ts';
import { codeSectionsRoutes } from './modules/code-sections/code-sections.routes.ts';
import { codeGroupsRoutes } from './modules/code-groups/code-groups.routes.ts';
import { companiesRoutes } from './modules/companies/companies.routes.ts';
import { adminUsersRoutes } from './modules/admin-users/admin-users.routes.ts';
import { periodsRoutes } from './modules/periods/periods.routes.ts';
import { reportsRoutes } from './modules/reports/reports.routes.ts';
import { approvalsRoutes } from './modules/approvals/approvals.routes.ts';
import { statisticsRoutes } from './modules/statistics/statistics.routes.ts';
import { protocolRoutes } from './modules/protocol/protocol.routes.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { healthRoutes } from './health.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Requests larger than this are refused before they are read (file uploads set their own limit). */
const BODY_LIMIT_BYTES = 1024 * 1024;

export interface BuildOptions {
  logger?: boolean | object;
  /** Called for every route as it is registered (the input test walks every route the app has). */
}

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
  const ctx: AppContext = { ...deps, db: deps.database.db, mailer, log: app.log, queue: null, principals };
  // Several API processes may share a PostgreSQL server: each hears the others' changes.
  const notifyOthers = deps.database.kind === 'postgres' && config.DATABASE_URL ? config.DATABASE_URL : null;
  if (notifyOthers) {
    const stopListening = listenForInvalidations(notifyOthers, principals, app.log);
    app.addHook('onClose', stopListening);
  }
  // Work a request left running (a reset mail) finishes before the mailer and database go.
  app.addHook('onClose', async () => {
    await backgroundWorkDone();
    mailer.close();
  });
  if (deps.database.kind === 'pglite' && config.DB_MAINTENANCE_MINUTES > 0) {
    const stopMaintenance = startEmbeddedMaintenance(deps.database.pool, app.log, config.DB_MAINTENANCE_MINUTES * 60_000);
    app.addHook('onClose', stopMaintenance);
  }
  if (config.JOBS === 'on') {
    ctx.queue = await startJobQueue({
      database: deps.database,
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
      // Workflow notifications: what waits is mailed by one sweep at a time, whichever process runs it.
      sweepNotifications: async () => {
        await sendWorkflowNotifications({ db: ctx.db, mailer, log: app.log, appUrl: appUrlOf(ctx) });
      },
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
    const sends = await recoverCommunications(ctx.db, deps.database.kind === 'pglite', (id) => ctx.queue!.sendCommunication(id));
    if (sends) app.log.info({ sends }, 'communications waiting to be sent queued again');
    // Every NOTIFY_SWEEP_SECONDS a sweep is asked for (digests once an hour); asked by several
    // processes in one interval, it runs once.
    const sweep = setInterval(() => {
      queue.sweepNotifications().catch((error: unknown) => app.log.error({ err: error }, 'workflow notifications failed'));
    }, config.NOTIFY_SWEEP_SECONDS * 1000);
    sweep.unref();
    app.addHook('onClose', async () => clearInterval(sweep));
    // Uploads cut off by a crash left part of a file behind; the process that runs jobs tidies up.
    const abandoned = await deleteAbandonedFiles(ctx.db);
    if (abandoned) app.log.info({ abandoned }, 'incomplete uploaded files deleted');
  }

  // Every route, as registered: the authorization matrix test reads it, so a new route without
  // an entry there fails the test.
  const registeredRoutes: RouteOptions[] = [];
  app.addHook('onRoute', (route) => void registeredRoutes.push(route));
  app.decorate('registeredRoutes', registeredRoutes);

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // Set before any plugin is registered, so that the plugins' own routes (the API docs) answer
  // errors in the same shape.
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => sendError(error, request, reply));
  app.decorateRequest('principal', null);

  await app.register(cookie);
  // Uploads: one file per request; each route sets its own size limit (logotypes 2 MiB).
  await app.register(multipart, { limits: { files: 1, fields: 10, fileSize: 20 * 1024 * 1024 } });
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine writes its CSS variables into <style> elements at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    // Only meaningful over HTTPS; set by whoever terminates TLS.
    strictTransportSecurity: config.COOKIE_SECURE ? undefined : false,
  });

  await app.register(swagger, {
    openapi: {
      info: { title: 'Market Sales Statistics API', version: '1' },
      servers: [{ url: '/api/v1' }],
      components: {
        securitySchemes: {
          session: { type: 'apiKey', in: 'cookie', name: 'mss_session' },
          bearer: { type: 'http', scheme: 'bearer' },
        },
      },
      security: [{ session: [] }, { bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  // CSRF defence (docs/architecture.md §4): a browser only sends X-Requested-With from our own scripts. Only a
  // request that a valid bearer token authenticates may go without it: a browser cannot be made
  // to send a victim's token, but any page can make it send an invalid one next to the cookie.
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method) || !request.url.startsWith('/api/')) return;
    if (request.headers['x-requested-with'] === REQUESTED_WITH_VALUE) return;
    const principal = request.headers.authorization !== undefined ? await resolvePrincipal(ctx, request) : null;
    if (principal?.sessionKind !== 'token') throw new AppError('forbidden', 'auth.csrf');
  });
  // Every change clears the resolved sessions (auth/principal-cache.ts), here and in the other
  // processes, before its answer leaves: the next request sees memberships, roles and disabled
  // users as they now are. Except the routes listed here, which write none of what a session
  // resolves to (sessions, users, organizations, roles, markets, companies and their markets):
  // signing in, and the reporting work of a deadline (uploads, report and period steps,
  // communications). Clearing on each of the hundreds of uploads of a deadline made every reader's
  // next request load its session again (issue 21, bench:deadline). A new route clears.
  const keepsPrincipals = new Set(
    [
      '/auth/login',
      '/auth/token',
      '/auth/forgot-password',
      '/reports/:uuid/file',
      '/reports/:uuid/status',
      '/reports/bulk-status',
      '/reports/:uuid/copy-previous',
      '/reports/:uuid/preflight',
      '/periods/:uuid/open',
      '/periods/:uuid/close',
      '/periods/:uuid/publish',
      '/periods/:uuid/republish',
      '/periods/:uuid/unpublish',
      '/communications/:uuid/preflight',
      '/communications/:uuid/send',
      '/communications/:uuid/retry',
      '/releases/:id/view',
      '/information-modals/:id/dismiss',
    ].map((route) => `/api/v1${route}`),
  );
  const invalidate = async (request: FastifyRequest) => {
    if (SAFE_METHODS.has(request.method) || keepsPrincipals.has(request.routeOptions.url ?? '')) return;
    principals.clear();
    if (notifyOthers) {
      await deps.database.pool
        .query(`select pg_notify('${INVALIDATION_CHANNEL}', '')`)
        .catch((error: unknown) => request.log.error({ err: error }, 'principal cache: notify failed'));
    }
  };
  app.addHook('onSend', async (request) => invalidate(request));
  app.addHook('onRequestAbort', async (request) => invalidate(request));
  // Text that no input may hold (NUL, other control characters, half a surrogate pair), checked
  // once for every route: route params, query string and JSON body, before any route hook. It is
  // the first preValidation hook (the body is parsed by then; route-level hooks such as sign-in
  // and permission checks run after the instance's), so no hook that looks a record up by a
  // param, and no service, ever sees such a string. It needs no database, and tells a caller who
  // is not signed in nothing that a 401 would not: only that the route exists.
  app.addHook('preValidation', async (request) => {
    const fields = [
      ...findDisallowedText(request.params, 'params'),
      ...findDisallowedText(request.query, 'query'),
      ...findDisallowedText(request.body, 'body'),
    ];
    if (fields.length === 0) return;
    const fieldErrors: FieldErrors = {};
    for (const field of fields) fieldErrors[field] = [{ key: 'validation.characters' }];
    throw new AppError('validation', 'validation.characters', {}, fieldErrors);
  });
  // Answers of the API are about one user: never cache them in shared caches.
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/api/v1/') && !reply.hasHeader('cache-control')) reply.header('Cache-Control', 'no-store');
  });

  app.decorate('health', healthRoutes(app, ctx));

  await app.register(
    async (api) => {
      const v1 = api.withTypeProvider<ZodTypeProvider>();
      authRoutes(v1, ctx);
      usersRoutes(v1, ctx);
      protocolRoutes(v1);
      currenciesRoutes(v1, ctx);
      currencyConversionsRoutes(v1, ctx);
      releasesRoutes(v1, ctx);
      organizationsRoutes(v1, ctx);
      informationModalsRoutes(v1, ctx);
      clustersRoutes(v1, ctx);
      marketsRoutes(v1, ctx);
      codesRoutes(v1, ctx);
      codeSectionsRoutes(v1, ctx);
      codeGroupsRoutes(v1, ctx);
      companiesRoutes(v1, ctx);
      adminUsersRoutes(v1, ctx);
      periodsRoutes(v1, ctx);
      reportsRoutes(v1, ctx);
      approvalsRoutes(v1, ctx);
      importsRoutes(v1, ctx);
      statisticsRoutes(v1, ctx);
      communicationsRoutes(v1, ctx);
    },
    { prefix: '/api/v1' },
  );

  const indexHtml = path.join(config.webDist, 'index.html');
  const hasWeb = fs.existsSync(indexHtml);
  if (hasWeb) {
    // wildcard: files are looked up per request, so a rebuilt web/dist is served without a restart.
    // Compressed at build time (scripts/compress-assets.mjs: .br and .gz beside each file), sent
    // as the browser accepts. Built assets carry a content hash in their name: cached for a year
    // and never asked again; anything else is revalidated.
    await app.register(fastifyStatic, {
      root: config.webDist,
      wildcard: true,
      index: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply: FastifyReply, filePath: string) => {
        const hashed = path.relative(config.webDist, filePath).startsWith(`assets${path.sep}`);
        reply.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  const sendIndex = (reply: FastifyReply) => reply.header('Cache-Control', 'no-cache').sendFile('index.html');
  if (hasWeb) app.get('/', { schema: { hide: true } }, (_request, reply) => sendIndex(reply));
  app.setNotFoundHandler((request, reply) => {
    // The web app owns every path outside /api (React Router shows its own 404 page), except
    // missing build assets, which must not come back as HTML.
    if (hasWeb && request.method === 'GET' && !request.url.startsWith('/api/') && !request.url.startsWith('/assets/')) {
      return sendIndex(reply);
    }
    return sendError(new AppError('not_found', 'generic.not_found'), request, reply);
  });

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

function render(request: FastifyRequest, key: MessageKey, params?: MessageParams, fields?: FieldParams): string {
  return translate(key, params, localeOf(request), fields);
}

/** The one error handler: `{ message, errors? }` from the catalogue, in the request's locale. */
function sendError(error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) {
    let errors: Record<string, string[]> | undefined;
    if (error.fieldErrors) {
      errors = {};
      for (const [field, list] of Object.entries(error.fieldErrors)) {
        // :attribute is the field's label (in the request's locale) unless the service named it.
        errors[field] = list.map((e) => render(request, e.key, e.params, { attribute: field, ...e.fields }));
      }
    }
    reply.headers(error.headers);
    // The top-level message of a field error names the field, as the field's own message does.
    const firstField = error.fieldErrors ? Object.keys(error.fieldErrors)[0] : undefined;
    const fields = { ...(firstField ? { attribute: firstField } : {}), ...error.fields };
    return reply.code(error.status).send({ message: render(request, error.messageKey, error.params, fields), ...(errors ? { errors } : {}) });
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    // A Map: an unknown key is the client's own text ("constructor" must not reach Object.prototype).
    const errors = new Map<string, string[]>();
    const add = (field: string, message: string) => errors.set(field, [...(errors.get(field) ?? []), message]);
    // Unknown keys first: a misspelt key is why its field is missing, so the message names it.
    const issues = [...error.validation].sort((a, b) => Number(b.keyword === 'unrecognized_keys') - Number(a.keyword === 'unrecognized_keys'));
    const context = (error as { validationContext?: string }).validationContext;
    const input = context === 'body' ? request.body : context === 'querystring' ? request.query : context === 'params' ? request.params : undefined;
    for (const issue of issues) {
      const segments = issue.instancePath.split('/').slice(1);
      const path = segments.join('.');
      if (issue.keyword === 'unrecognized_keys') {
        // One field error per key, under the key's own path, naming it as sent (it has no label).
        for (const key of (issue.params as { keys?: string[] }).keys ?? []) {
          add(path ? `${path}.${key}` : key, render(request, 'validation.unknown_key', { attribute: key }));
        }
        continue;
      }
      const field = path || 'body';
      const params = (issue.params ?? {}) as ZodIssueLike;
      // A field that was not sent is required, whatever its schema would have said of a value
      // (a list of allowed numbers says "invalid" of anything it does not hold, nothing included).
      const key = path && valueAt(input, segments) === undefined ? 'validation.required' : messageKeyOfIssue(issue.keyword, params, issue.message ?? '', field);
      add(
        field,
        render(
          request,
          key,
          {
            min: String(params.minimum ?? ''),
            max: String(params.maximum ?? ''),
            digits: String(params.params?.digits ?? ''),
            scale: String(params.params?.scale ?? ''),
          },
          { attribute: field },
        ),
      );
    }
    const first = [...errors.values()][0]?.[0];
    return reply.code(422).send({ message: first ?? render(request, 'generic.validation'), errors: Object.fromEntries(errors) });
  }
  // Database constraints are the last line of defence; services check first with clear messages.
  // Drizzle wraps the driver's error; the SQLSTATE is on the cause.
  const pgError = (error as { cause?: PgErrorLike }).cause ?? (error as PgErrorLike);
  const pgCode = (error as { code?: string }).code ?? pgError.code;
  if (pgCode === '23503') return reply.code(409).send({ message: render(request, 'generic.in_use', { model: 'This record' }) });
  if (pgCode === '23505') {
    // The loser of a race that the service's own check could not see answers as that check would.
    const unique = pgError.constraint ? UNIQUE_FIELDS[pgError.constraint] : undefined;
    if (unique) return sendError(validationError(unique.field, unique.key), request, reply);
    return reply.code(409).send({ message: render(request, 'generic.conflict') });
  }
  const status = error.statusCode ?? 500;
  if (status === 413) return reply.code(413).send({ message: render(request, 'generic.payload_too_large') });
  if (status === 415 || status === 400) {
    return reply.code(422).send({ message: render(request, 'generic.validation') });
  }
  if (status === 429) return reply.code(429).send({ message: error.message });
  if (status >= 500) request.log.error({ err: error }, 'request failed');
  else request.log.warn({ err: error }, 'request refused');
  return reply.code(status >= 400 && status < 500 ? status : 500).send({ message: render(request, 'generic.error') });
}

interface PgErrorLike {
  code?: string;
  constraint?: string;
}

/** Unique indexes whose violation is a field error of the form that was sent (422, as the services answer). */
const UNIQUE_FIELDS: Record<string, { field: string; key: MessageKey }> = {
  organizations_name_lower_unique: { field: 'name', key: 'validation.unique' },
  clusters_organization_name_lower_unique: { field: 'name', key: 'validation.unique' },
  users_email_unique: { field: 'email', key: 'auth.email_in_use' },
  currencies_iso_code_unique: { field: 'iso_code', key: 'validation.unique' },
  markets_organization_iso_code_unique: { field: 'iso_code', key: 'validation.unique' },
  codes_organization_code_unique: { field: 'code', key: 'validation.unique' },
  releases_version_unique: { field: 'version', key: 'validation.unique' },
  currency_conversions_pair_date_unique: { field: 'valid_from', key: 'currency_conversions.exists' },
};

interface ZodIssueLike {
  /** A custom issue's own params: a decimal string out of its column's shape (decimalInputSchema). */
  params?: { decimal?: boolean; digits?: number; scale?: number };
  origin?: string;
  format?: string;
  expected?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
}

/** What a request part holds at a path of an issue; undefined when it was not sent. */
function valueAt(root: unknown, segments: string[]): unknown {
  let value = root;
  for (const segment of segments) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, segment)) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

/** A record's id ("company_id", "market_ids.2"): 0 or less names no record. */
const isIdField = (field: string) => /(^|\.)[a-z_]*_id$|(^|\.)[a-z_]*_ids\.\d+$/.test(field);

/**
 * The catalogue key of a schema's complaint. A schema may name the key itself as its message
 * (`.regex(…, 'validation.currency_code')`); otherwise the kind of issue decides.
 */
function messageKeyOfIssue(code: string, issue: ZodIssueLike, message: string, field: string): MessageKey {
  if (message.startsWith('validation.') && isMessageKey(message)) return message;
  switch (code) {
    case 'invalid_type':
      if (/received (undefined|null)$/.test(message)) return 'validation.required';
      if (issue.expected === 'int') return 'validation.integer';
      if (issue.expected === 'number') return 'validation.numeric';
      if (issue.expected === 'string') return 'validation.string';
      if (issue.expected === 'boolean') return 'validation.boolean';
      if (issue.expected === 'array') return 'validation.array';
      return 'validation.invalid';
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return 'validation.required';
      if (issue.origin === 'string') return 'validation.min.string';
      // positive(): 0 is refused. No record has the id 0 or less.
      if (issue.inclusive === false) return isIdField(field) ? 'validation.in' : 'validation.gt.numeric';
      return 'validation.min.numeric';
    case 'too_big':
      return issue.origin === 'string' ? 'validation.max.string' : 'validation.max.numeric';
    case 'invalid_format':
      if (issue.format === 'email') return 'validation.email';
      if (issue.format === 'uuid') return 'validation.uuid';
      if (issue.format === 'datetime' || issue.format === 'date') return 'validation.date';
      return 'validation.invalid';
    case 'invalid_value':
    case 'invalid_union':
      return 'validation.in';
    case 'custom':
      return issue.params?.decimal ? 'validation.decimal' : 'validation.invalid';
    default:
      return 'validation.invalid';
  }
}
