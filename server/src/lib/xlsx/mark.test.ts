import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { openWorkbook } from '../../../test/workbook.ts';
import { writeXlsx } from '../xlsx-writer/index.ts';
import { readXlsxRows, type XlsxRow } from './index.ts';
import { markXlsx } from './mark.ts';
import { buildMiniXlsx, tempFolder } from './test-support.ts';

// Marked copies are opened by ExcelJS (another program's reader: fills and notes) and by our reader (the figures unchanged).

const tmp = tempFolder('xlsx-mark-');
afterAll(() => tmp.cleanup());

async function rowsOf(path: string): Promise<XlsxRow[]> {
  const rows: XlsxRow[] = [];
  for await (const row of readXlsxRows(path)) rows.push(row);
  return rows;
}

const noteText = (cell: ExcelJS.Cell) => {
  const note = cell.note;
  if (note === undefined) return undefined;
  return typeof note === 'string' ? note : (note.texts ?? []).map((t) => t.text).join('');
};

const fillOf = (cell: ExcelJS.Cell) => (cell.fill?.type === 'pattern' ? cell.fill.fgColor?.argb : undefined);

async function reportWorkbook(withNotes: boolean): Promise<string> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Report');
  sheet.addRow(['Code', 'Volume', 'Value']);
  sheet.addRow(['P-1', 12.5, 100]);
  sheet.addRow(['P-2', 'twelve']);
  sheet.addRow(['P-3', 3, 4]);
  sheet.getColumn(2).numFmt = '#,##0.00';
  sheet.getCell('B2').numFmt = '#,##0.00';
  sheet.getCell('A1').font = { bold: true };
  sheet.getColumn(1).width = 18;
  if (withNotes) {
    sheet.getCell('B3').note = 'Counted by hand';
    sheet.getCell('E9').value = 'see the note'; // ExcelJS reads a note only on a cell it has
    sheet.getCell('E9').note = 'Ask Anna';
  }
  book.addWorksheet('Other').addRow(['keep', 1]);
  const path = tmp.path(`report-${withNotes ? 'notes' : 'plain'}.xlsx`);
  await book.xlsx.writeFile(path);
  return path;
}

