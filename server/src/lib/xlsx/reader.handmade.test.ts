import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { XlsxError, openXlsx, readXlsxRows, type XlsxReadOptions, type XlsxRow } from './index.ts';
import { MAIN_NS, buildMiniXlsx, buildZip, miniXlsxEntries, sheetXml, tempFolder, type MiniXlsx } from './test-support.ts';

// Hand-written packages: exactly the XML that other writers (or attackers) produce.

const tmp = tempFolder();
afterAll(() => tmp.cleanup());
let counter = 0;

function write(spec: MiniXlsx | Buffer): string {
  return tmp.write(`f${++counter}.xlsx`, Buffer.isBuffer(spec) ? spec : buildMiniXlsx(spec));
}

async function collect(path: string, options?: XlsxReadOptions): Promise<XlsxRow[]> {
  const rows: XlsxRow[] = [];
  for await (const row of readXlsxRows(path, options)) rows.push(row);
  return rows;
}

async function failure(promise: Promise<unknown>): Promise<XlsxError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(XlsxError);
  return error as XlsxError;
}

const str = (value: string) => ({ kind: 'string', value });
const num = (value: number, text = String(value)) => ({ kind: 'number', value, text });
const EMPTY = { kind: 'empty' };

describe('xlsx reader on hand-written packages', () => {
  it('reads inline strings: plain, rich runs, phonetic runs dropped, whitespace kept, entities and _xHHHH_ decoded', async () => {
    const path = write({
      sheets: [
        {
          name: 'S',
          xml:
            '<row r="1">' +
            '<c r="A1" t="inlineStr"><is><t>plain</t></is></c>' +
            '<c r="B1" t="inlineStr"><is><r><t>ri</t></r><r><rPr><b/></rPr><t xml:space="preserve">ch </t></r><rPh sb="0" eb="1"><t>PHONETIC</t></rPh></is></c>' +
            '<c r="C1" t="inlineStr"><is><t xml:space="preserve">  padded  </t></is></c>' +
            '</row><row r="2">' +
            '<c r="A2" t="inlineStr"><is><t>a &amp; b &lt;c&gt; &quot;q&quot; &#x41;&#233;</t></is></c>' +
            '<c r="B2" t="inlineStr"><is><t>line_x000D_break _x005F_x0041_</t></is></c>' +
            '<c r="C2" t="inlineStr"><is><t><![CDATA[<raw> & data]]></t></is></c>' +
            '</row><row r="3"><c r="A3" t="inlineStr"><is><t/></is></c><c r="B3" t="inlineStr"/></row>',
        },
      ],
    });
    expect(await collect(path)).toEqual([
      { row: 1, cells: [str('plain'), str('rich '), str('  padded  ')] },
      { row: 2, cells: [str('a & b <c> "q" Aé'), str('line\rbreak _x0041_'), str('<raw> & data')] },
      { row: 3, cells: [str('')] },
    ]);
  });

  it('handles namespace prefixes on every part (x:row, x:c, x:v, x:si …)', async () => {
    const path = write({
      prefix: 'x',
      sharedStrings: ['code', 'A-1'],
      styles:
        `<x:styleSheet xmlns:x="${MAIN_NS}"><x:numFmts count="1"><x:numFmt numFmtId="164" formatCode="dd/mm/yyyy"/></x:numFmts>` +
        '<x:cellXfs count="2"><x:xf numFmtId="0"/><x:xf numFmtId="164"/></x:cellXfs></x:styleSheet>',
      sheets: [
        {
          name: 'Prefixed',
          xml:
            '<x:row r="1"><x:c r="A1" t="s"><x:v>0</x:v></x:c><x:c r="B1" t="inlineStr"><x:is><x:t>inline</x:t></x:is></x:c></x:row>' +
            '<x:row r="2"><x:c r="A2" t="s"><x:v>1</x:v></x:c><x:c r="B2"><x:v>7</x:v></x:c><x:c r="C2" s="1"><x:v>45000</x:v></x:c>' +
            '<x:c r="D2"><x:f>B2*2</x:f><x:v>14</x:v></x:c></x:row>',
        },
      ],
    });
    const book = await openXlsx(path);
    expect(book.sheet.name).toBe('Prefixed');
    const rows: XlsxRow[] = [];
    for await (const row of book.rows()) rows.push(row);
    expect(rows).toEqual([
      { row: 1, cells: [str('code'), str('inline')] },
      { row: 2, cells: [str('A-1'), num(7), { kind: 'date', value: 45000 }, { kind: 'number', value: 14, text: '14', formula: true }] },
    ]);
  });

  it('numbers rows and cells by position when r attributes are missing, and keeps gaps in row numbers', async () => {
    const path = write({
      sheets: [
        {
          name: 'S',
          xml:
            '<row><c><v>1</v></c><c><v>2</v></c><c><v>3</v></c></row>' + // row 1, A-C
            '<row><c r="B2"><v>4</v></c><c><v>5</v></c></row>' + // row 2: B, then C by position
            '<row r="7"><c r="C7"><v>6</v></c></row>' + // gap: rows 3-6 absent
            '<row><c><v>7</v></c></row>' + // row 8 (previous + 1)
            '<row r="20"/>' + // empty: skipped
            '<row r="21"><c r="A21" s="0"/><c r="B21"><v></v></c></row>' + // only blank cells: skipped
            '<row><c r="AA22"><v>8</v></c></row>', // row 22, column AA = 26
        },
      ],
    });
    const rows = await collect(path);
    expect(rows.map((r) => r.row)).toEqual([1, 2, 7, 8, 22]);
    expect(rows[0]?.cells).toEqual([num(1), num(2), num(3)]);
    expect(rows[1]?.cells).toEqual([EMPTY, num(4), num(5)]);
    expect(rows[2]?.cells).toEqual([EMPTY, EMPTY, num(6)]);
    expect(rows[3]?.cells).toEqual([num(7)]);
    expect(rows[4]?.cells).toHaveLength(27);
    expect(rows[4]?.cells[26]).toEqual(num(8));
  });

  it('ignores indentation whitespace, and reads UTF-8 with BOM and UTF-16 parts', async () => {
    const pretty = sheetXml(
      '\n  <row r="1">\n    <c r="A1" t="inlineStr">\n      <is>\n        <t>caf\u00e9</t>\n      </is>\n    </c>\n' +
        '    <c r="B1">\n      <v>\n        42\n      </v>\n    </c>\n  </row>\n',
    );
    const expected = [{ row: 1, cells: [str('café'), num(42)] }];
    const entries = (data: Buffer | string) =>
      miniXlsxEntries({ sheets: [{ name: 'S', xml: pretty }] }).map((e) => (e.name === 'xl/worksheets/sheet1.xml' ? { ...e, data } : e));

    expect(await collect(write(buildZip(entries(pretty))))).toEqual(expected);
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(pretty)]);
    expect(await collect(write(buildZip(entries(bom))))).toEqual(expected);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(pretty.replace('UTF-8', 'UTF-16'), 'utf16le')]);
    expect(await collect(write(buildZip(entries(utf16))))).toEqual(expected);
  });

  it('resolves the first worksheet through workbook.xml and its rels, not by file name', async () => {
    const chartsheet = '<?xml version="1.0"?><chartsheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"/>';
    const path = write({
      workbookPart: 'xl/book.xml',
      sheets: [
        { name: 'Chart', xml: chartsheet, kind: 'chartsheet' },
        { name: 'Data', xml: '<row r="1"><c t="inlineStr"><is><t>right one</t></is></c></row>', file: 'worksheets/data.xml' },
        { name: 'Decoy', xml: '<row r="1"><c t="inlineStr"><is><t>sheet1.xml</t></is></c></row>', file: 'worksheets/sheet1.xml' },
      ],
    });
    const book = await openXlsx(path);
    expect(book.sheet).toEqual({ name: 'Data', part: 'xl/worksheets/data.xml', state: 'visible' });
    const rows: XlsxRow[] = [];
    for await (const row of book.rows()) rows.push(row);
    expect(rows).toEqual([{ row: 1, cells: [str('right one')] }]);
  });

  it('reads stored (uncompressed) entries, t="d" ISO dates, booleans, errors and empty formula strings', async () => {
    const path = write({
      method: 0,
      date1904: true,
      sheets: [
        {
          name: 'S',
          xml:
            '<row r="1"><c r="A1" t="d"><v>2024-01-15T12:00:00</v></c><c r="B1" t="b"><v>0</v></c>' +
            '<c r="C1" t="e"><v>#N/A</v></c><c r="D1" t="str"><f>""</f><v></v></c><c r="E1"><v> 1.5e3 </v></c></row>',
        },
      ],
    });
    const book = await openXlsx(path);
    expect(book.date1904).toBe(true);
    const rows: XlsxRow[] = [];
    for await (const row of book.rows()) rows.push(row);
    expect(rows[0]?.cells).toEqual([
      { kind: 'date', value: 45306.5 - 1462 },
      { kind: 'boolean', value: false },
      { kind: 'error', value: '#N/A' },
      { kind: 'string', value: '', formula: true },
      num(1500, '1.5e3'),
    ]);
  });

  it('reads shared strings with rich runs and phonetic hints', async () => {
    const sst =
      `<sst xmlns="${MAIN_NS}"><si><t>one</t></si><si><r><t>t</t></r><r><t>wo</t></r><rPh sb="0" eb="1"><t>NO</t></rPh><phoneticPr fontId="1"/></si>` +
      '<si><t/></si></sst>';
    const path = write({
      sharedStrings: { xml: sst },
      sheets: [{ name: 'S', xml: '<row r="1"><c t="s"><v>0</v></c><c t="s"><v>1</v></c><c t="s"><v>2</v></c></row>' }],
    });
    expect((await collect(path))[0]?.cells).toEqual([str('one'), str('two'), str('')]);
  });

  it('streams 100,000 rows x 3 columns', async () => {
    const count = 100_000;
    const parts: string[] = ['<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="s"><v>2</v></c></row>'];
    for (let r = 2; r <= count + 1; r++) {
      parts.push(`<row r="${r}"><c r="A${r}" t="inlineStr"><is><t>C${r}</t></is></c><c r="B${r}"><v>${r}</v></c><c r="C${r}"><v>${r / 4}</v></c></row>`);
    }
    const path = write({ sharedStrings: ['Code', 'Volume', 'Value'], sheets: [{ name: 'Big', xml: parts.join('') }] });
    let rows = 0;
    let last: XlsxRow | undefined;
    for await (const row of readXlsxRows(path)) {
      rows++;
      last = row;
    }
    expect(rows).toBe(count + 1);
    expect(last).toEqual({ row: count + 1, cells: [str(`C${count + 1}`), num(count + 1), num((count + 1) / 4)] });
  });

  it('caps the row count, after yielding the rows within the cap', async () => {
    const rowsXml = Array.from({ length: 10 }, (_, i) => `<row r="${i + 1}"><c><v>${i}</v></c></row>`).join('');
    const path = write({ sheets: [{ name: 'S', xml: rowsXml }] });
    const seen: number[] = [];
    const error = await failure(
      (async () => {
        for await (const row of readXlsxRows(path, { limits: { maxRows: 4 } })) seen.push(row.row);
      })(),
    );
    expect(error.code).toBe('too_many_rows');
    expect(seen).toEqual([1, 2, 3, 4]);
    expect(await collect(path, { limits: { maxRows: 10 } })).toHaveLength(10);
  });

  it('caps the shared strings count and any single XML token', async () => {
    const path = write({ sharedStrings: ['a', 'b', 'c'], sheets: [{ name: 'S', xml: '<row><c t="s"><v>0</v></c></row>' }] });
    expect((await failure(openXlsx(path, { limits: { maxSharedStrings: 2 } }))).code).toBe('too_large');

    // Incompressible text, so that the compression-ratio check does not fire first.
    const huge = randomBytes(2.25 * 1024 * 1024).toString('base64');
    const bigText = write({ sheets: [{ name: 'S', xml: `<row><c t="inlineStr"><is><t>${huge}</t></is></c></row>` }] });
    expect((await failure(collect(bigText))).code).toBe('too_large');
    expect(await collect(bigText, { limits: { maxXmlTokenBytes: 4 * 1024 * 1024 } })).toHaveLength(1);
  });

  it('refuses DOCTYPE declarations (entity expansion, external entities) as corrupt', async () => {
    const laughs =
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>' +
      `<worksheet xmlns="${MAIN_NS}"><sheetData><row><c t="inlineStr"><is><t>&lol2;</t></is></c></row></sheetData></worksheet>`;
    const xxe =
      '<?xml version="1.0"?><!DOCTYPE foo [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>' +
      `<worksheet xmlns="${MAIN_NS}"><sheetData><row><c t="inlineStr"><is><t>&xxe;</t></is></c></row></sheetData></worksheet>`;
    for (const xml of [laughs, xxe]) {
      const error = await failure(collect(write({ sheets: [{ name: 'S', xml }] })));
      expect(error.code).toBe('corrupt');
      expect(error.message).toMatch(/DOCTYPE/);
    }
    // In a metadata part too.
    const entries = miniXlsxEntries({ sheets: [{ name: 'S', xml: '<row><c><v>1</v></c></row>' }] }).map((e) =>
      e.name === 'xl/workbook.xml' ? { ...e, data: `<!DOCTYPE x SYSTEM "http://example.invalid/x.dtd">${String(e.data).replace(/^<\?xml[^>]*>\n/, '')}` } : e,
    );
    expect((await failure(openXlsx(write(buildZip(entries))))).code).toBe('corrupt');
    // An undeclared entity is an error, not an empty string.
    const undeclared = sheetXml('<row><c t="inlineStr"><is><t>&nope;</t></is></c></row>');
    expect((await failure(collect(write({ sheets: [{ name: 'S', xml: undeclared }] })))).code).toBe('corrupt');
  });

  it('reports malformed content as corrupt', async () => {
    const cases: [string, MiniXlsx][] = [
      ['unclosed tags', { sheets: [{ name: 'S', xml: sheetXml('<row><c><v>1</v></c>').replace('</sheetData></worksheet>', '') }] }],
      ['shared string out of range', { sharedStrings: ['only'], sheets: [{ name: 'S', xml: '<row><c t="s"><v>5</v></c></row>' }] }],
      ['non-numeric number', { sheets: [{ name: 'S', xml: '<row><c><v>12abc</v></c></row>' }] }],
      ['hex number', { sheets: [{ name: 'S', xml: '<row><c><v>0x10</v></c></row>' }] }],
      ['bad boolean', { sheets: [{ name: 'S', xml: '<row><c t="b"><v>yes</v></c></row>' }] }],
      ['unknown type', { sheets: [{ name: 'S', xml: '<row><c t="zz"><v>1</v></c></row>' }] }],
      ['bad row number', { sheets: [{ name: 'S', xml: '<row r="-3"><c><v>1</v></c></row>' }] }],
      ['bad cell reference', { sheets: [{ name: 'S', xml: '<row><c r="12"><v>1</v></c></row>' }] }],
      ['column beyond XFD', { sheets: [{ name: 'S', xml: '<row><c r="XFE1"><v>1</v></c></row>' }] }],
    ];
    for (const [label, spec] of cases) {
      const error = await failure(collect(write(spec)));
      expect(error.code, label).toBe('corrupt');
    }
  });

  it('refuses workbooks without a worksheet, and zips without a workbook', async () => {
    const onlyChart = write({ sheets: [{ name: 'Chart', xml: '<?xml version="1.0"?><chartsheet/>', kind: 'chartsheet' }] });
    expect((await failure(openXlsx(onlyChart))).code).toBe('no_sheet');
    const noSheets = write({ sheets: [] });
    expect((await failure(openXlsx(noSheets))).code).toBe('no_sheet');
    const docx = write(
      buildZip([
        { name: 'word/document.xml', data: '<w:document/>' },
        { name: '[Content_Types].xml', data: '<Types/>' },
      ]),
    );
    expect((await failure(openXlsx(docx))).code).toBe('not_xlsx');
  });

  it('detects damaged entries: wrong CRC, truncated data, broken deflate stream', async () => {
    const base = miniXlsxEntries({ sheets: [{ name: 'S', xml: '<row><c><v>1</v></c></row>' }] });
    const sheetName = 'xl/worksheets/sheet1.xml';
    const sheet = base.find((e) => e.name === sheetName)!;
    const mutate = (patch: object) => write(buildZip(base.map((e) => (e.name === sheetName ? { ...e, ...patch } : e))));

    expect((await failure(collect(mutate({ crc: 1234 })))).code).toBe('broken_zip');
    expect((await failure(collect(mutate({ declaredSize: Buffer.byteLength(String(sheet.data)) + 10 })))).code).toBe('broken_zip');
    expect((await failure(collect(mutate({ raw: Buffer.from('definitely not deflate data') })))).code).toBe('broken_zip');
  });

  it('serves overlapping next() calls in order, and rows() only once', async () => {
    const rowsXml = Array.from({ length: 3 }, (_, i) => `<row><c><v>${i}</v></c></row>`).join('');
    const path = write({ sheets: [{ name: 'S', xml: rowsXml }] });
    const iterator = readXlsxRows(path);
    const results = await Promise.all([iterator.next(), iterator.next(), iterator.next(), iterator.next()]);
    expect(results.map((r) => (r.done ? 'done' : r.value.row))).toEqual([1, 2, 3, 'done']);

    const book = await openXlsx(path);
    const rows = book.rows();
    expect(() => book.rows()).toThrow(/only be iterated once/);
    await rows.return?.();
  });

  it('releases the file when iteration stops early or fails', async () => {
    const fds = () => readdirSync('/proc/self/fd').length;
    const rowsXml = Array.from({ length: 5000 }, (_, i) => `<row><c><v>${i}</v></c></row>`).join('');
    const path = write({ sheets: [{ name: 'S', xml: rowsXml }] });
    const before = fds();
    for (let i = 0; i < 5; i++) {
      for await (const row of readXlsxRows(path)) if (row.row === 10) break;
      await failure(collect(path, { limits: { maxRows: 100 } }));
      const book = await openXlsx(path);
      book.close();
    }
    // fd closes are asynchronous. A leak would leave 15 descriptors open; allow a little slack for the test runner's own.
    for (let i = 0; i < 50 && fds() > before; i++) await new Promise((r) => setTimeout(r, 10));
    expect(fds()).toBeLessThanOrEqual(before + 2);
  });
});
