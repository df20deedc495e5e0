import { createHash } from 'node:crypto';
import type { Principal } from '../auth/principal.ts';

/** A read's answer as it left: its body and content type. */
export interface KeptAnswer {
  body: string;
  contentType: string;
}

/**
 * Answers of reads, kept by the version of the data they were computed from
 * (docs/decisions.md "Kept answers").
 *
 * The data's version (`DATA_VERSION_SQL`) counts the transactions that changed the app's data: a
 * statement-level trigger on every table of it records the writing transaction once
 * (`data_changes`, migration 0035), so the count a reader sees grows exactly when such a
 * transaction commits, in this process or another, through the API, a job or an operator's SQL.
 * What changes on every sign-in or request and no kept answer reads (sessions, the audit trail, the
 * job queue's own tables) is not counted. A read reads the version first and computes its answer
 * afterwards; the answer is kept under that version, with the request (method, path and query) and
 * everything the caller's principal holds but the session (user, organization, company, roles,
 * abilities, language). A later read that finds the same version, caller and request gets the same
 * answer without computing it. If a change committed while the answer was computed, the answer may
 * hold part of it, but its version is already in the past: no later read finds it again.
 *
 * Only the answers of the two latest versions are kept, and at most `maxBytes` of answers. Reads
 * that miss together wait for the first one's answer instead of all computing it (`waitFor`).
 */
export class KeptAnswers {
  /** Answers by version, then by key; the Map's order is the order they came in. */
  private readonly byVersion = new Map<string, Map<string, KeptAnswer>>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  get(version: string, key: string): KeptAnswer | undefined {
    return this.byVersion.get(version)?.get(key);
  }

  set(version: string, key: string, answer: KeptAnswer): void {
    const size = answer.body.length * 2;
    if (size > this.maxBytes / 4) return;
    let answers = this.byVersion.get(version);
    if (!answers) {
      answers = new Map();
      this.byVersion.set(version, answers);
      // An earlier version is dead once a later one is seen; two are kept since answers arrive in any order.
      while (this.byVersion.size > 2) this.dropVersion(this.byVersion.keys().next().value!);
    }
    const before = answers.get(key);
    if (before) this.bytes -= before.body.length * 2;
    answers.set(key, answer);
    this.bytes += size;
    while (this.bytes > this.maxBytes) this.dropOldest();
  }

  /** Readers computing an answer now, by version and key: others asking the same wait for it. */
  private readonly computing = new Map<string, { promise: Promise<KeptAnswer | undefined>; resolve: (answer: KeptAnswer | undefined) => void }>();

  /**
   * The answer another read is computing for the same version and key, when there is one (undefined
   * once it failed or was not kept: then the caller computes its own); otherwise this caller
   * computes it and must call `done` whatever happens.
   */
  waitFor(version: string, key: string): Promise<KeptAnswer | undefined> | null {
    const id = `${version}/${key}`;
    const running = this.computing.get(id);
    if (running) return running.promise;
    let resolve!: (answer: KeptAnswer | undefined) => void;
    const promise = new Promise<KeptAnswer | undefined>((r) => (resolve = r));
    this.computing.set(id, { promise, resolve });
    return null;
  }

  /** The computing read is done: its answer (kept when given), and those who waited for it get it. */
  done(version: string, key: string, answer: KeptAnswer | undefined): void {
    const id = `${version}/${key}`;
    if (answer) this.set(version, key, answer);
    const running = this.computing.get(id);
    this.computing.delete(id);
    running?.resolve(answer);
  }

  get size(): number {
    let n = 0;
    for (const answers of this.byVersion.values()) n += answers.size;
    return n;
  }

  private dropVersion(version: string) {
    for (const answer of this.byVersion.get(version)?.values() ?? []) this.bytes -= answer.body.length * 2;
    this.byVersion.delete(version);
  }

  private dropOldest() {
    const [version, answers] = this.byVersion.entries().next().value!;
    const [key, answer] = answers.entries().next().value ?? [];
    if (key === undefined || !answer) {
      this.byVersion.delete(version);
      return;
    }
    answers.delete(key);
    this.bytes -= answer.body.length * 2;
  }
}

/**
 * What an answer may depend on of who asks and what is asked: the request, and the principal but
 * for what changes with every session or request and does not change an answer (session id, expiry,
 * address, per-session memo).
 */
export function keptAnswerKey(method: string, url: string, principal: Principal | null): string {
  const { sessionId: _session, validUntil: _until, ip: _ip, memo: _memo, ...who } = principal ?? ({} as Partial<Principal>);
  return createHash('sha256')
    .update(JSON.stringify([method, url, who]))
    .digest('base64url');
}

/** The version of the app's data (see KeptAnswers), as one statement reads it. */
export const DATA_VERSION_SQL = 'select ((select n from data_change_base where id = 1) + (select count(*) from data_changes))::text as version';

/**
 * Moves the recorded changes into the base count, in one statement: the version stays the same for
 * every reader, and the table the version counts stays small. Run by the upkeep job (jobs/maintenance.ts).
 */
export const COMPACT_DATA_CHANGES_SQL =
  'with moved as (delete from data_changes returning 1) update data_change_base set n = n + (select count(*) from moved) where id = 1';
