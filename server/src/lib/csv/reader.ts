import { readFile, stat } from 'node:fs/promises';
import { normalizeDecimal } from '@mss/contracts/decimal';
import { XlsxError } from '../xlsx/errors.ts';
import type { Cell, XlsxRow } from '../xlsx/types.ts';

/*
 * A CSV file read as the xlsx reader reads a worksheet (rows of cells, 1-based row numbers, the same
 * typed errors), so that a report or history file may be CSV with the same checks and messages.
 *
 * - Encoding: UTF-8, with or without a byte-order mark. Bytes that are not UTF-8 are `corrupt`; a
 *   file holding NUL bytes is not text at all (`not_xlsx`: an .xls, a zip, an image).
 * - Records: RFC 4180. Fields may be quoted ("…", a quote inside doubled), quoted fields may hold
 *   separators and line breaks; lines end in CRLF, LF or CR. A quote left open is `corrupt`.
 *   A row number is the record's (what a spreadsheet opening the file shows), blank records are
 *   skipped, not renumbered.
 * - Separator: `;` when the first record holds a `;` outside quotes and no more `,` than `;`
 *   (Excel and LibreOffice write `;` where the decimal sign is a comma), else `,`.
 * - Decimal sign of the numeric columns (`numericColumns`), detected from the file: a comma when
 *   some figure can only be read with a decimal comma ("12,5", "1.234,5") and none only with a
 *   point, a point in the opposite case; when nothing tells, a comma with the `;` separator and a
 *   point with `,`. A figure written in the file's convention (digits, an optional minus, the
 *   decimal sign, thousands grouped by the other sign or by spaces) becomes an exact number cell
 *   (`exact`, with `raw` as written); anything else stays text for the validator to judge.
 */

export interface CsvReadOptions {
  /** Bytes of the file (default 200 MiB, the xlsx sheet cap). */
  maxBytes?: number;
  /** Non-empty records (as the xlsx reader's `maxRows`). */
  maxRows?: number;
  /** 0-based columns holding figures (a report's B and C: [1, 2]). */
  numericColumns?: readonly number[];
}

export interface CsvFile {
  readonly separator: ',' | ';';
  readonly decimal: ',' | '.';
  /** The non-empty records, in order. */
  readonly rows: readonly XlsxRow[];
}

const MiB = 1024 * 1024;

/** Reads and parses a CSV file (see above). Throws `XlsxError` for what is not such a file. */
export async function readCsv(path: string, options: CsvReadOptions = {}): Promise<CsvFile> {
  const maxBytes = options.maxBytes ?? 200 * MiB;
  if ((await stat(path)).size > maxBytes) throw new XlsxError('too_large', `The CSV file is larger than ${maxBytes} bytes`);
  return parseCsv(await readFile(path), options);
}

/** Parses CSV bytes (see above). */
export function parseCsv(bytes: Uint8Array, options: CsvReadOptions = {}): CsvFile {
  if (bytes.length === 0) throw new XlsxError('empty', 'The file is empty');
  if (bytes.includes(0)) throw new XlsxError('not_xlsx', 'The file is not text');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch (cause) {
    throw new XlsxError('corrupt', 'The file is not UTF-8 text', { cause });
  }
  const separator = separatorOf(text);
  const records = recordsOf(text, separator, options.maxRows ?? Number.POSITIVE_INFINITY);
  const numeric = new Set(options.numericColumns ?? []);
  const decimal = decimalOf(records, numeric, separator);
  const rows = records.map(({ row, fields }): XlsxRow => {
    const cells: Cell[] = fields.map((field, column) => cellOf(field, numeric.has(column) ? decimal : null));
    while (cells.length && cells.at(-1)!.kind === 'empty') cells.pop();
    return { row, cells };
  });
  return { separator, decimal, rows };
}

