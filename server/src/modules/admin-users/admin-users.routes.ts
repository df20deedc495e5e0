import { adminUserInputSchema, adminUserSchema } from '@mss/contracts/admin';
import type { App, AppContext } from '../../context.ts';
import { z } from 'zod';
import { eq, sql } from 'drizzle-orm';
import { idParamsSchema } from '@mss/contracts/common';
import { requireAnyAbility, requireSuperAdmin } from '../../auth/permissions.ts';
import { actorOfRequest } from '../../audit/audit.ts';
import { users } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';
import { disableTwoFactor } from '../auth/two-factor.ts';
import { registerCrudRoutes } from '../../lib/crud-routes.ts';
import { createAdminUser, deleteAdminUser, findAdminUser, findAdminUsers, updateAdminUser } from './admin-users.service.ts';

export function adminUsersRoutes(app: App, ctx: AppContext) {
  registerCrudRoutes(app, ctx, {
    path: '/admin/users',
    noun: 'user',
    schema: adminUserSchema,
    input: adminUserInputSchema,
    canRead: requireAnyAbility(ctx, ['manage-users', 'list-users']),
    canWrite: requireAnyAbility(ctx, ['manage-users']),
    service: {
      list: (principal, query) => findAdminUsers(ctx.db, principal, query),
      find: (principal, id) => findAdminUser(ctx.db, principal, id),
      create: (principal, input) => createAdminUser(ctx.db, principal, input),
      update: (principal, id, input) => updateAdminUser(ctx.db, principal, id, input),
      remove: (principal, id) => deleteAdminUser(ctx.db, principal, id),
    },
  });
  // A user who lost the device: a super-administrator turns two-factor sign-in off (audited); the
  // user then signs in with the password and may turn it on again.
  app.delete(
    '/admin/users/:id/two-factor',
    {
      schema: {
        tags: ['users'],
        summary: "Reset a user's two-factor sign-in (super-admin): for a lost device",
        params: idParamsSchema,
        response: { 204: z.null() },
      },
      preValidation: requireSuperAdmin(ctx),
    },
    async (request, reply) => {
      const [user] = await ctx.db
        .select({ id: users.id, organization_id: sql<number | null>`(select min(organization_id) from user_organizations where user_id = ${users.id})` })
        .from(users)
        .where(eq(users.id, request.params.id));
      if (!user) throw notFound();
      // In the user's organization's trail (the first, for a user of several), where its administrators look.
      await disableTwoFactor(ctx.db, user.id, actorOfRequest(request), 'reset', user.organization_id);
      return reply.code(204).send(null);
    },
  );
}
