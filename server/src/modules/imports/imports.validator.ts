/**
 * Validation of an uploaded report file (docs/product.md §5 "Import file", docs/architecture.md §5 "Import file rules").
 * Pure: no database. The caller passes the codes of the organization with, for each, whether the
 * company may report it in the report's market.
 *
 * Layout: column A code, B volume, C value; 1-based spreadsheet row numbers in every message.
 *
 * Rules, in this order (a file-level failure stops there; row rules collect every error):
 * 1. xlsx, CSV or a JSON array of rows, judged by content (a zip or OLE container is read as an
 *    xlsx, a JSON array as rows, anything else as CSV text: `lib/sheet.ts`; never the file name). Neither: 'import.not_xlsx' (the spec's
 *    text); a CSV that is not UTF-8 'import.csv_not_utf8', one whose quote is left open
 *    'import.csv_open_quote' (with the row). A damaged xlsx is 'import.corrupt', a file over the size caps or a
 *    zip bomb 'import.too_large', more data rows than allowed (the header does not count)
 *    'import.too_many_rows', a workbook
 *    without a worksheet 'import.empty'.
 * 2. Column C at all: a sheet must have the three columns, so column C holds something on some
 *    row, the header included ('import.column_count', once, for the file; with a header "Code |
 *    Volume | Value" column C may be empty on every data row).
 * 3. Not empty: 'import.empty' when no data row holds anything in column B or C (an empty
 *    sheet, a header only, or codes without any figure such as an unfilled template).
 *    And a data row must not use columns beyond C ('import.column_count', one error
 *    per offending row, with its row number), except columns that the header row names (the
 *    template's Name and Note columns): those are ignored. Cells left empty at the end of a
 *    row are empty values, not missing columns (B or C may legitimately stay empty). When any
 *    row fails this rule, only these errors are listed: the layout is wrong, so the row rules
 *    would only add noise.
 * 4. Per data row: the code exists ('import.invalid_code'), is available to the company in
 *    the market ('import.code_not_available'), is active, i.e. not disabled 30
 *    ('import.code_inactive'), and is not repeated ('import.duplicate_code' on the later
 *    rows); the first failing code rule is reported. Then, independently, column B and C:
 *    disabled 20 = volume (B) must be empty ('import.volume_must_be_empty'), disabled 10 =
 *    value (C) must be empty ('import.value_must_be_empty'); otherwise a valid number that
 *    fits numeric(20,4) — at most 16 digits before the point and 4 after — or empty
 *    ('import.column_b_invalid' / 'import.column_c_invalid' otherwise).
 *
 * Header: the first non-blank row is a header, and skipped, when its B and C are text that is
 * not a number (one of them may be blank) and its A is blank or text that is not a known code
 * ("Code | Volume | Value", in any language). Only that row can be a header (no title rows above it).
 *
 * Data rows: the rows after the header with a non-blank cell in A, B or C, or in a column
 * beyond C that the header does not name. Blank cells are empty cells, cells holding only
 * spaces, and empty texts. Rows with content only in named extra columns are ignored.
 *
 * Codes (A): text is trimmed and matched exactly (case-sensitive, as stored); a numeric cell
 * is its integer written out ("1001"), a non-integer number is an invalid code; a formula
 * counts by its cached result; dates, booleans, error cells and blanks are invalid codes.
 *
 * Numbers (B, C): numeric cells as they are, formula cells by their cached result (a formula
 * without one, in any column, is 'import.formula_without_value' with its column), text through `parseHumanNumber` ("1 234", "12,5", "1,234.5", "-3";
 * ambiguous "1,234" is refused); dates, booleans and error cells are invalid characters.
 * Negative numbers are allowed (returns, corrections); the preflight warns about them. Values are returned as exact decimal
 * strings ("1234.5678"), never as JavaScript numbers (docs/architecture.md §8 "Numbers"): text exactly as
 * typed; a numeric cell, which the file format makes a binary double, at the 15 significant
 * digits spreadsheets keep and show (so 0.1 + 0.2 is the 0.3 the user sees, not
 * 0.30000000000000004). A figure with more digits than that must be typed as text.
 *
 * Rows where both B and C are empty are validated like every other row but not returned: they
 * carry no figure (counted in `rowsWithoutFigures`).
 *
 * At most `maxErrors` errors (default `IMPORT_MAX_ERRORS`, 50,000) are listed; when there are more, a last error
 * 'import.too_many_errors' (row null) says so and `truncated` is true. The whole file is still
 * read, so `dataRowCount` is exact.
 */
