/**
 * Validation of an association's history file (docs/decisions.md "History import"): one long
 * table, xlsx or CSV, one row per market, period, company and code with its volume and value.
 * Pure: no database; the caller passes what the organization has (`HistoryLookup`).
 *
 * - The first non-blank row is the header and must name the six columns (any order, any case;
 *   other named columns are ignored): Market, Period, Company, Code, Volume, Value.
 * - Per data row, every error collected, in this order: the market (an ISO code of the
 *   organization's, one the caller administers), the period (YYYY-MM, or a date cell: its month;
 *   an existing period of that month must span the month), the company (its id, or its name when
 *   only one company of the organization has it; it must report in the market), the code (exists,
 *   available to the company in the market, active), the row not a repeat of an earlier one (same
 *   market, period, company and code), then the volume and value as a report's (the same reading
 *   of numbers, the same disabled-column rules), named by their column letter as the file has them.
 * - Every valid row goes to `sink` in batches while the file is read (the import stages them; a
 *   dry run passes none). The summary counts rows per market and period.
 */
import { FIGURE_LIMITS, fitsDecimal } from '@mss/contracts/decimal';
import type { CodeDisabledStatus, Locale } from '@mss/contracts/enums';
import { type MessageKey, type MessageParams, translate } from '@mss/contracts/messages';
import { openSheet } from '../../lib/sheet.ts';
import { columnLetters, type Cell, excelSerialToDate, isXlsxError, XlsxError } from '../../lib/xlsx/index.ts';
import { codeOf, displayOf, IMPORT_MAX_ERRORS, isBlank, isPlainNumber, numberOf } from '../imports/imports.validator.ts';

export interface HistoryCode {
  id: number;
  code: string;
  disabled_status: CodeDisabledStatus;
}

export interface HistoryMarket {
  id: number;
  iso_code: string;
  /** The caller may import into it (manages its periods and approves its reports). */
  administered: boolean;
  /** Code ids assigned to the market. */
  codeIds: ReadonlySet<number>;
  /** Existing periods by month ("2016-01"): whether each spans exactly that month. */
  periods: ReadonlyMap<string, { id: number; whole_month: boolean }>;
}

export interface HistoryCompany {
  id: number;
  name: string;
  /** Markets the company reports in. */
  marketIds: ReadonlySet<number>;
  /** Codes the company reports. */
  codeIds: ReadonlySet<number>;
}

/** What the organization has, as the validator needs it. */
export interface HistoryLookup {
  marketsByIso: ReadonlyMap<string, HistoryMarket>;
  companiesById: ReadonlyMap<number, HistoryCompany>;
  /** By lower-cased, trimmed name: more than one = ambiguous. */
  companiesByName: ReadonlyMap<string, readonly HistoryCompany[]>;
  codesByCode: ReadonlyMap<string, HistoryCode>;
}

export interface HistoryRow {
  row: number;
  market_id: number;
  /** The month's first day, "2016-01-01". */
  period_start: string;
  company_id: number;
  code_id: number;
  volume: string | null;
  value: string | null;
}

export interface HistoryError {
  row: number | null;
  key: MessageKey;
  params: MessageParams;
  message: string;
  /** The column's letter and header name, and the cell as read; null for a file's or a row's error. */
  column: { letter: string; name: string; cell: string | null } | null;
}

/** Rows of one market and period in the file. */
export interface HistoryPeriodSummary {
  market_id: number;
  market: string;
  /** "2016-01". */
  period: string;
  /** The existing period of that month, or null (the import creates it). */
  period_id: number | null;
  rows: number;
  company_ids: number[];
}

export interface HistoryValidation {
  ok: boolean;
  errors: HistoryError[];
  /** Every error of the file, listed or not. */
  errorCount: number;
  dataRowCount: number;
  /** Rows holding a figure (what the import writes). */
  rowCount: number;
  /** Per market and period, in order (empty unless ok). */
  periods: HistoryPeriodSummary[];
  /** Each market's month's rows (those holding a figure) come one after the other in the file. */
  contiguous: boolean;
  format: 'xlsx' | 'csv';
}

