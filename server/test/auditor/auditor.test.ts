import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { audit, type AuditInput, type Fact, type Finding, type Intruder, type Target, type Unknown } from './auditor.ts';
import { add, cmp, div, isZero, mul, neg, parseDecimal, rat, sub, toNumber, toString, type Rational } from './rational.ts';

describe('rational', () => {
  it('when decimals are parsed, then they are exact and reduced', () => {
    expect(parseDecimal('1234.5000')).toEqual({ n: 2469n, d: 2n });
    expect(parseDecimal('-0.0001')).toEqual({ n: -1n, d: 10000n });
    expect(parseDecimal('12')).toEqual({ n: 12n, d: 1n });
    expect(parseDecimal('-0.000')).toEqual({ n: 0n, d: 1n });
    for (const bad of ['', '1.', '.5', '1,5', '1e3', '--1', ' 1']) expect(() => parseDecimal(bad), bad).toThrow(SyntaxError);
  });

  it('when built from parts, then the sign sits on the numerator and the fraction is reduced', () => {
    expect(rat(6, -4)).toEqual({ n: -3n, d: 2n });
    expect(rat(-6n, -4n)).toEqual({ n: 3n, d: 2n });
    expect(rat(0, -7)).toEqual({ n: 0n, d: 1n });
    expect(() => rat(1, 0)).toThrow(RangeError);
    expect(() => rat(0.5)).toThrow(RangeError);
  });

  it('when computing, then the arithmetic is exact, including negatives', () => {
    const third = rat(1, 3);
    const sixth = rat(-1, 6);
    expect(add(third, sixth)).toEqual(rat(1, 6));
    expect(sub(sixth, third)).toEqual(rat(-1, 2));
    expect(mul(third, sixth)).toEqual(rat(-1, 18));
    expect(div(third, sixth)).toEqual(rat(-2));
    expect(neg(sixth)).toEqual(rat(1, 6));
    expect(add(parseDecimal('0.1'), parseDecimal('0.2'))).toEqual(parseDecimal('0.3'));
    expect(isZero(sub(third, rat(2, 6)))).toBe(true);
    expect(() => div(third, rat(0))).toThrow(RangeError);
    expect([cmp(sixth, third), cmp(third, rat(2, 6)), cmp(third, sixth)]).toEqual([-1, 0, 1]);
  });

  it('when printed, then terminating values are exact decimals and others fractions', () => {
    expect(toString(parseDecimal('-0.0001'))).toBe('-0.0001');
    expect(toString(parseDecimal('1234.5000'))).toBe('1234.5');
    expect(toString(rat(-7, 8))).toBe('-0.875');
    expect(toString(rat(12))).toBe('12');
    expect(toString(rat(0))).toBe('0');
    expect(toString(rat(-1, 3))).toBe('-1/3');
    expect(toNumber(parseDecimal('-1234.5'))).toBe(-1234.5);
    expect(toNumber({ n: 10n ** 400n, d: 3n * 10n ** 399n })).toBeCloseTo(10 / 3, 12);
  });

  it('when arbitrary values are combined, then the field laws hold and every result is reduced', () => {
    const big = fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n });
    const value = fc
      .tuple(
        big,
        big.filter((d) => d !== 0n),
      )
      .map(([n, d]) => rat(n, d));
    fc.assert(
      fc.property(value, value, value, (a, b, c) => {
        for (const r of [add(a, b), sub(a, b), mul(a, b)]) expect(r.d > 0n).toBe(true);
        expect(sub(add(a, b), b)).toEqual(a);
        expect(mul(a, add(b, c))).toEqual(add(mul(a, b), mul(a, c)));
        if (!isZero(b)) expect(mul(div(a, b), b)).toEqual(a);
        expect(cmp(a, b)).toBe(-cmp(b, a));
        expect(parseDecimal(toString(mul(rat(a.n), rat(1, 10000))))).toEqual(mul(rat(a.n), rat(1, 10000)));
      }),
      { numRuns: 200 },
    );
  });
});

/*
 * Small worlds written by hand. A key names the code and the company ("k1.A"); the companies
 * are A = 1, B = 2, C = 3. Every fact and target lists its unknowns with coefficient 1 unless
 * written as [key, coefficient].
 */
