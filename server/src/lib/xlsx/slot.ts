/** Files read at once by `withXlsxSlot`: each read holds a zip handle, an inflate stream and the shared strings table. */
export const XLSX_MAX_CONCURRENT_READS = 2;

export type SlotLimiter = <T>(fn: () => Promise<T>) => Promise<T>;

/**
 * A FIFO limiter: at most `max` calls of `fn` run at once, the others wait
 * their turn (in order). The slot is released when `fn` settles, whether it
 * resolves or throws.
 */
export function createSlotLimiter(max: number): SlotLimiter {
  if (!Number.isInteger(max) || max < 1) throw new RangeError('max must be a positive integer');
  let running = 0;
  const waiting: (() => void)[] = [];

  const release = () => {
    const next = waiting.shift();
    if (next)
      next(); // hand the slot over directly
    else running--;
  };

  return async <T>(fn: () => Promise<T>): Promise<T> => {
    if (running < max) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await fn();
    } finally {
      release();
    }
  };
}

/**
 * Runs `fn` once one of the `XLSX_MAX_CONCURRENT_READS` process-wide slots is
 * free. Iterate the rows inside `fn` (the slot is held until it settles):
 *
 * ```ts
 * await withXlsxSlot(async () => {
 *   for await (const row of readXlsxRows(tmpPath)) { ... }
 * });
 * ```
 */
export const withXlsxSlot: SlotLimiter = createSlotLimiter(XLSX_MAX_CONCURRENT_READS);
