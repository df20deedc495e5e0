import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { XlsxError, openXlsx, readXlsxRows, type XlsxReadOptions } from './index.ts';
import { buildMiniXlsx, buildZip, miniXlsxEntries, tempFolder, zerosBomb, type ZipEntrySpec } from './test-support.ts';

// Hostile and non-xlsx inputs: all refused with a typed error, early and cheaply.

const tmp = tempFolder();
afterAll(() => tmp.cleanup());
let counter = 0;
const write = (data: Buffer | string) => tmp.write(`b${++counter}.bin`, data);

async function readAll(path: string, options?: XlsxReadOptions): Promise<number> {
  let rows = 0;
  for await (const _row of readXlsxRows(path, options)) rows++;
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

const SHEET = 'xl/worksheets/sheet1.xml';
const SHARED = 'xl/sharedStrings.xml';

/** A valid small package whose `target` part is replaced by `replacement`. */
function withPart(target: string, replacement: Partial<ZipEntrySpec>): Buffer {
  const entries = miniXlsxEntries({ sharedStrings: ['a'], sheets: [{ name: 'S', xml: '<row><c t="s"><v>0</v></c></row>' }] });
  return buildZip(entries.map((e) => (e.name === target ? { ...e, ...replacement } : e)));
}

describe('xlsx reader: not an xlsx', () => {
  it.each([
    ['CSV text', 'code;volume;value\nA-1;12;34,5\n'],
    ['random bytes', Buffer.concat([Buffer.from([0x00, 0x01]), randomBytes(4096)])],
    ['two bytes "PK"', 'PK'],
    ['legacy .xls (OLE header)', Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504)])],
    ['empty zip (end record only)', Buffer.concat([Buffer.from([0x50, 0x4b, 0x05, 0x06]), Buffer.alloc(18)])],
    ['HTML saved as .xlsx', '<html><body><table><tr><td>1</td></tr></table></body></html>'],
  ])('%s → not_xlsx', async (_label, content) => {
    const error = await failure(openXlsx(write(content)));
    expect(error.code).toBe('not_xlsx');
  });

  it('an empty file is empty', async () => {
    expect((await failure(openXlsx(write(Buffer.alloc(0))))).code).toBe('empty');
  });

  it('a password-protected workbook (an OLE container holding an EncryptedPackage stream) is encrypted, a legacy .xls is not', async () => {
    const ole = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    // The directory's stream names, in UTF-16LE, past the first megabyte (read a megabyte at a time).
    const names = Buffer.concat(['EncryptionInfo', 'EncryptedPackage'].map((n) => Buffer.concat([Buffer.from(n, 'utf16le'), Buffer.alloc(64 - 2 * n.length)])));
    const encrypted = Buffer.concat([ole, Buffer.alloc(1024 * 1024 - 20), names, Buffer.alloc(4096)]);
    expect((await failure(openXlsx(write(encrypted)))).code).toBe('encrypted');
    const xls = Buffer.concat([ole, Buffer.alloc(600), Buffer.from('Workbook', 'utf16le'), Buffer.alloc(600)]);
    expect((await failure(openXlsx(write(xls)))).code).toBe('not_xlsx');
  });

  it('a zip signature followed by garbage is a broken zip', async () => {
    const error = await failure(openXlsx(write(Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), randomBytes(2000)]))));
    expect(error.code).toBe('broken_zip');
  });
});