const COMPANY: Record<string, number> = { A: 1, B: 2, C: 3, D: 4 };
const OUTSIDER: Intruder = { name: 'viewer', company: null };
function companyId(name: string | undefined): number {
  const id = name === undefined ? undefined : COMPANY[name];
  if (id === undefined) throw new Error(`no company ${name} in the test world`);
  return id;
}
const company = (name: string): Intruder => ({ name, company: companyId(name) });
const EVERYONE = [OUTSIDER, company('A'), company('B'), company('C')];
const TEN_PERCENT = rat(10, 100);

type Term = string | [string, Rational];
const terms = (list: readonly Term[]): Map<string, Rational> => new Map(list.map((t) => (typeof t === 'string' ? [t, rat(1)] : t)));

/** Figures by key; the intruder knows each one's sign (a figure below 0 is <= 0, one above >= 0) unless `signs` says otherwise. */
function world(figures: Record<string, string>, signs: Record<string, 1 | -1 | 0> = {}) {
  const unknowns: Unknown[] = Object.entries(figures).map(([key, truth]) => ({
    key,
    company: companyId(key.split('.')[1]),
    truth: parseDecimal(truth),
    sign: signs[key] ?? (truth.startsWith('-') ? -1 : 1),
  }));
  const truthOf = (key: string): Rational => {
    const u = unknowns.find((x) => x.key === key);
    if (!u) throw new Error(`no figure ${key} in the test world`);
    return u.truth;
  };
  const valueOf = (list: readonly Term[]): Rational =>
    list.reduce((s, t) => (typeof t === 'string' ? add(s, truthOf(t)) : add(s, mul(t[1], truthOf(t[0])))), rat(0));
  return {
    unknowns,
    /** A figure shown exactly (its value taken from the truth). */
    shown: (source: string, list: readonly Term[]): Fact => ({ terms: terms(list), lo: valueOf(list), hi: valueOf(list), source }),
    interval: (source: string, list: readonly Term[], lo: string, hi: string): Fact => ({
      terms: terms(list),
      lo: parseDecimal(lo),
      hi: parseDecimal(hi),
      source,
    }),
    hidden: (source: string, list: readonly Term[]): Target => ({ terms: terms(list), source }),
  };
}

function run(input: Omit<AuditInput, 'protection'> & { protection?: Rational }): Promise<Finding[]> {
  return audit({ protection: TEN_PERCENT, ...input });
}

const of = (findings: Finding[], intruder: string): Finding[] => findings.filter((f) => f.intruder === intruder);
const brief = (findings: Finding[]): string[] => findings.map((f) => `${f.target} ${f.intruder} ${f.kind} ${f.truth}`);

