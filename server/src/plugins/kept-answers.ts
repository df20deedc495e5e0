import { setTimeout as delay } from 'node:timers/promises';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler, RouteOptions } from 'fastify';
import type { AppContext } from '../context.ts';
import { DATA_VERSION_SQL, keptAnswerKey, KeptAnswers, type KeptAnswer } from '../lib/kept-answers.ts';

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

/** How long a read waits for the same answer computed by another before it computes its own. */
const WAIT_MS = 10_000;

/** The reads computing an answer to keep: under which version and key, and whether others may wait for it (the owner). */
const pending = new WeakMap<FastifyRequest, { version: string; key: string; owner: boolean }>();

/**
 * Reads whose routes say `config.keptAnswer` are answered from the answer kept for the same
 * request, caller and version of the data (lib/kept-answers.ts, docs/decisions.md "Kept answers").
 * The check runs after every other hook of the route (sign-in, permissions); only a 200 answer is
 * kept. Reads that miss at the same moment wait for the first one's answer.
 */
export const keptAnswersPlugin = fp<{ ctx: AppContext }>(
  async (app, { ctx }) => {
    const kept = new KeptAnswers(ctx.config.KEPT_ANSWERS_MB * 1024 * 1024);
    app.decorate('keptAnswers', kept);
    if (!kept.enabled) return;

    const sendKept = (reply: FastifyReply, answer: KeptAnswer) => reply.header(KEPT_ANSWER_HEADER, 'hit').type(answer.contentType).send(answer.body);
    const lookUp: preHandlerAsyncHookHandler = async (request: FastifyRequest, reply: FastifyReply) => {
      const keep = request.routeOptions.config.keptAnswer;
      if (request.method !== 'GET' || !keep || (keep !== true && !keep(request))) return;
      const result = await ctx.database.pool.query<{ version: string }>(DATA_VERSION_SQL);
      const version = result.rows[0]?.version;
      if (version === undefined) return;
      const key = keptAnswerKey(request.method, request.url, request.principal);
      const answer = kept.get(version, key);
      if (answer) return sendKept(reply, answer);
      const computing = kept.waitFor(version, key);
      if (computing) {
        // However long the other read takes, this one waits for it at most WAIT_MS, then computes its own.
        const timer = new AbortController();
        const theirs = await Promise.race([computing, delay(WAIT_MS, undefined, { ref: false, signal: timer.signal }).catch(() => undefined)]);
        timer.abort();
        if (theirs) return sendKept(reply, theirs);
      }
      pending.set(request, { version, key, owner: computing === null });
      reply.header(KEPT_ANSWER_HEADER, 'miss');
    };
    /** The computing read is over: its answer kept (a 200 only), those waiting for it answered. */
    const finish = (request: FastifyRequest, answer: KeptAnswer | undefined) => {
      const waiting = pending.get(request);
      if (!waiting) return;
      pending.delete(request);
      if (waiting.owner) kept.done(waiting.version, waiting.key, answer);
      else if (answer) kept.set(waiting.version, waiting.key, answer);
    };
    app.addHook('onRoute', (route: RouteOptions) => {
      if (!route.config?.keptAnswer) return;
      const own = route.preHandler === undefined ? [] : Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler];
      route.preHandler = [...own, lookUp];
    });
    app.addHook('onSend', async (request, reply, payload) => {
      const ok = reply.statusCode === 200 && typeof payload === 'string';
      finish(request, ok ? { body: payload, contentType: String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8') } : undefined);
      return payload;
    });
    // An answer that never reached onSend (the client went away, a failure past it): nobody waits for it.
    app.addHook('onResponse', async (request) => finish(request, undefined));
    app.addHook('onRequestAbort', async (request) => finish(request, undefined));
  },
  { name: 'kept-answers' },
);
