import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type RouteOf, routePath } from './client.ts';
import { buildUrl } from './transport.ts';

type LogotypeRoute<M extends 'get' | 'put' | 'delete'> = Extract<RouteOf<M>, `${string}/{id}/logotype`>;

/** The routes of one kind of record's logotype, as the API document names them. */
export interface LogotypeRoutes {
  /** Where the image is read (GET). */
  read: LogotypeRoute<'get'>;
  /** Where it is uploaded (PUT multipart `file`) and removed (DELETE). */
  write: LogotypeRoute<'put'> & LogotypeRoute<'delete'>;
  /** The keys of the records (their `has_logotype`): fetched again after a change. */
  invalidates: QueryKey;
}

/**
 * A record's logotype (companies, markets): its address, the upload and the removal, and their
 * hooks. Each feature declares its own in its api file (the routes and the keys it refreshes);
 * the field (components/fields.tsx) only calls the hooks. Both mutations invalidate `invalidates`
 * once they succeeded, without waiting for it; the field shows their errors (`handlesErrors`).
 */
export function logotypeApi({ read, write, invalidates }: LogotypeRoutes) {
  const upload = ({ id, file }: { id: number; file: File }) => {
    const body = new FormData();
    body.append('file', file);
    return api.put(write, { path: { id }, body });
  };
  const remove = (id: number) => api.delete(write, { path: { id } });
  const useInvalidate = () => {
    const client = useQueryClient();
    return () => {
      void client.invalidateQueries({ queryKey: invalidates });
    };
  };
  return {
    /** The image's address (GET with the session cookie). */
    url: (id: number) => buildUrl(routePath(read, { id })),
    upload,
    remove,
    useUpload() {
      const invalidate = useInvalidate();
      return useMutation({ mutationFn: upload, onSuccess: invalidate, meta: { handlesErrors: true } });
    },
    useRemove() {
      const invalidate = useInvalidate();
      return useMutation({ mutationFn: remove, onSuccess: invalidate, meta: { handlesErrors: true } });
    },
  };
}

export type LogotypeApi = ReturnType<typeof logotypeApi>;
