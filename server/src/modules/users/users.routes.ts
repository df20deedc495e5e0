import { z } from 'zod';
import { abilitySchema, userSchema } from '@mss/contracts/users';
import type { App, AppContext } from '../../context.ts';
import { actorOf, requireActor } from '../../auth/session-auth.ts';
import { findCurrentAbilities, findCurrentUser } from './users.service.ts';

const tags = ['users'];

export function usersRoutes(app: App, ctx: AppContext) {
  app.get(
    '/users/me',
    { schema: { tags, summary: 'The signed-in user', response: { 200: z.object({ data: userSchema }) } }, preValidation: requireActor(ctx) },
    async (request) => ({ data: await findCurrentUser(ctx.db, actorOf(request)) }),
  );

  app.get(
    '/users/me/abilities',
    {
      schema: { tags, summary: "The signed-in user's abilities", response: { 200: z.object({ data: z.array(abilitySchema) }) } },
      preValidation: requireActor(ctx),
    },
    async (request) => ({ data: await findCurrentAbilities(ctx.db, actorOf(request)) }),
  );
}
