import { describe, expect, it } from 'vitest';
import { XLSX_MAX_CONCURRENT_READS, createSlotLimiter, withXlsxSlot } from './slot.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('slot limiter', () => {
  it('runs at most N tasks at once, in FIFO order, and releases slots on failure', async () => {
    const limit = createSlotLimiter(2);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    const tasks = Array.from({ length: 8 }, (_, i) =>
      limit(async () => {
        order.push(i);
        running++;
        peak = Math.max(peak, running);
        await tick();
        running--;
        if (i % 3 === 0) throw new Error(`task ${i}`);
        return i;
      }),
    );
    const results = await Promise.allSettled(tasks);
    expect(peak).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(3);
    expect(results[1]).toEqual({ status: 'fulfilled', value: 1 });
    // All slots were released: two more can run together.
    let together = 0;
    await Promise.all([
      limit(async () => {
        together++;
        await tick();
      }),
      limit(async () => {
        together++;
        await tick();
      }),
    ]);
    expect(together).toBe(2);
  });

  it('withXlsxSlot allows XLSX_MAX_CONCURRENT_READS reads at once', async () => {
    expect(XLSX_MAX_CONCURRENT_READS).toBe(2);
    let running = 0;
    let peak = 0;
    await Promise.all(
      Array.from({ length: 6 }, () =>
        withXlsxSlot(async () => {
          running++;
          peak = Math.max(peak, running);
          await tick();
          running--;
        }),
      ),
    );
    expect(peak).toBe(2);
  });

  it('rejects a non-positive size', () => {
    expect(() => createSlotLimiter(0)).toThrow(RangeError);
  });
});
