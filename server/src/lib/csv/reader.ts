import { open, stat } from 'node:fs/promises';
import { TextDecoder } from 'node:util';
import { normalizeDecimal } from '@mss/contracts/decimal';
import { XlsxError } from '../xlsx/errors.ts';
import type { Cell, XlsxRow } from '../xlsx/types.ts';

/*
 * A CSV file read as the xlsx reader reads a worksheet (rows of cells, 1-based row numbers, the same
 * typed errors), so that a report or history file may be CSV with the same checks and messages.
 *
 * - Encoding: UTF-8, with or without a byte-order mark. Bytes that are not UTF-8 are `not_utf8`; a
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
 *
 * `openCsv` streams a file in two passes (the decimal sign is the whole file's, then the rows),
 * holding one chunk at a time: a history file of millions of rows is never in memory.
 */

export interface CsvReadOptions {
  /** Bytes of the file (default 200 MiB, the xlsx sheet cap). */
  maxBytes?: number;
  /** Non-empty records (as the xlsx reader's `maxRows`). */
  maxRows?: number;
  /**
   * 0-based columns holding figures (a report's B and C: [1, 2]), or a function of the first
   * non-blank record's fields (a file whose header names its columns).
   */
  numericColumns?: readonly number[] | ((first: readonly string[]) => readonly number[]);
  /** Bytes read at a time by `openCsv` (default 64 KiB; tests split files at every byte). */
  chunkBytes?: number;
}

export interface CsvFile {
  readonly separator: ',' | ';';
  readonly decimal: ',' | '.';
  /** The non-empty records, in order. */
  readonly rows: readonly XlsxRow[];
}

/** An opened CSV file: its conventions, and its rows as a stream (as `XlsxWorkbook`). */
export interface CsvSheet {
  readonly separator: ',' | ';';
  readonly decimal: ',' | '.';
  /** A CSV has no date system; false, as an xlsx of the 1900 system. */
  readonly date1904: false;
  /** The non-empty records as rows of cells. Can be called more than once (each reads the file again). */
  rows(): AsyncIterableIterator<XlsxRow, undefined>;
  close(): void;
}

const MiB = 1024 * 1024;
/**
 * Bytes read at a time: 64 KiB is some 1,500 records, whose rows are handed on without a turn of
 * the event loop in between (an async generator's yields are microtasks); a megabyte held other
 * requests up for a quarter of a second.
 */
const CHUNK_BYTES = 64 * 1024;
/** The first record decides the separator; it is looked for in this much of the file. */
const SEPARATOR_PREFIX_BYTES = MiB;

/** Whether bytes at the start of a file are a zip (an xlsx) or an OLE container (an .xls, an encrypted xlsx): not CSV. */
export function isSpreadsheetContainer(head: Uint8Array): boolean {
  const zip = head[0] === 0x50 && head[1] === 0x4b && (head[2] === 0x03 || head[2] === 0x05 || head[2] === 0x07);
  const ole = head[0] === 0xd0 && head[1] === 0xcf && head[2] === 0x11 && head[3] === 0xe0;
  return zip || ole;
}

/** Reads and parses a CSV file into memory (small files; see `openCsv` for large ones). */
export async function readCsv(path: string, options: CsvReadOptions = {}): Promise<CsvFile> {
  const sheet = await openCsv(path, options);
  const rows: XlsxRow[] = [];
  for await (const row of sheet.rows()) rows.push(row);
  return { separator: sheet.separator, decimal: sheet.decimal, rows };
}

/** Parses CSV bytes (see above). */
export function parseCsv(bytes: Uint8Array, options: CsvReadOptions = {}): CsvFile {
  if (bytes.length === 0) throw new XlsxError('empty', 'The file is empty');
  const text = decodeAll(bytes);
  const separator = separatorOf(text);
  const records: RecordRead[] = [];
  const tokenizer = new CsvTokenizer(separator, options.maxRows ?? Number.POSITIVE_INFINITY);
  tokenizer.push(text, records);
  tokenizer.end(records);
  const numeric = numericOf(options.numericColumns, records[0]?.fields);
  const votes = new DecimalVotes();
  for (const { fields } of records) votes.count(fields, numeric);
  const decimal = votes.decimal(separator);
  return { separator, decimal, rows: records.map((r) => rowOf(r, numeric, decimal)) };
}

