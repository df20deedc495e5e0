import { deflateRawSync } from 'node:zlib';
import { buildMiniXlsx, buildZip, escapeXml, miniXlsxEntries, zerosBomb } from '../src/lib/xlsx/test-support.ts';

/*
 * Files a member might upload, however they were built: the shape of large_strings.xlsx
 * from the SheetJS test corpus (some 12,000 rows of long text: a few hundred kilobytes packed, tens
 * of megabytes of sheet XML, an error on every row) and the project's own hostile set (bombs, lying
 * headers, damaged and locked files). For the test that times other users meanwhile and for
 * `npm run bench` ("others while a hostile file imports").
 */

const WORDS = 'lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt ut labore et dolore magna aliqua'.split(' ');

/** Text of about `length` characters, different for every cell. */
function text(row: number, column: number, length: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = row * 7 + column; size < length; i++) {
    const word = WORDS[(i * 31) % WORDS.length]!;
    parts.push(word);
    size += word.length + 1;
  }
  return parts.join(' ');
}

/** `rows` rows of `columns` inline strings of about `length` characters each. */
export function largeStringsWorkbook(rows = 12_000, columns = 5, length = 900): Buffer {
  const letters = 'ABCDEFGHIJ';
  const xml: string[] = [];
  for (let r = 1; r <= rows; r++) {
    let cells = '';
    for (let c = 0; c < columns; c++) cells += `<c r="${letters[c]}${r}" t="inlineStr"><is><t>${escapeXml(text(r, c, length))}</t></is></c>`;
    xml.push(`<row r="${r}">${cells}</row>`);
  }
  return buildMiniXlsx({ sheets: [{ name: 'Sheet1', xml: xml.join('') }] });
}

/** Short rows with codes no one has: an error on each (the validator lists at most 50,000). */
export function wrongRowsWorkbook(rows = 60_000): Buffer {
  const xml: string[] = [];
  for (let r = 1; r <= rows; r++)
    xml.push(`<row r="${r}"><c r="A${r}" t="inlineStr"><is><t>X${r}</t></is></c><c r="B${r}"><v>1</v></c><c r="C${r}"><v>2</v></c></row>`);
  return buildMiniXlsx({ sheets: [{ name: 'Sheet1', xml: xml.join('') }] });
}

const SHEET = 'xl/worksheets/sheet1.xml';

/** A valid small package whose sheet is replaced. */
function withSheet(replacement: { raw?: Buffer; data?: string; declaredSize?: number; crc?: number; method?: 0 | 8 }): Buffer {
  const entries = miniXlsxEntries({ sheets: [{ name: 'S', xml: '<row r="1"><c r="A1"><v>1</v></c></row>' }] });
  return buildZip(entries.map((e) => (e.name === SHEET ? { ...e, ...replacement } : e)));
}

/** The hostile set: each file with what it is. */
export function hostileFiles(): { name: string; what: string; content: Buffer }[] {
  const ole = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  const valid = buildMiniXlsx({ sheets: [{ name: 'S', xml: '<row r="1"><c r="A1"><v>1</v></c></row>' }] });
  const damaged = Buffer.from(wrongRowsWorkbook(300));
  const flipped = damaged.indexOf(SHEET) + 200;
  damaged.writeUInt8(damaged.readUInt8(flipped) ^ 0x20, flipped);
  return [
    { name: 'large-strings.xlsx', what: 'large_strings shape: 12,000 rows of long text, an error a row', content: largeStringsWorkbook() },
    { name: 'wrong-rows.xlsx', what: '60,000 short rows of unknown codes (50,000 errors listed)', content: wrongRowsWorkbook() },
    { name: 'bomb-lying.xlsx', what: 'zip bomb: 1 GiB of zeros declared as 1 KiB', content: withSheet({ raw: zerosBomb(1024), declaredSize: 1024, crc: 0 }) },
    {
      name: 'bomb-ratio.xlsx',
      what: 'zip bomb: 200 MiB of zeros, declared honestly',
      content: withSheet({ raw: deflateRawSync(Buffer.alloc(200 * 1024 * 1024)), declaredSize: 200 * 1024 * 1024 }),
    },
    {
      name: 'laughs.xlsx',
      what: 'XML entity expansion (billion laughs)',
      content: withSheet({
        data: `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]><worksheet><sheetData><row><c t="inlineStr"><is><t>&lol3;</t></is></c></row></sheetData></worksheet>`,
      }),
    },
    {
      name: 'one-token.xlsx',
      what: 'one 30 MB text node',
      content: withSheet({ data: `<worksheet><sheetData><row><c t="inlineStr"><is><t>${'a'.repeat(30_000_000)}</t></is></c></row></sheetData></worksheet>` }),
    },
    { name: 'damaged.xlsx', what: 'a workbook with one byte of its sheet changed (CRC fails)', content: damaged },
    {
      name: 'locked.xlsx',
      what: 'password-protected (OLE container with an EncryptedPackage)',
      content: Buffer.concat([ole, Buffer.alloc(4000), Buffer.from('EncryptedPackage', 'utf16le'), Buffer.alloc(4000)]),
    },
    { name: 'empty.xlsx', what: 'an empty file', content: Buffer.alloc(0) },
    { name: 'truncated.xlsx', what: 'a workbook cut in half', content: valid.subarray(0, Math.floor(valid.length / 2)) },
  ];
}
