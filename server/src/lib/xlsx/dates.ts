/**
 * Number formats: just enough to tell a date/time-formatted number from a
 * plain one.
 */

/**
 * Built-in number format ids that are dates or times: 14-22 and 45-47 in
 * every locale, 27-36 and 50-58 in the East Asian locales that define them.
 */
export function isBuiltinDateFormatId(id: number): boolean {
  return (id >= 14 && id <= 22) || (id >= 27 && id <= 36) || (id >= 45 && id <= 47) || (id >= 50 && id <= 58);
}

/**
 * A custom format code is a date/time format when, once literal text is
 * removed ("quoted", \escaped, _ padding, * fill, [colour]/[$-locale]/[>cond]
 * brackets), a date or time letter (d m y h s) is left, or it has an
 * elapsed-time bracket like [h]:mm. "General", "0.00E+00", "#,##0 \"kg\"" are not
 * dates.
 */
export function isDateFormatCode(code: string): boolean {
  let s = code
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/[_*]./g, '');
  if (/\[(?:h+|m+|s+)\]/i.test(s)) return true;
  s = s.replace(/\[[^\]]*\]/g, '');
  return /[dmyhs]/i.test(s);
}

const MS_PER_DAY = 86_400_000;
/** Serial 0 of the 1900 system is 1899-12-30 (Excel's 1900 leap-year bug makes serials from 61 on line up with this epoch). */
const EPOCH_1900 = Date.UTC(1899, 11, 30);
const EPOCH_1904 = Date.UTC(1904, 0, 1);

/**
 * Converts an Excel serial to a Date at that wall-clock time in UTC (Excel
 * dates have no time zone: read the UTC fields). Serials below 61 in the 1900
 * system are off by one day in Excel itself (it believes 1900 was a leap year).
 */
export function excelSerialToDate(serial: number, date1904 = false): Date {
  // Round to the millisecond: serials are binary fractions of a day.
  return new Date((date1904 ? EPOCH_1904 : EPOCH_1900) + Math.round(serial * MS_PER_DAY));
}

/** Inverse of `excelSerialToDate` for a UTC timestamp. */
export function dateToExcelSerial(date: Date, date1904 = false): number {
  return (date.getTime() - (date1904 ? EPOCH_1904 : EPOCH_1900)) / MS_PER_DAY;
}

/** Serial of an ISO 8601 value from a t="d" cell; a value without a zone is read as UTC wall-clock time. Undefined when unparsable. */
export function isoToExcelSerial(iso: string, date1904: boolean): number | undefined {
  const text = iso.trim();
  const hasZone = /(?:Z|[+-]\d\d:?\d\d)$/i.test(text);
  const dateOnly = /^\d{4}-\d\d-\d\d$/.test(text);
  const ms = Date.parse(hasZone || dateOnly ? text : `${text}Z`);
  if (!Number.isFinite(ms)) return undefined;
  return dateToExcelSerial(new Date(ms), date1904);
}
