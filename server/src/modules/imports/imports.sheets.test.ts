import { createWriteStream } from 'node:fs';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { writeXlsx, type XlsxCellInput } from '../../lib/xlsx-writer/index.ts';
import { readXlsxRows, type Cell, type XlsxRow } from '../../lib/xlsx/index.ts';
import { tempFolder } from '../../lib/xlsx/test-support.ts';
import { type TemplateCode, writeErrorSheet, writeTemplate } from './imports.sheets.ts';
import { type CodeInfo, type CodeLookup, validateReportFile } from './imports.validator.ts';

const tmp = tempFolder('imports-sheets-test-');
afterAll(() => tmp.cleanup());

async function collect(path: string): Promise<XlsxRow[]> {
  const rows: XlsxRow[] = [];
  for await (const row of readXlsxRows(path)) rows.push(row);
  return rows;
}

const text = (cell: Cell | undefined) => (cell?.kind === 'string' || cell?.kind === 'number' ? cell.value : null);

const TEMPLATE_CODES: TemplateCode[] = [
  { code: '1001', name: 'Cars', disabled_status: 0 },
  { code: '0012', name: 'Vans & <trucks>', disabled_status: 10 },
  { code: '1004', name: 'Buses', disabled_status: 20 },
  { code: '1005', name: 'Retired', disabled_status: 30 },
];

const LOOKUP: CodeLookup = {
  byCode: new Map<string, CodeInfo>(TEMPLATE_CODES.map((c, i) => [c.code, { id: i + 1, code: c.code, disabled_status: c.disabled_status, available: true }])),
};

describe('import template', () => {
  it('lists the reportable codes with a header, names and notes for the cells to leave empty', async () => {
    const path = tmp.path('template.xlsx');
    await writeTemplate(TEMPLATE_CODES, path);
    const rows = await collect(path);
    expect(rows.map((r) => [r.row, ...r.cells.map(text)])).toEqual([
      [1, 'Code', 'Volume', 'Value', 'Name', 'Note'],
      [2, '1001', null, null, 'Cars'],
      [3, '0012', null, null, 'Vans & <trucks>', 'Value not reported for this code: leave column C (Value) empty.'],
      [4, '1004', null, null, 'Buses', 'Volume not reported for this code: leave column B (Volume) empty.'],
    ]);
    // Codes are text: leading zeros survive.
    expect(rows[2]?.cells[0]).toEqual({ kind: 'string', value: '0012' });
  });

  it('is refused as empty while unfilled (so that a blank upload never replaces a report)', async () => {
    const path = tmp.path('template-unfilled.xlsx');
    await writeTemplate(TEMPLATE_CODES, path);
    const result = await validateReportFile(path, LOOKUP, { slot: null });
    expect(result.errors.map((e) => e.message)).toEqual(['The report file is empty.']);
  });

  it('validates once filled in, by our writer (keeping the Name and Note columns)', async () => {
    const template = tmp.path('template-ours.xlsx');
    await writeTemplate(TEMPLATE_CODES, template);
    const filled: XlsxCellInput[][] = [];
    for await (const { row, cells } of readXlsxRows(template)) {
      const values = cells.map(text) as XlsxCellInput[];
      if (row > 1) {
        const status = LOOKUP.byCode.get(String(values[0]))!.disabled_status;
        if (status !== 20) values[1] = `${row} 000`;
        if (status !== 10) values[2] = `${row},5`;
      }
      filled.push([values[0], values[1], values[2], values[3], values[4]]);
    }
    const path = tmp.path('template-ours-filled.xlsx');
    await writeXlsx(path, filled);
    const result = await validateReportFile(path, LOOKUP, { slot: null });
    expect(result.errors).toEqual([]);
    expect(result.headerRow).toBe(1);
    expect(result.rows).toEqual([
      { row: 2, code_id: 1, code: '1001', volume: '2000', value: '2.5' },
      { row: 3, code_id: 2, code: '0012', volume: '3000', value: null },
      { row: 4, code_id: 3, code: '1004', volume: null, value: '4.5' },
    ]);
  });

  it('validates once filled in with ExcelJS, and reports a value typed into a disabled cell', async () => {
    const template = tmp.path('template-exceljs.xlsx');
    await writeTemplate(TEMPLATE_CODES, template);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(template);
    const [ws] = wb.worksheets;
    if (!ws) throw new Error('the template has no worksheet');
    expect(ws.getCell('A1').font?.bold).toBe(true);
    ws.getCell('B2').value = 10;
    ws.getCell('C2').value = 100.25;
    ws.getCell('B3').value = 5;
    ws.getCell('C4').value = -7; // a return
    const path = tmp.path('template-exceljs-filled.xlsx');
    await wb.xlsx.writeFile(path);
    const ok = await validateReportFile(path, LOOKUP, { slot: null });
    expect(ok.errors).toEqual([]);
    expect(ok.rows).toEqual([
      { row: 2, code_id: 1, code: '1001', volume: '10', value: '100.25' },
      { row: 3, code_id: 2, code: '0012', volume: '5', value: null },
      { row: 4, code_id: 3, code: '1004', volume: null, value: '-7' },
    ]);

    ws.getCell('C3').value = 1; // value disabled for 0012
    const wrong = tmp.path('template-exceljs-wrong.xlsx');
    await wb.xlsx.writeFile(wrong);
    const refused = await validateReportFile(wrong, LOOKUP, { slot: null });
    expect(refused.errors.map((e) => e.message)).toEqual(['Column C must be empty for code 0012, its value is not reported (row 3).']);
  });
});

