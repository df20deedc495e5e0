/**
 * CSV as spreadsheets read it: UTF-8 with a byte-order mark (so that Excel and LibreOffice read
 * "Skåne" as it is), RFC 4180 quoting (a field holding the separator, a quote or a line break is
 * quoted, a quote doubled), CRLF after every record.
 */
export type CsvSeparator = ',' | ';';

/** One field, quoted when it must be. */
export function csvField(value: unknown, separator: CsvSeparator = ','): string {
  const text = value === null || value === undefined ? '' : String(value);
  const needsQuotes = text.includes(separator) || text.includes('"') || text.includes('\r') || text.includes('\n');
  return needsQuotes ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * A text that a spreadsheet would run as a formula ("=…", "+…", "-…", "@…", or a tab or carriage
 * return first) gets an apostrophe in front, which a person reads past and a spreadsheet shows as
 * text (docs/user-guide.md says so).
 */
export const csvText = (value: unknown) => (typeof value === 'string' && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

/** Records as a whole file: the byte-order mark, then each record and CRLF. */
export function csvDocument(records: Iterable<readonly unknown[]>, separator: CsvSeparator = ','): string {
  let out = '\uFEFF';
  for (const record of records) out += `${record.map((field) => csvField(field, separator)).join(separator)}\r\n`;
  return out;
}
