import ExcelJS from 'exceljs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path, { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { CodeDisabledStatus } from '@mss/contracts/enums';
import { writeXlsx } from '../../lib/xlsx-writer/index.ts';
import { buildMiniXlsx, buildZip, tempFolder } from '../../lib/xlsx/test-support.ts';
import { type CodeInfo, type CodeLookup, readAheadUntil, type ValidateOptions, validateReportFile } from './imports.validator.ts';

const tmp = tempFolder('imports-validator-test-');
afterAll(() => tmp.cleanup());

function lookup(entries: [code: string, id: number, disabled: CodeDisabledStatus, available?: boolean][]): CodeLookup {
  const byCode = new Map<string, CodeInfo>();
  for (const [code, id, disabled_status, available = true] of entries) byCode.set(code, { id, code, disabled_status, available });
  return { byCode };
}

const CODES = lookup([
  ['1001', 1, 0],
  ['1002', 2, 0],
  ['1003', 3, 10], // value disabled
  ['1004', 4, 20], // volume disabled
  ['1005', 5, 30], // inactive
  ['1006', 6, 0, false], // not available to the company in the market
  ['A-7', 7, 0],
  ['0012', 8, 0],
]);

/** The rows of the "valid file" sheet (the same cells in each writer's file), as read. */
const VALID_ROWS = [
  { row: 2, code_id: 1, code: '1001', volume: '12', value: '34.5' },
  { row: 3, code_id: 2, code: '1002', volume: '1234', value: '12.5' },
  { row: 4, code_id: 7, code: 'A-7', volume: '-3', value: '1234.5' },
  { row: 5, code_id: 3, code: '1003', volume: '7', value: null },
  { row: 6, code_id: 4, code: '1004', volume: null, value: '99' },
  { row: 7, code_id: 8, code: '0012', volume: '0.125', value: '1234567' },
];

/** The errors of the "every row error" sheet (the same rows in each writer's file). */
const ROW_ERRORS = [
  [2, 'Invalid code on row 2.'],
  [3, 'The code is not available to you (row 3).'],
  [4, 'The code 1005 is inactive (row 4).'],
  [6, 'Report has duplicate codes on row 6 for code 1001.'],
  [7, 'Column B contains invalid characters on row 7.'],
  [7, 'Column C contains invalid characters on row 7.'],
  [8, 'Column C must be empty for code 1003, its value is not reported (row 8).'],
  [9, 'Column B must be empty for code 1004, its volume is not reported (row 9).'],
  [10, 'Invalid code on row 10.'],
  [11, 'Invalid code on row 11.'],
  [12, 'Column B contains invalid characters on row 12.'],
  [13, 'Invalid code on row 13.'],
  [13, 'Column B contains invalid characters on row 13.'],
];

type Plain = string | number | null;
let fileNumber = 0;

/** The two independent writers: ExcelJS (shared strings) and ours (inline strings). */
const writers = {
  exceljs: async (rows) => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Sheet1');
    for (const row of rows) ws.addRow(row.map((cell) => cell ?? undefined));
    const path = tmp.path(`exceljs-${++fileNumber}.xlsx`);
    await wb.xlsx.writeFile(path);
    return path;
  },
  'xlsx-writer': async (rows) => {
    const path = tmp.path(`ours-${++fileNumber}.xlsx`);
    await writeXlsx(path, rows);
    return path;
  },
} satisfies Record<string, (rows: Plain[][]) => Promise<string>>;

const options: ValidateOptions = { slot: null };
const validate = (path: string, opts: ValidateOptions = {}) => validateReportFile(path, CODES, { ...options, ...opts });

const messages = (result: { errors: { row: number | null; message: string }[] }) => result.errors.map((e) => [e.row, e.message]);