describe('error sheet', () => {
  it('lists Row | Code | Error for every error of an import, readable by our reader and ExcelJS', async () => {
    const upload = tmp.path('upload.xlsx');
    await writeXlsx(upload, [
      ['Code', 'Volume', 'Value'],
      ['9999', 1, 1],
      ['1001', 'abc', 2],
      ['1001', 1, 1],
    ]);
    const result = await validateReportFile(upload, LOOKUP, { slot: null });
    expect(result.ok).toBe(false);

    const path = tmp.path('errors.xlsx');
    await writeErrorSheet(result.errors, path);
    const rows = await collect(path);
    // Beside each message: the column as the file's header names it, and the cell as read.
    expect(rows.map((r) => r.cells.map(text))).toEqual([
      ['Row', 'Code', 'Column', 'In the cell', 'Error'],
      [2, '9999', 'Code (A)', '9999', 'Invalid code on row 2.'],
      [3, '1001', 'Volume (B)', 'abc', 'Column B contains invalid characters on row 3.'],
      [4, '1001', 'Code (A)', '1001', 'Report has duplicate codes on row 4 for code 1001.'],
    ]);

    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(path);
    const ws = wb.getWorksheet('Errors')!;
    expect(ws.getCell('E1').font?.bold).toBe(true);
    expect(ws.getCell('A2').value).toBe(2);
  });

  it("leaves Row empty for errors about the whole file and writes into a stream, its header in the reader's language", async () => {
    const path = tmp.path('errors-file.xlsx');
    await writeErrorSheet(
      [
        {
          row: null,
          code: null,
          key: 'import.not_xlsx',
          params: {},
          message: "Invalid file. Please make sure the file you're trying to import is an xlsx-file.",
        },
      ],
      createWriteStream(path),
      { locale: 'sv-SE' },
    );
    const rows = await collect(path);
    expect(rows.map((r) => ({ row: r.row, cells: r.cells.map(text) }))).toEqual([
      { row: 1, cells: ['Rad', 'Kod', 'Kolumn', 'I cellen', 'Fel'] },
      // The message from its key, in the reader's language.
      { row: 2, cells: [null, null, null, null, 'Ogiltig fil. Kontrollera att filen du försöker importera är en xlsx-fil.'] },
    ]);
  });
});
