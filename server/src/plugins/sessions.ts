import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.ts';
import { INVALIDATION_CHANNEL, listenForInvalidations } from '../auth/principal-cache.ts';
import { SAFE_METHODS } from './security.ts';

/**
 * Resolved sessions stay true: a change clears them here, and, when several processes share a
 * PostgreSQL server, in the others too (auth/principal-cache.ts).
 */
export const sessionsPlugin = fp<{ ctx: AppContext }>(
  async (app, { ctx }) => {
    const { config, principals } = ctx;
    // Several API processes may share a PostgreSQL server: each hears the others' changes.
    const notifyOthers = ctx.database.kind === 'postgres' && config.DATABASE_URL ? config.DATABASE_URL : null;
    if (notifyOthers) {
      const stopListening = listenForInvalidations(notifyOthers, principals, app.log);
      app.addHook('onClose', stopListening);
    }
    // Every change clears the resolved sessions (auth/principal-cache.ts), here and in the other
    // processes, before its answer leaves: the next request sees memberships, roles and disabled
    // users as they now are. Except the routes listed here, which write none of what a session
    // resolves to (sessions, users, organizations, roles, markets, companies and their markets):
    // signing in, and the reporting work of a deadline (uploads, report and period steps,
    // communications). Clearing on each of the hundreds of uploads of a deadline made every reader's
    // next request load its session again (bench:deadline). A new route clears.
    const keepsPrincipals = new Set(
      [
        '/auth/login',
        '/auth/token',
        '/auth/forgot-password',
        '/reports/:uuid/file',
        '/reports/:uuid/rows',
        '/reports/:uuid/status',
        '/reports/bulk-status',
        '/reports/:uuid/copy-previous',
        '/reports/:uuid/preflight',
        '/periods/:uuid/open',
        '/periods/:uuid/close',
        '/periods/:uuid/publish',
        '/periods/:uuid/republish',
        '/periods/:uuid/unpublish',
        '/history-imports',
        '/history-imports/:uuid/import',
        '/history-imports/:uuid/cancel',
        '/history-imports/:uuid/publish',
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
        await ctx.database.pool
          .query(`select pg_notify('${INVALIDATION_CHANNEL}', '')`)
          .catch((error: unknown) => request.log.error({ err: error }, 'principal cache: notify failed'));
      }
    };
    app.addHook('onSend', async (request) => invalidate(request));
    app.addHook('onRequestAbort', async (request) => invalidate(request));
  },
  { name: 'sessions' },
);