import { FIGURE_LIMITS, fitsDecimal, normalizeDecimal, roundSignificant } from '@mss/contracts/decimal';
import type { CodeDisabledStatus, Locale } from '@mss/contracts/enums';
import { type MessageKey, type MessageParams, translate } from '@mss/contracts/messages';
import {
  type Cell,
  DEFAULT_XLSX_LIMITS,
  type SlotLimiter,
  type XlsxLimits,
  excelSerialToDate,
  isXlsxError,
  parseHumanNumber,
  withXlsxSlot,
  XlsxError,
} from '../../lib/xlsx/index.ts';
import { openSheet } from '../../lib/sheet.ts';

export interface CodeInfo {
  id: number;
  code: string;
  disabled_status: CodeDisabledStatus;
  /** The code is available to the company in the report's market. */
  available: boolean;
}

/** Codes of the organization by their text; codes not in the map are invalid. */
export interface CodeLookup {
  byCode: ReadonlyMap<string, CodeInfo>;
}

export interface ImportError {
  /** 1-based spreadsheet row, or null for errors about the whole file. */
  row: number | null;
  /** Column A of that row as written (for the error list), or null. */
  code: string | null;
  key: MessageKey;
  params: MessageParams;
  /** The message in the requested locale (en-US by default). */
  message: string;
  /**
   * Where in the row: the column's letter (A code, B volume, C value) and its name in the file's
   * header row (null without one: readers name it by the letter), and the cell as read ("12,5 st").
   * Null for errors about the whole file or row.
   */
  column?: { letter: 'A' | 'B' | 'C'; name: string | null; cell: string | null } | null;
}

export interface ImportRow {
  row: number;
  code_id: number;
  code: string;
  /** Exact decimal strings ("1234.5678"). */
  volume: string | null;
  value: string | null;
}

export interface ValidationResult {
  ok: boolean;
  errors: ImportError[];
  /**
   * The rows to store, in file order; empty unless `ok`, and empty with a `sink` (which got them).
   * Rows without any figure are left out.
   */
  rows: ImportRow[];
  /** How many rows are to be stored (0 unless `ok`). */
  rowCount: number;
  /** Data rows read (after the header), including rows without figures. */
  dataRowCount: number;
  /** Data rows whose B and C were both empty (validated, not returned). */
  rowsWithoutFigures: number;
  /** The row taken as the header, or null. */
  headerRow: number | null;
  /** More than `maxErrors` errors: the list was cut. */
  truncated: boolean;
  /** Every error found in the file, listed or not (the cut note is not one). */
  errorCount: number;
}

export interface ValidateOptions {
  /** Language of `ImportError.message` (default en-US). */
  locale?: Locale;
  /** Errors listed at most (default `IMPORT_MAX_ERRORS`). */
  maxErrors?: number;
  /** Reader caps (default: the reader's `DEFAULT_XLSX_LIMITS`). */
  limits?: Partial<XlsxLimits>;
  /**
   * The read limiter (default `withXlsxSlot`, process-wide). The validator takes a slot
   * itself: do not call it from inside `withXlsxSlot` (two nested waits can deadlock).
   * null = no limiter (tests).
   */
  slot?: SlotLimiter | null;
  /**
   * Receives the rows in batches while the file is still being read, so that they can be stored
   * meanwhile, instead of in `rows`. One batch is written at a time (the reading waits for the
   * previous write before handing over the next). Batches stop at the first error, but a file can
   * turn out invalid after some were written: the caller discards what it wrote unless the result
   * is `ok`. A failed write fails the validation (the error propagates).
   */
  sink?: RowSink;
}

