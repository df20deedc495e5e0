import { describe, expect, it } from 'vitest';
import { i18n } from '../i18n/index.ts';
import { periodLength } from './durations.ts';

describe('how long a period lasts', () => {
  it('when a period fills whole years, months or weeks, then it is counted in the largest of them; else in days', () => {
    expect(periodLength('2026-01-01', '2026-12-31')).toEqual({ count: 1, unit: 'year' });
    expect(periodLength('2025-01-01', '2026-12-31')).toEqual({ count: 2, unit: 'year' });
    expect(periodLength('2026-11-01', '2026-11-30')).toEqual({ count: 1, unit: 'month' });
    expect(periodLength('2026-02-01', '2026-02-28')).toEqual({ count: 1, unit: 'month' });
    expect(periodLength('2026-01-15', '2026-04-14')).toEqual({ count: 3, unit: 'month' });
    expect(periodLength('2026-11-02', '2026-11-08')).toEqual({ count: 1, unit: 'week' });
    expect(periodLength('2026-11-02', '2026-11-15')).toEqual({ count: 2, unit: 'week' });
    expect(periodLength('2026-11-02', '2026-11-02')).toEqual({ count: 1, unit: 'day' });
    expect(periodLength('2026-11-02', '2026-11-11')).toEqual({ count: 10, unit: 'day' });
    // Across the change to summer time: still whole days.
    expect(periodLength('2026-03-28', '2026-03-30')).toEqual({ count: 3, unit: 'day' });
  });

  it('when the dates are no span, then nothing', () => {
    expect(periodLength('2026-11-30', '2026-11-01')).toBeNull();
    expect(periodLength(null, '2026-11-01')).toBeNull();
    expect(periodLength('not-a-date', '2026-11-01')).toBeNull();
  });

  it('when a duration is written, then the catalogue has the singular and the plural of each unit', () => {
    const t = i18n.getFixedT('en-US');
    expect(t('duration.year', { count: 1 })).toBe('1 year');
    expect(t('duration.year', { count: 2 })).toBe('2 years');
    expect(t('duration.month', { count: 1 })).toBe('1 month');
    expect(t('duration.month', { count: 3 })).toBe('3 months');
    expect(t('duration.week', { count: 1 })).toBe('1 week');
    expect(t('duration.week', { count: 2 })).toBe('2 weeks');
    expect(t('duration.day', { count: 1 })).toBe('1 day');
    expect(t('duration.day', { count: 45 })).toBe('45 days');
    // A locale without its own catalogue yet picks the form by its own rule, in en-US words.
    expect(i18n.getFixedT('sv-SE')('duration.day', { count: 1 })).toBe('1 day');
    expect(i18n.getFixedT('sv-SE')('duration.day', { count: 2 })).toBe('2 days');
  });
});
