import pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import type { SessionPrincipal as Principal } from './session-auth.ts';

/**
 * Resolved principals (session, membership, abilities, the user) by credential, so that a
 * signed-in read costs no database round trip of its own (before it: /users/me at ~3 % of an
 * unauthenticated request's throughput, 4-10 queries per request).
 *
 * Correctness does not rest on remembering which service changes what:
 * - every state-changing API request (any method but GET/HEAD/OPTIONS) clears the whole cache
 *   once it has been handled, in this process and, through PostgreSQL NOTIFY, in every other
 *   API process on the same database; changes of memberships, roles, markets, companies,
 *   disabled users, passwords and sessions are all such requests. The exceptions are listed by
 *   route in app.ts (`keepsPrincipals`): sign-in, and reporting steps that write none of that;
 * - an entry lives at most `ttlMs` (2 s), which bounds what a change made outside the API (an
 *   operator's SQL, a cross-instance notification lost while reconnecting) can miss;
 * - an entry is never used past its session's expiry or absolute end;
 * - a load that began before a clear is not stored (generation check), so a request that raced a
 *   change cannot put the old state back.
 * Writes are rare next to reads (administration, uploads, workflow steps), so clearing everything
 * costs each active session one query after a change.
 */
export class PrincipalCache<P extends Pick<Principal, 'validUntil'> = Principal> {
  private readonly entries = new Map<string, { principal: P; storedAt: number }>();
  private gen = 0;
  private enabled = true;

  constructor(
    private readonly ttlMs = 2000,
    private readonly maxEntries = 10_000,
  ) {}

  get(key: string): P | undefined {
    if (!this.enabled) return undefined;
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    const now = Date.now();
    if (now - entry.storedAt > this.ttlMs || now >= entry.principal.validUntil) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.principal;
  }

  generation(): number {
    return this.gen;
  }

  /** Stores a principal loaded when the generation was `loadedAt`, unless a clear came since. */
  set(key: string, principal: P, loadedAt: number): void {
    if (!this.enabled || loadedAt !== this.gen) return;
    if (this.entries.size >= this.maxEntries) {
      // Map keeps insertion order: drop the oldest.
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(key, { principal, storedAt: Date.now() });
  }

  clear(): void {
    this.gen++;
    this.entries.clear();
  }

  /** While other processes' changes cannot reach this one, every request loads afresh. */
  setEnabled(enabled: boolean): void {
    this.enabled = enabled;
    this.clear();
  }
}

export const INVALIDATION_CHANNEL = 'mss_principals';

/**
 * Several API processes on one PostgreSQL server: a dedicated connection listens for the other
 * processes' changes. The cache is off while that connection is down (and until it is back), so a
 * missed notification can never leave a stale entry behind.
 */
export function listenForInvalidations(connectionString: string, cache: PrincipalCache, log: FastifyBaseLogger): () => Promise<void> {
  let client: pg.Client | null = null;
  let stopped = false;
  let retry: NodeJS.Timeout | null = null;
  const connect = async () => {
    cache.setEnabled(false);
    const c = new pg.Client({ connectionString });
    client = c;
    c.on('error', (error) => {
      log.warn({ err: error }, 'principal cache: invalidation listener lost its connection');
      cache.setEnabled(false);
      void c.end().catch(() => {});
      if (!stopped) retry = setTimeout(() => void connect(), 1000);
    });
    c.on('notification', () => cache.clear());
    try {
      await c.connect();
      await c.query(`listen ${INVALIDATION_CHANNEL}`);
      if (!stopped) cache.setEnabled(true);
    } catch (error) {
      log.warn({ err: error }, 'principal cache: cannot listen for invalidations; retrying');
      void c.end().catch(() => {});
      if (!stopped) retry = setTimeout(() => void connect(), 1000);
    }
  };
  void connect();
  return async () => {
    stopped = true;
    if (retry) clearTimeout(retry);
    cache.setEnabled(false);
    await client?.end().catch(() => {});
  };
}
