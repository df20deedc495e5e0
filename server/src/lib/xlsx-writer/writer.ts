import { createWriteStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { PassThrough, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import { cellText, columnName, escapeXmlAttribute, safeSheetName } from './xml.ts';

/**
 * An exact decimal written as a number cell with a number format: the decimal string goes into
 * the cell as it is (no JavaScript number on the way). `figure` "#,##0.0000", `percent` "0.0",
 * `count` "0".
 */
export interface XlsxDecimalCell {
  decimal: string;
  format: 'figure' | 'percent' | 'count';
}

/** A cell to write: text (inline string), a finite number, an exact decimal, or nothing (null, undefined, ""). */
export type XlsxCellInput = string | number | XlsxDecimalCell | null | undefined;

/** Rows of cells, A first. Synchronous or asynchronous (a database cursor, a generator). */
export type XlsxRowsInput = Iterable<readonly XlsxCellInput[]> | AsyncIterable<readonly XlsxCellInput[]>;

export interface XlsxWriteOptions {
  /** Worksheet (tab) name; made acceptable to Excel (see `safeSheetName`). Default "Sheet1". */
  sheetName?: string;
  /** Titles written in bold as row 1 (the first row of `rows` then becomes row 2); row 1 is frozen. */
  header?: readonly string[];
  /** Rows written before the header (a title block); the header row is still the frozen one. */
  preamble?: readonly (readonly XlsxCellInput[])[];
  /** An autofilter over the header and the rows below it. */
  autoFilter?: boolean;
  /** Column widths in characters, by column index (A = 0); missing or null = Excel's default. */
  columnWidths?: readonly (number | null | undefined)[];
  /** Deflate level 0-9 for the worksheet (default 6). */
  compressionLevel?: number;
  /** Modification time stored in the zip (default now). */
  mtime?: Date;
}

const XML_DECL = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const CT = 'application/vnd.openxmlformats-officedocument.spreadsheetml';

/** Bytes of sheet XML gathered before one write into the zip stream. */
const CHUNK_CHARS = 64 * 1024;

/** Style index of the bold header cells (cellXfs entry 1 of STYLES_XML). */
const BOLD_STYLE = 1;

const CONTENT_TYPES_XML =
  `${XML_DECL}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
  '<Default Extension="xml" ContentType="application/xml"/>' +
  `<Override PartName="/xl/workbook.xml" ContentType="${CT}.sheet.main+xml"/>` +
  `<Override PartName="/xl/worksheets/sheet1.xml" ContentType="${CT}.worksheet+xml"/>` +
  `<Override PartName="/xl/styles.xml" ContentType="${CT}.styles+xml"/>` +
  '</Types>';

const ROOT_RELS_XML =
  `${XML_DECL}<Relationships xmlns="${PKG_REL_NS}">` +
  `<Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/>` +
  '</Relationships>';

const WORKBOOK_RELS_XML =
  `${XML_DECL}<Relationships xmlns="${PKG_REL_NS}">` +
  `<Relationship Id="rId1" Type="${REL_NS}/worksheet" Target="worksheets/sheet1.xml"/>` +
  `<Relationship Id="rId2" Type="${REL_NS}/styles" Target="styles.xml"/>` +
  '</Relationships>';

/** Style indexes of the decimal formats (cellXfs entries 2-4 of STYLES_XML). */
const DECIMAL_STYLE: Record<XlsxDecimalCell['format'], number> = { figure: 2, percent: 3, count: 4 };
const DECIMAL_CELL = /^-?(0|[1-9]\d*)(\.\d+)?$/;

/** Two fonts (regular, bold) and five cell formats: 0 default, 1 bold, 2-4 the decimal formats. */
const STYLES_XML =
  `${XML_DECL}<styleSheet xmlns="${MAIN_NS}">` +
  '<numFmts count="2"><numFmt numFmtId="164" formatCode="#,##0.0000"/><numFmt numFmtId="165" formatCode="0.0"/></numFmts>' +
  '<fonts count="2">' +
  '<font><sz val="11"/><name val="Calibri"/><family val="2"/></font>' +
  '<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font>' +
  '</fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="5">' +
  '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>' +
  '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="1" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '</cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  '</styleSheet>';

function workbookXml(sheetName: string): string {
  return (
    `${XML_DECL}<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">` +
    '<bookViews><workbookView/></bookViews>' +
    `<sheets><sheet name="${escapeXmlAttribute(sheetName)}" sheetId="1" r:id="rId1"/></sheets>` +
    '</workbook>'
  );
}

function sheetPrelude(options: XlsxWriteOptions): string {
  let xml = `${XML_DECL}<worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}">`;
  const frozen = (options.preamble?.length ?? 0) + 1;
  xml += options.header
    ? '<sheetViews><sheetView tabSelected="1" workbookViewId="0">' +
      `<pane ySplit="${frozen}" topLeftCell="A${frozen + 1}" activePane="bottomLeft" state="frozen"/><selection pane="bottomLeft"/>` +
      '</sheetView></sheetViews>'
    : '<sheetViews><sheetView tabSelected="1" workbookViewId="0"/></sheetViews>';
  xml += '<sheetFormatPr defaultRowHeight="15"/>';
  const cols: string[] = [];
  options.columnWidths?.forEach((width, i) => {
    if (width === null || width === undefined) return;
    if (!Number.isFinite(width) || width <= 0 || width > 255) throw new RangeError(`column width ${width} must be in (0, 255]`);
    cols.push(`<col min="${i + 1}" max="${i + 1}" width="${width}" customWidth="1"/>`);
  });
  if (cols.length > 0) xml += `<cols>${cols.join('')}</cols>`;
  return `${xml}<sheetData>`;
}

