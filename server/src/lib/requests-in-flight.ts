/**
 * The requests a process is serving. Long background work on the embedded database (one
 * connection; a history import writes a month at a time in transactions of ~150 ms) asks
 * `quiet()` before each step: a request being served then runs its next statements before the
 * next step takes the connection, instead of waiting behind one step per statement
 * (docs/decisions.md "History import").
 */
export class RequestsInFlight {
  private count = 0;
  private waiting = new Set<() => void>();

  get size(): number {
    return this.count;
  }

  begin(): void {
    this.count++;
  }

  end(): void {
    this.count = Math.max(0, this.count - 1);
    if (this.count > 0) return;
    const waiting = [...this.waiting];
    this.waiting.clear();
    for (const wake of waiting) wake();
  }

  /** Resolves once no request is being served, or after `maxMs` at the latest (so that work is never starved). */
  quiet(maxMs: number): Promise<void> {
    if (this.count === 0) return Promise.resolve();
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
}
