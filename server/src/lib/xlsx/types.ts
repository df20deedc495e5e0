/**
 * What one cell holds. `kind` is always explicit; consumers switch on it.
 *
 * - `number`: a numeric cell without a date format.
 * - `date`: a numeric cell whose number format is a date/time format; `value`
 *   is the raw Excel serial (days since 1899-12-30, or since 1904-01-01 when
 *   the workbook uses the 1904 system; see `excelSerialToDate`). Cells typed
 *   t="d" (ISO 8601 text, written by some tools) are converted to a serial too.
 * - `string`: shared string (t="s"), inline string (t="inlineStr"), or the
 *   string result of a formula (t="str"). Rich-text runs are concatenated,
 *   phonetic runs dropped, `_xHHHH_` escapes decoded.
 * - `boolean`, `error` (`value` is the code as written, e.g. "#DIV/0!").
 * - `empty`: a cell element without a value (styled but blank), also used to
 *   fill gaps between non-empty cells of a row.
 * - `formula-without-value`: a formula whose cached result is missing (files
 *   written by tools that do not compute formulas).
 *
 * `formula: true` marks a value that is a formula's cached result.
 */
export type CellValue =
  /** `text`: the number as the file writes it, for exact decimals (`value` is its double). */
  /**
   * `exact`: `text` is the figure exactly (a CSV field, not a binary double: no rounding to a
   * spreadsheet's 15 digits); `raw`: the field as written ("1.234,5"), for messages.
   */
  | { readonly kind: 'number'; readonly value: number; readonly text: string; readonly exact?: true; readonly raw?: string }
  | { readonly kind: 'date'; readonly value: number }
  | { readonly kind: 'string'; readonly value: string }
  | { readonly kind: 'boolean'; readonly value: boolean }
  | { readonly kind: 'error'; readonly value: string }
  | { readonly kind: 'empty' }
  | { readonly kind: 'formula-without-value' };

export type Cell = CellValue & { readonly formula?: true };

export type CellKind = CellValue['kind'];

export interface XlsxRow {
  /** 1-based spreadsheet row number (from the row's r attribute, or counted when it is missing). */
  readonly row: number;
  /**
   * Cells by column index (A = 0). Gaps are `{ kind: 'empty' }`; the array
   * ends at the last non-empty cell, so `cells[2]` may be undefined when
   * column C is blank.
   */
  readonly cells: Cell[];
}