export interface HistorySink {
  batchSize: number;
  write(rows: HistoryRow[]): Promise<void>;
}

export interface HistoryValidateOptions {
  locale?: Locale;
  maxErrors?: number;
  maxRows?: number;
  sink?: HistorySink;
  /** Called now and then with the data rows read so far (progress). */
  onProgress?: (rowsRead: number) => void | Promise<void>;
  /** Asked now and then: true stops the reading (a cancelled import). */
  stop?: () => boolean;
}

/** The columns, by their en-US names (the template's header). */
export const HISTORY_COLUMNS = ['market', 'period', 'company', 'code', 'volume', 'value'] as const;
type HistoryColumn = (typeof HISTORY_COLUMNS)[number];
const HEADER_NAMES: Record<HistoryColumn, MessageKey> = {
  market: 'history.sheet.market',
  period: 'history.sheet.period',
  company: 'history.sheet.company',
  code: 'import.sheet.code',
  volume: 'import.sheet.volume',
  value: 'import.sheet.value',
};

/** The header's column of each name: its en-US name or the reader's language's, in any case. */
function headerColumns(cells: readonly Cell[], locale: Locale | undefined): Partial<Record<HistoryColumn, number>> {
  const found: Partial<Record<HistoryColumn, number>> = {};
  cells.forEach((cell, index) => {
    if (cell.kind !== 'string') return;
    const text = cell.value.trim().toLowerCase();
    for (const column of HISTORY_COLUMNS) {
      const names = new Set([column, translate(HEADER_NAMES[column], {}, 'en-US').toLowerCase(), translate(HEADER_NAMES[column], {}, locale).toLowerCase()]);
      if (names.has(text) && found[column] === undefined) found[column] = index;
    }
  });
  return found;
}

/** "2016-01" from text or a date cell; null when it is neither. */
function monthOf(cell: Cell | undefined, date1904: boolean): string | null {
  if (cell === undefined) return null;
  if (cell.kind === 'string') {
    const match = /^\s*(\d{4})-(\d{2})\s*$/.exec(cell.value);
    if (!match) return null;
    const month = Number(match[2]);
    return month >= 1 && month <= 12 && Number(match[1]) >= 1900 ? `${match[1]}-${match[2]}` : null;
  }
  if (cell.kind === 'date') {
    const date = excelSerialToDate(cell.value, date1904);
    if (Number.isNaN(date.getTime())) return null;
    return date.toISOString().slice(0, 7);
  }
  return null;
}

/** A company by id (a number, or digits) or by its name. */
function companyOf(cell: Cell | undefined, lookup: HistoryLookup): HistoryCompany | 'ambiguous' | undefined {
  if (cell === undefined) return undefined;
  let text: string;
  if (cell.kind === 'number' && Number.isSafeInteger(cell.value)) text = String(cell.value);
  else if (cell.kind === 'string') text = cell.value.trim();
  else return undefined;
  if (/^\d+$/.test(text)) {
    const byId = lookup.companiesById.get(Number(text));
    if (byId) return byId;
  }
  const named = lookup.companiesByName.get(text.toLowerCase());
  if (!named || named.length === 0) return undefined;
  return named.length > 1 ? 'ambiguous' : named[0];
}

/**
 * Duplicate detection without a string per row: each valid row's (period, market, company, code)
 * as one number (mixed radix over the lookup's sizes; exact below 2^53), kept in typed arrays and
 * sorted once at the end. Falls back to strings where the product would not be exact.
 */
class RowKeys {
  private readonly chunks: Float64Array[] = [];
  private readonly rows: Int32Array[] = [];
  private length = 0;
  private static readonly CHUNK = 1 << 20;

