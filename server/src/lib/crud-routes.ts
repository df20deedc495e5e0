import { z } from 'zod';
import type { FastifyInstance, preValidationAsyncHookHandler } from 'fastify';
import { dataOf, idParamsSchema, listOf, listQuerySchema, type ListQuery } from '@mss/contracts/common';
import type { App } from '../context.ts';
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
  },
) {
  const { path, noun, schema, input, canRead, canWrite, service } = options;
  const listSchema = options.listSchema ?? schema;
  const listQuery = options.listQuery ?? listQuerySchema;
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
    { schema: { tags, summary: summary.list, querystring: listQuery, response: { 200: listOf(listSchema) } }, preValidation: canRead },
    async (request) => service.list(principalOf(request), request.query as z.output<Q>),
  );
  routes.get(
    `${path}/:id`,
    { schema: { tags, summary: summary.show, params: idParamsSchema, response: { 200: dataOf(schema) } }, preValidation: canRead },
    async (request) => ({ data: await service.find(principalOf(request), (request.params as { id: number }).id) }),
  );
  routes.post(
    path,
    { schema: { tags, summary: summary.create, body: input, response: { 201: dataOf(schema) } }, preValidation: canWrite },
    async (request, reply) => reply.code(201).send({ data: await service.create(principalOf(request), request.body as z.output<I>) }),
  );
  routes.put(
    `${path}/:id`,
    { schema: { tags, summary: summary.update, params: idParamsSchema, body: input, response: { 200: dataOf(schema) } }, preValidation: canWrite },
    async (request) => ({ data: await service.update(principalOf(request), (request.params as { id: number }).id, request.body as z.output<I>) }),
  );
  routes.delete(
    `${path}/:id`,
    { schema: { tags, summary: summary.delete, params: idParamsSchema, response: { 204: z.null() } }, preValidation: canWrite },
    async (request, reply) => {
      await service.remove(principalOf(request), (request.params as { id: number }).id);
      return reply.code(204).send(null);
    },
  );
}
