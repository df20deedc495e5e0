import { describe, expect, it } from 'vitest';
import { isXlsxError } from './xlsx/errors.ts';
import { isJsonArray, parseJsonRows } from './json-rows.ts';

const rows = (text: string) =>
  parseJsonRows(new TextEncoder().encode(text)).map((r) => [
    r.row,
    ...r.cells.map((c) => (c.kind === 'number' ? `#${c.text}` : c.kind === 'string' ? c.value : c.kind)),
  ]);

describe('rows sent as JSON', () => {
  it('when numbers have more digits than a double holds, then they are read as written; strings stay text for the spreadsheet reading', () => {
    expect(rows('[{"code":"1001","volume":12345678901234567.1234,"value":0.1},{"code":1002,"volume":"1 234,5","value":-0.0001}]')).toEqual([
      [1, '1001', '#12345678901234567.1234', '#0.1'],
      [2, '1002', '1 234,5', '#-0.0001'],
    ]);
  });

  it('when fields are missing, null, of another type, or an element is not an object, then empty cells and cells no rule accepts', () => {
    expect(rows('[{"code":"1001","value":2},{"code":"1002","volume":null},{"code":true,"volume":[1]},"x",{}]')).toEqual([
      [1, '1001', 'empty', '#2'],
      [2, '1002'],
      [3, 'error', 'error'],
      [4, 'error', 'error', 'error'],
      [5],
    ]);
    // A code must be a string or an integer.
    expect(rows('[{"code":10.5,"volume":1}]')).toEqual([[1, 'error', '#1']]);
  });

  it('when the body is not a JSON array, or an empty one, then it says so as the sheet readers do', () => {
    const code = (text: string) => {
      try {
        parseJsonRows(new TextEncoder().encode(text));
      } catch (error) {
        if (isXlsxError(error)) return error.code;
        throw error;
      }
      return null;
    };
    expect(code('[')).toBe('corrupt');
    expect(code('{"code":"1"}')).toBe('corrupt');
    expect(code('[]')).toBe('empty');
    expect(isJsonArray(new TextEncoder().encode('\uFEFF \r\n [1]'))).toBe(true);
    expect(isJsonArray(new TextEncoder().encode('Code;[x]'))).toBe(false);
  });
});
