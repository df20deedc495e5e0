/**
 * Test-only helpers: a tiny zip writer (so tests can build exactly the bytes
 * they need, including lying headers) and a minimal xlsx package builder.
 * Not used by the reader.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateRawSync } from 'node:zlib';

export interface ZipEntrySpec {
  name: string;
  /** Content. Ignored when `raw` is given. */
  data?: Buffer | string;
  /** 8 = deflate (default), 0 = stored. */
  method?: 0 | 8;
  /** Already-encoded bytes to store as the entry's data (with `method`). */
  raw?: Buffer;
  /** Overrides of what the headers declare (to make them lie). */
  declaredSize?: number;
  crc?: number;
}

/** Builds a zip archive (no zip64, no data descriptors) in memory. */
export function buildZip(entries: readonly ZipEntrySpec[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const spec of entries) {
    const method = spec.method ?? 8;
    const content = typeof spec.data === 'string' ? Buffer.from(spec.data, 'utf8') : (spec.data ?? Buffer.alloc(0));
    const body = spec.raw ?? (method === 8 ? deflateRawSync(content) : content);
    const size = spec.declaredSize ?? content.length;
    const crc = spec.crc ?? crc32(content);
    const name = Buffer.from(spec.name, 'utf8');

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0, 10); // time
    local.writeUInt16LE(0x21, 12); // date 1980-01-01
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, name, body);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4); // made by
    central.writeUInt16LE(20, 6); // needed
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    // extra length, comment length, disk, internal attrs, external attrs: 0
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);

    offset += local.length + name.length + body.length;
  }
  const centralDirectory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralDirectory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, centralDirectory, end]);
}

/**
 * Raw deflate data that inflates to `mebibytes` MiB of zeros, built by
 * repeating one independent 1 MiB block (about 1 KiB compressed), so a
 * multi-gigabyte bomb costs a few megabytes and no big allocation.
 */
export function zerosBomb(mebibytes: number): Buffer {
  const block = deflateRawSync(Buffer.alloc(1024 * 1024), { finishFlush: 3 /* Z_FULL_FLUSH: byte-aligned, no back-references */ });
  const parts: Buffer[] = [];
  for (let i = 0; i < mebibytes; i++) parts.push(block);
  parts.push(Buffer.from([0x03, 0x00])); // final empty block
  return Buffer.concat(parts);
}

export const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
export const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
export const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const REL_TYPE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

const XML_DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

export interface MiniSheet {
  name: string;
  /** Complete worksheet XML, or just the inside of <sheetData> (see `sheetXml`). */
  xml: string;
  /** Part path below xl/ (default worksheets/sheetN.xml). */
  file?: string;
  /** 'worksheet' (default) or 'chartsheet'. */
  kind?: 'worksheet' | 'chartsheet';
}

export interface MiniXlsx {
  sheets: MiniSheet[];
  /** Shared strings as plain values, or the complete sst XML. */
  sharedStrings?: string[] | { xml: string };
  /** Complete styles.xml. */
  styles?: string;
  /** Element prefix for SpreadsheetML elements (e.g. 'x' → <x:row>). */
  prefix?: string;
  date1904?: boolean;
  /** Workbook part name (default xl/workbook.xml), exercised through _rels/.rels. */
  workbookPart?: string;
  method?: 0 | 8;
  extraEntries?: ZipEntrySpec[];
}

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** Wraps rows XML into a worksheet document, optionally with an element prefix. */
export function sheetXml(sheetData: string, prefix?: string): string {
  const p = prefix ? `${prefix}:` : '';
  const ns = prefix ? `xmlns:${prefix}="${MAIN_NS}"` : `xmlns="${MAIN_NS}"`;
  return `${XML_DECL}<${p}worksheet ${ns} xmlns:r="${REL_NS}"><${p}sheetData>${sheetData}</${p}sheetData></${p}worksheet>`;
}

export function miniXlsxEntries(spec: MiniXlsx): ZipEntrySpec[] {
  const p = spec.prefix ? `${spec.prefix}:` : '';
  const ns = spec.prefix ? `xmlns:${spec.prefix}="${MAIN_NS}"` : `xmlns="${MAIN_NS}"`;
  const method = spec.method ?? 8;
  const workbookPart = spec.workbookPart ?? 'xl/workbook.xml';
  const workbookDir = workbookPart.replace(/[^/]*$/, '');
  const workbookRels = `${workbookDir}_rels/${workbookPart.slice(workbookDir.length)}.rels`;
  const entries: ZipEntrySpec[] = [];
  const rels: string[] = [];
  const sheetElements: string[] = [];

  spec.sheets.forEach((sheet, i) => {
    const kind = sheet.kind ?? 'worksheet';
    const file = sheet.file ?? `${kind}s/sheet${i + 1}.xml`;
    const xml = sheet.xml.includes('<?xml') || sheet.xml.includes('worksheet') ? sheet.xml : sheetXml(sheet.xml, spec.prefix);
    entries.push({ name: `${workbookDir}${file}`, data: xml, method });
    rels.push(`<Relationship Id="rId${i + 1}" Type="${REL_TYPE}/${kind}" Target="${file}"/>`);
    sheetElements.push(`<${p}sheet name="${escapeXml(sheet.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`);
  });

  if (spec.sharedStrings) {
    const xml = Array.isArray(spec.sharedStrings)
      ? `${XML_DECL}<${p}sst ${ns} count="${spec.sharedStrings.length}" uniqueCount="${spec.sharedStrings.length}">${spec.sharedStrings
          .map((s) => `<${p}si><${p}t xml:space="preserve">${escapeXml(s)}</${p}t></${p}si>`)
          .join('')}</${p}sst>`
      : spec.sharedStrings.xml;
    entries.push({ name: `${workbookDir}sharedStrings.xml`, data: xml, method });
    rels.push(`<Relationship Id="rIdS" Type="${REL_TYPE}/sharedStrings" Target="sharedStrings.xml"/>`);
  }
  if (spec.styles) {
    entries.push({ name: `${workbookDir}styles.xml`, data: spec.styles, method });
    rels.push(`<Relationship Id="rIdT" Type="${REL_TYPE}/styles" Target="styles.xml"/>`);
  }

  const workbook =
    `${XML_DECL}<${p}workbook ${ns} xmlns:r="${REL_NS}">` +
    (spec.date1904 ? `<${p}workbookPr date1904="1"/>` : '') +
    `<${p}sheets>${sheetElements.join('')}</${p}sheets></${p}workbook>`;

  return [
    {
      name: '[Content_Types].xml',
      data: `${XML_DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>`,
      method,
    },
    {
      name: '_rels/.rels',
      data: `${XML_DECL}<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_TYPE}/officeDocument" Target="${workbookPart}"/></Relationships>`,
      method,
    },
    { name: workbookPart, data: workbook, method },
    { name: workbookRels, data: `${XML_DECL}<Relationships xmlns="${PKG_REL_NS}">${rels.join('')}</Relationships>`, method },
    ...entries,
    ...(spec.extraEntries ?? []),
  ];
}

export function buildMiniXlsx(spec: MiniXlsx): Buffer {
  return buildZip(miniXlsxEntries(spec));
}

/** A temporary folder for one test file; call `cleanup` in afterAll. */
export function tempFolder(prefix = 'xlsx-test-'): {
  path: (name: string) => string;
  write: (name: string, data: Buffer | string) => string;
  cleanup: () => void;
} {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    path: (name) => join(dir, name),
    write: (name, data) => {
      const file = join(dir, name);
      writeFileSync(file, data);
      return file;
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
