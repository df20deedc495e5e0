import { z } from 'zod';
import type { FastifyInstance, preValidationAsyncHookHandler } from 'fastify';
import { dataOf, idParamsSchema, listOf, listQuerySchema, type ListQuery } from '@mss/contracts/common';
import type { Actor, App } from '../context.ts';
import { actorOf } from '../auth/session-auth.ts';
import type { Paged } from './list.ts';

export interface CrudService<T, I, L = T> {
  list(actor: Actor, query: ListQuery): Promise<Paged<L>>;
  find(actor: Actor, id: number): Promise<T>;
  create(actor: Actor, input: I): Promise<T>;
  update(actor: Actor, id: number, input: I): Promise<T>;
  remove(actor: Actor, id: number): Promise<void>;
}

/**
 * The five REST routes of an administration resource: list, show, create (201), update and
 * delete (204), with the resource's schemas and who may read and write.
 */
export function registerCrudRoutes<S extends z.ZodType, I extends z.ZodType, L extends z.ZodType = S>(
  app: App,
  options: {
    path: string;
    noun: string;
    schema: S;
    /** The list's item schema, when list rows carry less than one record. */
    listSchema?: L;
    input: I;
    canRead: preValidationAsyncHookHandler;
    canWrite: preValidationAsyncHookHandler;
    service: CrudService<z.output<S>, z.output<I>, z.output<L>>;
  },
) {
  const { path, noun, schema, input, canRead, canWrite, service } = options;
  const listSchema = options.listSchema ?? schema;
  // The schemas still validate and serialize (the instance's Zod compilers); the generic types
  // are checked through CrudService instead of Fastify's type provider, which cannot infer them.
  const routes = app as unknown as FastifyInstance;
  const tags = [path.split('/').filter(Boolean).pop()!];
  routes.get(
    path,
    { schema: { tags, summary: `List ${noun}s`, querystring: listQuerySchema, response: { 200: listOf(listSchema) } }, preValidation: canRead },
    async (request) => service.list(actorOf(request), request.query as ListQuery),
  );
  routes.get(
    `${path}/:id`,
    { schema: { tags, summary: `One ${noun}`, params: idParamsSchema, response: { 200: dataOf(schema) } }, preValidation: canRead },
    async (request) => ({ data: await service.find(actorOf(request), (request.params as { id: number }).id) }),
  );
  routes.post(
    path,
    { schema: { tags, summary: `Create a ${noun}`, body: input, response: { 201: dataOf(schema) } }, preValidation: canWrite },
    async (request, reply) => reply.code(201).send({ data: await service.create(actorOf(request), request.body as z.output<I>) }),
  );
  routes.put(
    `${path}/:id`,
    { schema: { tags, summary: `Update a ${noun}`, params: idParamsSchema, body: input, response: { 200: dataOf(schema) } }, preValidation: canWrite },
    async (request) => ({ data: await service.update(actorOf(request), (request.params as { id: number }).id, request.body as z.output<I>) }),
  );
  routes.delete(
    `${path}/:id`,
    { schema: { tags, summary: `Delete a ${noun}`, params: idParamsSchema, response: { 204: z.null() } }, preValidation: canWrite },
    async (request, reply) => {
      await service.remove(actorOf(request), (request.params as { id: number }).id);
      return reply.code(204).send(null);
    },
  );
}
