import { open } from 'node:fs/promises';
import { type CsvReadOptions, isSpreadsheetContainer, openCsv } from './csv/reader.ts';
import { isJsonArray, readJsonRows } from './json-rows.ts';
import { DEFAULT_XLSX_LIMITS, type XlsxLimits, openXlsx, XlsxError } from './xlsx/index.ts';
import type { XlsxRow } from './xlsx/types.ts';

/**
 * An uploaded sheet, xlsx or CSV, judged by its content (never its name): a zip or an OLE
 * container goes to the xlsx reader (which tells an .xls, a damaged or a password-protected file
 * apart), a JSON array to the JSON rows reader (the rows `PUT /reports/{uuid}/rows` takes,
 * `json-rows.ts`), anything else is read as CSV text (which refuses bytes that are not text).
 */
export type SheetFormat = 'xlsx' | 'csv' | 'json';

export interface Sheet {
  readonly format: SheetFormat;
  /** The workbook's date system (a CSV has none: false). */
  readonly date1904: boolean;
  /** A CSV's separator and decimal sign as detected; null for an xlsx. */
  readonly csv: { readonly separator: ',' | ';'; readonly decimal: ',' | '.' } | null;
  /** Whether the first row may be a header (not in JSON rows: every element is a row). */
  readonly mayHaveHeader: boolean;
  rows(): AsyncIterableIterator<XlsxRow, undefined>;
  close(): void;
}

export interface SheetOptions {
  limits?: Partial<XlsxLimits>;
  /** The columns a CSV holds figures in (see `CsvReadOptions`). */
  numericColumns?: CsvReadOptions['numericColumns'];
}

/** The file's format, from its first bytes. */
export async function sheetFormatOf(path: string): Promise<SheetFormat> {
  const handle = await open(path, 'r');
  try {
    const head = new Uint8Array(64);
    const { bytesRead } = await handle.read(head, 0, 64, 0);
    // An empty file goes to the xlsx reader, which says it is empty.
    if (bytesRead === 0 || isSpreadsheetContainer(head)) return 'xlsx';
    return isJsonArray(head.subarray(0, bytesRead)) ? 'json' : 'csv';
  } finally {
    await handle.close();
  }
}

/** Opens an uploaded sheet; throws `XlsxError` as the xlsx reader does, for either format. */
export async function openSheet(path: string, options: SheetOptions = {}): Promise<Sheet> {
  const format = await sheetFormatOf(path);
  if (format === 'xlsx') {
    const workbook = await openXlsx(path, { limits: options.limits });
    return { format, date1904: workbook.date1904, csv: null, mayHaveHeader: true, rows: () => workbook.rows(), close: () => workbook.close() };
  }
  if (format === 'json') {
    const rows = await readJsonRows(path, options.limits?.maxSheetBytes ?? DEFAULT_XLSX_LIMITS.maxSheetBytes);
    const maxRows = options.limits?.maxRows ?? DEFAULT_XLSX_LIMITS.maxRows;
    if (rows.length > maxRows) throw new XlsxError('too_many_rows', `More than ${maxRows} rows`);
    return {
      format,
      date1904: false,
      csv: null,
      mayHaveHeader: false,
      rows: async function* () {
        yield* rows;
        return undefined;
      },
      close: () => {},
    };
  }
  const csv = await openCsv(path, {
    // The bytes a worksheet's XML may have: a CSV of the same rows is smaller.
    maxBytes: options.limits?.maxSheetBytes ?? DEFAULT_XLSX_LIMITS.maxSheetBytes,
    maxRows: options.limits?.maxRows ?? DEFAULT_XLSX_LIMITS.maxRows,
    numericColumns: options.numericColumns,
  });
  return {
    format: 'csv',
    date1904: false,
    csv: { separator: csv.separator, decimal: csv.decimal },
    mayHaveHeader: true,
    rows: () => csv.rows(),
    close: () => csv.close(),
  };
}
