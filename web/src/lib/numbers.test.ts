import { describe, expect, it } from 'vitest';
import { decimalSign, formatChangePct, formatDecimal, formatMoney, formatPercent } from './numbers.ts';

describe('formatDecimal', () => {
  it('formats decimal strings exactly, by the locale, with every stored decimal', () => {
    expect(formatDecimal('123456789012345.6789', 'en-US')).toBe('123,456,789,012,345.6789');
    expect(formatDecimal('1234.5678', 'en-US')).toBe('1,234.5678');
    expect(formatDecimal('123456809.9995', 'en-US')).toBe('123,456,809.9995');
    expect(formatDecimal('-0.3000', 'en-US')).toBe('-0.3');
    expect(formatDecimal('0.0873912345', 'en-US')).toBe('0.0873912345');
    expect(formatDecimal('123456789012345.6789', 'sv-SE')).toBe('123\u00a0456\u00a0789\u00a0012\u00a0345,6789');
    expect(formatDecimal('1234.5', 'fi-FI')).toBe('1\u00a0234,5');
    expect(formatDecimal(null)).toBe('');
  });
});

describe('formatMoney', () => {
  it('when a converted value is shown, then it has 2 decimals rounded half away from zero from the string, beyond what a float holds', () => {
    expect(formatMoney('166360.656', 'en-US')).toBe('166,360.66');
    expect(formatMoney('210165.3612', 'en-US')).toBe('210,165.36');
    expect(formatMoney('0.005', 'en-US')).toBe('0.01');
    expect(formatMoney('-0.005', 'en-US')).toBe('-0.01');
    expect(formatMoney('12', 'en-US')).toBe('12.00');
    // 2^53 + 1 and a half cent: a JavaScript number would lose both.
    expect(formatMoney('9007199254740993.125', 'en-US')).toBe('9,007,199,254,740,993.13');
    expect(formatMoney('1234.5', 'sv-SE')).toBe('1\u00a0234,50');
    expect(formatMoney(null)).toBe('');
  });
});

describe('formatPercent', () => {
  it('shows one decimal with its sign, exactly as the server rounded it', () => {
    expect(formatPercent('12.3', { signed: true }, 'en-US')).toBe('+12.3\u00a0%');
    expect(formatPercent('-92.0', { signed: true }, 'en-US')).toBe('\u221292.0\u00a0%');
    expect(formatPercent('0.0', { signed: true }, 'en-US')).toBe('0.0\u00a0%');
    expect(formatPercent('45.6', {}, 'sv-SE')).toBe('45,6\u00a0%');
    expect(formatPercent('123456789.1', {}, 'en-US')).toBe('123,456,789.1\u00a0%');
    expect(formatPercent(null)).toBe('');
  });

  it('tells the sign of a decimal string', () => {
    expect(decimalSign('-0.5')).toBe(-1);
    expect(decimalSign('0.0')).toBe(0);
    expect(decimalSign('-0.0')).toBe(0);
    expect(decimalSign('3')).toBe(1);
    expect(decimalSign(null)).toBe(0);
  });
});

describe('formatChangePct', () => {
  it('when a change comes from the API, then it is signed with a true minus, keeps its one decimal and never passes through a float', () => {
    expect(formatChangePct('-92.0', 'en-US')).toBe('\u221292.0\u00a0%');
    expect(formatChangePct('12.5', 'en-US')).toBe('+12.5\u00a0%');
    expect(formatChangePct('0.0', 'en-US')).toBe('0.0\u00a0%');
    expect(formatChangePct('123456789012345678.9', 'en-US')).toBe('+123,456,789,012,345,678.9\u00a0%');
    expect(formatChangePct('-1234.5', 'sv-SE')).toBe('\u22121\u00a0234,5\u00a0%');
    expect(formatChangePct(null)).toBe('');
  });
});
