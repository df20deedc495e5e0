import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { excelSerialToDate, openXlsx, readXlsxRows, type XlsxRow } from './index.ts';
import { tempFolder } from './test-support.ts';

// Fixtures written at test time by ExcelJS (a real-world writer), read back by our reader.

const tmp = tempFolder();
afterAll(() => tmp.cleanup());

async function collect(path: string): Promise<XlsxRow[]> {
  const rows: XlsxRow[] = [];
  for await (const row of readXlsxRows(path)) rows.push(row);
  return rows;
}

describe('xlsx reader on ExcelJS workbooks', () => {
  it('reads numbers, shared strings, formulas, dates, booleans, errors, rich text and skips empty rows', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Sales');
    ws.addRow(['Code', 'Volume', 'Value']); // row 1: header
    ws.addRow(['A-1', 12, 34.5]); // row 2
    ws.addRow([]); // row 3: empty, never written
    ws.addRow(['B-2', { formula: 'B2*2', result: 24 }, false]); // row 4
    ws.addRow([new Date(Date.UTC(2024, 0, 15)), { error: '#DIV/0!' }, { richText: [{ text: 'rich ' }, { font: { bold: true }, text: 'text' }] }]);
    ws.addRow([{ formula: 'A1&"x"', result: 'Codex' }, { formula: '1+1' }, true]); // row 6
    ws.getCell('C7').numFmt = '0.00'; // styled but blank cell only: row 7 is empty
    ws.getCell('C7').value = null;
    ws.getCell('E9').value = -0.25;
    ws.getCell('A10').value = 'A-1'; // repeated shared string
    ws.getCell('B10').value = 'a & b < c "quoted"';
    const path = tmp.path('mixed.xlsx');
    await wb.xlsx.writeFile(path);

    const book = await openXlsx(path);
    expect(book.sheet).toEqual({ name: 'Sales', part: 'xl/worksheets/sheet1.xml', state: 'visible' });
    expect(book.date1904).toBe(false);
    const rows: XlsxRow[] = [];
    for await (const row of book.rows()) rows.push(row);

    expect(rows.map((r) => r.row)).toEqual([1, 2, 4, 5, 6, 9, 10]);
    expect(rows[0]?.cells).toEqual([
      { kind: 'string', value: 'Code' },
      { kind: 'string', value: 'Volume' },
      { kind: 'string', value: 'Value' },
    ]);
    expect(rows[1]?.cells).toEqual([
      { kind: 'string', value: 'A-1' },
      { kind: 'number', value: 12, text: '12' },
      { kind: 'number', value: 34.5, text: '34.5' },
    ]);
    expect(rows[2]?.cells).toEqual([
      { kind: 'string', value: 'B-2' },
      { kind: 'number', value: 24, text: '24', formula: true },
      { kind: 'boolean', value: false },
    ]);
    expect(rows[3]?.cells).toEqual([
      { kind: 'date', value: 45306 },
      { kind: 'error', value: '#DIV/0!' },
      { kind: 'string', value: 'rich text' },
    ]);
    expect(excelSerialToDate(45306).toISOString()).toBe('2024-01-15T00:00:00.000Z');
    expect(rows[4]?.cells).toEqual([
      { kind: 'string', value: 'Codex', formula: true },
      { kind: 'formula-without-value', formula: true },
      { kind: 'boolean', value: true },
    ]);
    expect(rows[5]?.cells).toEqual([
      { kind: 'empty' },
      { kind: 'empty' },
      { kind: 'empty' },
      { kind: 'empty' },
      { kind: 'number', value: -0.25, text: '-0.25' },
    ]);
    expect(rows[6]?.cells).toEqual([
      { kind: 'string', value: 'A-1' },
      { kind: 'string', value: 'a & b < c "quoted"' },
    ]);
  });

  it('tells date formats (built-in and custom) from number formats', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Formats');
    const formats = ['dd.mm.yyyy', 'yyyy-mm-dd hh:mm', 'h:mm:ss', '[h]:mm', '#,##0.00 "kg"', '0.00%', '0.00E+00', '@', 'General'];
    formats.forEach((numFmt, i) => {
      const cell = ws.getCell(i + 1, 1);
      cell.value = 45000.5;
      cell.numFmt = numFmt;
    });
    const path = tmp.path('formats.xlsx');
    await wb.xlsx.writeFile(path);

    const kinds = (await collect(path)).map((r) => r.cells[0]?.kind);
    expect(kinds).toEqual(['date', 'date', 'date', 'date', 'number', 'number', 'number', 'number', 'number']);
  });

  it('uses the first worksheet in workbook order and reports the 1904 date system', async () => {
    const wb = new ExcelJS.Workbook();
    wb.properties.date1904 = true;
    wb.addWorksheet('Report').addRow(['first']);
    wb.addWorksheet('Other').addRow(['second']);
    const path = tmp.path('two-sheets.xlsx');
    await wb.xlsx.writeFile(path);

    const book = await openXlsx(path);
    expect(book.sheet.name).toBe('Report');
    expect(book.date1904).toBe(true);
    const rows: XlsxRow[] = [];
    for await (const row of book.rows()) rows.push(row);
    expect(rows).toEqual([{ row: 1, cells: [{ kind: 'string', value: 'first' }] }]);
  });

  it('reads the streaming writer output (strings as t="str" without shared strings)', async () => {
    const path = tmp.path('streamed.xlsx');
    const writer = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path, useSharedStrings: false, useStyles: true });
    const ws = writer.addWorksheet('Stream');
    ws.addRow(['Code', 'Volume', 'Value']).commit();
    for (let i = 1; i <= 500; i++) ws.addRow([`C${i}`, i, i * 1.5]).commit();
    ws.commit();
    await writer.commit();

    const rows = await collect(path);
    expect(rows).toHaveLength(501);
    expect(rows[500]).toEqual({
      row: 501,
      cells: [
        { kind: 'string', value: 'C500' },
        { kind: 'number', value: 500, text: '500' },
        { kind: 'number', value: 750, text: '750' },
      ],
    });
  });
});
