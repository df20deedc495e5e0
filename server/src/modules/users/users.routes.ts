import { z } from 'zod';
import { abilitySchema, userSchema } from '@mss/contracts/users';
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

  app.get(
    '/users/me/abilities',
    {
      schema: { tags, summary: "The signed-in user's abilities", response: { 200: z.object({ data: z.array(abilitySchema) }) } },
      preValidation: requireSignedIn(ctx),
    },
    async (request) => ({ data: principalOf(request).subject.abilities ?? [] }),
  );
}
