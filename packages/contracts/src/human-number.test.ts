import { describe, expect, it } from 'vitest';
import { parseHumanNumber } from './human-number.ts';

describe('parseHumanNumber', () => {
  it.each([
    ['1234', 1234],
    ['0', 0],
    ['007', 7],
    ['-0', 0],
    ['1 234', 1234],
    ['1\u00A0234', 1234],
    ['1\u202F234', 1234],
    ['12 345 678', 12345678],
    ['1\u00A0234\u202F567', 1234567],
    ['12,5', 12.5],
    ['12.5', 12.5],
    ['0,125', 0.125],
    ['1 234,56', 1234.56],
    ['1 234.56', 1234.56],
    ['1,234.56', 1234.56],
    ['12,345,678.9', 12345678.9],
    ['1234,567', 1234.567],
    ['1234,5678', 1234.5678],
    ['-5', -5],
    ['-1 234,5', -1234.5],
    ['\u22121 234,5', -1234.5],
    ['  42  ', 42],
    ['\u00A0\t42\n', 42],
    // Exact: more digits than a double holds.
    ['123 456 789 012 345,6789', '123456789012345.6789'],
    ['-0,0001', '-0.0001'],
  ])('%j → %s', (text, expected) => {
    expect(parseHumanNumber(text)).toBe(String(expected));
  });

  it.each([
    [''],
    ['   '],
    ['-'],
    ['abc'],
    ['12a'],
    ['1e5'],
    ['0x10'],
    ['Infinity'],
    ['NaN'],
    ['$12'],
    ['12 €'],
    ['12%'],
    ['+5'],
    ['5-'],
    ['(5)'],
    ['- 5'],
    ['1.2.3'],
    ['1,2,3'],
    ['1.234,56'], // dot thousands with comma decimals: refused, see rules
    ['1,234'], // 1234 or 1.234: ambiguous, refused
    ['12.500'],
    ['1,234,567'], // comma thousands without a decimal part
    ['1 23'],
    ['1  234'],
    ['12 34,5'],
    ['1 234 5'],
    ['1,23.4'],
    ['1 234,567.8'],
    ['.5'],
    ['5.'],
    [','],
    ['12,5 kg'],
    ['1'.repeat(101)],
  ])('%j → null', (text) => {
    expect(parseHumanNumber(text)).toBeNull();
  });
});
