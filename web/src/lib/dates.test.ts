import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime } from './dates.ts';

describe('dates, one way per language', () => {
  it('writes a calendar date as the same day whatever the time zone, in the medium style of the language', () => {
    expect(formatDate('2026-11-10', 'en-US')).toBe('Nov 10, 2026');
    expect(formatDate('2026-01-01', 'en-US')).toBe('Jan 1, 2026');
    expect(formatDate('2026-11-10', 'sv-SE')).toBe('10 nov. 2026');
    expect(formatDate(null)).toBe('–');
  });

  it('writes a moment with its time, and maps the app languages to the ones Intl knows', () => {
    const moment = '2026-11-23T15:33:16Z';
    expect(formatDateTime(moment, 'en-US')).toBe(new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(moment)));
    expect(formatDateTime(moment, 'dk-DK')).toBe(new Intl.DateTimeFormat('da-DK', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(moment)));
    expect(formatDateTime(undefined)).toBe('–');
    expect(formatDateTime('not a date')).toBe('not a date');
  });
});
