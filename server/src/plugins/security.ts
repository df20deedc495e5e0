import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
import { REQUESTED_WITH_VALUE } from '@mss/contracts/common';
import type { AppContext } from '../context.ts';
import { AppError, type FieldErrors } from '../errors.ts';
import { findDisallowedText } from '../lib/text.ts';
import { resolvePrincipal } from '../auth/session-auth.ts';

export const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * What every request passes: security headers (a strict content security policy), the CSRF check
 * of the API (docs/architecture.md §4), the text no input may hold, and no shared caching of
 * answers about one user.
 */
export const securityPlugin = fp<{ ctx: AppContext }>(
  async (app, { ctx }) => {
    const { config } = ctx;
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

    // CSRF defence (docs/architecture.md §4): a browser only sends X-Requested-With from our own scripts. Only a
    // request that a valid bearer token authenticates may go without it: a browser cannot be made
    // to send a victim's token, but any page can make it send an invalid one next to the cookie.
    app.addHook('onRequest', async (request) => {
      if (SAFE_METHODS.has(request.method) || !request.url.startsWith('/api/')) return;
      if (request.headers['x-requested-with'] === REQUESTED_WITH_VALUE) return;
      const principal = request.headers.authorization !== undefined ? await resolvePrincipal(ctx, request) : null;
      if (principal?.sessionKind !== 'token') throw new AppError('forbidden', 'auth.csrf');
    });
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
  },
  { name: 'security' },
);
