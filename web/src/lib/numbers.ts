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
