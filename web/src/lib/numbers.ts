import { i18n } from '../i18n/index.ts';

/**
 * An exact decimal of the API ("1234.5678", "-0.3000") as the user's language writes it: grouping
 * and decimal sign of the locale, every stored decimal kept, trailing zeros dropped. The string is
 * formatted as the decimal it is (ECMA-402 formats a numeric string exactly): it never passes
 * through a JavaScript number (DESIGN §8 "Numbers"). Empty for null.
 */
export function formatDecimal(value: string | null | undefined, locale: string = i18n.language || 'en-US'): string {
  if (value === null || value === undefined || value === '') return '';
  return formatterFor(locale).format(value as Intl.StringNumericLiteral);
}

const formatters = new Map<string, Intl.NumberFormat>();
function formatterFor(locale: string): Intl.NumberFormat {
  let formatter = formatters.get(locale);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, { minimumFractionDigits: 0, maximumFractionDigits: 20 });
    formatters.set(locale, formatter);
  }
  return formatter;
}

/**
 * A percentage of the API ("12.3", "-92.0": already rounded half-up to one decimal by the server)
 * with its sign and one decimal, by the locale: "+12.3 %", "−92.0 %", "0.0 %". Empty for null.
 * Exact, as formatDecimal: the string is never a JavaScript number.
 */
export function formatPercent(value: string | null | undefined, options: { signed?: boolean } = {}, locale: string = i18n.language || 'en-US'): string {
  if (value === null || value === undefined || value === '') return '';
  const key = `${locale}|${options.signed ? 'signed' : 'plain'}`;
  let formatter = percentFormatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1, signDisplay: options.signed ? 'exceptZero' : 'auto' });
    percentFormatters.set(key, formatter);
  }
  return `${formatter.format(value as Intl.StringNumericLiteral)}\u00a0%`;
}
const percentFormatters = new Map<string, Intl.NumberFormat>();

/** The sign of a decimal string: -1, 0 or 1 (no JavaScript number in between). */
export function decimalSign(value: string | null | undefined): -1 | 0 | 1 {
  if (!value) return 0;
  if (/^-?0*(\.0*)?$/.test(value)) return 0;
  return value.startsWith('-') ? -1 : 1;
}

export { compareDecimals } from '@mss/contracts/decimal';
