/**
 * Typed failures of the xlsx reader. Every error the reader throws for a bad
 * upload is an XlsxError; anything else is a bug (or an I/O error on the temp
 * file) and should be treated as a 500.
 */
export type XlsxErrorCode =
  /** Not a zip at all (CSV, random bytes, legacy .xls), or a zip that holds no workbook. */
  | 'not_xlsx'
  /** No bytes at all. */
  | 'empty'
  /** A password-protected workbook (an OLE container holding an EncryptedPackage). */
  | 'encrypted'
  /** A damaged zip archive: unreadable directory, CRC or size mismatch, a stream that does not inflate, encrypted or duplicate entries. */
  | 'broken_zip'
  /** A size cap was hit: too many zip entries, a part too big (declared or actually inflated), a suspicious compression ratio, an oversized token. */
  | 'too_large'
  /** More non-empty rows than `maxRows`. */
  | 'too_many_rows'
  /** Broken or hostile XML (DOCTYPE), dangling references, values that do not parse. */
  | 'corrupt'
  /** A workbook without any worksheet. */
  | 'no_sheet'
  /** A text (CSV) file whose bytes are not UTF-8. */
  | 'not_utf8';

export class XlsxError extends Error {
  readonly code: XlsxErrorCode;
  /** The row the failure is in, where the reader knows it (a CSV quote left open). */
  readonly row: number | undefined;

  constructor(code: XlsxErrorCode, message: string, options?: { cause?: unknown; row?: number }) {
    super(message, options);
    this.name = 'XlsxError';
    this.code = code;
    this.row = options?.row;
  }
}

export function isXlsxError(error: unknown): error is XlsxError {
  return error instanceof XlsxError;
}
