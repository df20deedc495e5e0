import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ListMeta } from '@mss/contracts/common';
import { http, type ApiBody } from './http.ts';

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

export interface ResourcePaths {
  /** Query-key root, e.g. 'currencies'. */
  key: string;
  /** Create (POST), and read/update/delete one (`{path}/{id}`). */
  path: string;
  /** The list (GET), when it differs from `path`. */
  listPath?: string;
  /** Reading one record, when it differs from `path` (markets: GET /markets/{id}). */
  readPath?: string;
  /** Creating, when it differs from `path`. */
  createPath?: string;
}

export type ResourceApi<T, Input> = ReturnType<typeof resourceApi<T, Input>>;

/**
 * The API of one administration resource: query-key factory, fetchers, queryOptions and hooks.
 * Every mutation invalidates the whole resource (lists and records); forms show their own
 * errors (422 on inputs), so mutations set `handlesErrors`.
 */
export function resourceApi<T, Input>(paths: ResourcePaths) {
  const { key, path } = paths;
  const listPath = paths.listPath ?? path;
  const readPath = paths.readPath ?? path;
  const createPath = paths.createPath ?? path;

  const keys = {
    all: [key] as const,
    lists: () => [key, 'list'] as const,
    list: (params: ListParams) => [key, 'list', params] as const,
    details: () => [key, 'detail'] as const,
    detail: (id: number) => [key, 'detail', id] as const,
  };

  const fetchList = (params: ListParams) => http.get<Page<T>>(listPath, { query: { ...params } });
  const fetchOne = (id: number) => http.get<ApiBody<T>>(`${readPath}/${id}`).then((body) => body.data);
  const create = (input: Input) => http.post<ApiBody<T>>(createPath, input).then((body) => body.data);
  const update = ({ id, input }: { id: number; input: Input }) => http.put<ApiBody<T>>(`${path}/${id}`, input).then((body) => body.data);
  const remove = (id: number) => http.delete<null>(`${path}/${id}`);

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

/** Every record of a list endpoint (pickers in forms): pages of 100 until the total is reached. */
export async function fetchAllPages<T>(path: string, query: Record<string, string | number | undefined> = {}, maxPages = 20): Promise<T[]> {
  const rows: T[] = [];
  for (let page = 1; page <= maxPages; page++) {
    const body = await http.get<Page<T>>(path, { query: { ...query, page, per_page: 100 } });
    rows.push(...body.data);
    if (rows.length >= body.meta.total || body.data.length === 0) break;
  }
  return rows;
}