/**
 * Opens a CSV file for streaming: the separator from the first record, then one pass over the
 * file for the decimal sign (and the checks: UTF-8, quotes, row count), so that a file that is
 * not readable fails here, before any row is handed on.
 */
export async function openCsv(path: string, options: CsvReadOptions = {}): Promise<CsvSheet> {
  const maxBytes = options.maxBytes ?? 200 * MiB;
  const maxRows = options.maxRows ?? Number.POSITIVE_INFINITY;
  const chunkBytes = options.chunkBytes ?? CHUNK_BYTES;
  const { size } = await stat(path);
  if (size === 0) throw new XlsxError('empty', 'The file is empty');
  if (size > maxBytes) throw new XlsxError('too_large', `The CSV file is larger than ${maxBytes} bytes`);
  const separator = separatorOf(await prefixOf(path, SEPARATOR_PREFIX_BYTES));
  let numeric: ReadonlySet<number> | null = null;
  const votes = new DecimalVotes();
  for await (const records of recordBatches(path, separator, maxRows, chunkBytes)) {
    for (const { fields } of records) {
      numeric ??= numericOf(options.numericColumns, fields);
      votes.count(fields, numeric);
    }
  }
  const columns = numeric ?? new Set<number>();
  const decimal = votes.decimal(separator);
  return {
    separator,
    decimal,
    date1904: false,
    async *rows() {
      for await (const records of recordBatches(path, separator, maxRows, chunkBytes)) for (const record of records) yield rowOf(record, columns, decimal);
      return undefined;
    },
    close() {},
  };
}

/** The start of a file as text (for the separator), cut at the last whole character. */
async function prefixOf(path: string, bytes: number): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    const head = buffer.subarray(0, bytesRead);
    if (head.includes(0)) throw new XlsxError('not_xlsx', 'The file is not text');
    return new TextDecoder('utf-8').decode(head);
  } finally {
    await handle.close();
  }
}

/** The file's records, a chunk's worth at a time (blank records left out). */
async function* recordBatches(path: string, separator: ',' | ';', maxRows: number, chunkBytes: number): AsyncGenerator<RecordRead[]> {
  const handle = await open(path, 'r');
  try {
    const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
    const tokenizer = new CsvTokenizer(separator, maxRows);
    const buffer = Buffer.alloc(chunkBytes);
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, chunkBytes, null);
      const records: RecordRead[] = [];
      if (bytesRead === 0) {
        tokenizer.push(decodeChunk(decoder, new Uint8Array(), false), records);
        tokenizer.end(records);
        if (records.length) yield records;
        return;
      }
      const chunk = buffer.subarray(0, bytesRead);
      if (chunk.includes(0)) throw new XlsxError('not_xlsx', 'The file is not text');
      tokenizer.push(decodeChunk(decoder, chunk, true), records);
      if (records.length) yield records;
    }
  } finally {
    await handle.close();
  }
}

function decodeChunk(decoder: TextDecoder, bytes: Uint8Array, stream: boolean): string {
  try {
    return decoder.decode(bytes, { stream });
  } catch (cause) {
    throw new XlsxError('not_utf8', 'The file is not UTF-8 text', { cause });
  }
}

function decodeAll(bytes: Uint8Array): string {
  if (bytes.includes(0)) throw new XlsxError('not_xlsx', 'The file is not text');
  return decodeChunk(new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }), bytes, false);
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
    if (c !== '\n' && c !== '\r' && c !== '\uFEFF') content = true;
  }
  return semicolons > 0 && commas <= semicolons ? ';' : ',';
}

interface RecordRead {
  row: number;
  fields: string[];
}

const QUOTE = 34;
const CR = 13;
const LF = 10;

/** Where the tokenizer is within a field. */
const enum At {
  /** Nothing of the field read yet. */
  Start,
  /** In an unquoted field. */
  Plain,
  /** Inside quotes. */
  Quoted,
  /** A quote inside quotes: the end of the quotes, or the first of two (a quote in the text). */
  QuoteInQuoted,
  /** After the closing quote: whatever follows up to the separator is kept, as spreadsheets do. */
  AfterQuoted,
}

/**
 * RFC 4180 records from text handed over in pieces: a field, a quote pair or a CRLF may be split
 * between two pieces. Blank records are left out (their numbers are not reused).
 */