describe('xlsx reader: zip bombs', () => {
  it('aborts an entry that inflates past its declared size, without inflating the rest', async () => {
    // 8 GiB of zeros in ~8.5 MB of deflate data, declared as 1 KiB (so both size and ratio checks pass).
    // Inflating it all would take many seconds and gigabytes; the reader must stop after the first chunk.
    const bomb = write(withPart(SHEET, { raw: zerosBomb(8 * 1024), declaredSize: 1024, crc: 0 }));
    const book = await openXlsx(bomb);
    const started = performance.now();
    const error = await failure(
      (async () => {
        for await (const _row of book.rows()) {
          // no rows expected
        }
      })(),
    );
    const elapsed = performance.now() - started;
    expect(error.code).toBe('broken_zip');
    expect(error.message).toMatch(/inflates beyond its declared size/);
    expect(elapsed).toBeLessThan(2000); // actually a few milliseconds
  });

  it('same for the shared strings part (read before any row)', async () => {
    const bomb = write(withPart(SHARED, { raw: zerosBomb(1024), declaredSize: 4096, crc: 0 }));
    const error = await failure(openXlsx(bomb));
    expect(error.code).toBe('broken_zip');
  });

  it('refuses from the central directory, before inflating, an entry with an extreme compression ratio', async () => {
    // 100 MiB of zeros, honestly declared: ratio ~1000:1.
    const bomb = write(withPart(SHEET, { raw: zerosBomb(100), declaredSize: 100 * 1024 * 1024, crc: 0 }));
    const error = await failure(openXlsx(bomb));
    expect(error.code).toBe('too_large');
    expect(error.message).toMatch(/compression ratio/);
  });

  it('refuses an entry declaring more than the size cap, even one that is never read', async () => {
    const big = write(
      buildMiniXlsx({
        sheets: [{ name: 'S', xml: '<row><c><v>1</v></c></row>' }],
        // Stored, so the ratio is 1:1 and only the size cap applies.
        extraEntries: [{ name: 'xl/media/blob.bin', data: randomBytes(3 * 1024 * 1024), method: 0 }],
      }),
    );
    const error = await failure(openXlsx(big, { limits: { maxSheetBytes: 2 * 1024 * 1024 } }));
    expect(error.code).toBe('too_large');
    expect(error.message).toMatch(/xl\/media\/blob\.bin declares/);
    expect(await readAll(big)).toBe(1); // fine under the default cap
  });

  it('applies the per-part caps (shared strings, metadata) to declared sizes', async () => {
    const strings = Array.from({ length: 2000 }, (_, i) => `string-${i}-${randomBytes(8).toString('hex')}`);
    const path = write(buildMiniXlsx({ sharedStrings: strings, sheets: [{ name: 'S', xml: '<row><c t="s"><v>1999</v></c></row>' }] }));
    expect((await failure(openXlsx(path, { limits: { maxSharedStringsBytes: 10_000 } }))).code).toBe('too_large');
    expect((await failure(openXlsx(path, { limits: { maxMetadataBytes: 100 } }))).code).toBe('too_large');
    expect(await readAll(path)).toBe(1);
  });

  it('refuses an archive with thousands of entries before reading them', async () => {
    const entries = miniXlsxEntries({ sheets: [{ name: 'S', xml: '<row><c><v>1</v></c></row>' }] });
    for (let i = 0; i < 5000; i++) entries.push({ name: `xl/junk/${i}.xml`, data: '<x/>', method: 0 });
    const path = write(buildZip(entries));
    const error = await failure(openXlsx(path));
    expect(error.code).toBe('too_large');
    expect(error.message).toMatch(/5005 entries/);
  });

  it('refuses encrypted entries and duplicate entry names', async () => {
    const entries = miniXlsxEntries({ sheets: [{ name: 'S', xml: '<row><c><v>1</v></c></row>' }] });
    const duplicate = write(buildZip([...entries, { name: SHEET, data: '<worksheet/>' }]));
    expect((await failure(openXlsx(duplicate))).code).toBe('broken_zip');

    const zip = buildZip(entries);
    // Set the "encrypted" flag (bit 0) in the central directory record of the first entry.
    const central = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    zip.writeUInt16LE(zip.readUInt16LE(central + 8) | 1, central + 8);
    expect((await failure(openXlsx(write(zip)))).code).toBe('broken_zip');
  });
});