  push(key: number, row: number): void {
    const at = this.length % RowKeys.CHUNK;
    if (at === 0) {
      this.chunks.push(new Float64Array(RowKeys.CHUNK));
      this.rows.push(new Int32Array(RowKeys.CHUNK));
    }
    this.chunks.at(-1)![at] = key;
    this.rows.at(-1)![at] = row;
    this.length++;
  }

  /** The later rows that repeat an earlier one: [row, first row]. */
  repeats(): [number, number][] {
    const order = new Uint32Array(this.length);
    for (let i = 0; i < this.length; i++) order[i] = i;
    const key = (i: number) => this.chunks[Math.floor(i / RowKeys.CHUNK)]![i % RowKeys.CHUNK]!;
    const row = (i: number) => this.rows[Math.floor(i / RowKeys.CHUNK)]![i % RowKeys.CHUNK]!;
    order.sort((a, b) => key(a) - key(b) || row(a) - row(b));
    const out: [number, number][] = [];
    for (let i = 1; i < order.length; i++) {
      const first = order[i - 1]!;
      if (key(order[i]!) !== key(first)) continue;
      // The first row of a run of equal keys is the one the later ones repeat.
      let j = i - 1;
      while (j > 0 && key(order[j - 1]!) === key(first)) j--;
      out.push([row(order[i]!), row(order[j]!)]);
    }
    return out.sort((a, b) => a[0] - b[0]);
  }
}

/** Data rows between two progress reports (and looks at `stop`). */
const PROGRESS_ROWS = 5_000;

/** The header's columns and names, and the workbook's date system: what the data rows are read with. */
interface HistoryHeader {
  columns: Record<HistoryColumn, number>;
  names: string[];
  date1904: boolean;
}

type HistorySummary = HistoryPeriodSummary & { companies: Set<number> };

/** A cell's column, for an error: its letter and header name, and the cell as read. */
type HistoryErrorColumn = NonNullable<HistoryError['column']>;

/** What the reading of one file keeps from row to row: the errors, the counts, the row keys, the summaries and the batch. */
class HistoryReading {
  readonly lookup: HistoryLookup;
  readonly options: HistoryValidateOptions;
  readonly locale: Locale | undefined;
  readonly maxErrors: number;
  readonly maxRows: number;
  readonly errors: HistoryError[] = [];
  omitted = 0;
  header: HistoryHeader | null = null;
  format: 'xlsx' | 'csv' = 'xlsx';
  dataRowCount = 0;
  rowCount = 0;
  contiguous = true;
  readonly keys = new RowKeys();
  readonly summaries = new Map<string, HistorySummary>();
  readonly marketIndex: ReadonlyMap<number, number>;
  readonly companyIndex: ReadonlyMap<number, number>;
  readonly codeIndex: ReadonlyMap<number, number>;
  readonly radix: readonly [number, number, number];
  readonly exactKeys: boolean;
  readonly stringKeys = new Map<string, number>();
  readonly repeatsByString: [number, number][] = [];
  readonly last: {
    marketText?: string;
    market?: HistoryMarket;
    periodText?: string | null;
    month?: string | null;
    companyText?: string | null;
    company?: ReturnType<typeof companyOf>;
    summary?: HistorySummary;
  } = {};
  batch: HistoryRow[] = [];
  writing: Promise<void> | null = null;

  constructor(lookup: HistoryLookup, options: HistoryValidateOptions) {
    this.lookup = lookup;
    this.options = options;
    this.locale = options.locale;
    this.maxErrors = options.maxErrors ?? IMPORT_MAX_ERRORS;
    this.maxRows = options.maxRows ?? 10_000_000;
    // Mixed radix for the row keys: months since 1900, then markets, companies and codes by index.
    this.marketIndex = new Map([...lookup.marketsByIso.values()].map((m, i) => [m.id, i]));
    this.companyIndex = new Map([...lookup.companiesById.values()].map((c, i) => [c.id, i]));
    this.codeIndex = new Map([...lookup.codesByCode.values()].map((c, i) => [c.id, i]));
    this.radix = [this.marketIndex.size + 1, this.companyIndex.size + 1, this.codeIndex.size + 1];
    this.exactKeys = 12 * 200 * this.radix[0] * this.radix[1] * this.radix[2] < Number.MAX_SAFE_INTEGER;
  }

