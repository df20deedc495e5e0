import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ListMeta } from '@mss/contracts/common';
import { type Answer, type AnswerData, type CallOptions, type Method, type RouteOf, routePath } from './client.ts';
import { request } from './http.ts';

/** The query of every list endpoint (docs/administration.md). */
export interface ListParams {
  page: number;
  per_page: number;
  sort?: string;
  direction?: 'asc' | 'desc';
  /** Sent only when longer than 2 characters (the list component decides). */
  search?: string;
  /** A super-admin narrows a list to one organization. */
  organization_id?: number;
}

export interface Page<T> {
  data: T[];
  meta: ListMeta;
}

type IdRoute<M extends Method> = Extract<RouteOf<M>, `${string}/{id}`>;

/** The routes of one administration resource, as the API document names them. */
export interface ResourceRoutes {
  /** Query-key root, e.g. 'currencies'. */
  key: string;
  /** The list (GET, a page of `{ data, meta }`). */
  list: RouteOf<'get'>;
  /** One record (GET `…/{id}`). */
  one: IdRoute<'get'>;
  /** Creating (POST). */
  create?: RouteOf<'post'>;
  /** Updating (PUT) and deleting (DELETE) one record. */
  item?: IdRoute<'put'> & IdRoute<'delete'>;
}

type ListItem<R extends ResourceRoutes> = AnswerData<'get', R['list']> extends readonly (infer I)[] ? I : never;
type RecordOf<R extends ResourceRoutes> = AnswerData<'get', R['one']>;
type InputOf<R extends ResourceRoutes> = R['create'] extends RouteOf<'post'> ? NonNullable<CallOptions<'post', R['create']>['body']> : never;

/**
 * The API of one administration resource: query-key factory, fetchers, queryOptions and hooks. Its
 * types are its routes' (./client.ts): the list's rows, the record and the input are what the API
 * document says. Every mutation invalidates the whole resource (lists and records); forms show their
 * own errors (422 on inputs), so mutations set `handlesErrors`.
 */
export function resourceApi<const R extends ResourceRoutes>(routes: R) {
  const { key } = routes;
  type Item = ListItem<R>;
  type Record = RecordOf<R>;
  type Input = InputOf<R>;
  const item = (id: number) => {
    if (!routes.item) throw new Error(`${key}: the resource is read-only`);
    return routePath(routes.item, { id });
  };

  const keys = {
    all: [key] as const,
    lists: () => [key, 'list'] as const,
    list: (params: ListParams) => [key, 'list', params] as const,
    details: () => [key, 'detail'] as const,
    detail: (id: number) => [key, 'detail', id] as const,
  };

  const fetchList = (params: ListParams) => request<Page<Item>>('GET', routePath(routes.list, undefined), { query: { ...params } });
  const fetchOne = (id: number) => request<{ data: Record }>('GET', routePath(routes.one, { id })).then((body) => body.data);
  const create = (input: Input) => {
    if (!routes.create) throw new Error(`${key}: the resource is read-only`);
    return request<{ data: Record }>('POST', routePath(routes.create, undefined), { body: input }).then((body) => body.data);
  };
  const update = ({ id, input }: { id: number; input: Input }) => request<{ data: Record }>('PUT', item(id), { body: input }).then((body) => body.data);
  const remove = (id: number) => request<null>('DELETE', item(id));

  const listQuery = (params: ListParams) => queryOptions({ queryKey: keys.list(params), queryFn: () => fetchList(params), placeholderData: keepPreviousData });
  const oneQuery = (id: number) => queryOptions({ queryKey: keys.detail(id), queryFn: () => fetchOne(id) });

  const useInvalidate = () => {
    const client = useQueryClient();
    return () => client.invalidateQueries({ queryKey: keys.all });
  };

  return {
    keys,
    fetchList,
    fetchOne,
    create,
    update,
    remove,
    listQuery,
    oneQuery,
    useOne: (id: number) => useQuery(oneQuery(id)),
    useCreate() {
      const invalidate = useInvalidate();
      return useMutation({ mutationFn: create, onSuccess: invalidate, meta: { handlesErrors: true } });
    },
    useUpdate() {
      const invalidate = useInvalidate();
      return useMutation({ mutationFn: update, onSuccess: invalidate, meta: { handlesErrors: true } });
    },
    useRemove() {
      const invalidate = useInvalidate();
      return useMutation({ mutationFn: remove, onSuccess: invalidate, meta: { handlesErrors: true } });
    },
  };
}

/** The query of a list endpoint besides its page. */
export type PageQuery = Omit<ListParams, 'page' | 'per_page'>;

/** The GET routes without path parameters that take a list's query and answer a page `{ data: X[]; meta }`. */
export type PageRoute = {
  [P in RouteOf<'get'>]: Answer<'get', P> extends { data: readonly unknown[]; meta: ListMeta }
    ? object extends CallOptions<'get', P>
      ? ListParams extends NonNullable<CallOptions<'get', P>['query']>
        ? P
        : never
      : never
    : never;
}[RouteOf<'get'>];

/** A row of a page route's answer. */
export type PageRow<P extends PageRoute> = AnswerData<'get', P> extends readonly (infer I)[] ? I : never;

/** Every record of a list endpoint (pickers in forms): pages of 100 until the total is reached. */
export async function fetchAllPages<P extends PageRoute>(route: P, query: PageQuery = {}, maxPages = 20): Promise<PageRow<P>[]> {
  const rows: PageRow<P>[] = [];
  for (let page = 1; page <= maxPages; page++) {
    const body = await request<Page<PageRow<P>>>('GET', routePath(route, undefined), { query: { ...query, page, per_page: 100 } });
    rows.push(...body.data);
    if (rows.length >= body.meta.total || body.data.length === 0) break;
  }
  return rows;
}