class CsvTokenizer {
  private readonly separator: number;
  private readonly maxRows: number;
  private fields: string[] = [];
  private field = '';
  private at = At.Start;
  /** The last piece ended in CR: an LF starting the next one belongs to it. */
  private afterCR = false;
  private row = 1;
  private count = 0;

  constructor(separator: ',' | ';', maxRows: number) {
    this.separator = separator.charCodeAt(0);
    this.maxRows = maxRows;
  }

  push(text: string, out: RecordRead[]): void {
    const sep = this.separator;
    const n = text.length;
    let i = 0;
    if (this.afterCR && n > 0) {
      this.afterCR = false;
      if (text.charCodeAt(0) === LF) i = 1;
    }
    while (i < n) {
      switch (this.at) {
        case At.Start:
        case At.Plain:
        case At.AfterQuoted: {
          // Up to the next separator, line end or quote, in one slice.
          let j = i;
          let c = 0;
          while (j < n) {
            c = text.charCodeAt(j);
            if (c === sep || c === CR || c === LF || c === QUOTE) break;
            j++;
          }
          if (j > i) {
            this.field += text.slice(i, j);
            if (this.at === At.Start) this.at = At.Plain;
          }
          i = j;
          if (j === n) break;
          if (c === QUOTE) {
            // A quoted field: spaces before the opening quote are dropped. A quote elsewhere is text.
            if (this.at !== At.AfterQuoted && this.field.trim() === '') {
              this.field = '';
              this.at = At.Quoted;
            } else {
              this.field += '"';
              if (this.at === At.Start) this.at = At.Plain;
            }
            i++;
          } else if (c === sep) {
            this.endField();
            i++;
          } else {
            this.endRecord(out);
            i++;
            if (c === CR) {
              if (i < n) {
                if (text.charCodeAt(i) === LF) i++;
              } else this.afterCR = true;
            }
          }
          break;
        }
        case At.Quoted: {
          const j = text.indexOf('"', i);
          if (j < 0) {
            this.field += text.slice(i);
            i = n;
          } else {
            this.field += text.slice(i, j);
            this.at = At.QuoteInQuoted;
            i = j + 1;
          }
          break;
        }
        case At.QuoteInQuoted:
          if (text.charCodeAt(i) === QUOTE) {
            this.field += '"';
            this.at = At.Quoted;
            i++;
          } else this.at = At.AfterQuoted;
          break;
      }
    }
  }

  end(out: RecordRead[]): void {
    if (this.at === At.Quoted) throw new XlsxError('corrupt', `A quoted field of row ${this.row} is not closed`, { row: this.row });
    if (this.field !== '' || this.fields.length || this.at !== At.Start) this.endRecord(out);
  }

  private endField(): void {
    this.fields.push(this.field);
    this.field = '';
    this.at = At.Start;
  }

  private endRecord(out: RecordRead[]): void {
    this.endField();
    const fields = this.fields;
    this.fields = [];
    if (fields.some((f) => f.trim() !== '')) {
      if (++this.count > this.maxRows) throw new XlsxError('too_many_rows', `More than ${this.maxRows} rows`);
      out.push({ row: this.row, fields });
    }
    this.row++;
  }
}

function numericOf(columns: CsvReadOptions['numericColumns'], first: readonly string[] | undefined): ReadonlySet<number> {
  if (columns === undefined) return new Set();
  return new Set(typeof columns === 'function' ? (first ? columns(first) : []) : columns);
}

const SPACE = '[ \\u00A0\\u202F]';
/** A figure with a decimal comma: "12,5", "-1234", "1.234.567,89", "1 234,5". */
const COMMA_FIGURE = new RegExp(`^-?(?:\\d+|\\d{1,3}(?:\\.\\d{3})+|\\d{1,3}(?:${SPACE}\\d{3})+)(?:,(\\d+))?$`);
/** A figure with a decimal point: "12.5", "-1234", "1,234,567.89", "1 234.5". */
const POINT_FIGURE = new RegExp(`^-?(?:\\d+|\\d{1,3}(?:,\\d{3})+|\\d{1,3}(?:${SPACE}\\d{3})+)(?:\\.(\\d+))?$`);
/** Digits only (with a minus): a figure either way, that tells nothing. */
const PLAIN_INTEGER = /^-?\d+$/;

/**
 * A field of digits with at most one ',' or '.' (and an optional leading minus): 0 when it tells
 * nothing (an integer, or "1,234"/"1.234": three digits after one sign, either reading), 1 when it
 * needs a decimal comma, 2 a decimal point; -1 for anything else (the regular expressions decide).
 */
