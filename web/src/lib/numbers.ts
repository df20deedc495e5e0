import { i18n } from '../i18n/index.ts';

/**
 * An exact decimal of the API ("1234.5678", "-0.3000") as the user's language writes it: grouping
 * and decimal sign of the locale, every stored decimal kept, trailing zeros dropped. The string is
 * formatted as the decimal it is (ECMA-402 formats a numeric string exactly): it never passes
 * through a JavaScript number (docs/architecture.md §8 "Numbers"). Empty for null.
 */
export function formatDecimal(value: string | null | undefined, locale: string = i18n.language || 'en-US'): string {
  if (value === null || value === undefined || value === '') return '';
  return formatterFor(locale).format(value as Intl.StringNumericLiteral);
}

/**
 * A converted amount at the currency's usual precision (2 decimals, rounded half away from zero
 * from the string: never through a JavaScript number). Downloads keep the exact figure.
 */
export function formatMoney(value: string | null | undefined, locale: string = i18n.language || 'en-US'): string {
  if (value === null || value === undefined || value === '') return '';
  let formatter = moneyFormatters.get(locale);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2, roundingMode: 'halfExpand' });
    moneyFormatters.set(locale, formatter);
  }
  return formatter.format(value as Intl.StringNumericLiteral);
}
const moneyFormatters = new Map<string, Intl.NumberFormat>();

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
 * with one decimal, by the locale: "45.6 %"; signed, for a change: "+12.5 %", "−92.0 %" (a true
 * minus sign), "0.0 %". The digits are formatted from the string, never through a JavaScript
 * number. Empty for null.
 */
export function formatPercent(value: string | null | undefined, options: { signed?: boolean } = {}, locale: string = i18n.language || 'en-US'): string {
  if (value === null || value === undefined || value === '') return '';
  const negative = value.startsWith('-');
  const magnitude = negative ? value.slice(1) : value;
  let formatter = percentFormatters.get(locale);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
    percentFormatters.set(locale, formatter);
  }
  const zero = /^0*(\.0*)?$/.test(magnitude);
  const sign = zero ? '' : negative ? '\u2212' : options.signed ? '+' : '';
  return `${sign}${formatter.format(magnitude as Intl.StringNumericLiteral)}\u00a0%`;
}
const percentFormatters = new Map<string, Intl.NumberFormat>();

/** A change in percent ("-92.0") with its sign: "−92.0 %", "+12.5 %" (see formatPercent). */
export const formatChangePct = (value: string | null | undefined, locale?: string): string => formatPercent(value, { signed: true }, locale);

/** The sign of a decimal string: -1, 0 or 1 (no JavaScript number in between). */
export function decimalSign(value: string | null | undefined): -1 | 0 | 1 {
  if (!value) return 0;
  if (/^-?0*(\.0*)?$/.test(value)) return 0;
  return value.startsWith('-') ? -1 : 1;
}

export { compareDecimals } from '@mss/contracts/decimal';

/** A count (rows, reports) as the user's locale writes it. Figures are decimal strings: `formatDecimal`. */
export const formatNumber = (value: number | null | undefined): string => (value === null || value === undefined ? '' : value.toLocaleString());
