import { afterAll, describe, expect, it } from 'vitest';
import { isXlsxError } from '../xlsx/errors.ts';
import { tempFolder } from '../xlsx/test-support.ts';
import type { Cell } from '../xlsx/types.ts';
import { openCsv, parseCsv, readCsv } from './reader.ts';

const utf8 = (text: string) => new TextEncoder().encode(text);
/** A report's layout: code, volume, value; the figures in B and C. */
const report = (text: string | Uint8Array) => parseCsv(typeof text === 'string' ? utf8(text) : text, { numericColumns: [1, 2] });
const show = (cell: Cell | undefined) =>
  cell === undefined || cell.kind === 'empty' ? '' : cell.kind === 'number' ? `#${cell.text}` : cell.kind === 'string' ? cell.value : cell.kind;
const table = (text: string | Uint8Array) => report(text).rows.map((r) => [r.row, ...r.cells.map(show)]);
const failure = (text: string | Uint8Array) => {
  try {
    report(text);
  } catch (error) {
    if (isXlsxError(error)) return error.code;
    throw error;
  }
  return null;
};

describe('a CSV file read as rows of cells', () => {
  it('when Excel writes it in a comma-decimal locale (";" and "12,5"), then the figures are exact numbers and the codes stay text', () => {
    const file = report('\uFEFFCode;Volume;Value\r\n1001;12,5;1.234,5678\r\n0012;-3;\r\n');
    expect(file).toMatchObject({ separator: ';', decimal: ',' });
    expect(file.rows.map((r) => [r.row, ...r.cells.map(show)])).toEqual([
      [1, 'Code', 'Volume', 'Value'],
      [2, '1001', '#12.5', '#1234.5678'],
      [3, '0012', '#-3'],
    ]);
    // As written, for the error list.
    expect(file.rows[1]!.cells[2]).toMatchObject({ kind: 'number', exact: true, raw: '1.234,5678' });
  });

  it('when written with "," and a decimal point, quoted fields, LF line ends and no byte-order mark, then it reads the same', () => {
    expect(report('Code,Volume,Value\n1001,12.5,"1,234.5678"\n"0012","-3",\n')).toMatchObject({ separator: ',', decimal: '.' });
    expect(table('Code,Volume,Value\n1001,12.5,"1,234.5678"\n"0012","-3",\n')).toEqual([
      [1, 'Code', 'Volume', 'Value'],
      [2, '1001', '#12.5', '#1234.5678'],
      [3, '0012', '#-3'],
    ]);
  });

  it('when figures have more digits than a spreadsheet keeps, then they stay exact (no double in between)', () => {
    expect(table('1001;1234567890123456,1234;0,0001')).toEqual([[1, '1001', '#1234567890123456.1234', '#0.0001']]);
  });

  it('when nothing in the file tells the decimal sign ("1,234" and "5"), then the separator’s custom decides: a comma with ";", a point with ","', () => {
    expect(table('1001;1,234;5')).toEqual([[1, '1001', '#1.234', '#5']]);
    expect(table('1001,"1,234",5')).toEqual([[1, '1001', '#1234', '#5']]);
    // One figure that can only be read one way decides for the file.
    expect(table('1001;1,234;5\n1002;2.5;3')).toEqual([
      [1, '1001', '#1234', '#5'],
      [2, '1002', '#2.5', '#3'],
    ]);
  });

  it('when a figure is not one ("12,5 st", "1.2.3"), then it stays text as written, for the validator to refuse with the cell as read', () => {
    expect(table('1001;12,5 st;1.2.3')).toEqual([[1, '1001', '12,5 st', '1.2.3']]);
  });

  it('when quoted fields hold separators, quotes and line breaks, and blank records stand between, then records keep their own numbers', () => {
    expect(table('"A ""big"" one";"1";"2"\r\n\r\n;;\r\n"two\r\nlines";3;4\r\n')).toEqual([
      [1, 'A "big" one', '#1', '#2'],
      [4, 'two\r\nlines', '#3', '#4'],
    ]);
  });

  it('when the file is empty, binary, not UTF-8, has a quote left open or too many rows, then the reader says which, as the xlsx reader does', () => {
    expect(failure(new Uint8Array())).toBe('empty');
    expect(failure(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00]))).toBe('not_xlsx');
    expect(failure(new Uint8Array([0x31, 0x3b, 0xe9, 0x3b, 0x32]))).toBe('not_utf8');
    expect(failure('1001;"12,5;3\n')).toBe('corrupt');
    expect(() => parseCsv(utf8('1;2;3\n4;5;6\n7;8;9\n'), { maxRows: 2 })).toThrow(/More than 2 rows/);
  });
});