describe.each(Object.entries(writers))('import validator on files written by %s', (_name, write) => {
  it('accepts a valid file with a header row and reads numbers the way a person would', async () => {
    const path = await write([
      ['Code', 'Volume', 'Value'],
      ['1001', 12, 34.5],
      [1002, '1 234', '12,5'], // numeric code cell; numbers stored as text
      ['A-7', '-3', '1,234.50'], // negative; comma thousands with a dot decimal
      ['1003', 7, null], // value disabled: C empty
      ['1004', null, 99], // volume disabled: B empty
      ['  0012  ', '0,125', '1\u00a0234\u00a0567'], // trimmed code with leading zeros; no-break spaces
    ]);
    const result = await validate(path);
    expect(result.errors).toEqual([]);
    expect(result).toMatchObject({ ok: true, headerRow: 1, dataRowCount: 6, rowsWithoutFigures: 0, truncated: false });
    expect(result.rows).toEqual(VALID_ROWS);
  });

  it('accepts a file without a header; row numbers start at 1 and skip empty rows', async () => {
    const path = await write([['1001', 1, 2], [], ['1002', 3, 4]]);
    const result = await validate(path);
    expect(result.ok).toBe(true);
    expect(result.headerRow).toBeNull();
    expect(result.rows.map((r) => [r.row, r.code])).toEqual([
      [1, '1001'],
      [3, '1002'],
    ]);
  });

  it('lists every row error with the exact messages and spreadsheet row numbers', async () => {
    const path = await write([
      ['Code', 'Volume', 'Value'], // 1
      ['X-404', 1, 1], // 2 unknown code
      ['1006', 1, 1], // 3 not available
      ['1005', 1, 1], // 4 inactive
      ['1001', 1, 1], // 5 fine
      ['1001', 2, 2], // 6 duplicate
      ['1002', 'abc', '1,234'], // 7 B and C invalid (1,234 is ambiguous)
      ['1003', 1, 5], // 8 value must be empty
      ['1004', 5, 1], // 9 volume must be empty
      [null, 5, 6], // 10 no code
      [1.5, 1, 1], // 11 non-integer numeric code
      ['A-7', 1e16, 1], // 12 too large: more than 16 digits before the point
      ['X-404', 'x', null], // 13 invalid code and invalid B
    ]);
    const result = await validate(path);
    expect(result.ok).toBe(false);
    expect(result.rows).toEqual([]);
    expect(messages(result)).toEqual(ROW_ERRORS);
    expect(result.errors.map((e) => e.key)).toEqual([
      'import.invalid_code',
      'import.code_not_available',
      'import.code_inactive',
      'import.duplicate_code',
      'import.column_b_invalid',
      'import.column_c_invalid',
      'import.value_must_be_empty',
      'import.volume_must_be_empty',
      'import.invalid_code',
      'import.invalid_code',
      'import.column_b_invalid',
      'import.invalid_code',
      'import.column_b_invalid',
    ]);
    expect(result.errors[0]).toEqual({
      row: 2,
      code: 'X-404',
      key: 'import.invalid_code',
      params: { row: 2 },
      message: 'Invalid code on row 2.',
      column: { letter: 'A', name: 'Code', cell: 'X-404' },
    });
    // Each error names its column as the header does and the cell as read: "Volume", "abc".
    expect(result.errors.map((e) => e.column && `${e.column.name}|${e.column.cell}`)).toEqual([
      'Code|X-404',
      'Code|1006',
      'Code|1005',
      'Code|1001',
      'Volume|abc',
      'Value|1,234',
      'Value|5',
      'Volume|5',
      'Code|null',
      'Code|1.5',
      'Volume|10000000000000000',
      'Code|X-404',
      'Volume|x',
    ]);
    expect(result.errors[3]?.params).toEqual({ row: 6, code: '1001' });
    expect(result.errors[8]?.code).toBeNull();
    expect(result.errors[9]?.code).toBe('1.5');
    expect(result).toMatchObject({ dataRowCount: 12, headerRow: 1, truncated: false });
  });

  it('hands on exact decimal text: text as typed, number cells at the 15 digits a spreadsheet keeps; more than 4 decimals or 16 integer digits is invalid', async () => {
    const path = await write([
      ['1001', '123 456 789 012 345,6789', '0,1'], // 1 text: exact, whatever a double would make of it
      ['1002', 0.1 + 0.2, '1234567890123456.1234'], // 2 a number cell 0.30000000000000004 is the 0.3 shown
      ['A-7', '1234,56789', 1234.56789], // 3 five decimals, in text and in a number cell
      ['0012', '12345678901234567', null], // 4 seventeen digits before the point
    ]);
    const result = await validate(path, { maxErrors: 100 });
    expect(messages(result)).toEqual([
      [3, 'Column B contains invalid characters on row 3.'],
      [3, 'Column C contains invalid characters on row 3.'],
      [4, 'Column B contains invalid characters on row 4.'],
    ]);
    const valid = await validate(
      await write([
        ['1001', '123 456 789 012 345,6789', '0,1'],
        ['1002', 0.1 + 0.2, '1234567890123456.1234'],
        ['A-7', 1234.5678, '-0,0001'],
      ]),
    );
    expect(valid.rows.map((r) => [r.volume, r.value])).toEqual([
      ['123456789012345.6789', '0.1'],
      ['0.3', '1234567890123456.1234'],
      ['1234.5678', '-0.0001'],
    ]);
  });

  it('refuses invalid number texts as invalid characters', async () => {
    const bad = ['12%', '€5', '1e5', '+3', '1.2.3', '1.234,56', '(5)', '12 34', 'NaN', 'Infinity', '0x10'];
    const path = await write(bad.map((text) => ['1001', text, 1]));
    // The repeated code adds duplicate errors; look at column B only.
    const result = await validate(path, { maxErrors: 100 });
    expect(result.errors.filter((e) => e.key === 'import.column_b_invalid').map((e) => e.row)).toEqual(bad.map((_, i) => i + 1));
  });

  it('refuses an empty workbook, a header alone and codes without figures as empty', async () => {
    for (const rows of [[], [['Code', 'Volume', 'Value']], [['Code', 'Volume', 'Value'], ['1001'], ['1002', null, '   ']]] as Plain[][][]) {
      const result = await validate(await write(rows));
      expect(messages(result)).toEqual([[null, 'The report file is empty.']]);
      expect(result.errors[0]?.key).toBe('import.empty');
    }
  });

  it('refuses a fourth column unless the header names it', async () => {
    const unnamed = await validate(
      await write([
        ['1001', 1, 2, 'note'],
        ['X-404', 1, 2],
        ['1002', 1, 2, null, 'far away'],
      ]),
    );
    // Only the column count errors: the row rules are not applied to a file with the wrong layout.
    expect(messages(unnamed)).toEqual([
      [1, 'Invalid column count.'],
      [3, 'Invalid column count.'],
    ]);
    expect(unnamed.errors[0]).toMatchObject({ key: 'import.column_count', params: {}, code: '1001' });

    const named = await validate(
      await write([
        ['Code', 'Volume', 'Value', 'Name'],
        ['1001', 1, 2, 'Cars'],
        [null, null, null, 'a note only: not a data row'],
        ['1002', 3, 4],
      ]),
    );
    expect(named.errors).toEqual([]);
    expect(named.rows.map((r) => r.code)).toEqual(['1001', '1002']);
    expect(named.dataRowCount).toBe(2);

    const beyondNamed = await validate(
      await write([
        ['Code', 'Volume', 'Value', 'Name'],
        ['1001', 1, 2, 'Cars', 'unnamed E'],
      ]),
    );
    expect(messages(beyondNamed)).toEqual([[2, 'Invalid column count.']]);
  });

  it('refuses a sheet with too few columns as "Invalid column count.", with or without a header', async () => {
    const tooFew: Plain[][][] = [
      [
        ['Code', 'Volume'],
        ['1001', 5],
        ['1002', 6],
      ],
      [
        ['1001', 5],
        ['1002', 6],
      ],
      [['1001'], ['1002']],
      [['Code'], ['1001']],
    ];
    for (const rows of tooFew) {
      const result = await validate(await write(rows));
      expect(messages(result)).toEqual([[null, 'Invalid column count.']]);
      expect(result.errors[0]!.key).toBe('import.column_count');
    }
    // A header naming the three columns: C may be empty on every row (a code whose value is not reported).
    const named = await validate(
      await write([
        ['Code', 'Volume', 'Value'],
        ['1003', 7, null],
      ]),
    );
    expect(named.errors).toEqual([]);
    expect(named.rows).toEqual([{ row: 2, code_id: 3, code: '1003', volume: '7', value: null }]);
  });

  it('takes the first non-empty row as the header only when it looks like one', async () => {
    // A known code in A: data, even with text in B and C.
    const data = await validate(await write([['1001', 'x', 'y']]));
    expect(data.headerRow).toBeNull();
    expect(messages(data)).toEqual([
      [1, 'Column B contains invalid characters on row 1.'],
      [1, 'Column C contains invalid characters on row 1.'],
    ]);

    // Number-like B or C: data.
    const numeric = await validate(await write([['Code', '12', 'Value']]));
    expect(numeric.headerRow).toBeNull();
    expect(messages(numeric)).toEqual([
      [1, 'Invalid code on row 1.'],
      [1, 'Column C contains invalid characters on row 1.'],
    ]);

    // Header after empty rows; localized titles; blank A.
    const later = await validate(await write([[], [], [null, 'Volym', 'Värde'], ['1001', 1, 2]]));
    expect(later).toMatchObject({ ok: true, headerRow: 3 });

    // A second header-like row is data.
    const twice = await validate(
      await write([
        ['Code', 'Volume', 'Value'],
        ['Code', 'Volume', 'Value'],
        ['1001', 1, 2],
      ]),
    );
    expect(messages(twice)).toEqual([
      [2, 'Invalid code on row 2.'],
      [2, 'Column B contains invalid characters on row 2.'],
      [2, 'Column C contains invalid characters on row 2.'],
    ]);
  });

  it('lists all errors of a large file and caps the list', async () => {
    const rows: Plain[][] = Array.from({ length: 50 }, (_, i) => [`bad-${i}`, 1, 2]);
    const all = await validate(await write(rows));
    expect(all.errors).toHaveLength(50);
    expect(all.errors.map((e) => e.row)).toEqual(rows.map((_, i) => i + 1));

    const capped = await validate(await write(rows), { maxErrors: 5 });
    expect(capped.truncated).toBe(true);
    expect(capped.errors).toHaveLength(6);
    expect(capped.errors[5]).toEqual({
      row: null,
      code: null,
      key: 'import.too_many_errors',
      params: { count: '50', max: '5', row: 5 },
      message: 'The file has 50 errors; this list stops after the first 5, at row 5. Fix them and import the file again to see the rest.',
    });
    expect(capped.errorCount).toBe(50);
    expect(all.errorCount).toBe(50);
    expect(capped.dataRowCount).toBe(50);
  });

  it('refuses more rows than allowed', async () => {
    const result = await validate(
      await write([
        ['1001', 1, 1],
        ['1002', 1, 1],
        ['A-7', 1, 1],
      ]),
      { limits: { maxRows: 2 } },
    );
    expect(messages(result)).toEqual([[null, 'The file has too many rows (at most 2).']]);
  });

  it('when the file has a header row and exactly the allowed number of data rows, then it is accepted (the limit is on data rows)', async () => {
    const header = ['Code', 'Volume', 'Value'];
    const ok = await validate(await write([header, ['1001', 1, 1], ['1002', 1, 1]]), { limits: { maxRows: 2 } });
    expect(messages(ok)).toEqual([]);
    expect(ok).toMatchObject({ ok: true, headerRow: 1, dataRowCount: 2 });
    const over = await validate(await write([header, ['1001', 1, 1], ['1002', 1, 1], ['A-7', 1, 1]]), { limits: { maxRows: 2 } });
    expect(messages(over)).toEqual([[null, 'The file has too many rows (at most 2).']]);
  });

  it('refuses a sheet over the size cap', async () => {
    const result = await validate(await write([['1001', 1, 1]]), { limits: { maxSheetBytes: 100 } });
    expect(result.errors.map((e) => e.key)).toEqual(['import.too_large']);
    expect(result.errors[0]?.message).toBe('The file is too large to import, or expands to an unreasonable size.');
  });
});

