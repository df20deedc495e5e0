import { normalizeDecimal } from './decimal.ts';

/**
 * Parses a number as people type it into a text cell. Rules:
 *
 * 1. Surrounding whitespace is ignored (including U+00A0 and U+202F). An empty
 *    string is not a number.
 * 2. One optional leading minus sign, "-" or "−" (U+2212, used by some locales),
 *    directly before the first digit. No "+", no trailing sign, no brackets.
 * 3. Otherwise only digits, "," "." and the thousands spaces are allowed: any
 *    letter, currency symbol, percent sign or exponent makes it not a number.
 * 4. Thousands separators:
 *    - a space, U+00A0 (no-break space) or U+202F (narrow no-break space),
 *      between groups of exactly three digits ("1 234 567", "12 345,6");
 *    - a comma, only when a dot decimal separator follows ("1,234.56",
 *      "1,234,567.0").
 *    Groups must be well formed: 1-3 leading digits, then groups of 3.
 * 5. Decimal separator: a single "," or "." with at least one digit on each
 *    side ("12,5", "12.5", "0,125"). Two decimal-looking separators ("1.2.3",
 *    "1,2,3") are rejected, and so is "1.234,56" (dot thousands with comma
 *    decimals is not accepted: with both signs present, comma must be the
 *    thousands separator).
 * 6. Ambiguous text is refused rather than guessed: one to three digits (not a
 *    lone "0"), a single "," or "." and exactly three digits ("1,234", "12.500")
 *    read as a thousand-something in one locale and as a decimal in another, a
 *    factor of 1000 apart. "0,125", "1234,567" and "1,23" are unambiguous decimals.
 *
 * Returns the number as an exact canonical decimal string ("1 234,5" → "1234.5"; never through a
 * JavaScript number), or null when the text is not a number under these rules.
 */
export function parseHumanNumber(text: string): string | null {
  if (text.length > 100) return null;
  let s = text.trim();
  let negative = false;
  if (s.startsWith('-') || s.startsWith('\u2212')) {
    negative = true;
    s = s.slice(1);
  }
  let normalized: string | undefined;
  let match = SPACED_OR_PLAIN.exec(s);
  if (match) {
    const [, digits = '', decimals] = match; // group 1 is not optional: the default is never used
    if (decimals?.length === 3 && /^\d{1,3}$/.test(digits) && digits !== '0') return null;
    normalized = digits.replace(SPACES, '') + (decimals === undefined ? '' : `.${decimals}`);
  } else if ((match = COMMA_GROUPED.exec(s))) {
    const [, digits = '', decimals = ''] = match; // neither group is optional: the defaults are never used
    normalized = `${digits.replace(/,/g, '')}.${decimals}`;
  }
  if (normalized === undefined) return null;
  return normalizeDecimal(negative ? `-${normalized}` : normalized); // no "-0"
}

const SPACE_CLASS = '[ \\u00A0\\u202F]';
const SPACES = new RegExp(SPACE_CLASS, 'g');
/** "1234", "1 234", "1234,5", "1 234.56". */
const SPACED_OR_PLAIN = new RegExp(`^(\\d+|\\d{1,3}(?:${SPACE_CLASS}\\d{3})+)(?:[.,](\\d+))?$`);
/** "1,234.56", "12,345,678.9". */
const COMMA_GROUPED = /^(\d{1,3}(?:,\d{3})+)\.(\d+)$/;