/** One `<row>` element, or "" when every cell is empty (the row number is still used up). */
export function rowXml(rowNumber: number, cells: readonly XlsxCellInput[], style?: number): string {
  let xml = '';
  const s = style === undefined ? '' : ` s="${style}"`;
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i];
    if (cell === null || cell === undefined || cell === '') continue;
    const ref = `${columnName(i)}${rowNumber}`;
    if (typeof cell === 'number') {
      if (!Number.isFinite(cell)) throw new RangeError(`cell ${ref}: ${cell} is not a finite number`);
      xml += `<c r="${ref}"${s}><v>${Object.is(cell, -0) ? 0 : cell}</v></c>`;
    } else if (typeof cell === 'string') {
      xml += `<c r="${ref}"${s} t="inlineStr"><is><t xml:space="preserve">${cellText(cell)}</t></is></c>`;
    } else if (typeof cell === 'object' && typeof cell.decimal === 'string') {
      if (!DECIMAL_CELL.test(cell.decimal)) throw new RangeError(`cell ${ref}: ${cell.decimal} is not a decimal`);
      xml += `<c r="${ref}" s="${DECIMAL_STYLE[cell.format]}"><v>${cell.decimal}</v></c>`;
    } else {
      throw new TypeError(`cell ${ref}: unsupported value of type ${typeof cell}`);
    }
  }
  return xml === '' ? '' : `<row r="${rowNumber}">${xml}</row>`;
}

/** Resolves when `stream` can take more; rejects if it is destroyed first (the reader went away). */
function drained(stream: PassThrough): Promise<void> {
  return new Promise((resolve, reject) => {
    const cleanup = () => {
      stream.off('drain', onDrain);
      stream.off('close', onClose);
    };
    const onDrain = () => {
      cleanup();
      resolve();
    };
    const onClose = () => {
      cleanup();
      reject(new Error('the xlsx output was closed before it was complete'));
    };
    stream.on('drain', onDrain);
    stream.on('close', onClose);
  });
}

async function feedSheet(sheet: PassThrough, rows: XlsxRowsInput, options: XlsxWriteOptions): Promise<void> {
  let buffer = sheetPrelude(options);
  const flush = async () => {
    if (sheet.destroyed) throw new Error('the xlsx output was closed before it was complete');
    const ok = sheet.write(buffer);
    buffer = '';
    if (!ok) await drained(sheet);
  };
  let rowNumber = 0;
  for (const cells of options.preamble ?? []) buffer += rowXml(++rowNumber, cells);
  const headerRow = rowNumber + 1;
  if (options.header) buffer += rowXml(++rowNumber, options.header, BOLD_STYLE);
  for await (const cells of rows) {
    buffer += rowXml(++rowNumber, cells);
    if (buffer.length >= CHUNK_CHARS) await flush();
  }
  buffer += '</sheetData>';
  if (options.autoFilter && options.header?.length) buffer += `<autoFilter ref="A${headerRow}:${columnName(options.header.length - 1)}${rowNumber}"/>`;
  buffer += '</worksheet>';
  await flush();
  sheet.end();
}

/**
 * Streams an .xlsx with one worksheet: inline strings and numbers, an optional
 * bold (and frozen) header row, column widths. The worksheet XML is produced
 * row by row as the zip consumer reads (backpressure through a PassThrough
 * into yazl), so memory stays flat whatever the number of rows; `rows` is
 * iterated lazily. An error while iterating `rows` (or a bad cell) destroys
 * the returned stream with that error.
 *
 * Use it directly as an HTTP body (`reply.type(XLSX_CONTENT_TYPE).send(xlsxReadable(rows))`),
 * or see `writeXlsx`.
 */
export function xlsxReadable(rows: XlsxRowsInput, options: XlsxWriteOptions = {}): Readable {
  const zip = new ZipFile();
  const mtime = options.mtime ?? new Date();
  const small = { mtime, compress: true };
  zip.addBuffer(Buffer.from(CONTENT_TYPES_XML), '[Content_Types].xml', small);
  zip.addBuffer(Buffer.from(ROOT_RELS_XML), '_rels/.rels', small);
  zip.addBuffer(Buffer.from(workbookXml(safeSheetName(options.sheetName))), 'xl/workbook.xml', small);
  zip.addBuffer(Buffer.from(WORKBOOK_RELS_XML), 'xl/_rels/workbook.xml.rels', small);
  zip.addBuffer(Buffer.from(STYLES_XML), 'xl/styles.xml', small);
  const sheet = new PassThrough();
  zip.addReadStream(sheet, 'xl/worksheets/sheet1.xml', {
    mtime,
    compressionLevel: options.compressionLevel ?? 6,
  });
  zip.end();

  const output = zip.outputStream as Readable;
  const fail = (error: unknown) => {
    sheet.destroy();
    output.destroy(error instanceof Error ? error : new Error(String(error)));
  };
  zip.on('error', fail);
  // A consumer that goes away early (client disconnect) stops the row iteration.
  output.once('close', () => {
    if (!sheet.writableFinished) sheet.destroy();
  });
  feedSheet(sheet, rows, options).catch(fail);
  return output;
}

/**
 * Writes an .xlsx (see `xlsxReadable`) to a file path or into a writable
 * stream (which is ended when the workbook is complete). Resolves when every
 * byte has been handed over; a partially written file is removed on failure.
 */
export async function writeXlsx(out: string | NodeJS.WritableStream, rows: XlsxRowsInput, options: XlsxWriteOptions = {}): Promise<void> {
  const source = xlsxReadable(rows, options);
  if (typeof out !== 'string') {
    await pipeline(source, out);
    return;
  }
  try {
    await pipeline(source, createWriteStream(out));
  } catch (error) {
    await unlink(out).catch(() => {});
    throw error;
  }
}

export const XLSX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