describe('import validator: cell kinds only some writers produce (ExcelJS)', () => {
  async function excel(build: (ws: ExcelJS.Worksheet) => void): Promise<string> {
    const wb = new ExcelJS.Workbook();
    build(wb.addWorksheet('Sheet1'));
    const path = tmp.path(`exceljs-kinds-${++fileNumber}.xlsx`);
    await wb.xlsx.writeFile(path);
    return path;
  }

  it('uses cached formula results; a formula without one says so, with its column', async () => {
    const path = await excel((ws) => {
      ws.addRow(['Code', 'Volume', 'Value']);
      ws.addRow([
        { formula: '"10"&"01"', result: '1001' },
        { formula: '2*3', result: 6 },
        { formula: 'B2/4', result: 1.5 },
      ]);
      ws.addRow([{ formula: '1000+2', result: 1002 }, { formula: 'TEXT(5,"0")', result: '5' }, 7]);
      ws.addRow(['A-7', { formula: '1+1' }, 1]);
      ws.addRow([{ formula: 'UPPER("a")' }, 1, 2]);
    });
    const result = await validate(path);
    expect(messages(result)).toEqual([
      [4, 'Row 4: the formula in column B has no value; open the file in your spreadsheet program, let it calculate, and save it again.'],
      [5, 'Row 5: the formula in column A has no value; open the file in your spreadsheet program, let it calculate, and save it again.'],
    ]);
    expect(result.errors[0]).toMatchObject({ key: 'import.formula_without_value', params: { row: 4, column: 'B' } });

    const valid = await validate(
      await excel((ws) => {
        ws.addRow([
          { formula: '"10"&"01"', result: '1001' },
          { formula: '2*3', result: 6 },
          { formula: 'B1/4', result: 1.5 },
        ]);
        ws.addRow([{ formula: '1000+2', result: 1002 }, { formula: 'TEXT(5,"0")', result: '5' }, 7]);
      }),
    );
    expect(valid.rows).toEqual([
      { row: 1, code_id: 1, code: '1001', volume: '6', value: '1.5' },
      { row: 2, code_id: 2, code: '1002', volume: '5', value: '7' },
    ]);
  });

  it('refuses dates, booleans and error cells in B and C as invalid characters', async () => {
    const path = await excel((ws) => {
      ws.addRow(['1001', new Date(Date.UTC(2026, 0, 15)), 1]);
      ws.addRow(['1002', true, { error: '#DIV/0!' }]);
    });
    expect(messages(await validate(path))).toEqual([
      [1, 'Column B contains invalid characters on row 1.'],
      [2, 'Column B contains invalid characters on row 2.'],
      [2, 'Column C contains invalid characters on row 2.'],
    ]);
  });

  it('refuses dates, booleans and error cells in A as invalid codes, showing them in the error', async () => {
    const path = await excel((ws) => {
      ws.addRow([new Date(Date.UTC(2026, 0, 15)), 1, 1]);
      ws.addRow([false, 1, 1]);
      ws.addRow([{ error: '#N/A' }, 1, 1]);
    });
    const result = await validate(path);
    expect(messages(result)).toEqual([
      [1, 'Invalid code on row 1.'],
      [2, 'Invalid code on row 2.'],
      [3, 'Invalid code on row 3.'],
    ]);
    expect(result.errors.map((e) => e.code)).toEqual(['2026-01-15', 'FALSE', '#N/A']);
  });

  it('reads numeric cells with a number format as plain numbers', async () => {
    const path = await excel((ws) => {
      ws.addRow(['1001', 1234.5, 0.25]);
      ws.getCell('B1').numFmt = '#,##0.00';
      ws.getCell('C1').numFmt = '0%';
    });
    expect((await validate(path)).rows).toEqual([{ row: 1, code_id: 1, code: '1001', volume: '1234.5', value: '0.25' }]);
  });
});