function quickVote(field: string): -1 | 0 | 1 | 2 {
  let sign = -1;
  let signs = 0;
  const start = field.charCodeAt(0) === 45 ? 1 : 0;
  for (let i = start; i < field.length; i++) {
    const c = field.charCodeAt(i);
    if (c >= 48 && c <= 57) continue;
    if (c === 44 || c === 46) {
      signs++;
      sign = i;
      continue;
    }
    return -1;
  }
  if (signs === 0) return field.length > start ? 0 : -1;
  if (signs > 1 || sign === start || sign === field.length - 1) return -1;
  const before = sign - start;
  const after = field.length - sign - 1;
  // "1,234" or "1.234" reads either way (a thousands sign).
  if (after === 3 && before <= 3) return 0;
  return field.charCodeAt(sign) === 44 ? 1 : 2;
}

/** Counts the figures that can be read with only one decimal sign. */
class DecimalVotes {
  private onlyComma = 0;
  private onlyPoint = 0;

  count(fields: readonly string[], numeric: ReadonlySet<number>): void {
    for (const column of numeric) {
      const field = fields[column];
      if (!field) continue;
      // The usual figure, digits with one sign at most, told apart without a regular expression.
      const quick = quickVote(field);
      if (quick === 1) this.onlyComma++;
      if (quick === 2) this.onlyPoint++;
      if (quick !== -1) continue;
      const text = field.trim().replace(/^\u2212/, '-');
      if (!text || PLAIN_INTEGER.test(text)) continue;
      const comma = COMMA_FIGURE.test(text);
      const point = POINT_FIGURE.test(text);
      if (comma && !point) this.onlyComma++;
      if (point && !comma) this.onlyPoint++;
    }
  }

  /** The one the file's figures need, else the separator's custom. */
  decimal(separator: ',' | ';'): ',' | '.' {
    if (this.onlyComma > 0 && this.onlyPoint === 0) return ',';
    if (this.onlyPoint > 0 && this.onlyComma === 0) return '.';
    return separator === ';' ? ',' : '.';
  }
}

const EMPTY: Cell = { kind: 'empty' };

function rowOf({ row, fields }: RecordRead, numeric: ReadonlySet<number>, decimal: ',' | '.'): XlsxRow {
  const cells: Cell[] = fields.map((field, column) => cellOf(field, numeric.has(column) ? decimal : null));
  while (cells.length && cells.at(-1)!.kind === 'empty') cells.pop();
  return { row, cells };
}

/**
 * The usual figure, digits with at most the file's decimal sign once (and a leading minus), as its
 * canonical decimal text ("0012,50" → "12.5"), without regular expressions; null for anything else.
 */
function quickFigure(field: string, decimal: ',' | '.'): string | null {
  const sign = decimal.charCodeAt(0);
  const start = field.charCodeAt(0) === 45 ? 1 : 0;
  let at = -1;
  for (let i = start; i < field.length; i++) {
    const c = field.charCodeAt(i);
    if (c >= 48 && c <= 57) continue;
    if (c === sign && at === -1) {
      at = i;
      continue;
    }
    return null;
  }
  const end = at === -1 ? field.length : at;
  if (end === start || at === field.length - 1) return null;
  let i = start;
  while (i < end - 1 && field.charCodeAt(i) === 48) i++;
  const whole = field.slice(i, end);
  let fraction = at === -1 ? '' : field.slice(at + 1);
  let f = fraction.length;
  while (f > 0 && fraction.charCodeAt(f - 1) === 48) f--;
  fraction = fraction.slice(0, f);
  const negative = start === 1 && !(whole === '0' && fraction === '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** A field as a cell: empty, an exact number (a figure in the file's convention), or text. */
function cellOf(field: string, decimal: ',' | '.' | null): Cell {
  if (field.trim() === '') return EMPTY;
  if (decimal !== null) {
    const fast = quickFigure(field, decimal);
    if (fast !== null) return { kind: 'number', value: Number(fast), text: fast, exact: true, raw: field };
    const text = field.trim().replace(/^\u2212/, '-');
    if (PLAIN_INTEGER.test(text)) {
      const exact = normalizeDecimal(text);
      if (exact !== null) return { kind: 'number', value: Number(exact), text: exact, exact: true, raw: field };
    }
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