describe('a CSV file streamed from disk', () => {
  const tmp = tempFolder('csv-reader-test-');
  afterAll(() => tmp.cleanup());
  const text =
    '\uFEFFCode;Volume;Value;Name\r\n"0012";12,5;"1.234,5";"Smörgås ""Å"" €"\r\n\r\n1001;-3;0,0001;"two\r\nlines; with ;"\rA-7;1 234;5;x"y\n"";;;\n1002;"7";"8"';

  it('when the file is read a few bytes at a time, splitting fields, quote pairs, CRLFs and multi-byte characters, then it reads as the whole text does', async () => {
    const whole = parseCsv(utf8(text), { numericColumns: [1, 2] });
    // Records, not lines: the quoted line break is inside record 4.
    expect(whole.rows.map((r) => r.row)).toEqual([1, 2, 4, 5, 7]);
    expect(whole.rows[3]!.cells.map(show)).toEqual(['A-7', '#1234', '#5', 'x"y']);
    const file = tmp.write('split.csv', text);
    for (const chunkBytes of [1, 2, 3, 5, 7, 64]) {
      const read = await readCsv(file, { numericColumns: [1, 2], chunkBytes });
      expect({ chunkBytes, ...read }).toEqual({ chunkBytes, ...whole });
    }
  });

  it('when the columns holding figures are named by the header, then the decimal sign is judged from those columns only', async () => {
    const file = tmp.write('named.csv', 'market,period,code,volume\nSE,2024-01,10.01,"1,5"\nSE,2024-02,10.02,2\n');
    const read = await readCsv(file, { numericColumns: (header) => [header.indexOf('volume')] });
    // The codes "10.01" would say "point"; only the volume counts, and "1,5" says comma.
    expect(read.decimal).toBe(',');
    expect(read.rows[1]!.cells.map(show)).toEqual(['SE', '2024-01', '10.01', '#1.5']);
  });

  it('when a file is not text, not UTF-8 further on, or ends inside quotes, then opening it says so before any row is handed on', async () => {
    const open = async (bytes: string | Uint8Array) => {
      try {
        await openCsv(tmp.write('bad.csv', Buffer.from(bytes)), { chunkBytes: 4 });
      } catch (error) {
        if (isXlsxError(error)) return [error.code, error.row];
        throw error;
      }
      return null;
    };
    expect(await open(new Uint8Array([0x31, 0x3b, 0x32, 0x0a, 0x33, 0x3b, 0x00]))).toEqual(['not_xlsx', undefined]);
    expect(await open(new Uint8Array([0x31, 0x3b, 0x32, 0x0a, 0x33, 0x3b, 0x34, 0x0a, 0x35, 0xe9]))).toEqual(['not_utf8', undefined]);
    expect(await open('1;2\n3;"4\n5;6\n')).toEqual(['corrupt', 2]);
    expect(await open('')).toEqual(['empty', undefined]);
  });
});

describe('the quick readings of usual figures', () => {
  it('when figures are plain digits with one sign, then the decimal sign and the exact figures are those the full rules give', () => {
    // Each file once through the quick path and once with a space that sends every figure to the regular expressions.
    const files = ['1;0,125;-0012,50\n2;012,345;7', '1;1.5;-0,0\n2;1234,567;00', '1;1,234;2.345\n2;-3;0', '1;5,;,5\n2;1,2,3;-'];
    for (const text of files) {
      const slow = text.replace(/;(-?[\d,.]+)/g, '; $1');
      expect(report(text).decimal, text).toBe(report(slow).decimal);
      expect(
        report(text).rows.map((r) => r.cells.map(show)),
        text,
      ).toEqual(report(slow).rows.map((r) => r.cells.map(show).map((c) => c.trim())));
    }
  });
});