// Files written by LibreOffice Calc's own xlsx writer (scripts/make-libreoffice-fixtures.mjs):
// the third writer next to ExcelJS and the project's writer in imports.validator.test.ts, with
// the same contents where those tests have them, and the same results expected.
const fixture = (name: string) => path.join(import.meta.dirname, 'fixtures', 'libreoffice', `${name}.xlsx`);

const validateFixture = (name: string) => validateReportFile(fixture(name), CODES, options);

describe('import validator on files written by LibreOffice', () => {
  it('accepts a valid file with a header row and reads numbers stored as text the way a person would', async () => {
    const result = await validateFixture('valid');
    expect(result.errors).toEqual([]);
    expect(result).toMatchObject({ ok: true, headerRow: 1, dataRowCount: 6 });
    expect(result.rows).toEqual(VALID_ROWS);
  });

  it('reads numeric cells with number, percent and currency formats as plain numbers', async () => {
    expect((await validateFixture('formats')).rows).toEqual([
      { row: 1, code_id: 1, code: '1001', volume: '1234.5', value: '0.25' },
      { row: 2, code_id: 2, code: '1002', volume: '1500', value: '2.5' },
    ]);
  });

  it('lists every row error with the exact messages and spreadsheet row numbers', async () => {
    const result = await validateFixture('errors');
    expect(result.ok).toBe(false);
    expect(messages(result)).toEqual(ROW_ERRORS);
  });

  it('uses the cached results of formulas, text and numeric', async () => {
    const result = await validateFixture('formulas');
    expect(result.errors).toEqual([]);
    expect(result.rows).toEqual([
      { row: 2, code_id: 1, code: '1001', volume: '6', value: '1.5' },
      { row: 3, code_id: 2, code: '1002', volume: '5', value: '7' },
    ]);
  });

  it('refuses dates, booleans and error cells: invalid characters in B and C, invalid codes in A', async () => {
    const result = await validateFixture('types');
    expect(messages(result)).toEqual([
      [1, 'Column B contains invalid characters on row 1.'],
      [2, 'Column B contains invalid characters on row 2.'],
      [2, 'Column C contains invalid characters on row 2.'],
      [3, 'Invalid code on row 3.'],
      [4, 'Invalid code on row 4.'],
      [5, 'Invalid code on row 5.'],
    ]);
    expect(result.errors.filter((e) => e.row !== null && e.row >= 3).map((e) => e.code)).toEqual(['2026-01-15', 'FALSE', '#N/A']);
  });
});

