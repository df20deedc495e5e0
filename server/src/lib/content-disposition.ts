/*
 * The Content-Disposition of a download (RFC 6266), for any file name a member may have: the name
 * itself in `filename*` (RFC 8187/5987: UTF-8, percent-encoded), and in `filename` an ASCII
 * fallback for clients that do not read `filename*` (letters with accents lose them, other
 * characters become "_"). Control characters, slashes and backslashes never reach either: a
 * browser would refuse the header, or save the file somewhere else than asked.
 */

/** Letters that Unicode does not decompose into an ASCII letter and a mark. */
const LATIN: Record<string, string> = { Ł: 'L', ł: 'l', Ø: 'O', ø: 'o', Đ: 'D', đ: 'd', ß: 'ss', Æ: 'AE', æ: 'ae', Œ: 'OE', œ: 'oe', Þ: 'Th', þ: 'th', ı: 'i' };
const MAX_CHARACTERS = 150;

/** The name as it may be offered: no control, format or separator characters, at most 150 characters. */
export function downloadName(name: string, fallback = 'download'): string {
  const clean = name
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}/\\]/gu, '_')
    .replace(/\s+/g, ' ')
    .trim();
  const characters = Array.from(clean);
  return (characters.length > MAX_CHARACTERS ? characters.slice(0, MAX_CHARACTERS).join('') : clean) || fallback;
}

/** `filename` for clients without `filename*`: printable ASCII, no quotes, backslashes or percent signs. */
export function asciiName(name: string): string {
  return name
    .replace(/[ŁłØøĐđßÆæŒœÞþı]/g, (c) => LATIN[c]!)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7e]|["\\%]/g, '_');
}

/** RFC 8187's value-chars: what encodeURIComponent leaves alone, less ' ( ) *. */
const encodeValue = (text: string) => encodeURIComponent(text).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export function contentDisposition(name: string, fallback = 'download'): string {
  const safe = downloadName(name, fallback);
  return `attachment; filename="${asciiName(safe)}"; filename*=UTF-8''${encodeValue(safe)}`;
}
