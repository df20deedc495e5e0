import { z } from 'zod';
import { auditChange, actorOf } from '../../audit/audit.ts';
import { eq } from 'drizzle-orm';
import {
  abilitySchema,
  passwordChangeBodySchema,
  profileBodySchema,
  recoveryCodesSchema,
  twoFactorDisableBodySchema,
  twoFactorEnableBodySchema,
  twoFactorSetupSchema,
  twoFactorStatusSchema,
  userSchema,
} from '@mss/contracts/users';
import { DEVICE_NAME_PATTERN, integrationTokenSchema, newTokenBodySchema } from '@mss/contracts/auth';
import type { FastifyRequest } from 'fastify';
import { users } from '../../db/schema.ts';
import { forbidden, notFound, validationError } from '../../errors.ts';
import { changeOwnPassword, createSession, disableOwnTwoFactor, listTokens, revokeToken } from '../auth/auth.service.ts';
import { enableTwoFactor, startTwoFactorSetup, twoFactorStatus } from '../auth/two-factor.ts';
import type { App, AppContext } from '../../context.ts';
import { principalOf } from '../../auth/principal.ts';
import { requireSignedIn } from '../../auth/session-auth.ts';

const tags = ['users'];

// Both answers come from the principal the request was signed in with (one query, or none when
// cached): the user's markets and company markets are those of the session's organization (all
// of them for a super-admin, who belongs to none).
export function usersRoutes(app: App, ctx: AppContext) {
  tokenRoutes(app, ctx);
  accountRoutes(app, ctx);
  twoFactorRoutes(app, ctx);

  app.get(
    '/users/me/abilities',
    {
      schema: { tags, summary: "The signed-in user's abilities", response: { 200: z.object({ data: z.array(abilitySchema) }) } },
      preValidation: requireSignedIn(ctx),
    },
    async (request) => ({ data: principalOf(request).subject.abilities ?? [] }),
  );
}

/** The principal of a browser session; a token's is refused (403). */
async function browserSession(request: FastifyRequest) {
  const principal = principalOf(request);
  if (principal.sessionKind !== 'session') throw forbidden();
  return principal;
}

/**
 * The signed-in user's integration tokens (the profile screen): listed, made (the token is shown
 * once) and revoked. Only a browser session manages them: a token makes no tokens.
 */
function tokenRoutes(app: App, ctx: AppContext) {
  app.get(
    '/users/me/tokens',
    {
      schema: {
        tags,
        summary: "The signed-in user's live integration tokens, newest first",
        response: { 200: z.object({ data: z.array(integrationTokenSchema) }) },
      },
      preValidation: requireSignedIn(ctx),
    },
    async (request) => ({ data: await listTokens(ctx, (await browserSession(request)).userId) }),
  );
  app.post(
    '/users/me/tokens',
    {
      schema: {
        tags,
        summary: "A new integration token for the signed-in user, in the session's organization (the token is in this answer only)",
        body: newTokenBodySchema,
        response: { 201: z.object({ data: z.object({ token: z.string(), token_type: z.literal('Bearer'), expires_in: z.number().int() }) }) },
      },
      preValidation: requireSignedIn(ctx),
    },
    async (request, reply) => {
      const principal = await browserSession(request);
      const { device_name, scope } = request.body;
      if (!DEVICE_NAME_PATTERN.test(device_name)) throw validationError('device_name', 'auth.device_name_invalid');
      const session = await createSession(ctx, {
        userId: principal.userId,
        organizationId: principal.organizationId,
        kind: 'token',
        deviceName: device_name,
        scope,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
        by: actorOf(principal, request.ip),
      });
      return reply.code(201).send({ data: { token: session.token, token_type: 'Bearer' as const, expires_in: session.expiresIn } });
    },
  );
  app.delete(
    '/users/me/tokens/:id',
    {
      schema: { tags, summary: "Revoke one of the signed-in user's integration tokens", params: z.object({ id: z.coerce.number().int().positive() }) },
      preValidation: requireSignedIn(ctx),
    },
    async (request, reply) => {
      const principal = await browserSession(request);
      if (!(await revokeToken(ctx, actorOf(principal, request.ip), request.params.id))) throw notFound();
      return reply.code(204).send();
    },
  );
}

