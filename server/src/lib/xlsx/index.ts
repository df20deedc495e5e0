/**
 * Streaming, size-capped reader for untrusted .xlsx uploads. See reader.ts for
 * the flow, limits.ts for the caps and types.ts for the cell model.
 *
 * ```ts
 * import { readXlsxRows, withXlsxSlot, XlsxError } from '../lib/xlsx/index.ts';
 *
 * await withXlsxSlot(async () => {
 *   for await (const { row, cells } of readXlsxRows(tmpPath, { limits: { maxRows: 200_000 } })) {
 *     const [code, volume, value] = cells; // A, B, C (may be undefined when blank)
 *     if (volume?.kind === 'number') ...
 *   }
 * }); // throws XlsxError with code not_xlsx | empty | encrypted | broken_zip | too_large | too_many_rows | corrupt | no_sheet
 * ```
 */
export { XlsxError, isXlsxError, type XlsxErrorCode } from './errors.ts';
export { DEFAULT_XLSX_LIMITS, type XlsxLimits } from './limits.ts';
export { openXlsx, readXlsxRows, type XlsxReadOptions, type XlsxWorkbook } from './reader.ts';
export type { Cell, CellKind, CellValue, XlsxRow } from './types.ts';
export { excelSerialToDate, dateToExcelSerial, isDateFormatCode } from './dates.ts';
export { parseHumanNumber } from '@mss/contracts/human-number';
export { XLSX_MAX_CONCURRENT_READS, createSlotLimiter, withXlsxSlot, type SlotLimiter } from './slot.ts';
export { columnLetters, cellReference } from './refs.ts';
export { markXlsx, type CellMark, type MarkOptions } from './mark.ts';
