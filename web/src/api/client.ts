import type { paths } from '../../../clients/typescript/schema.d.ts';
import { request, type RequestOptions } from './http.ts';
import type { HttpMethod } from './transport.ts';

/**
 * The web's typed API client (docs/architecture.md §9 "Contracts describe the API, not the tables"). Its types are the
 * ones the server serves: `clients/typescript/schema.d.ts` is generated from the OpenAPI document
 * that the routes' Zod contracts make (`npm run api-client`), and the test run fails while it differs
 * from what the server serves. A call names the route as the document does (`'/reports/{uuid}'`),
 * gives its path parameters, query and body in the route's types, and is answered in the route's
 * success type: no cast, so a changed field breaks the build where it is read.
 *
 * It is types over `request()` (http.ts): the same refresh, 401 handling and errors, no added code.
 */

type Paths = paths;
export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The routes that answer a method. */
export type RouteOf<M extends Method> = {
  [P in keyof Paths]: [NonNullable<Paths[P][M]>] extends [never] ? never : P;
}[keyof Paths];

type Operation<M extends Method, P extends RouteOf<M>> = NonNullable<Paths[P][M]>;

type Json<R> = R extends { content: { 'application/json': infer J } } ? J : null;
type Success<O> = O extends { responses: infer R }
  ? 200 extends keyof R
    ? Json<R[200]>
    : 201 extends keyof R
      ? Json<R[201]>
      : 202 extends keyof R
        ? Json<R[202]>
        : null
  : never;

/** The success body of a route. */
export type Answer<M extends Method, P extends RouteOf<M>> = Success<Operation<M, P>>;
/** The `data` of a route's success body. */
export type AnswerData<M extends Method, P extends RouteOf<M>> = Answer<M, P> extends { data: infer D } ? D : never;

type Parameters<O, K extends 'path' | 'query'> = O extends { parameters: { [k in K]?: infer X } } ? NonNullable<X> : never;
type JsonBody<O> = O extends { requestBody?: infer R } ? (NonNullable<R> extends { content: { 'application/json': infer B } } ? B : never) : never;

type PathPart<O> = [Parameters<O, 'path'>] extends [never] ? { path?: never } : { path: Parameters<O, 'path'> };
type QueryPart<O> = [Parameters<O, 'query'>] extends [never] ? { query?: never } : { query?: Parameters<O, 'query'> };
type BodyPart<O> = [JsonBody<O>] extends [never] ? { body?: FormData } : O extends { requestBody: unknown } ? { body: JsonBody<O> } : { body?: JsonBody<O> };

export type CallOptions<M extends Method, P extends RouteOf<M>> = PathPart<Operation<M, P>> &
  QueryPart<Operation<M, P>> &
  BodyPart<Operation<M, P>> &
  Pick<RequestOptions, 'signal' | 'headers'>;

/** Options are required when the route has path parameters or a required body. */
type OptionsArgument<M extends Method, P extends RouteOf<M>> = object extends CallOptions<M, P> ? [options?: CallOptions<M, P>] : [options: CallOptions<M, P>];

/** `/reports/{uuid}` with `{ uuid: 'a-b' }` → `reports/a-b` (each value URI-encoded). */
export function routePath(route: string, params: Record<string, string | number> | undefined): string {
  const path = route.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`${route}: no value for {${name}}`);
    return encodeURIComponent(String(value));
  });
  return path.replace(/^\/+/, '');
}

function call<M extends Method>(method: M) {
  return <P extends RouteOf<M>>(route: P, ...[options]: OptionsArgument<M, P>): Promise<Answer<M, P>> => {
    const { path, query, body, signal, headers } = (options ?? {}) as {
      path?: Record<string, string | number>;
      query?: RequestOptions['query'];
      body?: unknown;
      signal?: AbortSignal;
      headers?: Record<string, string>;
    };
    return request<Answer<M, P>>(method.toUpperCase() as HttpMethod, routePath(route, path), { query, body, signal, headers });
  };
}

export const api = {
  get: call('get'),
  post: call('post'),
  put: call('put'),
  patch: call('patch'),
  delete: call('delete'),
};

/** The `data` of a success body, for `.then(data)`. */
export const data = <B extends { data: unknown }>(body: B): B['data'] => body.data;
