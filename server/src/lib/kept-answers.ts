import { createHash } from 'node:crypto';
import type { Principal } from '../auth/principal.ts';

/** A read's answer as it left: its body and content type. */
export interface KeptAnswer {
  body: string;
  contentType: string;
}

/**
 * Answers of reads, kept by what the database looked like when they were computed
 * (docs/decisions.md "Kept answers").
 *
 * The database's snapshot (`pg_current_snapshot()`: the lowest transaction still running, one past
 * the latest finished, and those running between) says which changes a reader sees: two equal
 * snapshots see exactly the same rows, and a snapshot changes as soon as any transaction that
 * wrote anything ends, in this process or another, through the API, a job or an operator's SQL.
 * A read reads the snapshot first and computes its answer afterwards; the answer is kept under
 * that snapshot, with the request (method, path and query) and everything the caller's principal
 * holds but the session (user, organization, company, roles, abilities, language). A later read
 * that finds the same snapshot and the same caller and request gets the same answer without
 * computing it. If a change ended while the answer was computed, the answer may hold part of it,
 * but its snapshot is already in the past: no later read finds it again.
 *
 * Only the snapshots of the two latest answers are kept, and at most `maxBytes` of answers.
 */
export class KeptAnswers {
  /** Answers by snapshot, then by key; the Map's order is the order they came in. */
  private readonly bySnapshot = new Map<string, Map<string, KeptAnswer>>();
  private bytes = 0;
  hits = 0;
  misses = 0;

  constructor(private readonly maxBytes: number) {}

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  get(snapshot: string, key: string): KeptAnswer | undefined {
    const answer = this.bySnapshot.get(snapshot)?.get(key);
    if (answer) this.hits++;
    else this.misses++;
    return answer;
  }

  set(snapshot: string, key: string, answer: KeptAnswer): void {
    const size = answer.body.length * 2;
    if (size > this.maxBytes / 4) return;
    let answers = this.bySnapshot.get(snapshot);
    if (!answers) {
      answers = new Map();
      this.bySnapshot.set(snapshot, answers);
      // An earlier snapshot is dead once a later one is seen; two are kept since answers arrive in any order.
      while (this.bySnapshot.size > 2) this.dropSnapshot(this.bySnapshot.keys().next().value!);
    }
    const before = answers.get(key);
    if (before) this.bytes -= before.body.length * 2;
    answers.set(key, answer);
    this.bytes += size;
    while (this.bytes > this.maxBytes) this.dropOldest();
  }

  get size(): number {
    let n = 0;
    for (const answers of this.bySnapshot.values()) n += answers.size;
    return n;
  }

  private dropSnapshot(snapshot: string) {
    for (const answer of this.bySnapshot.get(snapshot)?.values() ?? []) this.bytes -= answer.body.length * 2;
    this.bySnapshot.delete(snapshot);
  }

  private dropOldest() {
    const [snapshot, answers] = this.bySnapshot.entries().next().value!;
    const [key, answer] = answers.entries().next().value ?? [];
    if (key === undefined || !answer) {
      this.bySnapshot.delete(snapshot);
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
