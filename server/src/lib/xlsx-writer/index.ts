/**
 * Small streaming .xlsx writer (one worksheet, inline strings and numbers, a
 * bold header row, column widths) on yazl. Memory stays flat for any number
 * of rows: the worksheet XML is generated as the zip is consumed.
 *
 * ```ts
 * import { writeXlsx, xlsxReadable } from '../lib/xlsx-writer/index.ts';
 *
 * await writeXlsx('/tmp/out.xlsx', rows(), { header: ['Code', 'Volume'], columnWidths: [14, 12] });
 * reply.type(XLSX_CONTENT_TYPE).send(xlsxReadable(rows(), { sheetName: 'Errors' }));
 * ```
 */
export {
  XLSX_CONTENT_TYPE,
  rowXml,
  writeXlsx,
  xlsxReadable,
  type XlsxCellInput,
  type XlsxDecimalCell,
  type XlsxRowsInput,
  type XlsxWriteOptions,
} from './writer.ts';
export { MAX_CELL_CHARS, cellText, columnName, escapeXmlAttribute, escapeXmlText, safeSheetName, stripInvalidXmlChars } from './xml.ts';
