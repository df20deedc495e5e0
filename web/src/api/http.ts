import { currentSessionEpoch, endsSession, ensureFreshSession, handleUnauthorized, isUnauthorized } from './session.ts';
import { type HttpMethod, type RequestOptions, send } from './transport.ts';

export { ApiError, isApiError, type ApiBody, type QueryParams, type RequestOptions } from './transport.ts';

/**
 * A request of the app (docs/product.md §7): a due refresh is performed or awaited first; a 401 signs the
 * user out and moves to /login, and the error is still passed on to the caller.
 * Login and logout do not come through here (see features/auth and session.ts).
 */
export async function request<T>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<T> {
  await ensureFreshSession();
  const epoch = currentSessionEpoch();
  try {
    return await send<T>(method, path, options);
  } catch (error) {
    // Not when the session this request went out with was replaced meanwhile (session.ts).
    if (isUnauthorized(error) && endsSession(epoch)) await handleUnauthorized();
    throw error;
  }
}

type BodyOptions = Omit<RequestOptions, 'body'>;

export const http = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: BodyOptions) => request<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: BodyOptions) => request<T>('PUT', path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: BodyOptions) => request<T>('PATCH', path, { ...options, body }),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
};
