/** Text helpers for writing SpreadsheetML. */

/**
 * Characters XML 1.0 does not allow anywhere (C0 controls other than tab, LF
 * and CR, U+FFFE, U+FFFF and unpaired surrogates). With the `u` flag a lone
 * surrogate is one code point outside every allowed range, so it goes too.
 */
const INVALID_XML_CHARS = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Removes the characters XML 1.0 cannot carry (they cannot be escaped either). */
export function stripInvalidXmlChars(text: string): string {
  return text.replace(INVALID_XML_CHARS, '');
}

/** Escapes text content (`&`, `<`, `>`); strips characters XML cannot carry. */
export function escapeXmlText(text: string): string {
  return stripInvalidXmlChars(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Escapes an attribute value written between double quotes. */
export function escapeXmlAttribute(text: string): string {
  return escapeXmlText(text).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');
}

/** Excel's limit on the characters of one cell. */
export const MAX_CELL_CHARS = 32_767;

/**
 * The content of a `<t>` element for a cell holding `text`: invalid characters
 * stripped, cut to Excel's 32,767 characters (never in the middle of a
 * surrogate pair), literal `_xHHHH_` sequences protected (Excel would decode
 * them as escapes, so the underscore is written as `_x005F_`), then escaped.
 */
export function cellText(text: string): string {
  let clean = stripInvalidXmlChars(text);
  if (clean.length > MAX_CELL_CHARS) {
    clean = clean.slice(0, MAX_CELL_CHARS);
    const last = clean.charCodeAt(clean.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) clean = clean.slice(0, -1);
  }
  return escapeXmlText(clean.replace(/_(x[0-9A-Fa-f]{4}_)/g, '_x005F_$1'));
}

/** Column letters for a 0-based column index: 0 → "A", 25 → "Z", 26 → "AA". */
export function columnName(index: number): string {
  let name = '';
  let n = index + 1;
  while (n > 0) {
    const rem = (n - 1) % 26;
    name = String.fromCharCode(65 + rem) + name;
    n = Math.floor((n - 1) / 26);
  }
  return name;
}

/**
 * A worksheet name Excel accepts: 1-31 characters, none of `[ ] : * ? / \`,
 * not starting or ending with an apostrophe. Falls back to "Sheet1".
 */
export function safeSheetName(name: string | undefined): string {
  const replaced = stripInvalidXmlChars(name ?? '')
    .replace(/[[\]:*?/\\]/g, '_')
    .replace(/[\r\n\t]/g, ' ');
  // slice() may cut a surrogate pair: the second strip drops the half.
  const cleaned = stripInvalidXmlChars(replaced.trim().slice(0, 31))
    .replace(/^'+|'+$/g, '')
    .trim();
  return cleaned === '' ? 'Sheet1' : cleaned;
}