export interface RowSink {
  batchSize: number;
  write(rows: ImportRow[]): Promise<void>;
}

/**
 * Errors listed at most: a 20,000-row file whose every row is wrong has all its errors in the
 * list and the error sheet (decisions.md, "The error list and the error sheet").
 */
export const IMPORT_MAX_ERRORS = 50_000;
/** numeric(20,4) holds 16 integer digits; 10^15 keeps every integer exact in a double. */
/** Significant digits a spreadsheet keeps of a number cell (a double). */
const SPREADSHEET_DIGITS = 15;

const A = 0;
const B = 1;
const C = 2;

/** The figure columns: the code status that keeps each one empty, and their messages. */
const FIGURES = {
  volume: { disabledBy: 20, mustBeEmpty: 'import.volume_must_be_empty', invalid: 'import.column_b_invalid', letter: 'B' },
  value: { disabledBy: 10, mustBeEmpty: 'import.value_must_be_empty', invalid: 'import.column_c_invalid', letter: 'C' },
} as const satisfies Record<string, { disabledBy: CodeDisabledStatus; mustBeEmpty: MessageKey; invalid: MessageKey; letter: string }>;
type FigureColumn = (typeof FIGURES)[keyof typeof FIGURES];

export function isBlank(cell: Cell | undefined): boolean {
  return cell === undefined || cell.kind === 'empty' || (cell.kind === 'string' && cell.value.trim() === '');
}

/** The longest column A text an error keeps (codes have at most 50 characters). */
export const DISPLAY_MAX = 60;

/** Column A as a code: the text, '' for blank, undefined when the cell cannot be a code. */
export function codeOf(cell: Cell | undefined): string | undefined {
  if (isBlank(cell)) return '';
  if (cell!.kind === 'string') return cell!.value.trim();
  if (cell!.kind === 'number' && Number.isSafeInteger(cell!.value)) return String(cell!.value);
  return undefined;
}

/**
 * Column A as written, for the error list; a text longer than any code (50 characters) is cut to
 * its first DISPLAY_MAX characters and "…": the row number finds it, and 50,000 errors of a file
 * of long texts would otherwise store and serve megabytes of them.
 */
export function displayOf(cell: Cell | undefined, date1904: boolean): string | null {
  if (cell === undefined) return null;
  switch (cell.kind) {
    case 'string': {
      const text = cell.value.trim();
      if (text === '') return null;
      if (text.length <= DISPLAY_MAX) return text;
      // Not between the two halves of a surrogate pair.
      const end = /[\uD800-\uDBFF]/.test(text[DISPLAY_MAX - 1]!) ? DISPLAY_MAX - 1 : DISPLAY_MAX;
      return `${text.slice(0, end)}…`;
    }
    case 'number':
      // A CSV figure as written ("1.234,5"); a spreadsheet's number as its double.
      return cell.raw?.trim() ?? String(cell.value);
    case 'boolean':
      return cell.value ? 'TRUE' : 'FALSE';
    case 'error':
      return cell.value;
    case 'date': {
      const date = excelSerialToDate(cell.value, date1904);
      return Number.isNaN(date.getTime()) ? String(cell.value) : date.toISOString().slice(0, 10);
    }
    default:
      return null;
  }
}

export type NumberRead = { kind: 'empty' } | { kind: 'number'; value: string } | { kind: 'invalid' } | { kind: 'formula' };

const EMPTY_READ: NumberRead = { kind: 'empty' };
const INVALID_READ: NumberRead = { kind: 'invalid' };
const FORMULA_READ: NumberRead = { kind: 'formula' };

