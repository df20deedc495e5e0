import createClient from 'openapi-fetch';
import type { paths } from './schema.d.ts';

/**
 * A typed client of the Market Sales Statistics API for members' systems (the types are generated
 * from the served OpenAPI document: `npm run api-client`). Signs every request with an
 * integration token (the profile screen's *Integration tokens*, or POST /api/v1/auth/token).
 *
 * ```ts
 * const api = marketSalesStatistics('https://stats.example.org', process.env.MSS_TOKEN!);
 * const { data } = await api.GET('/reports', { params: { query: { per_page: 25 } } });
 * ```
 */
export function marketSalesStatistics(baseUrl: string, token: string) {
  // The document's paths are under its server, /api/v1.
  return createClient<paths>({ baseUrl: `${baseUrl.replace(/\/$/, '')}/api/v1`, headers: { Authorization: `Bearer ${token}` } });
}

export type { paths } from './schema.d.ts';