describe('import validator: what is not a spreadsheet', () => {
  it('refuses random bytes, an image and a damaged zip as not xlsx, whatever the name', async () => {
    // A real workbook of some 13 KB with one byte of its sheet's compressed data changed: its CRC fails.
    const rows = Array.from(
      { length: 400 },
      (_, i) =>
        `<row r="${i + 1}"><c r="A${i + 1}" t="inlineStr"><is><t>${1000 + i}</t></is></c><c r="B${i + 1}"><v>${i * 7}</v></c><c r="C${i + 1}"><v>${i * 13}</v></c></row>`,
    );
    const damaged = buildMiniXlsx({ sheets: [{ name: 'S', xml: rows.join('') }] });
    const sheetAt = damaged.indexOf('xl/worksheets/sheet1.xml');
    damaged[sheetAt + 200] = damaged[sheetAt + 200]! ^ 0x20;
    expect(damaged.length).toBeGreaterThan(5_000);
    for (const [name, bytes] of [
      ['random.xlsx', Buffer.from([0x13, 0x37, 0x00, 0xff, 0x42])],
      ['image.csv', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d])],
      ['damaged.xlsx', damaged],
      ['archive.xlsx', buildZip([{ name: 'hello.txt', data: 'not a workbook' }])],
    ] as const) {
      const result = await validate(tmp.write(name, bytes));
      expect(messages(result)).toEqual([[null, "Invalid file. Please make sure the file you're trying to import is an xlsx-file."]]);
      // (the damaged one is read up to where its data stops adding up)
      expect(result).toMatchObject({ ok: false, rows: [] });
    }
  });

  it('keeps of a long text in column A only its first 60 characters for the error list, never half a character', async () => {
    const long = `${'x'.repeat(59)}😀${'y'.repeat(5000)}`;
    const rows = [long, 'z'.repeat(61), 'short'].map(
      (a, i) => `<row r="${i + 1}"><c r="A${i + 1}" t="inlineStr"><is><t>${a}</t></is></c><c r="B${i + 1}"><v>1</v></c><c r="C${i + 1}"><v>2</v></c></row>`,
    );
    const result = await validate(tmp.write('long.xlsx', buildMiniXlsx({ sheets: [{ name: 'S', xml: rows.join('') }] })));
    expect(result.errors.map((e) => [e.row, e.code])).toEqual([
      [1, `${'x'.repeat(59)}…`],
      [2, `${'z'.repeat(60)}…`],
      [3, 'short'],
    ]);
  });

  it('says an empty file is empty, and a password-protected workbook is password-protected', async () => {
    expect(messages(await validate(tmp.write('empty.xlsx', '')))).toEqual([[null, 'The report file is empty.']]);
    const ole = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    const encrypted = Buffer.concat([ole, Buffer.alloc(2000), Buffer.from('EncryptedPackage', 'utf16le'), Buffer.alloc(2000)]);
    expect(messages(await validate(tmp.write('locked.xlsx', encrypted)))).toEqual([
      [null, 'The file is password-protected. Save it without a password and upload it again.'],
    ]);
  });

  it('refuses a damaged workbook with a message of its own', async () => {
    const path = tmp.write('broken.xlsx', buildMiniXlsx({ sheets: [{ name: 'S', xml: '<row r="1"><c r="A1" t="s"><v>7</v></c></row>' }] }));
    const result = await validate(path);
    expect(result.errors.map((e) => [e.key, e.message])).toEqual([
      ['import.corrupt', 'The file is damaged and cannot be read. Save it again as an xlsx-file and retry.'],
    ]);
  });

  it('treats a workbook without a worksheet as empty', async () => {
    const path = tmp.write('chart-only.xlsx', buildMiniXlsx({ sheets: [{ name: 'Chart', kind: 'chartsheet', xml: '<chartsheet/>' }] }));
    expect((await validate(path)).errors.map((e) => e.key)).toEqual(['import.empty']);
  });

  it('lets an I/O error on the path through', async () => {
    await expect(validate(tmp.path('missing.xlsx'))).rejects.toThrow(/ENOENT/);
  });
});