/**
 * A number cell's text that is already what the slow path would make of it: canonical (no
 * exponent, sign only when negative, no leading or trailing zeros), at most 4 decimals and, with
 * the integer digits, at most 15 digits (so nothing to round to a spreadsheet's precision). Most
 * cells of a report are such; checked with one regular expression instead of three passes.
 */
const PLAIN_NUMBER = /^-?(?:0|[1-9]\d{0,14})(?:\.\d{0,3}[1-9])?$/;
export function isPlainNumber(text: string): boolean {
  if (!PLAIN_NUMBER.test(text) || text === '-0') return false;
  const digits = text.length - (text.charCodeAt(0) === 45 ? 1 : 0) - (text.includes('.') ? 1 : 0);
  return digits <= SPREADSHEET_DIGITS;
}

export function numberOf(cell: Cell | undefined): NumberRead {
  if (isBlank(cell)) return EMPTY_READ;
  let value: string | null;
  if (cell!.kind === 'number') {
    const decimal = normalizeDecimal(cell!.text);
    // A CSV figure is exact as written; a spreadsheet's is a double, kept at the digits it shows.
    value = decimal === null || cell!.exact ? decimal : roundSignificant(decimal, SPREADSHEET_DIGITS);
  } else if (cell!.kind === 'string') value = parseHumanNumber(cell!.value);
  else if (cell!.kind === 'formula-without-value') return FORMULA_READ;
  else return INVALID_READ; // date, boolean, error
  if (value === null || !fitsDecimal(value, FIGURE_LIMITS)) return INVALID_READ;
  return { kind: 'number', value };
}

function isNonNumericText(cell: Cell | undefined): boolean {
  return cell !== undefined && cell.kind === 'string' && cell.value.trim() !== '' && parseHumanNumber(cell.value) === null;
}

/**
 * The first non-blank row is a header when its B and C hold text that is not a number (one of
 * them may be blank: "Code | Volume" is a header, of a file with too few columns) and its A is
 * blank or text that is not a known code.
 */
function isHeader(cells: readonly Cell[], codes: CodeLookup): boolean {
  const textOrBlank = (cell: Cell | undefined) => isBlank(cell) || isNonNumericText(cell);
  if (!textOrBlank(cells[B]) || !textOrBlank(cells[C]) || (isBlank(cells[B]) && isBlank(cells[C]))) return false;
  const a = cells[A];
  if (isBlank(a)) return true;
  return a!.kind === 'string' && !codes.byCode.has(a!.value.trim());
}

/** A bounded error list. */
export class ErrorList {
  readonly errors: ImportError[] = [];
  omitted = 0;
  private readonly max: number;
  private readonly locale: Locale | undefined;

  constructor(max: number, locale: Locale | undefined) {
    this.max = max;
    this.locale = locale;
  }

  add(row: number | null, code: string | null, key: MessageKey, params: MessageParams = {}, column: ImportError['column'] = null): void {
    if (this.errors.length >= this.max) {
      this.omitted++;
      return;
    }
    this.errors.push({ row, code, key, params, message: translate(key, params, this.locale), column });
  }

  /**
   * The list, with the 'too many errors' note when something was left out: it says how many
   * errors the file has, how many are listed and the row where the list stops.
   */
  finish(): { errors: ImportError[]; truncated: boolean; errorCount: number } {
    const errorCount = this.errors.length + this.omitted;
    if (this.omitted === 0) return { errors: this.errors, truncated: false, errorCount };
    // Grouped like the other counts in file messages ('import.too_many_rows').
    const params = { count: errorCount.toLocaleString('en-US'), max: this.max.toLocaleString('en-US'), row: this.errors.at(-1)?.row ?? 0 };
    return {
      errors: [
        ...this.errors,
        { row: null, code: null, key: 'import.too_many_errors', params, message: translate('import.too_many_errors', params, this.locale) },
      ],
      truncated: true,
      errorCount,
    };
  }
}

