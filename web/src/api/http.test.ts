import { describe, expect, it } from 'vitest';
import { fakeApi, makeUser } from '../test/fake-api.ts';
import { http } from './http.ts';
import { setSession, storeTokenTimes } from './session.ts';
import { buildQueryString, buildUrl } from './transport.ts';

describe('request shape (docs/product.md §7)', () => {
  it('when a request is sent, then it goes to /api/v1 with credentials, the XMLHttpRequest, JSON and user-locale headers', async () => {
    const api = fakeApi().on('POST', 'markets', { status: 201, body: { data: { id: 1 } } });
    storeTokenTimes(600);
    setSession({ user: makeUser({ locale: 'fi-FI' }), abilities: [] });

    await expect(http.post('markets', { iso_code: 'FI' })).resolves.toEqual({ data: { id: 1 } });

    const [call] = api.calls;
    expect(call!.url).toBe('/api/v1/markets');
    expect(call!.credentials).toBe('include');
    expect(call!.headers.get('X-Requested-With')).toBe('XMLHttpRequest');
    expect(call!.headers.get('Accept')).toBe('application/json');
    expect(call!.headers.get('Accept-Language')).toBe('fi-FI');
    expect(call!.headers.get('Content-Type')).toBe('application/json');
    expect(call!.body).toEqual({ iso_code: 'FI' });
  });

  it('when a request sets another version, then that version prefixes the path', () => {
    expect(buildUrl('reports', { version: 2 })).toBe('/api/v2/reports');
    expect(buildUrl('/reports')).toBe('/api/v1/reports');
  });

  it('when query parameters hold arrays, then they use bracket notation and empty values are left out', () => {
    expect(buildQueryString({ ids: [1, 2], search: 'nor way', page: 2, cluster: true, none: undefined, nothing: null })).toBe(
      '?ids[]=1&ids[]=2&search=nor%20way&page=2&cluster=1',
    );
    expect(buildUrl('codes', { query: { market_ids: [3] } })).toBe('/api/v1/codes?market_ids[]=3');
  });

  it('when the server answers 422, then the error carries the message and the field errors', async () => {
    fakeApi().on('POST', 'auth/reset-password', {
      status: 422,
      body: { message: 'The given data was invalid.', errors: { password: ['The password must be 8 characters long or more.'] } },
    });
    const error = await http.post('auth/reset-password', {}).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 422, message: 'The given data was invalid.' });
    expect((error as { fieldError(f: string): string | undefined }).fieldError('password')).toBe('The password must be 8 characters long or more.');
  });

  it('when the network fails, then the caller gets the generic catalogue message', async () => {
    const api = fakeApi();
    api.fetch.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(http.get('markets')).rejects.toMatchObject({ status: 0, message: 'Something went wrong, try again or contact support.' });
  });
});