describe('audit', () => {
  describe('total minus the shown rows', () => {
    // k1: A only, k2: B only, k3: C only; the total and k2 are shown, k1 and k3 hidden.
    const setup = (k3: string) => {
      const w = world({ 'k1.A': '100', 'k2.B': '50', 'k3.C': k3 });
      return {
        unknowns: w.unknowns,
        facts: [w.shown('total', ['k1.A', 'k2.B', 'k3.C']), w.shown('k2', ['k2.B'])],
        targets: [w.hidden('k1', ['k1.A']), w.hidden('k3', ['k3.C'])],
        intruders: [OUTSIDER],
      };
    };

    it('when the other hidden row is 0, then the outsider narrows k1 (its max is the truth) without determining it', async () => {
      const findings = await run(setup('0'));
      // k3's truth is 0: nothing to protect there.
      expect(brief(findings)).toEqual(['k1 viewer narrowed 100']);
      const [min, max] = findings[0]?.interval ?? [];
      expect(min).toBeCloseTo(0, 6);
      expect(max).toBeCloseTo(100, 6);
    });

    it('when the other hidden row is more than 10 % of k1, then the outsider learns nothing', async () => {
      expect(await run(setup('10.0001'))).toEqual([]);
    });

    it('when the other hidden row is exactly 10 % of k1, then k1 still counts as protected (the threshold itself is enough)', async () => {
      expect(await run(setup('10'))).toEqual([]);
    });
  });

  it('when the total and every code but one are shown, then the missing code is determined', async () => {
    const w = world({ 'k1.A': '100.25', 'k1.B': '29.75', 'k2.B': '50', 'k3.C': '70.0001' });
    const findings = await run({
      unknowns: w.unknowns,
      facts: [w.shown('total', ['k1.A', 'k1.B', 'k2.B', 'k3.C']), w.shown('k2', ['k2.B']), w.shown('k3', ['k3.C'])],
      targets: [w.hidden('k1', ['k1.A', 'k1.B'])],
      intruders: [OUTSIDER],
    });
    expect(findings).toEqual([{ target: 'k1', intruder: 'viewer', kind: 'determined', truth: '130', magnitude: '130', interval: [NaN, NaN] }]);
  });

  describe('a company that knows its own partner cell', () => {
    const w = world({ 'k1.A': '100', 'k2.B': '80' });
    const input = {
      unknowns: w.unknowns,
      facts: [w.shown('total', ['k1.A', 'k2.B'])],
      targets: [w.hidden('k1', ['k1.A']), w.hidden('k2', ['k2.B'])],
      intruders: [OUTSIDER, company('B')],
    };

    it('when both hidden cells are large, then the outsider learns nothing', async () => {
      expect(of(await run(input), 'viewer')).toEqual([]);
    });

    it("when B subtracts its own k2 from the total, then B determines k1 (and its own k2 is not B's to protect)", async () => {
      expect(brief(of(await run(input), 'B'))).toEqual(['k1 B determined 100']);
    });
  });

  it("when the intruder's own figure is part of a hidden cell, then only the rest is protected", async () => {
    const w = world({ 'k1.A': '100', 'k1.B': '5', 'k2.C': '50' });
    const findings = await run({
      unknowns: w.unknowns,
      facts: [w.shown('total', ['k1.A', 'k1.B', 'k2.C']), w.shown('k2', ['k2.C'])],
      targets: [w.hidden('k1', ['k1.A', 'k1.B'])],
      intruders: EVERYONE,
    });
    // Sorted by target, then intruders in the order given.
    expect(brief(findings)).toEqual(['k1 viewer determined 105', 'k1 A determined 5', 'k1 B determined 100', 'k1 C determined 105']);
  });

  it('when a hidden cell has no other company and its share of a shown total is printed, then the share narrows it', async () => {
    const w = world({ 'k1.A': '123', 'k2.B': '500', 'k3.C': '377' });
    // 12.3 % printed to one decimal: the share is in [12.25 %, 12.35 %] of the total 1000.
    const findings = await run({
      unknowns: w.unknowns,
      facts: [w.shown('total', ['k1.A', 'k2.B', 'k3.C']), w.interval('k1 share', ['k1.A'], '122.5', '123.5')],
      targets: [w.hidden('k1', ['k1.A']), w.hidden('k2', ['k2.B']), w.hidden('k3', ['k3.C'])],
      intruders: [OUTSIDER],
    });
    expect(brief(findings)).toEqual(['k1 viewer narrowed 123']);
    expect(findings[0]?.interval[0]).toBeCloseTo(122.5, 6);
    expect(findings[0]?.interval[1]).toBeCloseTo(123.5, 6);
  });

  it('when the whole of a printed share is not shown, then one-sided facts (an open bound) still narrow the part', async () => {
    const w = world({ 'k1.A': '123', 'k2.B': '500', 'k3.C': '377' });
    // k1 is 12.3 % of k1 + k2 + k3: k1 - 12.35 % * all <= 0 and k1 - 12.25 % * all >= 0, each open on one side.
    const share = (p: string): Term[] => [
      ['k1.A', sub(rat(1), parseDecimal(p))],
      ['k2.B', neg(parseDecimal(p))],
      ['k3.C', neg(parseDecimal(p))],
    ];
    const findings = await run({
      unknowns: w.unknowns,
      facts: [
        w.shown('k2 + k3', ['k2.B', 'k3.C']),
        { terms: terms(share('0.1235')), lo: null, hi: rat(0), source: 'k1 share <=' },
        { terms: terms(share('0.1225')), lo: rat(0), hi: null, source: 'k1 share >=' },
      ],
      targets: [w.hidden('k1', ['k1.A']), w.hidden('k2', ['k2.B'])],
      intruders: [OUTSIDER],
    });
    expect(brief(findings)).toEqual(['k1 viewer narrowed 123']);
    // k1 / (k1 + 877) in [12.25 %, 12.35 %].
    expect(findings[0]?.interval[0]).toBeCloseTo((0.1225 * 877) / 0.8775, 6);
    expect(findings[0]?.interval[1]).toBeCloseTo((0.1235 * 877) / 0.8765, 6);
  });

  describe('overlapping groups g1 = {k1, k2}, g2 = {k2, k3}', () => {
    const w = world({ 'k1.A': '10', 'k2.B': '20', 'k2.C': '5', 'k3.C': '30' });
    const groups = [w.shown('g1', ['k1.A', 'k2.B', 'k2.C']), w.shown('g2', ['k2.B', 'k2.C', 'k3.C']), w.shown('total', ['k1.A', 'k2.B', 'k2.C', 'k3.C'])];
    const hidden = [w.hidden('k1', ['k1.A']), w.hidden('k2', ['k2.B', 'k2.C']), w.hidden('k3', ['k3.C'])];

    it('when g1, g2, the total and k2 are shown, then k1 and k3 are determined', async () => {
      const findings = await run({ unknowns: w.unknowns, facts: [...groups, w.shown('k2', ['k2.B', 'k2.C'])], targets: hidden, intruders: [OUTSIDER] });
      expect(brief(findings)).toEqual(['k1 viewer determined 10', 'k2 viewer determined 25', 'k3 viewer determined 30']);
    });

    it('when k2 is not shown, then g1 + g2 - total still gives it away, and with it k1 and k3', async () => {
      const findings = await run({ unknowns: w.unknowns, facts: groups, targets: hidden, intruders: [OUTSIDER] });
      expect(brief(findings)).toEqual(['k1 viewer determined 10', 'k2 viewer determined 25', 'k3 viewer determined 30']);
    });
  });

  it('when an equation and an interval together pin x, then the LP narrows what elimination cannot determine', async () => {
    const w = world({ 'x.A': '6', 'y.B': '4' });
    const findings = await run({
      unknowns: w.unknowns,
      // x + y = 10 and 1 <= x - y <= 3, so x is in [5.5, 6.5] (inside 6 ± 10 %) and y in [3.5, 4.5] (not inside 4 ± 10 %).
      facts: [w.shown('x + y', ['x.A', 'y.B']), w.interval('x - y', ['x.A', ['y.B', rat(-1)]], '1', '3')],
      targets: [w.hidden('x', ['x.A']), w.hidden('y', ['y.B'])],
      intruders: [OUTSIDER],
    });
    expect(brief(findings)).toEqual(['x viewer narrowed 6']);
    expect(findings[0]?.interval[0]).toBeCloseTo(5.5, 6);
    expect(findings[0]?.interval[1]).toBeCloseTo(6.5, 6);
  });

  it('when nothing bounds a hidden cell from above, then its max counts as +Infinity: protected above, judged by its min alone', async () => {
    const w = world({ 'k1.A': '100', 'k3.C': '8' });
    // 92 <= k1 - k3 <= 200: k3 can grow without end and k1 with it, but k1 cannot go below 92.
    const findings = await run({
      unknowns: w.unknowns,
      facts: [w.interval('k1 - k3', ['k1.A', ['k3.C', rat(-1)]], '92', '200')],
      targets: [w.hidden('k1', ['k1.A']), w.hidden('k3', ['k3.C'])],
      intruders: [OUTSIDER],
    });
    expect(brief(findings)).toEqual(['k1 viewer narrowed 100']);
    expect(findings[0]?.interval[0]).toBeCloseTo(92, 6);
    expect(findings[0]?.interval[1]).toBe(Infinity);
  });

  describe('figures below zero (returns) and zeros', () => {
    // k1: A only, k2: B only, both returns (<= 0); their total is shown.
    const setup = (k2: string) => {
      const w = world({ 'k1.A': '-50', 'k2.B': k2 });
      return { unknowns: w.unknowns, facts: [w.shown('total', ['k1.A', 'k2.B'])], targets: [w.hidden('k1', ['k1.A'])], intruders: [OUTSIDER] };
    };

    it('when a returns cell is the total minus the shown codes, then it is determined, below zero', async () => {
      const w = world({ 'k1.A': '-40', 'k2.B': '558', 'k3.C': '1456' });
      const findings = await run({
        unknowns: w.unknowns,
        facts: [w.shown('total', ['k1.A', 'k2.B', 'k3.C']), w.shown('k2', ['k2.B']), w.shown('k3', ['k3.C'])],
        targets: [w.hidden('k1', ['k1.A'])],
        intruders: [OUTSIDER],
      });
      expect(brief(findings)).toEqual(['k1 viewer determined -40']);
    });

    it('when the other hidden returns are less than 10 % of k1, then the outsider narrows k1 from below (it is <= 0)', async () => {
      const findings = await run(setup('-4'));
      expect(brief(findings)).toEqual(['k1 viewer narrowed -50']);
      expect(findings[0]?.interval[0]).toBeCloseTo(-54, 6);
      expect(findings[0]?.interval[1]).toBeCloseTo(0, 6);
    });

    it('when the other hidden returns are exactly 10 % of k1, then k1 counts as protected', async () => {
      expect(await run(setup('-5'))).toEqual([]);
    });

    it('when a cell of +100 and -100 adds up to 0, then it is protected on its magnitude (200), not on its sum', async () => {
      // k1 = A's +100 and B's -100, hidden; k2 = C's, hidden; their total shown: k1 is at most k2.
      const at = (k2: string) => {
        const w = world({ 'k1.A': '100', 'k1.B': '-100', 'k2.C': k2 });
        return run({
          unknowns: w.unknowns,
          facts: [w.shown('total', ['k1.A', 'k1.B', 'k2.C'])],
          targets: [w.hidden('k1', ['k1.A', 'k1.B'])],
          intruders: [OUTSIDER],
        });
      };
      // At most 10: within 10 % of 200 above the truth 0.
      const findings = await at('10');
      expect(findings.map((f) => [f.kind, f.truth, f.magnitude])).toEqual([['narrowed', '0', '200']]);
      expect(findings[0]!.interval[1]).toBeCloseTo(10, 6);
      expect(await at('20')).toEqual([]);
    });

    it("when a figure is known to be 0, then it is known like the intruder's own: a partner of 0 protects nothing", async () => {
      const w = world({ 'k1.A': '100', 'k2.B': '0' }, { 'k2.B': 0 });
      const findings = await run({
        unknowns: w.unknowns,
        facts: [w.shown('total', ['k1.A', 'k2.B'])],
        targets: [w.hidden('k1', ['k1.A'])],
        intruders: [OUTSIDER],
      });
      expect(brief(findings)).toEqual(['k1 viewer determined 100']);
    });

    it('when a figure has the other sign than the intruder is said to know, then the audit throws', async () => {
      const w = world({ 'k1.A': '-1' }, { 'k1.A': 1 });
      await expect(run({ unknowns: w.unknowns, facts: [], targets: [], intruders: [OUTSIDER] })).rejects.toThrow(/has the truth -1, against its sign 1/);
      const zero = world({ 'k1.A': '2' }, { 'k1.A': 0 });
      await expect(run({ unknowns: zero.unknowns, facts: [], targets: [], intruders: [OUTSIDER] })).rejects.toThrow(/against its sign 0/);
    });
  });

  describe('inconsistent input', () => {
    const w = world({ 'k1.A': '100', 'k2.B': '50' });

    it('when a fact contradicts the true figures, then the audit throws and names the fact', async () => {
      const wrong: Fact = { ...w.shown('total', ['k1.A', 'k2.B']), lo: rat(151), hi: rat(151) };
      await expect(run({ unknowns: w.unknowns, facts: [wrong], targets: [w.hidden('k1', ['k1.A'])], intruders: [OUTSIDER] })).rejects.toThrow(
        /fact "total" contradicts the true figures: they give 150, outside \[151, 151\]/,
      );
    });

    it('when a one-sided fact contradicts the true figures, then the audit throws and shows the open side', async () => {
      const wrong: Fact = { terms: terms(['k1.A']), lo: rat(101), hi: null, source: 'k1 at least' };
      await expect(run({ unknowns: w.unknowns, facts: [wrong], targets: [], intruders: [OUTSIDER] })).rejects.toThrow(
        /fact "k1 at least" contradicts the true figures: they give 100, outside \[101, ∞\]/,
      );
    });

    it('when a fact or a target names an unknown that does not exist, then the audit throws', async () => {
      const facts = [w.shown('total', ['k1.A', 'k2.B'])];
      const stray: Fact = { terms: terms(['k1.A', 'k9.A']), lo: rat(0), hi: rat(1000), source: 'stray' };
      await expect(run({ unknowns: w.unknowns, facts: [...facts, stray], targets: [], intruders: [OUTSIDER] })).rejects.toThrow(/fact "stray".*"k9\.A"/);
      await expect(run({ unknowns: w.unknowns, facts, targets: [{ terms: terms(['k9.A']), source: 'k9' }], intruders: [OUTSIDER] })).rejects.toThrow(
        /target "k9".*"k9\.A"/,
      );
    });

    it('when an interval is upside down or a key is listed twice, then the audit throws', async () => {
      const upsideDown: Fact = { terms: terms(['k1.A']), lo: rat(101), hi: rat(99), source: 'flipped' };
      await expect(run({ unknowns: w.unknowns, facts: [upsideDown], targets: [], intruders: [OUTSIDER] })).rejects.toThrow(
        /fact "flipped" has lo > hi: \[101, 99\]/,
      );
      await expect(run({ unknowns: [...w.unknowns, ...w.unknowns.slice(0, 1)], facts: [], targets: [], intruders: [OUTSIDER] })).rejects.toThrow(
        /listed twice/,
      );
    });
  });

  it('when any random system shows a hidden cell as the sum of shown figures, then every intruder it is not trivial for finds it determined', async () => {
    // Random worlds: codes with one to three companies, some shown, plus a few shown groups; the
    // target is a combination of shown equations, so it must be determined whatever else holds.
    const figure = fc.integer({ min: 0, max: 10 ** 8 }).map((n) => rat(n, 10_000));
    const code = fc.array(fc.tuple(fc.constantFrom(1, 2, 3, 4), figure), { minLength: 1, maxLength: 3 });
    await fc.assert(
      fc.asyncProperty(fc.array(code, { minLength: 2, maxLength: 6 }), fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }), async (codes, pick) => {
        const unknowns: Unknown[] = [];
        const members: string[][] = codes.map((cells, c) => {
          const seen = new Set<number>();
          return cells.flatMap(([co, truth]) => {
            if (seen.has(co)) return [];
            seen.add(co);
            unknowns.push({ key: `k${c}.${co}`, company: co, truth });
            return [`k${c}.${co}`];
          });
        });
        const sum = (keys: string[]): Rational => keys.reduce((s, k) => add(s, unknowns.find((u) => u.key === k)!.truth), rat(0));
        const shownCodes = members.filter((_, c) => pick[c]);
        const facts: Fact[] = shownCodes.map((keys, c) => ({ terms: terms(keys), lo: sum(keys), hi: sum(keys), source: `code ${c}` }));
        const all = members.flat();
        facts.push({ terms: terms(all), lo: sum(all), hi: sum(all), source: 'total' });
        // The hidden cell: the total minus the shown codes.
        const hiddenKeys = members.filter((_, c) => !pick[c]).flat();
        if (hiddenKeys.length === 0) return;
        const intruders: Intruder[] = [OUTSIDER, ...[1, 2, 3, 4].map((co) => ({ name: `company ${co}`, company: co }))];
        const findings = await audit({ unknowns, facts, targets: [{ terms: terms(hiddenKeys), source: 'rest' }], intruders, protection: TEN_PERCENT });
        for (const intruder of intruders) {
          const part = hiddenKeys.filter((k) => unknowns.find((u) => u.key === k)!.company !== intruder.company);
          const truth = sum(part);
          const expected = part.length > 0 && !isZero(truth) ? [`rest ${intruder.name} determined ${toString(truth)}`] : [];
          expect(brief(of(findings, intruder.name))).toEqual(expected);
        }
      }),
      { numRuns: 40 },
    );
  });
});