export function fileError(key: MessageKey, params: MessageParams, locale: Locale | undefined): ImportError {
  return { row: null, code: null, key, params, message: translate(key, params, locale) };
}

function failure(error: ImportError, counts: Pick<ValidationResult, 'dataRowCount' | 'rowsWithoutFigures' | 'headerRow'>): ValidationResult {
  return { ok: false, errors: [error], rows: [], rowCount: 0, ...counts, truncated: false, errorCount: 1 };
}

/** Validates the .xlsx at `path` against the rules above. Never throws for a bad file; I/O errors on `path` propagate. */
export async function validateReportFile(path: string, codes: CodeLookup | Promise<CodeLookup>, options: ValidateOptions = {}): Promise<ValidationResult> {
  const slot = options.slot === undefined ? withXlsxSlot : options.slot;
  const run = () => validate(path, codes, options);
  return slot ? slot(run) : run();
}

/**
 * Yields the source's items, reading ahead into a buffer until `ready` settles: the code lookup
 * (a query in the database's thread) and the reading of the sheet (this thread) then overlap.
 * Hand-written rather than an async generator: once the buffer is drained, `next()` is the
 * source's own (no second promise per row), and `return()` (a `break` or a throw out of
 * `for await`) closes the source.
 */
export function readAheadUntil<T>(source: AsyncIterator<T>, ready: Promise<unknown>): AsyncIterableIterator<T> {
  const buffer: T[] = [];
  let index = 0;
  let pending: Promise<IteratorResult<T>> | null = null;
  let end: IteratorResult<T> | null = null;
  const settled = ready.then(
    () => null,
    () => null,
  );
  let reading: Promise<void> | null = (async () => {
    for (;;) {
      pending ??= source.next();
      const next = await Promise.race([pending, settled]);
      if (next === null) return;
      pending = null;
      if (next.done) {
        end = next;
        return;
      }
      buffer.push(next.value);
    }
  })();
  // A failed read is raised by the first next(); until then it must not count as unhandled.
  reading.catch(() => {});
  const iterator: AsyncIterableIterator<T> = {
    [Symbol.asyncIterator]: () => iterator,
    next(): Promise<IteratorResult<T>> {
      if (reading) {
        const waiting = reading;
        reading = null;
        return waiting.then(() => iterator.next());
      }
      if (index < buffer.length) {
        const value = buffer[index]!;
        buffer[index++] = undefined as T; // let it go once handed on
        return Promise.resolve({ value, done: false });
      }
      if (end) return Promise.resolve(end);
      if (pending) {
        const next = pending;
        pending = null;
        return next;
      }
      return source.next();
    },
    async return(): Promise<IteratorResult<T>> {
      await source.return?.();
      return { value: undefined, done: true };
    },
  };
  return iterator;
}

/** What the reading of one report file keeps from row to row: the errors, the rows, the counts and the header. */
class ReportReading {
  readonly locale: Locale | undefined;
  readonly maxDataRows: number;
  readonly sink: RowSink | undefined;
  readonly rowErrors: ErrorList;
  readonly columnErrors: ErrorList;
  rows: ImportRow[] = [];
  rowCount = 0;
  headerRow: number | null = null;
  seenNonBlank = false;
  /** Columns beyond C that the header names (their content is ignored). */
  readonly namedExtra = new Set<number>();
  /** Valid codes already used, by id (the first row wins). */
  readonly used = new Set<number>();
  dataRowCount = 0;
  rowsWithoutFigures = 0;
  hasFigures = false;
  /** Some row (the header included) holds something in column C: the sheet has the three columns. */
  usesC = false;
  /** The workbook's date system, for showing a date in column A (set once it is open). */
  date1904 = false;
  /** The header row's names of columns A, B and C, as written (null without a header row). */
  headerNames: (string | null)[] = [null, null, null];
  writing: Promise<void> | null = null;