/** The signed-in user's own account: who they are, their profile and their password. */
function accountRoutes(app: App, ctx: AppContext) {
  app.get(
    '/users/me',
    { schema: { tags, summary: 'The signed-in user', response: { 200: z.object({ data: userSchema }) } }, preValidation: requireSignedIn(ctx) },
    async (request) => ({ data: principalOf(request).user }),
  );

  // The user's own account (the profile screen): names, phone and language; the e-mail, roles,
  // markets and company stay the administrators'.
  app.put(
    '/users/me',
    {
      schema: {
        tags,
        summary: "Change the signed-in user's name, phone and language",
        body: profileBodySchema,
        response: { 200: z.object({ data: userSchema }) },
      },
      preValidation: requireSignedIn(ctx),
    },
    async (request) => {
      const { user } = principalOf(request);
      const body = request.body;
      if (body.first_name === '') throw validationError('first_name', 'validation.required');
      const phone = body.phone === '' ? null : body.phone;
      await ctx.db.update(users).set({ first_name: body.first_name, last_name: body.last_name, phone, locale: body.locale }).where(eq(users.id, user.id));
      const after = {
        ...user,
        first_name: body.first_name,
        last_name: body.last_name,
        name: `${body.first_name} ${body.last_name}`.trim(),
        phone,
        locale: body.locale,
      };
      await auditChange(ctx.db, actorOf(principalOf(request)), { type: 'user', id: user.id, change: 'updated', before: user, after });
      return { data: after };
    },
  );

  app.put(
    '/users/me/password',
    {
      schema: {
        tags,
        summary: "Change the signed-in user's password",
        description: 'The current password, then the new one twice. Every other session and token of the user ends.',
        body: passwordChangeBodySchema,
      },
      preValidation: requireSignedIn(ctx),
    },
    async (request, reply) => {
      await changeOwnPassword(ctx, principalOf(request), { ...request.body, ip: request.ip });
      return reply.code(204).send();
    },
  );
}

/** Two-factor sign-in (docs/decisions.md "Two-factor sign-in"), from a browser session only. */
function twoFactorRoutes(app: App, ctx: AppContext) {
  app.get(
    '/users/me/two-factor',
    {
      schema: {
        tags,
        summary: 'Whether two-factor sign-in is on, and how many recovery codes are left',
        response: { 200: z.object({ data: twoFactorStatusSchema }) },
      },
      preValidation: requireSignedIn(ctx),
    },
    async (request) => ({ data: await twoFactorStatus(ctx.db, (await browserSession(request)).userId) }),
  );
  app.post(
    '/users/me/two-factor/setup',
    {
      schema: {
        tags,
        summary: 'Begin turning two-factor sign-in on: a new secret for the authenticator app (otpauth:// address), confirmed by the next call',
        response: { 200: z.object({ data: twoFactorSetupSchema }) },
      },
      preValidation: requireSignedIn(ctx),
    },
    async (request) => ({ data: await startTwoFactorSetup(ctx.db, await browserSession(request)) }),
  );
  app.post(
    '/users/me/two-factor/enable',
    {
      schema: {
        tags,
        summary: 'Turn two-factor sign-in on with a code from the app: answers ten one-time recovery codes, shown once',
        body: twoFactorEnableBodySchema,
        response: { 200: z.object({ data: recoveryCodesSchema }) },
      },
      preValidation: requireSignedIn(ctx),
    },
    async (request) => ({ data: await enableTwoFactor(ctx.db, await browserSession(request), request.body.code) }),
  );
  app.post(
    '/users/me/two-factor/disable',
    {
      schema: { tags, summary: 'Turn two-factor sign-in off: the password and a code (or a recovery code)', body: twoFactorDisableBodySchema },
      preValidation: requireSignedIn(ctx),
    },
    async (request, reply) => {
      await disableOwnTwoFactor(ctx, await browserSession(request), { ...request.body, ip: request.ip });
      return reply.code(204).send();
    },
  );
}
