import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import type { Report, ReportSummary } from '@mss/contracts/reports';
import { api, type Answer, type AnswerData, type CallOptions, routePath } from './client.ts';

describe('the typed API client', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('fills a route’s path parameters, each encoded, and sends its query and body', async () => {
    const fetchMock = vi.fn(async () => new Response(JSON.stringify({ data: { uuid: 'a b' } }), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    await api.post('/reports/{uuid}/status', { path: { uuid: 'a b/c' }, body: { status: 40, comment: null } });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/v1/reports/a%20b%2Fc/status');
    expect(init.method).toBe('POST');
    expect(init.body).toBe(JSON.stringify({ status: 40, comment: null }));
    await api.get('/reports', { query: { market_id: 3, status: [40, 60] } });
    expect((fetchMock.mock.calls[1] as unknown as [string])[0]).toBe('/api/v1/reports?market_id=3&status[]=40&status[]=60');
  });

  it('refuses a route whose path parameter has no value', () => {
    expect(() => routePath('/reports/{uuid}', {})).toThrow('/reports/{uuid}: no value for {uuid}');
    expect(routePath('/periods', undefined)).toBe('periods');
  });

  it('answers in the route’s own types, which are the contracts’ (checked by the typecheck)', () => {
    expectTypeOf<AnswerData<'get', '/reports/{uuid}'>>().toMatchTypeOf<Report>();
    expectTypeOf<AnswerData<'get', '/reports'>>().toMatchTypeOf<ReportSummary[]>();
    expectTypeOf<Answer<'delete', '/admin/currencies/{id}'>>().toEqualTypeOf<null>();
    // A route with path parameters needs them; a route's body has its fields.
    expectTypeOf<CallOptions<'get', '/reports/{uuid}'>['path']>().toEqualTypeOf<{ uuid: string }>();
    // @ts-expect-error: /reports has no PUT
    void (() => api.put('/reports', {}));
    // @ts-expect-error: the path parameter is required
    void (() => api.get('/reports/{uuid}'));
    // @ts-expect-error: status is a number
    void (() => api.post('/reports/{uuid}/status', { path: { uuid: 'x' }, body: { status: 'approved' } }));
  });
});