describe('import validator: defaults', () => {
  it('takes an xlsx read slot by default and validates 100,000 rows quickly', async () => {
    const codes = new Map<string, CodeInfo>();
    for (let i = 0; i < 100_000; i++) codes.set(String(100_000 + i), { id: i + 1, code: String(100_000 + i), disabled_status: 0, available: true });
    const path = tmp.path('big.xlsx');
    function* rows() {
      for (let i = 0; i < 100_000; i++) yield [String(100_000 + i), i, i * 2.5];
    }
    await writeXlsx(path, rows(), { header: ['Code', 'Volume', 'Value'] });
    const started = performance.now();
    const result = await validateReportFile(path, { byCode: codes });
    const took = performance.now() - started;
    expect(result.ok).toBe(true);
    expect(result.rows).toHaveLength(100_000);
    expect(result.rows[99_999]).toEqual({ row: 100_001, code_id: 100_000, code: '199999', volume: '99999', value: '249997.5' });
    expect(took).toBeLessThan(10_000);
  });

  it('writes messages through the catalogue of the locale', async () => {
    const path = await writers['xlsx-writer']([['nope', 1, 1]]);
    expect((await validateReportFile(path, CODES, { slot: null, locale: 'sv-SE' })).errors[0]?.message).toBe('Ogiltig kod på rad 1.');
    expect((await validateReportFile(path, CODES, { slot: null })).errors[0]?.message).toBe('Invalid code on row 1.');
  });
});