describe('markXlsx', () => {
  it('fills and comments the marked cells, adds a missing one, and leaves the figures and the rest of the file as they were', async () => {
    const path = await reportWorkbook(false);
    const marked = await markXlsx(
      path,
      [
        { row: 3, column: 1, note: 'Volume must be a number.' },
        { row: 3, column: 2, note: 'Value is missing.' },
        { row: 2, column: 0, note: 'Unknown code.' },
        { row: 2, column: 0, note: 'Code reported twice.' },
      ],
      { author: 'Sales statistics' },
    );
    const book = await openWorkbook(marked);
    const sheet = book.getWorksheet('Report')!;
    expect(fillOf(sheet.getCell('B3'))).toBe('FFFFC7CE');
    expect(fillOf(sheet.getCell('C3'))).toBe('FFFFC7CE');
    expect(fillOf(sheet.getCell('A2'))).toBe('FFFFC7CE');
    expect(fillOf(sheet.getCell('B2'))).toBeUndefined();
    expect(noteText(sheet.getCell('B3'))).toBe('Volume must be a number.');
    expect(noteText(sheet.getCell('C3'))).toBe('Value is missing.');
    expect(noteText(sheet.getCell('A2'))).toBe('Unknown code.\nCode reported twice.');
    expect(noteText(sheet.getCell('B2'))).toBeUndefined();
    // The cell keeps its own format beside the fill; other cells keep theirs.
    expect(sheet.getCell('B2').numFmt).toBe('#,##0.00');
    expect(sheet.getCell('A1').font?.bold).toBe(true);
    expect(sheet.getColumn(1).width).toBe(18);
    expect(book.getWorksheet('Other')!.getCell('A1').value).toBe('keep');

    const copy = tmp.write('marked.xlsx', marked);
    expect(await rowsOf(copy)).toEqual(await rowsOf(path));
  });

  it("adds its comments to the sheet's own: a commented cell keeps its comment under ours", async () => {
    const path = await reportWorkbook(true);
    const marked = await markXlsx(
      path,
      [
        { row: 3, column: 1, note: 'Volume must be a number.' },
        { row: 4, column: 2, note: 'Value is too large.' },
      ],
      { author: 'Sales statistics' },
    );
    const sheet = (await openWorkbook(marked)).getWorksheet('Report')!;
    expect(noteText(sheet.getCell('B3'))).toBe('Volume must be a number.\nCounted by hand');
    expect(noteText(sheet.getCell('C4'))).toBe('Value is too large.');
    expect(noteText(sheet.getCell('E9'))).toBe('Ask Anna');
    expect(fillOf(sheet.getCell('C4'))).toBe('FFFFC7CE');
    expect(await rowsOf(tmp.write('marked-notes.xlsx', marked))).toEqual(await rowsOf(path));
  });

  const handmadeRows = '<row><c t="inlineStr"><is><t>P-1</t></is></c><c><v>5</v></c></row><row/><row><c t="inlineStr"><is><t>P-2</t></is></c></row>';
  const handmadeMarks = [
    { row: 1, column: 1, note: 'Too large.' },
    { row: 3, column: 2, note: 'Missing.' },
    { row: 2, column: 0, note: 'Empty row.' },
  ];

  it('marks a hand-made file: an empty row, no styles part', async () => {
    // ExcelJS needs the rows' and cells' references (the reader does not, see the next test).
    const xml =
      '<row r="1"><c r="A1" t="inlineStr"><is><t>P-1</t></is></c><c r="B1"><v>5</v></c></row><row r="2"/><row r="3"><c r="A3" t="inlineStr"><is><t>P-2</t></is></c></row>';
    const path = tmp.write('handmade.xlsx', buildMiniXlsx({ sheets: [{ name: 'S', xml }] }));
    const marked = await markXlsx(path, handmadeMarks, { author: 'Sales statistics' });
    expect(await rowsOf(tmp.write('handmade-marked.xlsx', marked))).toEqual(await rowsOf(path));
    const sheet = (await openWorkbook(marked)).getWorksheet('S')!;
    expect(fillOf(sheet.getCell('B1'))).toBe('FFFFC7CE');
    expect(fillOf(sheet.getCell('C3'))).toBe('FFFFC7CE');
    expect(sheet.getCell('A3').value).toBe('P-2');
    expect(sheet.getCell('B1').value).toBe(5);
    expect(noteText(sheet.getCell('A2'))).toBe('Empty row.');
    expect(noteText(sheet.getCell('C3'))).toBe('Missing.');
  });

  it('marks a file whose elements carry a prefix (x:row), in that prefix', async () => {
    const path = tmp.write('prefixed.xlsx', buildMiniXlsx({ prefix: 'x', sheets: [{ name: 'S', xml: handmadeRows.replace(/<(\/?)(?=[a-z])/g, '<$1x:') }] }));
    const marked = tmp.write('prefixed-marked.xlsx', await markXlsx(path, handmadeMarks, { author: 'Sales statistics' }));
    expect(await rowsOf(marked)).toEqual(await rowsOf(path));
    const sheetXml = execFileSync('unzip', ['-p', marked, 'xl/worksheets/sheet1.xml'], { encoding: 'utf8' });
    expect(sheetXml).toContain('<x:row><x:c r="A2" s="1"/></x:row>');
    expect(sheetXml).toContain('<x:row><x:c t="inlineStr"><x:is><x:t>P-1</x:t></x:is></x:c><x:c s="1"><x:v>5</x:v></x:c></x:row>');
    // A cell added to a row without references: every cell of the row says where it is.
    expect(sheetXml).toContain('<x:row><x:c t="inlineStr" r="A3"><x:is><x:t>P-2</x:t></x:is></x:c><x:c r="C3" s="1"/></x:row>');
    expect(sheetXml).toMatch(/<x:legacyDrawing r:id="rIdMarked2"\/><\/x:worksheet>$/);
  });

  it("marks LibreOffice's file", async () => {
    const path = fileURLToPath(new URL('../../modules/imports/fixtures/libreoffice/errors.xlsx', import.meta.url));
    const marked = await markXlsx(path, [{ row: 2, column: 1, note: 'Volume must be a number.' }], { author: 'Sales statistics' });
    const sheet = (await openWorkbook(marked)).worksheets[0]!;
    expect(fillOf(sheet.getCell('B2'))).toBe('FFFFC7CE');
    expect(noteText(sheet.getCell('B2'))).toBe('Volume must be a number.');
    expect(await rowsOf(tmp.write('lo-marked.xlsx', marked))).toEqual(await rowsOf(path));
  });

  it('marks rows anywhere in a sheet read in many pieces, the last one included', async () => {
    const path = tmp.path('long.xlsx');
    await writeXlsx(
      path,
      Array.from({ length: 30_000 }, (_, i) => [`P-${i}`, i, i * 2]),
      { header: ['Code', 'Volume', 'Value'] },
    );
    const rows = [2, 9_999, 10_000, 20_001, 30_001];
    const marked = await markXlsx(
      path,
      rows.map((row) => ({ row, column: 2, note: `Row ${row}.` })),
      { author: 'Sales statistics' },
    );
    expect(await rowsOf(tmp.write('long-marked.xlsx', marked))).toEqual(await rowsOf(path));
    const sheet = (await openWorkbook(marked)).worksheets[0]!;
    for (const row of rows) {
      expect(noteText(sheet.getCell(`C${row}`))).toBe(`Row ${row}.`);
      expect(fillOf(sheet.getCell(`C${row}`))).toBe('FFFFC7CE');
    }
    expect(fillOf(sheet.getCell('C3'))).toBeUndefined();
  });

  it('refuses to hold a row longer than any report has (a file built to exhaust memory)', async () => {
    const cells = Array.from(
      { length: 16_000 },
      (_, i) => `<c r="${i < 26 ? String.fromCharCode(65 + i) : 'A'}1" t="inlineStr"><is><t>${'x'.repeat(600)}</t></is></c>`,
    ).join('');
    const path = tmp.write('wide.xlsx', buildMiniXlsx({ sheets: [{ name: 'S', xml: `<row r="1">${cells}</row>` }] }));
    await expect(markXlsx(path, [{ row: 1, column: 0, note: 'x' }], { author: 'a' })).rejects.toMatchObject({ name: 'XlsxError', code: 'too_large' });
  });

  it('writes what a note says as text, never as markup', async () => {
    const path = await reportWorkbook(false);
    const note = 'Code "<b>&amp;</b>" ]]> \u0001 is unknown.';
    const sheet = (await openWorkbook(await markXlsx(path, [{ row: 2, column: 0, note }], { author: 'A & <B>' }))).getWorksheet('Report')!;
    expect(noteText(sheet.getCell('A2'))).toBe('Code "<b>&amp;</b>" ]]>  is unknown.');
  });

  it('refuses what is not an xlsx, as the reader does', async () => {
    const path = tmp.write('not.xlsx', 'Code;Volume\nP-1;5\n');
    await expect(markXlsx(path, [{ row: 1, column: 0, note: 'x' }], { author: 'a' })).rejects.toMatchObject({ name: 'XlsxError', code: 'not_xlsx' });
  });
});
