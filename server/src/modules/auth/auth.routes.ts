import {
  forgotPasswordBodySchema,
  loginBodySchema,
  loginResponseSchema,
  messageResponseSchema,
  refreshResponseSchema,
  resetPasswordBodySchema,
  switchOrganizationBodySchema,
  tokenBodySchema,
  tokenResponseSchema,
} from '@mss/contracts/auth';
import { translate } from '@mss/contracts/messages';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../context.ts';
import { requireSignedIn, resolvePrincipal, SESSION_COOKIE } from '../../auth/session-auth.ts';
import { principalOf } from '../../auth/principal.ts';
import { localeOf } from '../../i18n.ts';
import {
  checkCredentials,
  createSession,
  issueToken,
  refreshSession,
  requestPasswordReset,
  resetPassword,
  revokeSession,
  switchOrganization,
} from './auth.service.ts';

const tags = ['auth'];

export function authRoutes(app: App, ctx: AppContext) {
  const setSessionCookie = (reply: FastifyReply, token: string, expiresIn: number) =>
    reply.setCookie(SESSION_COOKIE, token, {
      httpOnly: true,
      sameSite: 'lax',
      secure: ctx.config.COOKIE_SECURE,
      path: '/',
      maxAge: expiresIn,
    });
  const clientOf = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers['user-agent'] });

  app.post(
    '/auth/login',
    {
      schema: {
        tags,
        summary: 'Sign in; sets the session cookie',
        description:
          'A user in several organizations who sends none gets must_choose_organization with the list of organizations, and no session. A user with two-factor sign-in on who sends no code gets must_enter_code, and no session.',
        body: loginBodySchema,
        response: { 200: loginResponseSchema },
      },
    },
    async (request, reply) => {
      const result = await checkCredentials(ctx, { ...request.body, ip: request.ip });
      if (result.kind === 'enter-code') return { data: { expires_in: 0, must_choose_organization: false, must_enter_code: true } };
      if (result.kind === 'choose-organization') {
        return { data: { expires_in: 0, must_choose_organization: true, organizations: result.organizations } };
      }
      const session = await createSession(ctx, { ...result, kind: 'session', ...clientOf(request) });
      setSessionCookie(reply, session.token, session.expiresIn);
      return { data: { expires_in: session.expiresIn, must_choose_organization: false } };
    },
  );

  app.post(
    '/auth/refresh',
    { schema: { tags, summary: 'Extend the session', response: { 200: refreshResponseSchema } }, preValidation: requireSignedIn(ctx) },
    async (request, reply) => {
      const principal = principalOf(request);
      const expiresIn = await refreshSession(ctx, principal.sessionId);
      const cookie = request.cookies[SESSION_COOKIE];
      if (principal.sessionKind === 'session' && cookie) setSessionCookie(reply, cookie, expiresIn);
      return { data: { expires_in: expiresIn } };
    },
  );

  app.post('/auth/logout', { schema: { tags, summary: 'Sign out; revokes the session' } }, async (request, reply) => {
    const principal = await resolvePrincipal(ctx, request);
    if (principal) await revokeSession(ctx, principal.sessionId, request.ip);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return reply.code(204).send();
  });

  app.post(
    '/auth/organization',
    {
      schema: {
        tags,
        summary: 'Work in another of your organizations; replaces the session cookie',
        description: 'For a browser session of a user who belongs to the organization named (its uuid); the old session ends.',
        body: switchOrganizationBodySchema,
        response: { 200: refreshResponseSchema },
      },
      preValidation: requireSignedIn(ctx),
    },
    async (request, reply) => {
      const session = await switchOrganization(ctx, principalOf(request), { organization: request.body.organization, ...clientOf(request) });
      setSessionCookie(reply, session.token, session.expiresIn);
      return { data: { expires_in: session.expiresIn } };
    },
  );

  app.post(
    '/auth/token',
    {
      schema: {
        tags,
        summary: 'Issue a bearer token for an integration',
        body: tokenBodySchema,
        response: { 201: tokenResponseSchema },
      },
    },
    async (request, reply) => {
      const { email, password, organization, device_name, scope, code } = request.body;
      const session = await issueToken(ctx, { email, password, organization, code, deviceName: device_name, scope, ...clientOf(request) });
      return reply.code(201).send({ data: { token: session.token, token_type: 'Bearer' as const, expires_in: session.expiresIn } });
    },
  );

  app.post(
    '/auth/forgot-password',
    {
      schema: {
        tags,
        summary: 'E-mail a password reset link',
        description: 'Answers the same whether or not the address has an account.',
        body: forgotPasswordBodySchema,
        response: { 200: messageResponseSchema },
      },
    },
    async (request) => {
      const appUrl = ctx.config.APP_URL ?? `http://localhost:${ctx.config.PORT}`;
      requestPasswordReset(ctx, { email: request.body.email, appUrl });
      return { data: { message: translate('passwords.sent', {}, localeOf(request)) } };
    },
  );

  app.post(
    '/auth/reset-password',
    {
      schema: { tags, summary: 'Set a new password with a reset link', body: resetPasswordBodySchema, response: { 200: messageResponseSchema } },
    },
    async (request) => {
      await resetPassword(ctx, { ...request.body, ip: request.ip });
      return { data: { message: translate('passwords.reset', {}, localeOf(request)) } };
    },
  );
}
