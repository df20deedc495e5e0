/**
 * The requests a process is serving. Long background work on the embedded database (one
 * connection; a history import writes a month at a time in transactions of ~150 ms) asks
 * `quiet()` before each step: a request being served then runs its next statements before the
 * next step takes the connection, instead of waiting behind one step per statement
 * (docs/decisions.md "History import").
 */
export class RequestsInFlight {
  /** Each request being served, by when it began. */
  private readonly started = new Map<object, number>();
  private readonly waiting = new Set<() => void>();

  /**
   * A request older than this is not waited for (a long download is no quick read that needs the
   * connection), and one whose end was never told (a client gone mid-answer) is forgotten.
   */
  static readonly FORGET_AFTER_MS = 60_000;

  /** Requests begun within FORGET_AFTER_MS and not ended. */
  get size(): number {
    this.forgetOld();
    return this.started.size;
  }

  /** A request begins; end it with what this returns. */
  begin(): object {
    this.forgetOld();
    const token = {};
    this.started.set(token, Date.now());
    return token;
  }

  /** The request ended (once or more: the later calls do nothing). */
  end(token: object): void {
    if (!this.started.delete(token) || this.size > 0) return;
    const waiting = [...this.waiting];
    this.waiting.clear();
    for (const wake of waiting) wake();
  }

  /** Resolves once no request is being served, or after `maxMs` at the latest (so that work is never starved). */
  quiet(maxMs: number): Promise<void> {
    if (this.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.waiting.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, maxMs);
      this.waiting.add(wake);
    });
  }

  private forgetOld(): void {
    const before = Date.now() - RequestsInFlight.FORGET_AFTER_MS;
    // Oldest first (a Map keeps insertion order): stop at the first young one.
    for (const [token, at] of this.started) {
      if (at >= before) break;
      this.started.delete(token);
    }
  }
}
