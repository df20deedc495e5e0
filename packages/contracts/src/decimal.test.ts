import { describe, expect, it } from 'vitest';
import { compareDecimals, decimalInputSchema, decimalShape, FIGURE_LIMITS, fitsDecimal, normalizeDecimal, roundSignificant } from './decimal.ts';

describe('exact decimals as text', () => {
  it('normalises by moving the point, never by computing', () => {
    expect(normalizeDecimal('1234.5678')).toBe('1234.5678');
    expect(normalizeDecimal('123456789012345.6789')).toBe('123456789012345.6789');
    expect(normalizeDecimal(' 0.10 ')).toBe('0.1');
    expect(normalizeDecimal('-0.0')).toBe('0');
    expect(normalizeDecimal('-0')).toBe('0');
    expect(normalizeDecimal('0.50')).toBe('0.5');
    expect(normalizeDecimal('-0.0001')).toBe('-0.0001');
    expect(normalizeDecimal('12345678901234567890123.5')).toBe('12345678901234567890123.5');
    expect(normalizeDecimal('007')).toBe('7');
    expect(normalizeDecimal('+5')).toBe('5');
    expect(normalizeDecimal('.5')).toBe('0.5');
    expect(normalizeDecimal('5.')).toBe('5');
    expect(normalizeDecimal('1.2345E+3')).toBe('1234.5');
    expect(normalizeDecimal('1E-4')).toBe('0.0001');
    expect(normalizeDecimal('-1.5e-2')).toBe('-0.015');
    expect(normalizeDecimal('1e21')).toBe('1000000000000000000000');
    for (const bad of ['', '-', '.', 'abc', '1,5', '0x10', 'Infinity', 'NaN', '1e', '1e999', '1 000']) expect(normalizeDecimal(bad), bad).toBeNull();
  });

  it('rounds to significant digits half away from zero, exactly', () => {
    expect(roundSignificant('0.30000000000000004', 15)).toBe('0.3');
    expect(roundSignificant('1234.5670000000001', 15)).toBe('1234.567');
    expect(roundSignificant('0.12345678901234567', 15)).toBe('0.123456789012346');
    expect(roundSignificant('-2.4999999999999999', 15)).toBe('-2.5');
    expect(roundSignificant('9.9999999999999999', 15)).toBe('10');
    expect(roundSignificant('123456789012345.6789', 15)).toBe('123456789012346');
    expect(roundSignificant('1234.5678', 15)).toBe('1234.5678');
    expect(roundSignificant('0', 15)).toBe('0');
  });

  it('checks the shape against numeric(20,4)', () => {
    expect(decimalShape('-0.0001')).toEqual({ integerDigits: 0, scale: 4 });
    expect(fitsDecimal('1234567890123456.1234', FIGURE_LIMITS)).toBe(true);
    expect(fitsDecimal('12345678901234567', FIGURE_LIMITS)).toBe(false);
    expect(fitsDecimal('1.23456', FIGURE_LIMITS)).toBe(false);
  });

  it('takes request decimals as strings only (a JSON number is a float already)', () => {
    const rate = decimalInputSchema({ integerDigits: 10, scale: 10 });
    expect(rate.parse('0.0873912345')).toBe('0.0873912345');
    expect(rate.parse('11.4400000000')).toBe('11.44');
    expect(rate.safeParse(0.1).success).toBe(false);
    expect(rate.safeParse('0.08739123456').success).toBe(false);
    expect(rate.safeParse('12345678901').success).toBe(false);
  });
});

describe('compareDecimals', () => {
  it('orders decimal strings exactly, whatever their scale and sign', () => {
    expect(compareDecimals('123456789012345.6789', '123456789012345.6788')).toBe(1);
    expect(compareDecimals('0.1', '0.10')).toBe(0);
    expect(compareDecimals('-2', '-10.5')).toBe(1);
    expect(compareDecimals('-0.0001', '0')).toBe(-1);
    expect(compareDecimals('9999999999999999.9999', '10000000000000000')).toBe(-1);
  });
});
