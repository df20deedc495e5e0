import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler, RouteOptions } from 'fastify';
import type { AppContext } from '../context.ts';
import { keptAnswerKey, KeptAnswers } from '../lib/kept-answers.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * This read's answer may be kept (lib/kept-answers.ts): true, or a test of the request (false for
     * what a read also records, such as an audited read of individual figures or a download).
     */
    keptAnswer?: true | ((request: FastifyRequest) => boolean);
  }
  interface FastifyInstance {
    keptAnswers: KeptAnswers;
  }
}

/** The header that says whether an answer was kept (`hit`) or computed (`miss`). */
export const KEPT_ANSWER_HEADER = 'x-kept-answer';

const pending = new WeakMap<FastifyRequest, { snapshot: string; key: string }>();

/**
 * Reads whose routes say `config.keptAnswer` are answered from the answer kept for the same
 * request, caller and database snapshot (lib/kept-answers.ts, docs/decisions.md "Kept answers").
 * The check runs after every other hook of the route (sign-in, permissions); only a 200 answer is
 * kept.
 */
export const keptAnswersPlugin = fp<{ ctx: AppContext }>(
  async (app, { ctx }) => {
    const kept = new KeptAnswers(ctx.config.KEPT_ANSWERS_MB * 1024 * 1024);
    app.decorate('keptAnswers', kept);
    if (!kept.enabled) return;

    const lookUp: preHandlerAsyncHookHandler = async (request: FastifyRequest, reply: FastifyReply) => {
      const keep = request.routeOptions.config.keptAnswer;
      if (request.method !== 'GET' || !keep || (keep !== true && !keep(request))) return;
      const result = await ctx.database.pool.query<{ snapshot: string }>('select pg_current_snapshot()::text as snapshot');
      const snapshot = result.rows[0]!.snapshot;
      const key = keptAnswerKey(request.method, request.url, request.principal);
      const answer = kept.get(snapshot, key);
      if (answer) {
        reply.header(KEPT_ANSWER_HEADER, 'hit').type(answer.contentType);
        return reply.send(answer.body);
      }
      pending.set(request, { snapshot, key });
      reply.header(KEPT_ANSWER_HEADER, 'miss');
    };
    app.addHook('onRoute', (route: RouteOptions) => {
      if (!route.config?.keptAnswer) return;
      const own = route.preHandler === undefined ? [] : Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler];
      route.preHandler = [...own, lookUp];
    });
    app.addHook('onSend', async (request, reply, payload) => {
      const waiting = pending.get(request);
      if (!waiting) return payload;
      pending.delete(request);
      if (reply.statusCode === 200 && typeof payload === 'string') {
        kept.set(waiting.snapshot, waiting.key, { body: payload, contentType: String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8') });
      }
      return payload;
    });
  },
  { name: 'kept-answers' },
);
