import { z } from 'zod';

/*
 * Exact decimal numbers as text (docs/architecture.md §8 "Numbers"). Volumes, values, totals and rates travel as
 * decimal strings ("1234.5678", "-0.3000") from the database to the screen; the database does the
 * arithmetic (numeric), and nothing here goes through a JavaScript number.
 */

/** The canonical form this module produces: no exponent, no "+", no leading zeros, no "-0". */
export const DECIMAL_PATTERN = /^-?(0|[1-9]\d*)(\.\d+)?$/;

/** Volumes and values: numeric(20,4) — at most 16 digits before the point and 4 after. */
export const FIGURE_LIMITS = { integerDigits: 16, scale: 4 } as const;
/** Conversion rates: numeric(20,10). */
export const RATE_LIMITS = { integerDigits: 10, scale: 10 } as const;

const SCIENTIFIC = /^([-+]?)(\d*)(?:\.(\d*))?(?:[eE]([-+]?\d+))?$/;
/** Canonical already (no exponent, no leading or trailing zeros); short enough to skip the slow path. */
const CANONICAL_SHORT = /^-?(?:0|[1-9]\d{0,20})(?:\.\d{0,19}[1-9])?$/;

/**
 * "1.2345E+3" → "1234.5", "-0.10" → "-0.1", "007" → "7", "-0" → "0": the decimal a number's text
 * means, in canonical form, by moving the point (never by computing). Null for anything else.
 */
export function normalizeDecimal(text: string): string | null {
  // Fast path: most cells are already canonical ("1234.5670" is not: trailing zero).
  if (CANONICAL_SHORT.test(text)) return text === '-0' ? '0' : text;
  const match = SCIENTIFIC.exec(text.trim());
  if (!match) return null;
  const [, sign, intPart = '', fracPart = '', exponentText] = match;
  if (intPart === '' && fracPart === '') return null;
  const exponent = exponentText === undefined ? 0 : Number(exponentText);
  // An exponent beyond what any figure needs is not a figure (and would build a huge string).
  if (!Number.isInteger(exponent) || Math.abs(exponent) > 400) return null;
  let digits = intPart + fracPart;
  let point = intPart.length + exponent;
  if (point < 0) {
    digits = '0'.repeat(-point) + digits;
    point = 0;
  } else if (point > digits.length) {
    digits = digits + '0'.repeat(point - digits.length);
  }
  const integer = digits.slice(0, point).replace(/^0+/, '') || '0';
  const fraction = digits.slice(point).replace(/0+$/, '');
  const body = fraction ? `${integer}.${fraction}` : integer;
  return sign === '-' && body !== '0' ? `-${body}` : body;
}

/** Digits before and after the point of a canonical decimal. */
export function decimalShape(decimal: string): { integerDigits: number; scale: number } {
  const unsigned = decimal.startsWith('-') ? decimal.slice(1) : decimal;
  const [integer = '', fraction = ''] = unsigned.split('.');
  return { integerDigits: integer === '0' ? 0 : integer.length, scale: fraction.length };
}

export function fitsDecimal(decimal: string, limits: { integerDigits: number; scale: number }): boolean {
  const shape = decimalShape(decimal);
  return shape.integerDigits <= limits.integerDigits && shape.scale <= limits.scale;
}

/**
 * A canonical decimal rounded (half away from zero) to `significant` significant digits. A number
 * cell of a workbook is a binary double (ECMA-376): spreadsheets show and keep 15 significant
 * digits, and write results such as 0.1 + 0.2 as "0.30000000000000004"; read at 15 digits that is
 * the 0.3 the user sees.
 */
export function roundSignificant(decimal: string, significant: number): string {
  const negative = decimal.startsWith('-');
  const [integer = '0', fraction = ''] = (negative ? decimal.slice(1) : decimal).split('.');
  // No more digits than asked for (the usual case): nothing to round, no BigInt needed.
  if (integer.length + fraction.length <= significant) return decimal;
  // The digits as one integer, at the decimal's own scale (exact: BigInt, not a float).
  const units = BigInt(integer + fraction);
  const length = units.toString().length;
  if (units === 0n || length <= significant) return decimal;
  const divisor = 10n ** BigInt(length - significant);
  let kept = units / divisor;
  if ((units % divisor) * 2n >= divisor) kept += 1n;
  const text = (kept * divisor).toString().padStart(fraction.length + 1, '0');
  const point = text.length - fraction.length;
  return normalizeDecimal(`${negative ? '-' : ''}${text.slice(0, point)}.${text.slice(point)}`)!;
}

/** The fixed-scale text the database answers for numeric(p, s), as the API sends it. */
export const decimalStringSchema = /* @__PURE__ */ z.string().regex(DECIMAL_PATTERN).describe('An exact decimal number as text, e.g. "1234.5678"');

/**
 * An exact decimal in a request: a decimal string (a JSON number would already be a float when it is
 * parsed, so it is refused), checked against the column's limits. Answers the canonical string.
 */
export function decimalInputSchema(limits: { integerDigits: number; scale: number }) {
  return z
    .string()
    .max(60)
    .transform((input, ctx) => {
      const decimal = normalizeDecimal(input);
      if (decimal === null || !fitsDecimal(decimal, limits)) {
        ctx.addIssue({ code: 'custom', message: 'decimal', params: { decimal: true, digits: limits.integerDigits, scale: limits.scale } });
        return z.NEVER;
      }
      return decimal;
    });
}

/** A decimal as an integer count of 10^-scale units ("12.5", 4 → 125000n); exact, no float. */
export function decimalUnits(decimal: string, scale: number): bigint {
  const canonical = normalizeDecimal(decimal);
  if (canonical === null) throw new RangeError(`not a decimal: ${decimal}`);
  const negative = canonical.startsWith('-');
  const [integer = '0', fraction = ''] = (negative ? canonical.slice(1) : canonical).split('.');
  if (fraction.length > scale) throw new RangeError(`${decimal} has more than ${scale} decimals`);
  const units = BigInt(integer + fraction.padEnd(scale, '0'));
  return negative ? -units : units;
}

/** Orders two decimal strings exactly (-1, 0, 1): for sorting figures without a JavaScript number. */
export function compareDecimals(a: string, b: string): -1 | 0 | 1 {
  const scale = Math.max(a.split('.')[1]?.length ?? 0, b.split('.')[1]?.length ?? 0);
  const x = decimalUnits(a, scale);
  const y = decimalUnits(b, scale);
  return x < y ? -1 : x > y ? 1 : 0;
}
