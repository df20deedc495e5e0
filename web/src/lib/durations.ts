import type { DurationUnit } from '@mss/contracts/messages';

const DAY_MS = 86_400_000;

/** A YYYY-MM-DD day as milliseconds at its UTC midnight (NaN when it is not one). */
const utcDay = (date: string): number => {
  const [year, month, day] = date.slice(0, 10).split('-').map(Number);
  return Date.UTC(year!, month! - 1, day!);
};

/**
 * How long a period from `startsOn` to `endsOn` (both days included) lasts, in the largest unit it
 * fills whole: 2026-01-01 – 2026-12-31 is 1 year, 2026-11-01 – 2026-11-30 1 month, 2026-01-15 –
 * 2026-04-14 3 months, a Monday to the Sunday after 1 week, anything else days. Null for dates that
 * are not a span (missing, or the end before the start).
 */
export function periodLength(startsOn: string | null | undefined, endsOn: string | null | undefined): { count: number; unit: DurationUnit } | null {
  if (!startsOn || !endsOn) return null;
  const start = new Date(utcDay(startsOn));
  // The day after the last: a whole month ends where the next one begins on the same date.
  const end = new Date(utcDay(endsOn) + DAY_MS);
  if (!(end.getTime() > start.getTime())) return null;
  if (start.getUTCDate() === end.getUTCDate()) {
    const months = (end.getUTCFullYear() - start.getUTCFullYear()) * 12 + end.getUTCMonth() - start.getUTCMonth();
    return months % 12 === 0 ? { count: months / 12, unit: 'year' } : { count: months, unit: 'month' };
  }
  const days = Math.round((end.getTime() - start.getTime()) / DAY_MS);
  return days % 7 === 0 ? { count: days / 7, unit: 'week' } : { count: days, unit: 'day' };
}