describe('reading ahead while the code lookup runs', () => {
  async function* numbers(n: number) {
    for (let i = 1; i <= n; i++) yield i;
  }
  it('yields every item once and in order, whether the lookup ends before, during or after the reading', async () => {
    for (const delay of [0, 1, 20]) {
      const ready = new Promise((resolve) => setTimeout(resolve, delay));
      const seen: number[] = [];
      for await (const n of readAheadUntil(numbers(500), ready)) seen.push(n);
      expect(seen).toEqual(Array.from({ length: 500 }, (_, i) => i + 1));
    }
  });

  it('when the reader stops early (a break, a throw), then the source is closed', async () => {
    let closed = false;
    async function* source() {
      try {
        for (let i = 1; ; i++) yield i;
      } finally {
        closed = true;
      }
    }
    for await (const n of readAheadUntil(source(), Promise.resolve())) if (n === 3) break;
    expect(closed).toBe(true);
  });

  it('when the lookup fails, then the validation fails with its error', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ahead-'));
    const file = join(dir, 'r.xlsx');
    await writeXlsx(file, [['1001', 1, 1]]);
    await expect(validateReportFile(file, Promise.reject(new Error('lookup failed')), { slot: null })).rejects.toThrow('lookup failed');
  });
});

describe('handing rows to a sink while reading', () => {
  const manyCodes = lookup(Array.from({ length: 250 }, (_, i) => [String(5000 + i), 100 + i, 0] as [string, number, CodeDisabledStatus]));
  const rowsOf = (n: number) => [['Code', 'Volume', 'Value'], ...Array.from({ length: n }, (_, i) => [String(5000 + i), i + 1, null])];

  it('when the file is valid, then every row reaches the sink once, in order, in batches (the first one smaller), and none stays in rows', async () => {
    const file = tmp.path('sink-valid.xlsx');
    await writeXlsx(file, rowsOf(250));
    const batches: number[][] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const write = async (rows: { code_id: number }[]) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 2));
      batches.push(rows.map((r) => r.code_id));
      inFlight--;
    };
    const result = await validateReportFile(file, manyCodes, { slot: null, sink: { batchSize: 100, write } });
    expect(result).toMatchObject({ ok: true, rows: [], rowCount: 250 });
    expect(batches.map((b) => b.length)).toEqual([10, 100, 100, 40]);
    expect(batches.flat()).toEqual(Array.from({ length: 250 }, (_, i) => 100 + i));
    expect(maxInFlight).toBe(1);
  });

  it('when an error comes after some batches, then the result is not ok and no batch follows the error', async () => {
    const rows = rowsOf(250);
    rows[151] = ['nope', 1, 1]; // spreadsheet row 152
    const file = tmp.path('sink-invalid.xlsx');
    await writeXlsx(file, rows);
    const written: number[] = [];
    const result = await validateReportFile(file, manyCodes, {
      slot: null,
      sink: { batchSize: 100, write: async (batch) => void written.push(...batch.map((r) => r.row)) },
    });
    expect(result.ok).toBe(false);
    expect(result.rowCount).toBe(0);
    expect(messages(result)).toEqual([[152, 'Invalid code on row 152.']]);
    expect(written.length).toBe(110);
    expect(Math.max(...written)).toBeLessThan(152);
  });

  it('when a write fails, then the validation fails with its error', async () => {
    const file = tmp.path('sink-fails.xlsx');
    await writeXlsx(file, rowsOf(250));
    const write = async () => {
      throw new Error('disk full');
    };
    await expect(validateReportFile(file, manyCodes, { slot: null, sink: { batchSize: 100, write } })).rejects.toThrow('disk full');
  });
});

