import { vi } from 'vitest';
import type { Ability } from '@mss/contracts/abilities';
import type { User } from '@mss/contracts/users';

/**
 * A fake of the server at the network boundary: `fetch` is replaced, everything above it
 * (transport, session, guard) is the real code. Responses may be delayed, on fake timers too.
 */

export interface RecordedCall {
  method: string;
  /** Path after /api/v1/, without the query string. */
  path: string;
  url: string;
  headers: Headers;
  body: unknown;
  credentials: RequestCredentials | undefined;
  /** Date.now() when fetch was called (fake time under fake timers). */
  at: number;
}

export interface FakeReply {
  status?: number;
  body?: unknown;
  /** Milliseconds before the response arrives. */
  delay?: number;
}

type Responder = FakeReply | ((call: RecordedCall) => FakeReply);

export function fakeApi() {
  const routes = new Map<string, Responder>();
  const calls: RecordedCall[] = [];

  const fetchImpl = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init.method ?? 'GET').toUpperCase();
    const path = url.pathname.replace(/^\/api\/v\d+\//, '');
    const call: RecordedCall = {
      method,
      path,
      url: `${url.pathname}${url.search}`,
      headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? JSON.parse(init.body) : init.body,
      credentials: init.credentials,
      at: Date.now(),
    };
    calls.push(call);
    const responder = routes.get(`${method} ${path}`);
    const reply: FakeReply = responder
      ? typeof responder === 'function'
        ? responder(call)
        : responder
      : { status: 404, body: { message: 'Could not find what you were looking for.' } };
    if (reply.delay) await new Promise((resolve) => setTimeout(resolve, reply.delay));
    const status = reply.status ?? 200;
    return new Response(reply.body === undefined ? null : JSON.stringify(reply.body), {
      status,
      headers: { 'Content-Type': 'application/json' },
    });
  });

  vi.stubGlobal('fetch', fetchImpl);

  const api = {
    calls,
    fetch: fetchImpl,
    on(method: string, path: string, responder: Responder) {
      routes.set(`${method} ${path}`, responder);
      return api;
    },
    callsTo(method: string, path: string) {
      return calls.filter((c) => c.method === method && c.path === path);
    },
    /** The signed-in user and abilities the session loads. */
    signedInAs(user: User, abilities: Ability[]) {
      api.on('GET', 'users/me', { body: { data: user } });
      api.on('GET', 'users/me/abilities', { body: { data: abilities } });
      api.on('POST', 'auth/logout', { status: 204 });
      return api;
    },
    withEnumerations() {
      const enums = { data: { role: { values: { admin: 'admin' }, i18n: { admin: 'Administrator' } } } };
      for (const locale of ['en-US', 'sv-SE', 'fi-FI', 'dk-DK', 'no-NO']) api.on('GET', `protocol/enums/${locale}`, { body: enums });
      return api;
    },
  };
  return api;
}

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    id: 1,
    uuid: '00000000-0000-4000-8000-000000000001',
    email: 'someone@demo.test',
    name: 'Some One',
    first_name: 'Some',
    last_name: 'One',
    phone: null,
    locale: 'en-US',
    role: 'viewer',
    organization: { uuid: '00000000-0000-4000-8000-0000000000aa', name: 'Nordic Sales Association' },
    organizations: [{ uuid: '00000000-0000-4000-8000-0000000000aa', name: 'Nordic Sales Association' }],
    markets: [{ id: 1, international_name: 'Sweden', local_name: 'Sverige', iso_code: 'SE' }],
    roles: [{ name: 'viewer' }],
    company: null,
    ...overrides,
  };
}

export const globalAbility = (name: string): Ability => ({ name, entity_id: null, entity_type: null });
export const marketAbility = (name: string, marketId: number): Ability => ({ name, entity_id: marketId, entity_type: 'market' });
