import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sessions, users } from '../db/schema.ts';
import type { Actor, AppContext } from '../context.ts';
import { AppError, unauthenticated } from '../errors.ts';
import { hashToken } from './passwords.ts';

export const SESSION_COOKIE = 'mss_session';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
  }
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match ? match[1]! : null;
}

/** Reads the session cookie or the bearer token, and finds a live session of an enabled user. */
export async function resolveActor(ctx: AppContext, request: FastifyRequest): Promise<Actor | null> {
  const bearer = bearerToken(request);
  const token = bearer ?? request.cookies[SESSION_COOKIE];
  if (!token) return null;
  const [row] = await ctx.db
    .select({
      id: sessions.id,
      kind: sessions.kind,
      user_id: sessions.user_id,
      organization_id: sessions.organization_id,
      last_used_at: sessions.last_used_at,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.user_id))
    .where(
      and(
        eq(sessions.token_hash, hashToken(token)),
        eq(sessions.kind, bearer ? 'token' : 'session'),
        isNull(sessions.revoked_at),
        gt(sessions.expires_at, sql`now()`),
        isNull(users.disabled_at),
      ),
    )
    .limit(1);
  if (!row) return null;
  // Note use at most once a minute, to keep reads from turning into writes.
  if (Date.now() - row.last_used_at.getTime() > 60_000) {
    await ctx.db.update(sessions).set({ last_used_at: sql`now()` }).where(eq(sessions.id, row.id));
  }
  return { userId: row.user_id, sessionId: row.id, sessionKind: row.kind as Actor['sessionKind'], organizationId: row.organization_id };
}

/** preValidation hook for routes that need a signed-in user. */
export function requireActor(ctx: AppContext) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    request.actor = await resolveActor(ctx, request);
    if (!request.actor) throw unauthenticated();
  };
}

export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw new AppError('unauthenticated', 'auth.unauthenticated');
  return request.actor;
}