  /** Errors found so far, listed or not. */
  errorCount(): number {
    return this.errors.length + this.omitted;
  }

  add(row: number | null, key: MessageKey, params: MessageParams, column: HistoryError['column'] = null): void {
    if (this.errors.length >= this.maxErrors) this.omitted++;
    else this.errors.push({ row, key, params, message: translate(key, params, this.locale), column });
  }

  /** Hands the batch to the sink, once the previous one is written. */
  async flush(): Promise<void> {
    if (!this.options.sink || this.batch.length === 0) return;
    const rows = this.batch;
    this.batch = [];
    if (this.writing) await this.writing;
    const writing = this.options.sink.write(rows);
    this.writing = writing;
    writing.catch(() => {});
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** The validation of a file refused as a whole, with its one error. */
function fileFailure(reading: HistoryReading, key: MessageKey, params: MessageParams = {}): HistoryValidation {
  return {
    ok: false,
    errors: [{ row: null, key, params, message: translate(key, params, reading.locale), column: null }],
    errorCount: 1,
    dataRowCount: 0,
    rowCount: 0,
    periods: [],
    contiguous: false,
    format: reading.format,
  };
}

/** Validates the history file at `path` (see above). Never throws for a bad file; I/O errors propagate. */
export async function validateHistoryFile(path: string, lookup: HistoryLookup, options: HistoryValidateOptions = {}): Promise<HistoryValidation> {
  const reading = new HistoryReading(lookup, options);
  try {
    let refused: HistoryValidation | null;
    try {
      refused = await readHistoryRows(path, reading);
    } catch (error) {
      return sheetFailure(error, reading);
    }
    return refused ?? (await finishHistory(reading));
  } finally {
    if (reading.writing) await reading.writing;
  }
}

/** Reads the header and then every data row; the failure of a header that misses columns, or null. */
async function readHistoryRows(path: string, reading: HistoryReading): Promise<HistoryValidation | null> {
  const { locale, maxRows, options } = reading;
  const sheet = await openSheet(path, {
    limits: { maxRows: maxRows + 1, maxSheetBytes: 2 ** 31 - 1 },
    // The figures are the columns the header names Volume and Value.
    numericColumns: (first) => {
      const found = headerColumns(
        first.map((value) => ({ kind: 'string', value })),
        locale,
      );
      return [found.volume, found.value].filter((c): c is number => c !== undefined);
    },
  });
  // A JSON array of rows names no columns: its first row is refused as a header.
  reading.format = sheet.format === 'xlsx' ? 'xlsx' : 'csv';
  const date1904 = sheet.date1904;
  for await (const { row, cells } of sheet.rows()) {
    const header = reading.header;
    if (header === null) {
      if (cells.every((cell) => isBlank(cell))) continue;
      const found = headerColumns(cells, locale);
      const missing = HISTORY_COLUMNS.filter((c) => found[c] === undefined);
      if (missing.length) return fileFailure(reading, 'history.header', { missing: missing.map((c) => translate(HEADER_NAMES[c], {}, locale)).join(', ') });
      reading.header = {
        columns: found as Record<HistoryColumn, number>,
        names: cells.map((cell) => (cell.kind === 'string' ? cell.value.trim() : '')),
        date1904,
      };
      continue;
    }
    const { columns } = header;
    if (HISTORY_COLUMNS.every((c) => isBlank(cells[columns[c]]))) continue;
    reading.dataRowCount++;
    if (reading.dataRowCount > maxRows) throw new XlsxError('too_many_rows', `more than ${maxRows} data rows`);
    if (reading.dataRowCount % PROGRESS_ROWS === 0) {
      if (options.stop?.()) break;
      await options.onProgress?.(reading.dataRowCount);
    }
    readHistoryRow(reading, header, row, cells);
    if (options.sink && reading.batch.length >= options.sink.batchSize) await reading.flush();
  }
  return null;
}

/** Where an error is: the column's letter and header name, and the cell as read. */
function columnAt(reading: HistoryReading, header: HistoryHeader, cells: readonly Cell[], column: HistoryColumn): HistoryErrorColumn {
  return {
    letter: columnLetters(header.columns[column]),
    name: header.names[header.columns[column]] || translate(HEADER_NAMES[column], {}, reading.locale),
    cell: displayOf(cells[header.columns[column]], header.date1904),
  };
}

/** Checks a data row (every error collected) and, when it is valid, keeps its key, counts it and batches it for the sink. */
function readHistoryRow(reading: HistoryReading, header: HistoryHeader, row: number, cells: readonly Cell[]): void {
  const { columns } = header;
  const before = reading.errorCount();

  // Consecutive rows mostly repeat the market, month and company: each read once per change.
  const market = rowMarket(reading, cells[columns.market]);
  if (!market) reading.add(row, 'history.unknown_market', { row }, columnAt(reading, header, cells, 'market'));
  else if (!market.administered)
    reading.add(row, 'history.market_not_administered', { market: market.iso_code, row }, columnAt(reading, header, cells, 'market'));

  const month = rowMonth(reading, cells[columns.period], header.date1904);
  const existing = month && market ? market.periods.get(month) : undefined;
  if (!month) reading.add(row, 'history.invalid_period', { row }, columnAt(reading, header, cells, 'period'));
  else if (existing && !existing.whole_month)
    reading.add(row, 'history.period_dates', { market: market!.iso_code, period: month, row }, columnAt(reading, header, cells, 'period'));

  const company = rowCompany(reading, cells[columns.company]);
  if (company === 'ambiguous') reading.add(row, 'history.ambiguous_company', { row }, columnAt(reading, header, cells, 'company'));
  else if (!company) reading.add(row, 'history.unknown_company', { row }, columnAt(reading, header, cells, 'company'));
  else if (market && !company.marketIds.has(market.id))
    reading.add(row, 'history.company_not_in_market', { company: company.name, market: market.iso_code, row }, columnAt(reading, header, cells, 'company'));
  const theCompany = typeof company === 'object' ? company : undefined;

  const usable = usableCode(reading, header, row, cells, market, theCompany);
  const volume = rowFigure(reading, header, row, cells, usable, 'volume');
  const value = rowFigure(reading, header, row, cells, usable, 'value');
  if (reading.errorCount() > before || !market || !month || !theCompany || !usable) return;

  // A repeat of an earlier valid row is said of the later one, once the whole file is read.
  keepRowKey(reading, row, month, market.id, theCompany.id, usable.id);
  if (volume === null && value === null) return;
  reading.rowCount++;
  countInSummary(reading, market, month, existing, theCompany.id);
  if (reading.options.sink && reading.errorCount() === 0) {
    reading.batch.push({ row, market_id: market.id, period_start: `${month}-01`, company_id: theCompany.id, code_id: usable.id, volume, value });
  }
}

/** The row's market, looked up again only when its text changes. */
function rowMarket(reading: HistoryReading, marketCell: Cell | undefined): HistoryMarket | undefined {
  const { last } = reading;
  const marketText = marketCell?.kind === 'string' ? marketCell.value : '';
  if (marketText !== last.marketText) last.market = reading.lookup.marketsByIso.get(marketText.trim().toUpperCase());
  last.marketText = marketText;
  return last.market;
}

/** The row's month, read again only when its text changes (a date cell every time). */
function rowMonth(reading: HistoryReading, periodCell: Cell | undefined, date1904: boolean): string | null {
  const { last } = reading;
  const periodText = periodCell?.kind === 'string' ? periodCell.value : null;
  let month: string | null;
  if (periodText !== null && periodText === last.periodText) month = last.month ?? null;
  else {
    month = monthOf(periodCell, date1904);
    last.periodText = periodText;
    last.month = month;
  }
  return month;
}

/** The row's company, looked up again only when its text changes (a number every time). */
function rowCompany(reading: HistoryReading, companyCell: Cell | undefined): ReturnType<typeof companyOf> {
  const { last } = reading;
  const companyText = companyCell?.kind === 'string' ? companyCell.value : null;
  let company: ReturnType<typeof companyOf>;
  if (companyText !== null && companyText === last.companyText) company = last.company;
  else {
    company = companyOf(companyCell, reading.lookup);
    last.companyText = companyText;
    last.company = company;
  }
  return company;
}

/** The row's code when it exists, is available to the company in the market and is active; otherwise an error. */
function usableCode(
  reading: HistoryReading,
  header: HistoryHeader,
  row: number,
  cells: readonly Cell[],
  market: HistoryMarket | undefined,
  theCompany: HistoryCompany | undefined,
): HistoryCode | undefined {
  const codeText = codeOf(cells[header.columns.code]);
  const code = codeText ? reading.lookup.codesByCode.get(codeText) : undefined;
  let usable: HistoryCode | undefined;
  if (!code) reading.add(row, 'import.invalid_code', { row }, columnAt(reading, header, cells, 'code'));
  else if ((market && !market.codeIds.has(code.id)) || (theCompany && !theCompany.codeIds.has(code.id)))
    reading.add(row, 'history.code_not_available', { code: code.code, row }, columnAt(reading, header, cells, 'code'));
  else if (code.disabled_status === 30) reading.add(row, 'import.code_inactive', { code: code.code, row }, columnAt(reading, header, cells, 'code'));
  else usable = code;
  return usable;
}

/** The row's volume or value: empty (null), a number, or an error added (null). */
function rowFigure(
  reading: HistoryReading,
  header: HistoryHeader,
  row: number,
  cells: readonly Cell[],
  usable: HistoryCode | undefined,
  column: 'volume' | 'value',
): string | null {
  const cell = cells[header.columns[column]];
  const blank = isBlank(cell);
  if (usable?.disabled_status === (column === 'volume' ? 20 : 10) && !blank) {
    const where = columnAt(reading, header, cells, column);
    reading.add(
      row,
      column === 'volume' ? 'history.volume_must_be_empty' : 'history.value_must_be_empty',
      { column: where.letter, code: usable.code, row },
      where,
    );
    return null;
  }
  if (cell !== undefined && cell.kind === 'number' && isPlainNumber(cell.text)) return cell.text;
  const read = numberOf(cell);
  if (read.kind === 'invalid')
    reading.add(row, 'history.figure_invalid', { column: columnAt(reading, header, cells, column).letter, row }, columnAt(reading, header, cells, column));
  if (read.kind === 'formula')
    reading.add(
      row,
      'import.formula_without_value',
      { row, column: columnAt(reading, header, cells, column).letter },
      columnAt(reading, header, cells, column),
    );
  return read.kind === 'number' && fitsDecimal(read.value, FIGURE_LIMITS) ? read.value : null;
}

/** Keeps a valid row's (month, market, company, code), to find the repeats once the whole file is read. */
function keepRowKey(reading: HistoryReading, row: number, month: string, marketId: number, companyId: number, codeId: number): void {
  const monthIndex = (Number(month.slice(0, 4)) - 1900) * 12 + Number(month.slice(5)) - 1;
  if (reading.exactKeys) {
    const { radix } = reading;
    reading.keys.push(
      ((monthIndex * radix[0] + reading.marketIndex.get(marketId)!) * radix[1] + reading.companyIndex.get(companyId)!) * radix[2] +
        reading.codeIndex.get(codeId)!,
      row,
    );
  } else {
    const key = `${monthIndex}:${marketId}:${companyId}:${codeId}`;
    const first = reading.stringKeys.get(key);
    if (first === undefined) reading.stringKeys.set(key, row);
    else reading.repeatsByString.push([row, first]);
  }
}

/** Counts a row holding a figure in its market's and month's summary (made at the month's first row). */
function countInSummary(
  reading: HistoryReading,
  market: HistoryMarket,
  month: string,
  existing: { id: number; whole_month: boolean } | undefined,
  companyId: number,
): void {
  const { last } = reading;
  let summary = last.summary && last.summary.market_id === market.id && last.summary.period === month ? last.summary : undefined;
  const summaryKey = summary ? '' : `${market.id}:${month}`;
  summary ??= reading.summaries.get(summaryKey);
  if (!summary) {
    summary = {
      market_id: market.id,
      market: market.iso_code,
      period: month,
      period_id: existing?.id ?? null,
      rows: 0,
      company_ids: [],
      companies: new Set(),
    };
    reading.summaries.set(summaryKey, summary);
  }
  // A month's rows resumed after another's: the file is not in runs of months.
  if (summary !== last.summary && summary.rows > 0) reading.contiguous = false;
  last.summary = summary;
  summary.rows++;
  summary.companies.add(companyId);
}

/** The failure of a file the reader refused (an error of the reader's); any other error propagates. */
function sheetFailure(error: unknown, reading: HistoryReading): HistoryValidation {
  if (!isXlsxError(error)) throw error;
  switch (error.code) {
    case 'empty':
    case 'no_sheet':
      return fileFailure(reading, 'import.empty');
    case 'encrypted':
      return fileFailure(reading, 'import.password_protected');
    case 'too_large':
      return fileFailure(reading, 'import.too_large');
    case 'too_many_rows':
      return fileFailure(reading, 'import.too_many_rows', { max: reading.maxRows.toLocaleString('en-US') });
    case 'not_utf8':
      return fileFailure(reading, 'import.csv_not_utf8');
    case 'corrupt':
      if (error.row !== undefined) return fileFailure(reading, 'import.csv_open_quote', { row: error.row });
      return fileFailure(reading, 'import.corrupt');
    default:
      return fileFailure(reading, 'import.not_xlsx');
  }
}

/** Once the whole file is read: its repeated rows, then its errors in row order, or its periods. */
async function finishHistory(reading: HistoryReading): Promise<HistoryValidation> {
  const { errors, maxErrors, locale, format, dataRowCount, rowCount, contiguous } = reading;
  if (reading.header === null) return fileFailure(reading, 'import.empty');
  if (reading.options.stop?.()) return { ok: false, errors: [], errorCount: 0, dataRowCount, rowCount, periods: [], contiguous, format };
  const repeats = reading.exactKeys ? reading.keys.repeats() : reading.repeatsByString;
  for (const [row, first] of repeats) reading.add(row, 'history.duplicate_row', { row, first });
  if (rowCount === 0 && reading.errorCount() === 0) return fileFailure(reading, 'import.empty');
  const errorCount = reading.errorCount();
  if (errorCount > 0) {
    // Row order, whatever the rule that found it (repeats are found last).
    errors.sort((a, b) => (a.row ?? 0) - (b.row ?? 0));
    if (reading.omitted > 0) {
      const params = { count: errorCount.toLocaleString('en-US'), max: maxErrors.toLocaleString('en-US'), row: errors.at(-1)?.row ?? 0 };
      errors.push({ row: null, key: 'import.too_many_errors', params, message: translate('import.too_many_errors', params, locale), column: null });
    }
    return { ok: false, errors, errorCount, dataRowCount, rowCount, periods: [], contiguous, format };
  }
  await reading.flush();
  const periods = [...reading.summaries.values()]
    .map(({ companies, ...summary }) => ({ ...summary, company_ids: [...companies].sort((a, b) => a - b) }))
    .sort((a, b) => a.market.localeCompare(b.market) || a.period.localeCompare(b.period));
  return { ok: true, errors: [], errorCount: 0, dataRowCount, rowCount, periods, contiguous, format };
}
