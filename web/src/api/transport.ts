import { API_PREFIX, DEFAULT_API_VERSION, REQUESTED_WITH_HEADER, REQUESTED_WITH_VALUE } from '@mss/contracts/constants';
import { translate } from '@mss/contracts/messages';

/**
 * The lowest layer of the HTTP client (docs/product.md §7): URL, headers, credentials, JSON and errors.
 * It knows nothing about the session; `http.ts` adds the refresh and 401 handling on top, and
 * `session.ts` uses this layer directly for the auth calls that must not trigger either.
 */

export type QueryValue = string | number | boolean | null | undefined;
export type QueryParams = Record<string, QueryValue | readonly QueryValue[]>;
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  query?: QueryParams;
  /** A JSON-serialisable body, or FormData for uploads. */
  body?: unknown;
  /** API version of this request; the default is v1. */
  version?: number | string;
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

/** Every success body is `{ data }`; lists add `meta`. */
export interface ApiBody<T> {
  data: T;
  meta?: { page: number; per_page: number; total: number };
}

export class ApiError extends Error {
  readonly status: number;
  /** Field errors of a 422 answer: field → messages. */
  readonly errors: Record<string, string[]>;
  readonly body: unknown;

  constructor(status: number, message: string, errors: Record<string, string[]> = {}, body: unknown = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.errors = errors;
    this.body = body;
  }

  /** The first message of a field, for showing it under its input. */
  fieldError(field: string): string | undefined {
    return this.errors[field]?.[0];
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** Array parameters use bracket notation: ids[]=1&ids[]=2. Null and undefined are left out. */
export function buildQueryString(query: QueryParams | undefined): string {
  if (!query) return '';
  const parts: string[] = [];
  const encodeValue = (value: QueryValue) => encodeURIComponent(typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value as readonly QueryValue[]) {
        if (item === undefined || item === null) continue;
        parts.push(`${encodeURIComponent(key)}[]=${encodeValue(item)}`);
      }
    } else {
      parts.push(`${encodeURIComponent(key)}=${encodeValue(value as QueryValue)}`);
    }
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

export function buildUrl(path: string, options: Pick<RequestOptions, 'query' | 'version'> = {}): string {
  const version = options.version ?? DEFAULT_API_VERSION;
  const versionSegment = typeof version === 'number' || /^\d+$/.test(version) ? `v${version}` : version;
  const cleanPath = path.replace(/^\/+/, '');
  return `${API_PREFIX}/${versionSegment}/${cleanPath}${buildQueryString(options.query)}`;
}

let localeProvider: () => string = () => 'en-US';

/** The session decides the Accept-Language (the user's locale, or the browser's before sign-in). */
export function setLocaleProvider(provider: () => string): void {
  localeProvider = provider;
}

export function buildHeaders(body: unknown, extra: Record<string, string> = {}): Headers {
  const headers = new Headers({
    Accept: 'application/json',
    [REQUESTED_WITH_HEADER]: REQUESTED_WITH_VALUE,
    'Accept-Language': localeProvider(),
  });
  if (body !== undefined && !(body instanceof FormData)) headers.set('Content-Type', 'application/json');
  for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  return headers;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return null;
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function errorFromResponse(status: number, body: unknown): ApiError {
  if (body && typeof body === 'object' && 'message' in body && typeof body.message === 'string') {
    const errors = 'errors' in body && body.errors && typeof body.errors === 'object' ? (body.errors as Record<string, string[]>) : {};
    return new ApiError(status, body.message, errors, body);
  }
  return new ApiError(status, translate('generic.error'), {}, body);
}

/** One HTTP call, no session logic. Resolves with the parsed body; rejects with ApiError. */
export async function send<T>(method: HttpMethod, path: string, options: RequestOptions = {}): Promise<T> {
  const { body, signal, headers } = options;
  let response: Response;
  try {
    response = await fetch(buildUrl(path, options), {
      method,
      credentials: 'include',
      headers: buildHeaders(body, headers),
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    // Network failure (server down, offline): the same catalogue text as any unexpected error.
    throw new ApiError(0, translate('generic.error'), {}, null);
  }
  const parsed = await readBody(response);
  if (!response.ok) throw errorFromResponse(response.status, parsed);
  return parsed as T;
}