  constructor(maxErrors: number, options: ValidateOptions) {
    this.locale = options.locale;
    this.maxDataRows = options.limits?.maxRows ?? DEFAULT_XLSX_LIMITS.maxRows;
    this.sink = options.sink;
    this.rowErrors = new ErrorList(maxErrors, this.locale);
    this.columnErrors = new ErrorList(maxErrors, this.locale);
  }

  /** The counts every result carries. */
  counts(): Pick<ValidationResult, 'dataRowCount' | 'rowsWithoutFigures' | 'headerRow'> {
    return { dataRowCount: this.dataRowCount, rowsWithoutFigures: this.rowsWithoutFigures, headerRow: this.headerRow };
  }

  /** Hands the rows read so far to the sink, once the previous batch is written. */
  async flush(): Promise<void> {
    const { sink } = this;
    if (!sink || this.rows.length === 0) return;
    const batch = this.rows;
    this.rows = [];
    if (this.writing) await this.writing;
    const writing = sink.write(batch);
    this.writing = writing;
    // Awaited before the next batch or at the end; until then it must not count as unhandled.
    writing.catch(() => {});
    // Rows read ahead are handled without any I/O turn: let the event loop send the write (and
    // take in replies it queues behind) now, so that the database works while this thread reads.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** Where an error is: the column's letter and header name, and the cell as read (worked out for an error only). */
function columnAt(reading: ReportReading, letter: 'A' | 'B' | 'C', cell: Cell | undefined): ImportError['column'] {
  return {
    letter,
    name: reading.headerNames[letter.charCodeAt(0) - 65] ?? null,
    cell: displayOf(cell, reading.date1904),
  };
}

/** Column B or C of a row: empty (null), a number, or an error added to the list (null). */
function figure(
  reading: ReportReading,
  column: FigureColumn,
  cell: Cell | undefined,
  blank: boolean,
  info: CodeInfo | undefined,
  row: number,
  a: Cell | undefined,
): string | null {
  const { rowErrors, date1904 } = reading;
  if (info?.disabled_status === column.disabledBy && !blank) {
    rowErrors.add(row, displayOf(a, date1904), column.mustBeEmpty, { code: info.code, row }, columnAt(reading, column.letter, cell));
    return null;
  }
  // The usual cell: a number whose text is already the figure (no object per cell for it).
  if (cell !== undefined && cell.kind === 'number' && isPlainNumber(cell.text)) return cell.text;
  const read = numberOf(cell);
  if (read.kind === 'invalid') rowErrors.add(row, displayOf(a, date1904), column.invalid, { row }, columnAt(reading, column.letter, cell));
  if (read.kind === 'formula')
    rowErrors.add(row, displayOf(a, date1904), 'import.formula_without_value', { row, column: column.letter }, columnAt(reading, column.letter, cell));
  return read.kind === 'number' ? read.value : null;
}

/** Column A's code by the code rules (the first failing one is reported); a duplicate's code still rules its figures. */
function rowCode(reading: ReportReading, codes: CodeLookup, row: number, a: Cell | undefined): CodeInfo | undefined {
  const { rowErrors, used, date1904 } = reading;
  // Column A as written (displayOf) is only worked out for an error; no closure per row either.
  const code = codeOf(a);
  let info: CodeInfo | undefined;
  if (a?.kind === 'formula-without-value') {
    rowErrors.add(row, displayOf(a, date1904), 'import.formula_without_value', { row, column: 'A' }, columnAt(reading, 'A', a));
  } else if (code === undefined || code === '' || !(info = codes.byCode.get(code))) {
    rowErrors.add(row, displayOf(a, date1904), 'import.invalid_code', { row }, columnAt(reading, 'A', a));
  } else if (!info.available) {
    rowErrors.add(row, displayOf(a, date1904), 'import.code_not_available', { row }, columnAt(reading, 'A', a));
    info = undefined;
  } else if (info.disabled_status === 30) {
    rowErrors.add(row, displayOf(a, date1904), 'import.code_inactive', { code: info.code, row }, columnAt(reading, 'A', a));
    info = undefined;
  } else if (used.has(info.id)) {
    rowErrors.add(row, displayOf(a, date1904), 'import.duplicate_code', { row, code: info.code }, columnAt(reading, 'A', a));
  } else {
    used.add(info.id);
  }
  return info;
}

async function validate(path: string, lookupOrPromise: CodeLookup | Promise<CodeLookup>, options: ValidateOptions): Promise<ValidationResult> {
  const ready = Promise.resolve(lookupOrPromise);
  // Its failure is raised where it is awaited; until then (say the file is not an xlsx) it must
  // not count as unhandled.
  ready.catch(() => {});
  const maxErrors = options.maxErrors ?? IMPORT_MAX_ERRORS;
  if (!Number.isInteger(maxErrors) || maxErrors < 1) throw new RangeError('maxErrors must be a positive integer');
  const reading = new ReportReading(maxErrors, options);
  const { sink } = reading;
  if (sink && (!Number.isInteger(sink.batchSize) || sink.batchSize < 1)) throw new RangeError('sink.batchSize must be a positive integer');
  try {
    try {
      await readReportRows(path, reading, ready, options.limits);
    } catch (error) {
      return readFailure(error, reading);
    }
    return await finishReport(reading);
  } finally {
    // A batch still being written belongs to the result: its failure fails the validation.
    if (reading.writing) await reading.writing;
  }
}

/** Reads the sheet: the header, if any, then every data row, checked and (valid so far) kept or handed to the sink. */
async function readReportRows(path: string, reading: ReportReading, ready: Promise<CodeLookup>, limits: Partial<XlsxLimits> | undefined): Promise<void> {
  // Set before the first row is handled: rows are only yielded once `ready` has settled.
  let codes!: CodeLookup;
  const { rowErrors, columnErrors, namedExtra, maxDataRows, sink } = reading;
  // The row limit is on data rows: the reader, which counts every non-empty row, may read
  // one more (the header), and the data rows are counted against the limit below.
  const workbook = await openSheet(path, { limits: { ...limits, maxRows: maxDataRows + 1 }, numericColumns: [B, C] });
  reading.date1904 = workbook.date1904;
  // JSON rows name their fields: no layout to get wrong, column C is there even when every value is null.
  if (!workbook.mayHaveHeader) reading.usesC = true;
  for await (const { row, cells } of readAheadUntil(workbook.rows(), ready)) {
    codes ??= await ready;
    if (!reading.seenNonBlank) {
      if (cells.every((cell) => isBlank(cell))) continue;
      reading.seenNonBlank = true;
      if (workbook.mayHaveHeader && isHeader(cells, codes)) {
        reading.headerRow = row;
        reading.headerNames = [cells[A], cells[B], cells[C]].map((cell) => (isBlank(cell) ? null : displayOf(cell, reading.date1904)));
        if (!isBlank(cells[C])) reading.usesC = true;
        for (let i = 3; i < cells.length; i++) if (!isBlank(cells[i])) namedExtra.add(i);
        continue;
      }
    }

    let unnamedExtra = false;
    for (let i = 3; i < cells.length; i++) {
      if (!namedExtra.has(i) && !isBlank(cells[i])) {
        unnamedExtra = true;
        break;
      }
    }
    const a = cells[A];
    const b = cells[B];
    const c = cells[C];
    const blankB = isBlank(b);
    const blankC = isBlank(c);
    if (!unnamedExtra && isBlank(a) && blankB && blankC) continue; // nothing, or only notes in named columns
    if (!blankC) reading.usesC = true;
    reading.dataRowCount++;
    if (reading.dataRowCount > maxDataRows) throw new XlsxError('too_many_rows', `more than ${maxDataRows} data rows`);
    if (!blankB || !blankC) reading.hasFigures = true;
    else reading.rowsWithoutFigures++;

    if (unnamedExtra) {
      columnErrors.add(row, displayOf(a, reading.date1904), 'import.column_count');
      continue;
    }
    // Once the layout is known to be wrong, row errors would be dropped anyway.
    if (columnErrors.errors.length > 0) continue;

    const errorsBefore = rowErrors.errors.length + rowErrors.omitted;
    const info = rowCode(reading, codes, row, a);

    const volume = figure(reading, FIGURES.volume, b, blankB, info, row, a);
    const value = figure(reading, FIGURES.value, c, blankC, info, row, a);

    if (rowErrors.errors.length + rowErrors.omitted > errorsBefore) {
      reading.rows = []; // the file is invalid: nothing will be stored
    } else if (errorsBefore === 0 && info && (volume !== null || value !== null)) {
      reading.rows.push({ row, code_id: info.id, code: info.code, volume, value });
      reading.rowCount++;
      // The first batch is smaller, so that the database starts writing early.
      if (sink && reading.rows.length >= (reading.writing ? sink.batchSize : Math.ceil(sink.batchSize / 10))) await reading.flush();
    }
  }
  await ready; // a failed lookup fails the validation, even for a sheet without rows
}

/** The failure of a file the reader refused (an error of the reader's); any other error propagates. */
function readFailure(error: unknown, reading: ReportReading): ValidationResult {
  if (!isXlsxError(error)) throw error;
  const { locale, maxDataRows } = reading;
  const counts = reading.counts();
  switch (error.code) {
    case 'not_xlsx':
    case 'broken_zip':
      return failure(fileError('import.not_xlsx', {}, locale), counts);
    case 'empty':
      return failure(fileError('import.empty', {}, locale), counts);
    case 'encrypted':
      return failure(fileError('import.password_protected', {}, locale), counts);
    case 'no_sheet':
      return failure(fileError('import.empty', {}, locale), counts);
    case 'too_large':
      return failure(fileError('import.too_large', {}, locale), counts);
    case 'too_many_rows':
      return failure(fileError('import.too_many_rows', { max: maxDataRows.toLocaleString('en-US') }, locale), counts);
    case 'not_utf8':
      return failure(fileError('import.csv_not_utf8', {}, locale), counts);
    case 'corrupt':
      // A CSV's quote left open names its row; anything else damaged is the file's.
      if (error.row !== undefined) return failure({ ...fileError('import.csv_open_quote', { row: error.row }, locale), row: error.row }, counts);
      return failure(fileError('import.corrupt', {}, locale), counts);
    default:
      return failure(fileError('import.corrupt', {}, locale), counts);
  }
}

/** Once every row is read: the layout's failures, then the rows' errors, or the rows (the last batch handed to the sink). */
async function finishReport(reading: ReportReading): Promise<ValidationResult> {
  const { locale, columnErrors, rowErrors } = reading;
  const counts = reading.counts();
  // Too few columns (nothing anywhere in C, not even a header naming it) is the layout, not the rows.
  if (reading.seenNonBlank && !reading.usesC && columnErrors.errors.length === 0) return failure(fileError('import.column_count', {}, locale), counts);
  if (!reading.hasFigures) return failure(fileError('import.empty', {}, locale), counts);
  if (columnErrors.errors.length > 0) return { ok: false, rows: [], rowCount: 0, ...counts, ...columnErrors.finish() };
  if (rowErrors.errors.length > 0) return { ok: false, rows: [], rowCount: 0, ...counts, ...rowErrors.finish() };
  await reading.flush();
  return { ok: true, errors: [], rows: reading.rows, rowCount: reading.rowCount, ...counts, truncated: false, errorCount: 0 };
}
