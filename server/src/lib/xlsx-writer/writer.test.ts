import { readFileSync } from 'node:fs';
import { PassThrough, Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import yauzl from 'yauzl';
import { afterAll, describe, expect, it } from 'vitest';
import { readXlsxRows, type XlsxRow } from '../xlsx/index.ts';
import { tempFolder } from '../xlsx/test-support.ts';
import { cellText, columnName, safeSheetName, stripInvalidXmlChars, writeXlsx, xlsxReadable, type XlsxCellInput } from './index.ts';

const tmp = tempFolder('xlsx-writer-test-');
afterAll(() => tmp.cleanup());

async function collect(path: string): Promise<XlsxRow[]> {
  const rows: XlsxRow[] = [];
  for await (const row of readXlsxRows(path)) rows.push(row);
  return rows;
}

function zipEntries(path: string): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      const entries = new Map<string, string>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (error, stream) => {
          if (error) return reject(error);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

describe('xml helpers', () => {
  it('strips characters XML 1.0 cannot carry, lone surrogates included', () => {
    expect(stripInvalidXmlChars('a\u0000b\u0007c\td\ne\rf\uFFFEg\uFFFF')).toBe('abc\td\ne\rfg');
    expect(stripInvalidXmlChars('x\uD800y\uDC00z')).toBe('xyz');
    expect(stripInvalidXmlChars('emoji 😀 ok')).toBe('emoji 😀 ok');
  });

  it('escapes cell text and protects literal _xHHHH_ sequences', () => {
    expect(cellText('a & b < c > d "e"')).toBe('a &amp; b &lt; c &gt; d "e"');
    expect(cellText('_x000D_')).toBe('_x005F_x000D_');
    expect(cellText('x'.repeat(40_000))).toHaveLength(32_767);
    expect(cellText('x'.repeat(32_766) + '😀')).toHaveLength(32_766); // never half a surrogate pair
  });

  it('names columns and sheets the way Excel accepts', () => {
    expect([0, 25, 26, 701, 702].map(columnName)).toEqual(['A', 'Z', 'AA', 'ZZ', 'AAA']);
    expect(safeSheetName('a/b:c?[d]*e\\f')).toBe('a_b_c__d__e_f');
    expect(safeSheetName("'quoted'")).toBe('quoted');
    expect(safeSheetName('')).toBe('Sheet1');
    expect(safeSheetName('x'.repeat(40))).toHaveLength(31);
  });
});

describe('xlsx writer', () => {
  it('writes a complete package: content types, relationships, workbook, styles, sheet', async () => {
    const path = tmp.path('package.xlsx');
    await writeXlsx(path, [['a', 1]], { header: ['H1', 'H2'], columnWidths: [10, null, 20], sheetName: 'Data & more' });
    const entries = await zipEntries(path);
    expect([...entries.keys()].sort()).toEqual(
      ['[Content_Types].xml', '_rels/.rels', 'xl/_rels/workbook.xml.rels', 'xl/styles.xml', 'xl/workbook.xml', 'xl/worksheets/sheet1.xml'].sort(),
    );
    expect(entries.get('[Content_Types].xml')).toContain('PartName="/xl/worksheets/sheet1.xml"');
    expect(entries.get('xl/workbook.xml')).toContain('name="Data &amp; more"');
    expect(entries.get('xl/styles.xml')).toContain('<b/>');
    const sheet = entries.get('xl/worksheets/sheet1.xml')!;
    expect(sheet).toContain('<col min="1" max="1" width="10" customWidth="1"/><col min="3" max="3" width="20" customWidth="1"/>');
    expect(sheet).toContain('<row r="1"><c r="A1" s="1" t="inlineStr"><is><t xml:space="preserve">H1</t></is></c>');
    expect(sheet).toContain('<row r="2"><c r="A2" t="inlineStr"><is><t xml:space="preserve">a</t></is></c><c r="B2"><v>1</v></c></row>');
  });

  it('round-trips strings and numbers through our reader, keeping row numbers across empty rows', async () => {
    const path = tmp.path('roundtrip.xlsx');
    const rows: XlsxCellInput[][] = [
      ['text', 12.5, -3, 0],
      [],
      [null, '', undefined, 'D only'],
      ['  spaced  ', 'a & b <c>', 'bad\u0001char', '_x0041_'],
      [-0, 1e21, 123456789.123, 'ünïcødé 😀'],
    ];
    await writeXlsx(path, rows, { header: ['Code', 'Volume', 'Value'] });
    const read = await collect(path);
    expect(read).toEqual([
      {
        row: 1,
        cells: [
          { kind: 'string', value: 'Code' },
          { kind: 'string', value: 'Volume' },
          { kind: 'string', value: 'Value' },
        ],
      },
      {
        row: 2,
        cells: [
          { kind: 'string', value: 'text' },
          { kind: 'number', value: 12.5, text: '12.5' },
          { kind: 'number', value: -3, text: '-3' },
          { kind: 'number', value: 0, text: '0' },
        ],
      },
      { row: 4, cells: [{ kind: 'empty' }, { kind: 'empty' }, { kind: 'empty' }, { kind: 'string', value: 'D only' }] },
      {
        row: 5,
        cells: [
          { kind: 'string', value: '  spaced  ' },
          { kind: 'string', value: 'a & b <c>' },
          { kind: 'string', value: 'badchar' },
          { kind: 'string', value: '_x0041_' },
        ],
      },
      {
        row: 6,
        cells: [
          { kind: 'number', value: 0, text: '0' },
          { kind: 'number', value: 1e21, text: '1e+21' },
          { kind: 'number', value: 123456789.123, text: '123456789.123' },
          { kind: 'string', value: 'ünïcødé 😀' },
        ],
      },
    ]);
  });

  it('is read by ExcelJS with the bold header, the widths and the values', async () => {
    const path = tmp.path('exceljs.xlsx');
    await writeXlsx(
      path,
      [
        ['1001', 12, 'Name'],
        ['1002', -4.25, 'Other'],
      ],
      {
        header: ['Code', 'Volume', 'Name'],
        columnWidths: [16, 12, 40],
        sheetName: 'Report',
      },
    );
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(path);
    const ws = wb.getWorksheet('Report')!;
    expect(ws).toBeDefined();
    expect(ws.getRow(1).values).toEqual([undefined, 'Code', 'Volume', 'Name']);
    expect(ws.getCell('A1').font?.bold).toBe(true);
    expect(ws.getCell('A2').font?.bold).toBeFalsy();
    expect(ws.getRow(2).values).toEqual([undefined, '1001', 12, 'Name']);
    expect(ws.getRow(3).values).toEqual([undefined, '1002', -4.25, 'Other']);
    expect(ws.getColumn(1).width).toBe(16);
    expect(ws.getColumn(3).width).toBe(40);
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
  });

  it('writes into a stream and ends it', async () => {
    const chunks: Buffer[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
    });
    await writeXlsx(sink, [['x', 1]]);
    expect(sink.writableFinished).toBe(true);
    const path = tmp.write('from-stream.xlsx', Buffer.concat(chunks));
    expect((await collect(path)).map((r) => r.cells)).toEqual([
      [
        { kind: 'string', value: 'x' },
        { kind: 'number', value: 1, text: '1' },
      ],
    ]);
  });

  it('fails on a non-finite number and removes the partial file', async () => {
    const path = tmp.path('nan.xlsx');
    await expect(writeXlsx(path, [[1], [Number.NaN]])).rejects.toThrow(/cell A2: NaN is not a finite number/);
    expect(() => readFileSync(path)).toThrow();
  });

  it('passes an error of the row source on to the output', async () => {
    async function* rows() {
      yield ['ok'];
      throw new Error('cursor failed');
    }
    await expect(writeXlsx(tmp.path('failing.xlsx'), rows())).rejects.toThrow('cursor failed');
  });

  it('pulls rows only as fast as the output is read (streaming)', async () => {
    let pulled = 0;
    function* rows() {
      for (let i = 0; i < 100_000; i++) {
        pulled++;
        yield [`code-${i}`, i, i * 1.5, 'a longer piece of text to make the sheet grow a little faster'];
      }
    }
    const output = xlsxReadable(rows());
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Nothing reads the output: the writer stops after a few buffers.
    expect(pulled).toBeGreaterThan(0);
    expect(pulled).toBeLessThan(50_000);
    output.destroy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const after = pulled;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(pulled).toBe(after); // the row source is released when the consumer goes away
  });

  it('writes 100,000 rows that our reader reads back', async () => {
    const path = tmp.path('big.xlsx');
    function* rows() {
      for (let i = 0; i < 100_000; i++) yield [String(10_000 + i), i, i / 4];
    }
    const heapBefore = process.memoryUsage().heapUsed;
    let heapPeak = heapBefore;
    const timer = setInterval(() => {
      heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
    }, 5);
    const started = performance.now();
    await writeXlsx(path, rows(), { header: ['Code', 'Volume', 'Value'] });
    const took = performance.now() - started;
    clearInterval(timer);
    let count = 0;
    let last: XlsxRow | undefined;
    for await (const row of readXlsxRows(path)) {
      count++;
      last = row;
    }
    expect(count).toBe(100_001);
    expect(last).toEqual({
      row: 100_001,
      cells: [
        { kind: 'string', value: '109999' },
        { kind: 'number', value: 99_999, text: '99999' },
        { kind: 'number', value: 24_999.75, text: '24999.75' },
      ],
    });
    expect(took).toBeLessThan(10_000);
    // The sheet XML is about 9 MB; a writer holding it (or the rows) would show here.
    expect(heapPeak - heapBefore).toBeLessThan(60 * 1024 * 1024);
  });

  it('can be used as a response body (PassThrough)', async () => {
    const body = new PassThrough();
    const done = writeXlsx(body, [['a']]);
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk as Buffer);
    await done;
    expect(Buffer.concat(chunks).subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
  });
});
