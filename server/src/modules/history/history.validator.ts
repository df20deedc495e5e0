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

/** Validates the history file at `path` (see above). Never throws for a bad file; I/O errors propagate. */
export async function validateHistoryFile(path: string, lookup: HistoryLookup, options: HistoryValidateOptions = {}): Promise<HistoryValidation> {
  const { locale } = options;
  const maxErrors = options.maxErrors ?? IMPORT_MAX_ERRORS;
  const maxRows = options.maxRows ?? 10_000_000;
  const errors: HistoryError[] = [];
  let omitted = 0;
  const add = (row: number | null, key: MessageKey, params: MessageParams, column: HistoryError['column'] = null) => {
    if (errors.length >= maxErrors) omitted++;
    else errors.push({ row, key, params, message: translate(key, params, locale), column });
  };
  const fail = (key: MessageKey, params: MessageParams = {}): HistoryValidation => ({
    ok: false,
    errors: [{ row: null, key, params, message: translate(key, params, locale), column: null }],
    errorCount: 1,
    dataRowCount: 0,
    rowCount: 0,
    periods: [],
    contiguous: false,
    format: 'csv',
  });

  let columns: Record<HistoryColumn, number> | null = null;
  let names: string[] = [];
  let format: 'xlsx' | 'csv' = 'xlsx';
  let dataRowCount = 0;
  let rowCount = 0;
  let contiguous = true;
  const keys = new RowKeys();
  const summaries = new Map<string, HistoryPeriodSummary & { companies: Set<number> }>();
  // Mixed radix for the row keys: months since 1900, then markets, companies and codes by index.
  const marketIndex = new Map([...lookup.marketsByIso.values()].map((m, i) => [m.id, i]));
  const companyIndex = new Map([...lookup.companiesById.values()].map((c, i) => [c.id, i]));
  const codeIndex = new Map([...lookup.codesByCode.values()].map((c, i) => [c.id, i]));
  const radix = [marketIndex.size + 1, companyIndex.size + 1, codeIndex.size + 1];
  const exactKeys = 12 * 200 * radix[0]! * radix[1]! * radix[2]! < Number.MAX_SAFE_INTEGER;
  const stringKeys = new Map<string, number>();
  const repeatsByString: [number, number][] = [];
  const last: {
    marketText?: string;
    market?: HistoryMarket;
    periodText?: string | null;
    month?: string | null;
    companyText?: string | null;
    company?: ReturnType<typeof companyOf>;
    summary?: HistoryPeriodSummary & { companies: Set<number> };
  } = {};
  let batch: HistoryRow[] = [];
  let writing: Promise<void> | null = null;
  const flush = async () => {
    if (!options.sink || batch.length === 0) return;
    const rows = batch;
    batch = [];
    if (writing) await writing;
    writing = options.sink.write(rows);
    writing.catch(() => {});
    await new Promise((resolve) => setImmediate(resolve));
  };

  try {
    let sheet;
    try {
      sheet = await openSheet(path, {
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
      format = sheet.format === 'xlsx' ? 'xlsx' : 'csv';
      const date1904 = sheet.date1904;
      for await (const { row, cells } of sheet.rows()) {
        if (columns === null) {
          if (cells.every((cell) => isBlank(cell))) continue;
          const found = headerColumns(cells, locale);
          const missing = HISTORY_COLUMNS.filter((c) => found[c] === undefined);
          if (missing.length) return { ...fail('history.header', { missing: missing.map((c) => translate(HEADER_NAMES[c], {}, locale)).join(', ') }), format };
          columns = found as Record<HistoryColumn, number>;
          names = cells.map((cell) => (cell.kind === 'string' ? cell.value.trim() : ''));
          continue;
        }
        if (HISTORY_COLUMNS.every((c) => isBlank(cells[columns![c]]))) continue;
        dataRowCount++;
        if (dataRowCount > maxRows) throw new XlsxError('too_many_rows', `more than ${maxRows} data rows`);
        if (dataRowCount % PROGRESS_ROWS === 0) {
          if (options.stop?.()) break;
          await options.onProgress?.(dataRowCount);
        }
        const at = (column: HistoryColumn): HistoryError['column'] => ({
          letter: columnLetters(columns![column]),
          name: names[columns![column]] || translate(HEADER_NAMES[column], {}, locale),
          cell: displayOf(cells[columns![column]], date1904),
        });
        const before = errors.length + omitted;

        // Consecutive rows mostly repeat the market, month and company: each read once per change.
        const marketCell = cells[columns.market];
        const marketText = marketCell?.kind === 'string' ? marketCell.value : '';
        if (marketText !== last.marketText) last.market = lookup.marketsByIso.get(marketText.trim().toUpperCase());
        last.marketText = marketText;
        const market = last.market;
        if (!market) add(row, 'history.unknown_market', { row }, at('market'));
        else if (!market.administered) add(row, 'history.market_not_administered', { market: market.iso_code, row }, at('market'));

        const periodCell = cells[columns.period];
        const periodText = periodCell?.kind === 'string' ? periodCell.value : null;
        let month: string | null;
        if (periodText !== null && periodText === last.periodText) month = last.month ?? null;
        else {
          month = monthOf(periodCell, date1904);
          last.periodText = periodText;
          last.month = month;
        }
        const existing = month && market ? market.periods.get(month) : undefined;
        if (!month) add(row, 'history.invalid_period', { row }, at('period'));
        else if (existing && !existing.whole_month) add(row, 'history.period_dates', { market: market!.iso_code, period: month, row }, at('period'));

        const companyCell = cells[columns.company];
        const companyText = companyCell?.kind === 'string' ? companyCell.value : null;
        let company: ReturnType<typeof companyOf>;
        if (companyText !== null && companyText === last.companyText) company = last.company;
        else {
          company = companyOf(companyCell, lookup);
          last.companyText = companyText;
          last.company = company;
        }
        if (company === 'ambiguous') add(row, 'history.ambiguous_company', { row }, at('company'));
        else if (!company) add(row, 'history.unknown_company', { row }, at('company'));
        else if (market && !company.marketIds.has(market.id))
          add(row, 'history.company_not_in_market', { company: company.name, market: market.iso_code, row }, at('company'));
        const theCompany = typeof company === 'object' ? company : undefined;

        const codeText = codeOf(cells[columns.code]);
        const code = codeText ? lookup.codesByCode.get(codeText) : undefined;
        let usable: HistoryCode | undefined;
        if (!code) add(row, 'import.invalid_code', { row }, at('code'));
        else if ((market && !market.codeIds.has(code.id)) || (theCompany && !theCompany.codeIds.has(code.id)))
          add(row, 'history.code_not_available', { code: code.code, row }, at('code'));
        else if (code.disabled_status === 30) add(row, 'import.code_inactive', { code: code.code, row }, at('code'));
        else usable = code;

        const figure = (column: 'volume' | 'value'): string | null => {
          const cell = cells[columns![column]];
          const blank = isBlank(cell);
          if (usable?.disabled_status === (column === 'volume' ? 20 : 10) && !blank) {
            const where = at(column)!;
            add(
              row,
              column === 'volume' ? 'history.volume_must_be_empty' : 'history.value_must_be_empty',
              { column: where.letter, code: usable.code, row },
              where,
            );
            return null;
          }
          if (cell !== undefined && cell.kind === 'number' && isPlainNumber(cell.text)) return cell.text;
          const read = numberOf(cell);
          if (read.kind === 'invalid') add(row, 'history.figure_invalid', { column: at(column)!.letter, row }, at(column));
          if (read.kind === 'formula') add(row, 'import.formula_without_value', { row, column: at(column)!.letter }, at(column));
          return read.kind === 'number' && fitsDecimal(read.value, FIGURE_LIMITS) ? read.value : null;
        };
        const volume = figure('volume');
        const value = figure('value');
        if (errors.length + omitted > before || !market || !month || !theCompany || !usable) continue;

        // A repeat of an earlier valid row is said of the later one, once the whole file is read.
        const monthIndex = (Number(month.slice(0, 4)) - 1900) * 12 + Number(month.slice(5)) - 1;
        if (exactKeys) {
          keys.push(
            ((monthIndex * radix[0]! + marketIndex.get(market.id)!) * radix[1]! + companyIndex.get(theCompany.id)!) * radix[2]! + codeIndex.get(usable.id)!,
            row,
          );
        } else {
          const key = `${monthIndex}:${market.id}:${theCompany.id}:${usable.id}`;
          const first = stringKeys.get(key);
          if (first === undefined) stringKeys.set(key, row);
          else repeatsByString.push([row, first]);
        }
        if (volume === null && value === null) continue;
        rowCount++;
        let summary = last.summary && last.summary.market_id === market.id && last.summary.period === month ? last.summary : undefined;
        const summaryKey = summary ? '' : `${market.id}:${month}`;
        summary ??= summaries.get(summaryKey);
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
          summaries.set(summaryKey, summary);
        }
        // A month's rows resumed after another's: the file is not in runs of months.
        if (summary !== last.summary && summary.rows > 0) contiguous = false;
        last.summary = summary;
        summary.rows++;
        summary.companies.add(theCompany.id);
        if (options.sink && errors.length + omitted === 0) {
          batch.push({ row, market_id: market.id, period_start: `${month}-01`, company_id: theCompany.id, code_id: usable.id, volume, value });
          if (batch.length >= options.sink.batchSize) await flush();
        }
      }
    } catch (error) {
      if (!isXlsxError(error)) throw error;
      switch (error.code) {
        case 'empty':
        case 'no_sheet':
          return { ...fail('import.empty'), format };
        case 'encrypted':
          return { ...fail('import.password_protected'), format };
        case 'too_large':
          return { ...fail('import.too_large'), format };
        case 'too_many_rows':
          return { ...fail('import.too_many_rows', { max: maxRows.toLocaleString('en-US') }), format };
        case 'not_utf8':
          return { ...fail('import.csv_not_utf8'), format };
        case 'corrupt':
          if (error.row !== undefined) return { ...fail('import.csv_open_quote', { row: error.row }), format };
          return { ...fail('import.corrupt'), format };
        default:
          return { ...fail('import.not_xlsx'), format };
      }
    }
    if (columns === null) return { ...fail('import.empty'), format };
    if (options.stop?.()) return { ok: false, errors: [], errorCount: 0, dataRowCount, rowCount, periods: [], contiguous, format };
    const repeats = exactKeys ? keys.repeats() : repeatsByString;
    for (const [row, first] of repeats) add(row, 'history.duplicate_row', { row, first });
    if (rowCount === 0 && errors.length + omitted === 0) return { ...fail('import.empty'), format };
    const errorCount = errors.length + omitted;
    if (errorCount > 0) {
      // Row order, whatever the rule that found it (repeats are found last).
      errors.sort((a, b) => (a.row ?? 0) - (b.row ?? 0));
      if (omitted > 0) {
        const params = { count: errorCount.toLocaleString('en-US'), max: maxErrors.toLocaleString('en-US'), row: errors.at(-1)?.row ?? 0 };
        errors.push({ row: null, key: 'import.too_many_errors', params, message: translate('import.too_many_errors', params, locale), column: null });
      }
      return { ok: false, errors, errorCount, dataRowCount, rowCount, periods: [], contiguous, format };
    }
    await flush();
    const periods = [...summaries.values()]
      .map(({ companies, ...summary }) => ({ ...summary, company_ids: [...companies].sort((a, b) => a - b) }))
      .sort((a, b) => a.market.localeCompare(b.market) || a.period.localeCompare(b.period));
    return { ok: true, errors: [], errorCount: 0, dataRowCount, rowCount, periods, contiguous, format };
  } finally {
    if (writing) await writing;
  }
}