/** The separator, judged from the first record with content, outside quotes. */
function separatorOf(text: string): ',' | ';' {
  let semicolons = 0;
  let commas = 0;
  let quoted = false;
  let content = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) {
      if (content) break;
    } else if (!quoted && c === ';') semicolons++;
    else if (!quoted && c === ',') commas++;
    if (c !== '\n' && c !== '\r') content = true;
  }
  return semicolons > 0 && commas <= semicolons ? ';' : ',';
}

interface RecordRead {
  row: number;
  fields: string[];
}

/** The records (RFC 4180), blank ones left out; at most `maxRows` non-blank ones. */
function recordsOf(text: string, separator: string, maxRows: number): RecordRead[] {
  const out: RecordRead[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let wasQuoted = false;
  let row = 1;
  const endField = () => {
    fields.push(field);
    field = '';
    wasQuoted = false;
  };
  const endRecord = () => {
    endField();
    if (fields.some((f) => f.trim() !== '')) {
      if (out.length >= maxRows) throw new XlsxError('too_many_rows', `More than ${maxRows} rows`);
      out.push({ row, fields });
    }
    fields = [];
    row++;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c !== '"') field += c;
      else if (text[i + 1] === '"') {
        field += '"';
        i++;
      } else quoted = false;
    } else if (c === '"' && field.trim() === '' && !wasQuoted) {
      // A quoted field (spaces before the opening quote are dropped, as spreadsheets do).
      field = '';
      quoted = true;
      wasQuoted = true;
    } else if (c === separator) endField();
    else if (c === '\r' || c === '\n') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRecord();
    } else field += c;
  }
  if (quoted) throw new XlsxError('corrupt', `A quoted field of row ${row} is not closed`);
  if (field !== '' || fields.length) endRecord();
  return out;
}

const SPACE = '[ \\u00A0\\u202F]';
/** A figure with a decimal comma: "12,5", "-1234", "1.234.567,89", "1 234,5". */
const COMMA_FIGURE = new RegExp(`^-?(?:\\d+|\\d{1,3}(?:\\.\\d{3})+|\\d{1,3}(?:${SPACE}\\d{3})+)(?:,(\\d+))?$`);
/** A figure with a decimal point: "12.5", "-1234", "1,234,567.89", "1 234.5". */
const POINT_FIGURE = new RegExp(`^-?(?:\\d+|\\d{1,3}(?:,\\d{3})+|\\d{1,3}(?:${SPACE}\\d{3})+)(?:\\.(\\d+))?$`);

/** The decimal sign of the figures: the one the file's figures need, else the separator's custom. */
function decimalOf(records: readonly RecordRead[], numeric: ReadonlySet<number>, separator: string): ',' | '.' {
  let onlyComma = 0;
  let onlyPoint = 0;
  for (const { fields } of records)
    for (const column of numeric) {
      const text = fields[column]?.trim().replace(/^\u2212/, '-');
      if (!text) continue;
      const comma = COMMA_FIGURE.test(text);
      const point = POINT_FIGURE.test(text);
      if (comma && !point) onlyComma++;
      if (point && !comma) onlyPoint++;
    }
  if (onlyComma > 0 && onlyPoint === 0) return ',';
  if (onlyPoint > 0 && onlyComma === 0) return '.';
  return separator === ';' ? ',' : '.';
}

/** A field as a cell: empty, an exact number (a figure in the file's convention), or text. */
function cellOf(field: string, decimal: ',' | '.' | null): Cell {
  if (field.trim() === '') return { kind: 'empty' };
  if (decimal !== null) {
    const text = field.trim().replace(/^\u2212/, '-');
    const match = (decimal === ',' ? COMMA_FIGURE : POINT_FIGURE).test(text);
    if (match) {
      const grouping = decimal === ',' ? /[.\s\u00A0\u202F]/g : /[,\s\u00A0\u202F]/g;
      const plain = text.replace(grouping, '').replace(',', '.');
      const exact = normalizeDecimal(plain);
      if (exact !== null) return { kind: 'number', value: Number(exact), text: exact, exact: true, raw: field };
    }
  }
  return { kind: 'string', value: field };
}
