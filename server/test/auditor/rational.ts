/*
 * Exact rationals on BigInt for the disclosure auditor. Every value is kept reduced with a
 * positive denominator, so equality is structural and a zero is always 0/1. The auditor's
 * verdicts that must not depend on floating point (truth checks, "determined") use only this.
 */

export interface Rational {
  readonly n: bigint;
  readonly d: bigint;
}

const ZERO: Rational = { n: 0n, d: 1n };

function abs(x: bigint): bigint {
  return x < 0n ? -x : x;
}

function gcd(a: bigint, b: bigint): bigint {
  a = abs(a);
  b = abs(b);
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}

function toBigInt(x: bigint | number, what: string): bigint {
  if (typeof x === 'bigint') return x;
  // A float would silently lose digits in BigInt(); figures must come as text or integers.
  if (!Number.isSafeInteger(x)) throw new RangeError(`rat: ${what} ${x} is not a safe integer`);
  return BigInt(x);
}

function make(n: bigint, d: bigint): Rational {
  if (d === 0n) throw new RangeError('rat: zero denominator');
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  if (n === 0n) return ZERO;
  // Most coefficients are integers: skip the gcd when there is nothing to reduce.
  if (d === 1n) return { n, d };
  const g = gcd(n, d);
  return g === 1n ? { n, d } : { n: n / g, d: d / g };
}

export function rat(n: bigint | number, d: bigint | number = 1n): Rational {
  return make(toBigInt(n, 'numerator'), toBigInt(d, 'denominator'));
}

/** "1234.5000", "-0.0001", "12", "+3.25" → exact value; anything else throws. */
export function parseDecimal(text: string): Rational {
  const m = /^([+-]?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) throw new SyntaxError(`parseDecimal: not a decimal number: ${JSON.stringify(text)}`);
  const [, sign, int, frac = ''] = m;
  const n = BigInt(int + frac);
  return make(sign === '-' ? -n : n, 10n ** BigInt(frac.length));
}

export function add(a: Rational, b: Rational): Rational {
  if (a.d === b.d) return make(a.n + b.n, a.d);
  return make(a.n * b.d + b.n * a.d, a.d * b.d);
}

export function sub(a: Rational, b: Rational): Rational {
  if (a.d === b.d) return make(a.n - b.n, a.d);
  return make(a.n * b.d - b.n * a.d, a.d * b.d);
}

export function mul(a: Rational, b: Rational): Rational {
  if (a.d === 1n && b.d === 1n) return make(a.n * b.n, 1n);
  return make(a.n * b.n, a.d * b.d);
}

export function div(a: Rational, b: Rational): Rational {
  if (b.n === 0n) throw new RangeError('div: division by zero');
  return make(a.n * b.d, a.d * b.n);
}

export function neg(a: Rational): Rational {
  return a.n === 0n ? ZERO : { n: -a.n, d: a.d };
}

/** -1, 0 or 1 as a < b, a = b, a > b. */
export function cmp(a: Rational, b: Rational): -1 | 0 | 1 {
  const l = a.n * b.d;
  const r = b.n * a.d;
  return l < r ? -1 : l > r ? 1 : 0;
}

export function isZero(a: Rational): boolean {
  return a.n === 0n;
}

/** Nearest double, for the LP only: verdicts that must be exact never go through here. */
export function toNumber(a: Rational): number {
  if (a.d === 1n) return Number(a.n);
  // Number(n) / Number(d) would give NaN (∞/∞) when both exceed the double range.
  const bits = Math.max(a.n.toString(2).length, a.d.toString(2).length) - 1000;
  if (bits <= 0) return Number(a.n) / Number(a.d);
  const s = BigInt(bits);
  return Number(a.n >> s) / Number(a.d >> s);
}

/**
 * Exact decimal text when the value has one ("-0.0001", "12", "0.5"), otherwise "n/d"
 * (e.g. "1/3"): a finding's truth must be printed without rounding it.
 */
export function toString(a: Rational): string {
  let d = a.d;
  let twos = 0;
  let fives = 0;
  while (d % 2n === 0n) {
    d /= 2n;
    twos++;
  }
  while (d % 5n === 0n) {
    d /= 5n;
    fives++;
  }
  if (d !== 1n) return `${a.n}/${a.d}`;
  const scale = Math.max(twos, fives);
  const u = abs(a.n) * (10n ** BigInt(scale) / a.d);
  const s = u.toString().padStart(scale + 1, '0');
  const body = scale ? `${s.slice(0, -scale)}.${s.slice(-scale)}` : s;
  return a.n < 0n ? `-${body}` : body;
}
