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

const changeFormatters = new Map<string, Intl.NumberFormat>();

/**
 * A change in percent of the API ("-92.0", "12.5", one decimal, rounded by the server) as a
 * signed figure in the user's language: "+12.5 %", "−92.0 %" (a true minus sign), "0.0 %". The
 * digits are formatted from the string, never through a JavaScript number. Empty for null.
 */
export function formatChangePct(value: string | null | undefined, locale: string = i18n.language || 'en-US'): string {
  if (value === null || value === undefined || value === '') return '';
  const negative = value.startsWith('-');
  const magnitude = negative ? value.slice(1) : value;
  let formatter = changeFormatters.get(locale);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    changeFormatters.set(locale, formatter);
  }
  const zero = /^0(\.0*)?$/.test(magnitude);
  const sign = zero ? '' : negative ? '\u2212' : '+';
  return `${sign}${formatter.format(magnitude as Intl.StringNumericLiteral)}\u00a0%`;
}