// CSV: the filled-in template saved as CSV by LibreOffice (en-US and sv-SE) and in Excel's format
// (fixtures/excel/README.md), against the same template saved as xlsx by LibreOffice.
const csvFixture = (writer: 'libreoffice' | 'excel', name: string) => path.join(import.meta.dirname, 'fixtures', writer, name);
/** The template's rows are the valid file's rows; the header is row 1, as in the xlsx. */
const TEMPLATE_ROWS = VALID_ROWS;

describe('import validator on CSV files', () => {
  it('reads the template saved as xlsx by LibreOffice: the rows the CSV exports must match', async () => {
    const result = await validateReportFile(csvFixture('libreoffice', 'template.xlsx'), CODES, options);
    expect(result.errors).toEqual([]);
    expect(result.rows).toEqual(TEMPLATE_ROWS);
  });

  it.each([
    ['libreoffice', 'template-en-US.csv'],
    ['libreoffice', 'template-sv-SE.csv'],
    ['excel', 'template-en-US.csv'],
    ['excel', 'template-sv-SE.csv'],
  ] as const)('imports %s’s %s exactly as the xlsx: the same rows, the Name and Note columns ignored', async (writer, name) => {
    const result = await validateReportFile(csvFixture(writer, name), CODES, options);
    expect(result.errors).toEqual([]);
    expect(result).toMatchObject({ ok: true, headerRow: 1, dataRowCount: 6, rowsWithoutFigures: 0 });
    expect(result.rows).toEqual(TEMPLATE_ROWS);
  });

  it('lists a CSV’s row errors with the same messages and keys as an xlsx’s, each cell as written in the file', async () => {
    const csv = [
      'Code;Volume;Value',
      'X-404;1;1',
      '1006;1;1',
      '1005;1;1',
      '1001;1;1',
      '1001;2;2',
      '1002;abc;"1,2,3"',
      '1003;1;5',
      '1004;5;1',
      ';5;6',
      '1,5;1;1',
      'A-7;10000000000000000;1',
      'X-404;x;',
    ].join('\r\n');
    const result = await validate(tmp.write('errors.csv', csv));
    expect(messages(result)).toEqual(ROW_ERRORS);
    expect(result.errors.map((e) => e.column?.cell)).toEqual([
      'X-404',
      '1006',
      '1005',
      '1001',
      'abc',
      '1,2,3',
      '5',
      '5',
      null,
      '1,5',
      '10000000000000000',
      'X-404',
      'x',
    ]);
  });

  it('keeps a decimal comma’s figure as written in the error list ("1.234,5" of a code that takes no value)', async () => {
    const result = await validate(tmp.write('comma.csv', '1003;1;"1.234,5"\n'));
    expect(result.errors[0]).toMatchObject({ key: 'import.value_must_be_empty', column: { letter: 'C', cell: '1.234,5' } });
  });

  it('says what is wrong with a CSV that cannot be read: not UTF-8, a quote left open (with its row), too many rows', async () => {
    const latin1 = Buffer.from('Code;Volume;Value\n1001;1;2\nSm\xf6rg\xe5s;1;2\n', 'latin1');
    expect(messages(await validate(tmp.write('latin1.csv', latin1)))).toEqual([
      [null, 'The CSV file is not UTF-8 text. Save it again as "CSV UTF-8" and retry.'],
    ]);
    expect(messages(await validate(tmp.write('quote.csv', '1001;1;2\n1002;"3;4\n1003;5;6\n')))).toEqual([
      [2, 'Row 2: a quoted field is not closed; the file ends inside it.'],
    ]);
    expect(messages(await validate(tmp.write('rows.csv', 'Code;Volume;Value\n1001;1;2\n1002;1;2\n'), { limits: { maxRows: 1 } }))).toEqual([
      [null, 'The file has too many rows (at most 1).'],
    ]);
    // A text that is not a report: its layout is wrong, as an xlsx of it would be.
    expect(messages(await validate(tmp.write('letter.csv', 'Dear member,\nplease find attached\n')))).toEqual([[null, 'Invalid column count.']]);
  });
});
