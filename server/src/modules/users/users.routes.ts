import { z } from 'zod';
import { eq } from 'drizzle-orm';
import { abilitySchema, passwordChangeBodySchema, profileBodySchema, userSchema } from '@mss/contracts/users';
import { users } from '../../db/schema.ts';
import { validationError } from '../../errors.ts';
import { changeOwnPassword } from '../auth/auth.service.ts';
import type { App, AppContext } from '../../context.ts';
import { principalOf } from '../../auth/principal.ts';
import { requireSignedIn } from '../../auth/session-auth.ts';

const tags = ['users'];

// Both answers come from the principal the request was signed in with (one query, or none when
// cached): the user's markets and company markets are those of the session's organization (all
// of them for a super-admin, who belongs to none).
export function usersRoutes(app: App, ctx: AppContext) {
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
      return {
        data: {
          ...user,
          first_name: body.first_name,
          last_name: body.last_name,
          name: `${body.first_name} ${body.last_name}`.trim(),
          phone,
          locale: body.locale,
        },
      };
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

  app.get(
    '/users/me/abilities',
    {
      schema: { tags, summary: "The signed-in user's abilities", response: { 200: z.object({ data: z.array(abilitySchema) }) } },
      preValidation: requireSignedIn(ctx),
    },
    async (request) => ({ data: principalOf(request).subject.abilities ?? [] }),
  );
}
