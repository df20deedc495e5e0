import { describe, expect, it } from 'vitest';
import { dateToExcelSerial, excelSerialToDate, isBuiltinDateFormatId, isDateFormatCode } from './dates.ts';
import { cellReference, columnLetters } from './refs.ts';

describe('number formats', () => {
  it.each([
    ['dd.mm.yyyy', true],
    ['m/d/yy', true],
    ['yyyy-mm-dd hh:mm:ss', true],
    ['h:mm AM/PM', true],
    ['[h]:mm:ss', true],
    ['[$-409]mmmm d, yyyy', true],
    ['[Red]dd/mm/yyyy', true],
    ['General', false],
    ['0', false],
    ['#,##0.00', false],
    ['0.00%', false],
    ['0.00E+00', false],
    ['#,##0 "days"', false],
    ['0\\h', false],
    ['[$€-2] #,##0.00', false],
    ['[>=100]0;[Red]0', false],
    ['_(* #,##0_);_(* (#,##0);_(* "-"??_);_(@_)', false],
    ['@', false],
  ])('%j is a date format: %s', (code, expected) => {
    expect(isDateFormatCode(code)).toBe(expected);
  });

  it('knows the built-in date ids', () => {
    expect([14, 15, 22, 45, 47].every(isBuiltinDateFormatId)).toBe(true);
    expect([0, 1, 2, 9, 10, 11, 12, 13, 37, 44, 48, 49].some(isBuiltinDateFormatId)).toBe(false);
  });
});

describe('serials', () => {
  it('converts serials in both date systems', () => {
    expect(excelSerialToDate(45306).toISOString()).toBe('2024-01-15T00:00:00.000Z');
    expect(excelSerialToDate(45306.75).toISOString()).toBe('2024-01-15T18:00:00.000Z');
    expect(excelSerialToDate(45306 - 1462, true).toISOString()).toBe('2024-01-15T00:00:00.000Z');
    expect(dateToExcelSerial(new Date(Date.UTC(2024, 0, 15)))).toBe(45306);
  });

  it('names columns', () => {
    expect([0, 25, 26, 27, 701, 702, 16383].map(columnLetters)).toEqual(['A', 'Z', 'AA', 'AB', 'ZZ', 'AAA', 'XFD']);
    expect(cellReference(12, 1)).toBe('B12');
  });
});
