import { z } from 'zod';
import type { FastifyInstance, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import { dataOf, idParamsSchema, listOf, listQuerySchema, type ListQuery } from '@mss/contracts/common';
import type { App, AppContext } from '../context.ts';
import { actorOfRequest, auditChange, type AuditRecordType } from '../audit/audit.ts';
import type { Paged } from './list.ts';
import { principalOf, type Principal } from '../auth/principal.ts';

export interface CrudService<T, I, L = T, Q = ListQuery> {
  list(principal: Principal, query: Q): Promise<Paged<L>>;
  find(principal: Principal, id: number): Promise<T>;
  create(principal: Principal, input: I): Promise<T>;
  update(principal: Principal, id: number, input: I): Promise<T>;
  remove(principal: Principal, id: number): Promise<void>;
}

/** The OpenAPI summary of each of the five routes. */
export type CrudSummaries = Record<'list' | 'show' | 'create' | 'update' | 'delete', string>;

/**
 * The five REST routes of an administration resource: list, show, create (201), update and
 * delete (204), with the resource's schemas and who may read and write.
 */
export function registerCrudRoutes<S extends z.ZodType, I extends z.ZodType, L extends z.ZodType = S, Q extends z.ZodType = typeof listQuerySchema>(
  app: App,
  ctx: AppContext,
  options: {
    path: string;
    noun: string;
    schema: S;
    /** The list's item schema, when list rows carry less than one record. */
    listSchema?: L;
    /** The list's query schema, when it differs from the common one (a default order, filters). */
    listQuery?: Q;
    input: I;
    canRead: preValidationAsyncHookHandler;
    canWrite: preValidationAsyncHookHandler;
    /** The OpenAPI tags; by default the path's last segment. */
    tags?: string[];
    /** Summaries that say more than the ones made from the noun ("List clusters with their markets"). */
    summaries?: Partial<CrudSummaries>;
    service: CrudService<z.output<S>, z.output<I>, z.output<L>, z.output<Q>>;
    /** What the audit trail calls the record; by default the noun in snake case ("code group": code_group). */
    auditType?: AuditRecordType;
    /**
     * The list and show answers may be kept while the database is unchanged (plugins/kept-answers.ts):
     * only for a resource whose answers do not depend on the clock (no "disabled from" compared with now).
     */
    keptAnswers?: boolean;
  },
) {
  const { path, noun, schema, input, canRead, canWrite, service } = options;
  const listSchema = options.listSchema ?? schema;
  const type = options.auditType ?? (noun.replaceAll(' ', '_') as AuditRecordType);
  // Every change is in the audit trail, written once it succeeded: created, updated (the fields
  // that changed, as the record read before and after) and deleted (the record as it was).
  // The record before the change, read with the caller's rights; the service's own checks then
  // answer as they always did (a 403 before a 404), so a refused read here says nothing yet.
  const recordBefore = (request: FastifyRequest, id: number) => service.find(principalOf(request), id).catch(() => undefined);
  const record = (request: FastifyRequest, id: number, change: 'created' | 'updated' | 'deleted', before: unknown, after: unknown) =>
    auditChange(ctx.db, actorOfRequest(request), { type, id, change, before, after });
  const listQuery = options.listQuery ?? listQuerySchema;
  const config = options.keptAnswers ? { keptAnswer: true as const } : {};
  // The schemas still validate and serialize (the instance's Zod compilers); the generic types
  // are checked through CrudService instead of Fastify's type provider, which cannot infer them.
  const routes = app as unknown as FastifyInstance;
  const tags = options.tags ?? [path.split('/').filter(Boolean).pop()!];
  const summary: CrudSummaries = {
    list: `List ${noun}s`,
    show: `One ${noun}`,
    create: `Create a ${noun}`,
    update: `Update a ${noun}`,
    delete: `Delete a ${noun}`,
    ...options.summaries,
  };
  routes.get(
    path,
    { schema: { tags, summary: summary.list, querystring: listQuery, response: { 200: listOf(listSchema) } }, preValidation: canRead, config },
    async (request) => service.list(principalOf(request), request.query as z.output<Q>),
  );
  routes.get(
    `${path}/:id`,
    { schema: { tags, summary: summary.show, params: idParamsSchema, response: { 200: dataOf(schema) } }, preValidation: canRead, config },
    async (request) => ({ data: await service.find(principalOf(request), (request.params as { id: number }).id) }),
  );
  routes.post(
    path,
    { schema: { tags, summary: summary.create, body: input, response: { 201: dataOf(schema) } }, preValidation: canWrite },
    async (request, reply) => {
      const created = await service.create(principalOf(request), request.body as z.output<I>);
      await record(request, (created as { id: number }).id, 'created', undefined, created);
      return reply.code(201).send({ data: created });
    },
  );
  routes.put(
    `${path}/:id`,
    { schema: { tags, summary: summary.update, params: idParamsSchema, body: input, response: { 200: dataOf(schema) } }, preValidation: canWrite },
    async (request) => {
      const { id } = request.params as { id: number };
      const before = await recordBefore(request, id);
      const updated = await service.update(principalOf(request), id, request.body as z.output<I>);
      await record(request, id, 'updated', before, updated);
      return { data: updated };
    },
  );
  routes.delete(
    `${path}/:id`,
    { schema: { tags, summary: summary.delete, params: idParamsSchema, response: { 204: z.null() } }, preValidation: canWrite },
    async (request, reply) => {
      const { id } = request.params as { id: number };
      const before = await recordBefore(request, id);
      await service.remove(principalOf(request), id);
      await record(request, id, 'deleted', before, undefined);
      return reply.code(204).send(null);
    },
  );
}
