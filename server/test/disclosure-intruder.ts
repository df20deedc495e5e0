import { expect } from 'vitest';
import type { Fact, Target } from './auditor/auditor.ts';
import { add, mul, parseDecimal, rat, type Rational, sub } from './auditor/rational.ts';
import type { TestApp } from './helpers.ts';
import { type DisclosureSpec, type DisclosureWorld, type Headers, sekToEur } from './disclosure-world.ts';
import { openWorkbook } from './workbook.ts';

/*
 * The intruder of the disclosure tests (tests only; it knows nothing of how the app decides what to
 * hide). It downloads everything a role can get (every breakdown of every published period in
 * the market's currency and in EUR, every trend, every cluster month, the company statistics, and
 * the csv and xlsx downloads of each) and writes every figure as a linear fact over the unknowns:
 * one company's volume or value of one code in one period of one market. What a figure means it takes from the
 * specification (docs/architecture.md §8), not from the code: a cell adds up the companies the period's
 * publication counts; last year is the period twelve months earlier; a year to date adds up the
 * published months of the year, each at its own rate; a cluster adds its markets; a change or a
 * share rounded to one decimal is an interval.
 */

export const unknownKey = (market: string, period: string, company: string, code: string, measure: Measure) =>
  `${market}|${period}|${company}|${code}|${measure}`;

type Measure = 'volume' | 'value';
type Lin = Map<string, Rational>;
type Dimension = 'code' | 'code_group' | 'code_section' | 'total';

/** What the intruder is told the world is: its spec, and the companies each published period's current publication counts. */
export interface Truth {
  spec: DisclosureSpec;
  world: DisclosureWorld;
  /** "market/period" → the companies its current publication counts; only published periods. */
  counted: Map<string, string[]>;
  /** "market/period/company" of the reports approved now (a member's own figures in the market answers count these). */
  approved: Set<string>;
  /**
   * "market/period" → the estimates for missing reports its current publication counts: per code
   * the company's row of the source period times the change, rounded to four decimals (the
   * intruder knows how estimates are made, and the change can be read off the published cells).
   */
  estimates?: Map<string, Estimate[]>;
  /** The true figure of every estimate any publication counted (`estimateKey`): unknowns to the intruder, tied to their source rows. */
  estimated?: Map<string, Rational>;
}
export interface Estimate {
  company: string;
  source: string;
  ratio: Map<string, { volume: Rational; value: Rational }>;
}
/** An estimate's figure, an unknown of its own (it is its source row times the change, rounded). */
export const estimateKey = (market: string, period: string, company: string, code: string, measure: Measure) =>
  `estimate|${market}|${period}|${company}|${code}|${measure}`;

const HALF = rat(5, 100000); // half of the last of four decimals
const PCT_HALF = rat(5, 100); // half of the last of one decimal

function plus(a: Lin, b: Lin, factor: Rational = rat(1)): Lin {
  const out = new Map(a);
  for (const [k, v] of b) {
    const sum = add(out.get(k) ?? rat(0), mul(v, factor));
    if (sum.n === 0n) out.delete(k);
    else out.set(k, sum);
  }
  return out;
}

export function intruder(truth: Truth) {
  const { spec, world } = truth;
  const codeText = new Map(Object.entries(world.codeIds).map(([code, id]) => [id, code]));
  const groupOf = new Map(Object.entries(world.groupIds).map(([title, id]) => [id, spec.groups.find((g) => g.title === title)!.codes]));
  const sectionOf = new Map(
    Object.entries(world.sectionIds).map(([name, id]) => {
      const s = spec.sections.find((x) => x.name === name)!;
      return [id, spec.codes.filter((c) => /^\d+$/.test(c) && Number(c) >= s.start && Number(c) < s.start + s.length)];
    }),
  );
  const marketIso = new Map(Object.entries(world.marketIds).map(([iso, id]) => [id, iso]));
  const currencyOf = (market: string) => spec.markets.find((m) => m.iso === market)!.currency;
  const published = (market: string, period: string) => truth.counted.has(`${market}/${period}`);
  const monthsBefore = (period: string, n: number) => {
    const [y, m] = period.split('-').map(Number) as [number, number];
    const i = y * 12 + (m - 1) - n;
    return `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
  };

  const codesOf = (dimension: Dimension, key: number): string[] => {
    if (dimension === 'code') return [codeText.get(key)!];
    if (dimension === 'code_group') return groupOf.get(key)!;
    if (dimension === 'code_section') return sectionOf.get(key)!;
    return spec.codes;
  };
  /** The multiplier of a value of the market's period into `currency` (null: none). */
  const rateOf = (market: string, period: string, currency: string | null): Rational | null =>
    currency === null || currency === currencyOf(market) ? null : parseDecimal(sekToEur(period));

  /** A published cell of a market's period: the counted companies' figures of the codes, values converted. */
  const cell = (market: string, period: string, dimension: Dimension, key: number, measure: Measure, currency: string | null): Lin => {
    const counted = truth.counted.get(`${market}/${period}`) ?? [];
    const codes = new Set(codesOf(dimension, key));
    const rate = measure === 'value' ? rateOf(market, period, currency) : null;
    const out: Lin = new Map();
    for (const r of spec.rows)
      if (r.market === market && r.period === period && counted.includes(r.company) && codes.has(r.code))
        out.set(unknownKey(market, period, r.company, r.code, measure), rate ?? rat(1));
    for (const e of truth.estimates?.get(`${market}/${period}`) ?? [])
      for (const code of e.ratio.keys()) if (codes.has(code)) out.set(estimateKey(market, period, e.company, code, measure), rate ?? rat(1));
    return out;
  };
  /** One company's own figures in a cell; `approvedOnly`: only when its report is approved (the market answers' own figures). */
  const own = (
    market: string,
    period: string,
    company: string,
    dimension: Dimension,
    key: number,
    measure: Measure,
    currency: string | null,
    approvedOnly = true,
  ): Lin => {
    if (approvedOnly && !truth.approved.has(`${market}/${period}/${company}`)) return new Map();
    const codes = new Set(codesOf(dimension, key));
    const rate = measure === 'value' ? rateOf(market, period, currency) : null;
    const out: Lin = new Map();
    for (const r of spec.rows)
      if (r.market === market && r.period === period && r.company === company && codes.has(r.code))
        out.set(unknownKey(market, period, r.company, r.code, measure), rate ?? rat(1));
    return out;
  };
  const sumOver = (periods: readonly string[], f: (period: string) => Lin) => periods.reduce((s, p) => plus(s, f(p)), new Map() as Lin);
  /** The market's periods the comparisons add up (viewers: published ones). */
  const comparison = (market: string, period: string) => {
    const year = period.slice(0, 4);
    const ly = monthsBefore(period, 12);
    return {
      lastYear: published(market, ly) ? [ly] : [],
      ytd: spec.periods.filter((p) => p.startsWith(year) && p <= period && published(market, p)),
      ytdLastYear: spec.periods.filter((p) => p.startsWith(String(Number(year) - 1)) && p <= ly && published(market, p)),
    };
  };

  const facts: Fact[] = [];
  // How estimates are made: each is its source row times the change, rounded to four decimals.
  for (const [key, list] of truth.estimates ?? [])
    for (const e of list) {
      const [market, period] = key.split('/') as [string, string];
      for (const [code, ratio] of e.ratio)
        for (const m of ['volume', 'value'] as const)
          facts.push({
            terms: new Map([
              [estimateKey(market, period, e.company, code, m), rat(1)],
              [unknownKey(market, e.source, e.company, code, m), mul(ratio[m], rat(-1))],
            ]),
            lo: mul(HALF, rat(-1)),
            hi: HALF,
            source: `estimate of ${e.company} ${market} ${period} ${code} ${m}`,
          });
    }
  /** A figure as printed: exact, or (converted and rounded to four decimals) within half a unit of its last digit. */
  const figure = (lin: Lin, printed: string | null | undefined, converted: boolean, source: string) => {
    if (printed === null || printed === undefined || lin.size === 0) return;
    const v = parseDecimal(printed);
    facts.push(converted ? { terms: lin, lo: sub(v, HALF), hi: add(v, HALF), source } : { terms: lin, lo: v, hi: v, source });
  };
  /**
   * The true figures, for the sign of a sum the intruder is told a percentage of (`ratio`): it is
   * given that sign, which is more than knowing each figure's (a sum of sales and returns has no
   * sign that follows from its terms'); a stronger intruder can only find more.
   */
  const truthOf = new Map(
    spec.rows.flatMap((r) => (['volume', 'value'] as const).map((m) => [unknownKey(r.market, r.period, r.company, r.code, m), parseDecimal(r[m])] as const)),
  );
  const valueOf = (lin: Lin) => [...lin].reduce((s, [k, coef]) => add(s, mul(coef, truthOf.get(k) ?? rat(0))), rat(0));
  /**
   * `part` / `whole` is within [lo, hi] percent: part between lo % and hi % of whole when the whole
   * is above 0, the other way round when it is below (a returns code's), no fact when it is 0.
   */
  const ratio = (part: Lin, whole: Lin, lo: Rational, hi: Rational, source: string) => {
    const sign = valueOf(whole).n;
    if (sign === 0n) return;
    const [below, above] = sign > 0n ? [lo, hi] : [hi, lo];
    const of = (q: Rational) => mul(q, rat(-1, 100));
    facts.push({ terms: plus(part, whole, of(above)), lo: null, hi: rat(0), source: `${source} ≤` });
    facts.push({ terms: plus(part, whole, of(below)), lo: rat(0), hi: null, source: `${source} ≥` });
  };
  /** A share printed to one decimal: part * 100 / whole within p ± 0.05. */
  const percent = (part: Lin, whole: Lin, printed: string | null | undefined, source: string) => {
    if (printed === null || printed === undefined) return;
    const p = parseDecimal(printed);
    ratio(part, whole, sub(p, PCT_HALF), add(p, PCT_HALF), source);
  };
  /**
   * A change printed to one decimal: (a − b) * 100 / |b| within p ± 0.05; a is then within
   * (100 + p ± 0.05) % of b when b is above 0, within (100 − p ∓ 0.05) % when it is below.
   */
  const change = (a: Lin, b: Lin, printed: string | null | undefined, source: string) => {
    if (printed === null || printed === undefined) return;
    const p = parseDecimal(printed);
    const [lo, hi] = [sub(p, PCT_HALF), add(p, PCT_HALF)];
    if (valueOf(b).n > 0n) ratio(a, b, add(rat(100), lo), add(rat(100), hi), source);
    else ratio(a, b, sub(rat(100), hi), sub(rat(100), lo), source);
  };

  /**
   * A withheld row tells nothing of its figures: no flag but `c` and `b` (whether a comparison is
   * like with like is a fact about periods, not figures), and no reason why (approvers only). An `r`
   * or `e` would say the hidden figures changed, or hold an estimate.
   */
  const withheldSaysNothing = (row: Record<string, unknown>, source: string) => {
    if (row.confidential !== true) return;
    expect(row.hidden_reason ?? null, `${source} hidden_reason`).toBeNull();
    expect(row.first_published ?? null, `${source} first_published`).toBeNull();
    for (const [group, flags] of Object.entries((row.flags as Record<string, string> | undefined) ?? {}))
      expect(flags, `${source} flags.${group}`).toMatch(/^c?b?$/);
    for (const flag of ['estimated', 'estimated_last_year', 'ytd_estimated', 'ytd_estimated_last_year'])
      if (flag in row) expect(row[flag], `${source} ${flag}`).toBe(false);
  };

  /** The facts of one row of figures (a market answer's row, a cluster market's cell), for a cell key of one market and period. */
  const rowFacts = (
    row: Record<string, unknown>,
    market: string,
    period: string,
    dimension: Dimension,
    key: number,
    currency: string | null,
    source: string,
    ownCompany?: string,
  ) => {
    withheldSaysNothing(row, source);
    const c = comparison(market, period);
    const converted = rateOf(market, period, currency) !== null;
    for (const m of ['volume', 'value'] as const) {
      const conv = m === 'value' && converted;
      const at = (periods: string[]) => sumOver(periods, (p) => cell(market, p, dimension, key, m, currency));
      const total = (periods: string[]) => sumOver(periods, (p) => cell(market, p, 'total', 0, m, currency));
      figure(at([period]), row[m] as string | null, conv, `${source} ${m}`);
      figure(at(c.lastYear), row[`${m}_last_year`] as string | null, conv, `${source} ${m}_last_year`);
      figure(at(c.ytd), row[`ytd_${m}`] as string | null, conv, `${source} ytd_${m}`);
      figure(at(c.ytdLastYear), row[`ytd_${m}_last_year`] as string | null, conv, `${source} ytd_${m}_last_year`);
      change(at([period]), at(c.lastYear), row[`${m}_change_pct`] as string | null, `${source} ${m}_change_pct`);
      change(at(c.ytd), at(c.ytdLastYear), row[`ytd_${m}_change_pct`] as string | null, `${source} ytd_${m}_change_pct`);
      percent(at([period]), total([period]), row[`${m}_share_pct`] as string | null, `${source} ${m}_share_pct`);
      if (ownCompany) {
        // Its own figures it knows; its share of the cell says something of the cell.
        percent(
          own(market, period, ownCompany, dimension, key, m, currency),
          at([period]),
          row[`own_${m}_share_pct`] as string | null,
          `${source} own_${m}_share_pct`,
        );
      }
    }
  };

  const dimensionOf = (by: string): Dimension => (by === 'total' ? 'total' : (by as Dimension));

  return {
    facts,
    /** Everything of a market's published periods: every breakdown, in the market's currency and in EUR, with the downloads. */
    async markets(t: TestApp, headers: Headers, options: { member?: string; downloads?: boolean } = {}) {
      for (const m of spec.markets)
        for (const period of spec.periods) {
          if (!published(m.iso, period)) continue;
          // A member sees the market's periods where its company reports.
          if (options.member && !spec.rows.some((r) => r.market === m.iso && r.period === period && r.company === options.member)) continue;
          const uuid = world.periodIds[world.key(m.iso, period)]!.uuid;
          for (const by of ['code', 'code_group', 'code_section', 'total'] as const)
            for (const currency of [null, 'EUR'] as const) {
              const url = `/api/v1/statistics/market?period_uuid=${uuid}&by=${by}${currency ? `&currency=${currency}` : ''}`;
              const res = await t.app.inject({ url, headers });
              expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
              const data = res.json().data;
              const dim = dimensionOf(by);
              for (const row of data.rows) rowFacts(row, m.iso, period, dim, row.key.id, currency, `${url} ${row.key.id}`, options.member);
              rowFacts(data.totals, m.iso, period, 'total', 0, currency, `${url} totals`, options.member);
              if (options.downloads && currency === null) await downloadsHoldNoMore(t, headers, url, data);
            }
        }
    },

    /** Every trend: the total and each code, group and section, of each market (its currency and EUR) and of the cluster (EUR). */
    async trends(t: TestApp, headers: Headers, options: { member?: string; cluster?: boolean; downloads?: boolean } = {}) {
      const keys: [string, Dimension, number][] = [
        ['', 'total', 0],
        ...Object.values(world.codeIds).map((id) => [`&code_id=${id}`, 'code', id] as [string, Dimension, number]),
        ...Object.values(world.groupIds).map((id) => [`&code_group_id=${id}`, 'code_group', id] as [string, Dimension, number]),
        ...Object.values(world.sectionIds).map((id) => [`&code_section_id=${id}`, 'code_section', id] as [string, Dimension, number]),
      ];
      const scopes: [string, string[], (string | null)[]][] = spec.markets.map((m) => [`market_id=${world.marketIds[m.iso]}`, [m.iso], [null, 'EUR']]);
      if (options.cluster) scopes.push([`cluster_id=${world.cluster}`, spec.markets.map((m) => m.iso), ['EUR']]);
      for (const [scope, markets, currencies] of scopes)
        for (const currency of currencies)
          for (const [param, dimension, key] of keys) {
            const url = `/api/v1/statistics/trend?${scope}&periods=60${param}${currency ? `&currency=${currency}` : ''}`;
            const res = await t.app.inject({ url, headers });
            expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
            if (options.downloads) await downloadsHoldNoMore(t, headers, url, res.json().data);
            for (const point of res.json().data.points) {
              const month = point.period.starts_on.slice(0, 7) as string;
              withheldSaysNothing(point, `${url} ${month}`);
              const here = markets.filter((mk) => published(mk, month));
              for (const m of ['volume', 'value'] as const) {
                const conv = m === 'value' && here.some((mk) => rateOf(mk, month, currency) !== null);
                const at = (periodOf: (mk: string) => string[]) =>
                  markets.reduce(
                    (s, mk) =>
                      plus(
                        s,
                        sumOver(periodOf(mk), (p) => cell(mk, p, dimension, key, m, currency)),
                      ),
                    new Map() as Lin,
                  );
                const now = at((mk) => (published(mk, month) ? [month] : []));
                const lastYear = at((mk) => (published(mk, month) ? comparison(mk, month).lastYear : []));
                figure(now, point[m], conv, `${url} ${month} ${m}`);
                figure(lastYear, point[`${m}_last_year`], conv, `${url} ${month} ${m}_last_year`);
                change(now, lastYear, point[`${m}_change_pct`], `${url} ${month} ${m}_change_pct`);
                if (options.member && markets.length === 1) {
                  const mine = sumOver([month], (p) => own(markets[0]!, p, options.member!, dimension, key, m, currency));
                  percent(mine, now, point[`own_${m}_share_pct`], `${url} ${month} own_${m}_share_pct`);
                }
              }
            }
          }
    },

    /** Every month of the cluster, by every breakdown, in EUR: each market side by side, and their sums. */
    async clusters(t: TestApp, headers: Headers, options: { downloads?: boolean } = {}) {
      for (const month of spec.periods)
        for (const by of ['code', 'code_group', 'code_section', 'market', 'total'] as const) {
          const url = `/api/v1/statistics/cluster?cluster_id=${world.cluster}&month=${month}&by=${by}&currency=EUR`;
          const res = await t.app.inject({ url, headers });
          expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
          const data = res.json().data;
          if (options.downloads) await downloadsHoldNoMore(t, headers, url, data);
          const markets = (data.markets as { market: { id: number } }[]).map((x) => marketIso.get(x.market.id)!);
          const sumRow = (row: Record<string, unknown>, dimension: Dimension, key: number, source: string) => {
            withheldSaysNothing(row, source);
            for (const m of ['volume', 'value'] as const) {
              const across = (periods: (mk: string) => string[]) =>
                markets.reduce(
                  (s, mk) =>
                    plus(
                      s,
                      sumOver(periods(mk), (p) => cell(mk, p, dimension, key, m, 'EUR')),
                    ),
                  new Map() as Lin,
                );
              const totalAcross = (periods: (mk: string) => string[]) =>
                markets.reduce(
                  (s, mk) =>
                    plus(
                      s,
                      sumOver(periods(mk), (p) => cell(mk, p, 'total', 0, m, 'EUR')),
                    ),
                  new Map() as Lin,
                );
              const conv = m === 'value' && markets.some((mk) => rateOf(mk, month, 'EUR') !== null);
              const now = across(() => [month]);
              const lastYear = across((mk) => comparison(mk, month).lastYear);
              const ytd = across((mk) => comparison(mk, month).ytd);
              const ytdLastYear = across((mk) => comparison(mk, month).ytdLastYear);
              figure(now, row[m] as string | null, conv, `${source} ${m}`);
              figure(lastYear, row[`${m}_last_year`] as string | null, conv, `${source} ${m}_last_year`);
              figure(ytd, row[`ytd_${m}`] as string | null, conv, `${source} ytd_${m}`);
              figure(ytdLastYear, row[`ytd_${m}_last_year`] as string | null, conv, `${source} ytd_${m}_last_year`);
              change(now, lastYear, row[`${m}_change_pct`] as string | null, `${source} ${m}_change_pct`);
              change(ytd, ytdLastYear, row[`ytd_${m}_change_pct`] as string | null, `${source} ytd_${m}_change_pct`);
              if (dimension !== 'total' || by === 'total')
                percent(
                  now,
                  totalAcross(() => [month]),
                  row[`${m}_share_pct`] as string | null,
                  `${source} ${m}_share_pct`,
                );
            }
          };
          const perMarket = (row: { markets: Record<string, unknown>[] }, dimension: Dimension, key: number, source: string) => {
            for (const cellRow of row.markets) {
              const mk = marketIso.get(cellRow.market_id as number)!;
              rowFacts(cellRow, mk, month, dimension, key, 'EUR', `${source} market ${mk}`);
            }
          };
          if (by === 'market') {
            for (const row of data.rows) rowFacts(row, marketIso.get(row.key.id)!, month, 'total', 0, 'EUR', `${url} ${row.key.id}`);
          } else {
            for (const row of data.rows) {
              sumRow(row, dimensionOf(by), row.key.id, `${url} ${row.key.id}`);
              perMarket(row, dimensionOf(by), row.key.id, `${url} ${row.key.id}`);
            }
          }
          sumRow(data.totals, 'total', 0, `${url} totals`);
          perMarket(data.totals, 'total', 0, `${url} totals`);
        }
    },

    /** The company statistics of the reporter's company in each published period of each market. */
    async company(t: TestApp, headers: Headers, company: string, options: { downloads?: boolean } = {}) {
      for (const m of spec.markets)
        for (const period of spec.periods) {
          if (!published(m.iso, period)) continue;
          if (!spec.rows.some((r) => r.market === m.iso && r.period === period && r.company === company)) continue;
          const uuid = world.periodIds[world.key(m.iso, period)]!.uuid;
          const url = `/api/v1/statistics/company?company_id=${world.companyIds[company]}&period_uuid=${uuid}`;
          const res = await t.app.inject({ url, headers });
          expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
          const data = res.json().data;
          if (options.downloads) await downloadsHoldNoMore(t, headers, url, data);
          const c = comparison(m.iso, period);
          const rows: [Record<string, unknown>, Dimension, number][] = [
            ...data.rows.map((r: { key: { id: number } }) => [r, 'code', r.key.id]),
            [data.totals, 'total', 0],
          ];
          for (const [row, dimension, key] of rows)
            for (const measure of ['volume', 'value'] as const) {
              const now = cell(m.iso, period, dimension, key, measure, null);
              const lastYear = sumOver(c.lastYear, (p) => cell(m.iso, p, dimension, key, measure, null));
              figure(now, row[measure] as string | null, false, `${url} ${key} ${measure}`);
              figure(lastYear, row[`${measure}_last_year`] as string | null, false, `${url} ${key} ${measure}_last_year`);
              change(now, lastYear, row[`${measure}_change_pct`] as string | null, `${url} ${key} ${measure}_change_pct`);
              percent(
                own(m.iso, period, company, dimension, key, measure, null, false),
                now,
                row[`own_${measure}_share_pct`] as string | null,
                `${url} ${key} own share`,
              );
            }
          for (const point of data.history) {
            const p = point.period.title as string;
            for (const measure of ['volume', 'value'] as const)
              percent(
                own(m.iso, p, company, 'total', 0, measure, null),
                cell(m.iso, p, 'total', 0, measure, null),
                point[`own_${measure}_share_pct`],
                `${url} history ${p}`,
              );
          }
        }
    },
  };
}

/** The csv and xlsx of an answer hold no number the JSON answer does not. */
async function downloadsHoldNoMore(t: TestApp, headers: Headers, url: string, data: unknown) {
  const allowed = new Set<string>();
  const walk = (v: unknown) => {
    if (typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v)) allowed.add(String(Number(v)));
    else if (typeof v === 'number') allowed.add(String(v));
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(data);
  const csv = await t.app.inject({ url: `${url}&format=csv`, headers });
  expect(csv.statusCode).toBe(200);
  for (const line of csv.body.trim().split('\r\n').slice(1))
    for (const field of line.split(',')) if (/^-?\d+(\.\d+)?$/.test(field)) expect(allowed.has(String(Number(field))), `${url} csv: ${field}`).toBe(true);
  const xlsx = await t.app.inject({ url: `${url}&format=xlsx`, headers });
  expect(xlsx.statusCode).toBe(200);
  const book = await openWorkbook(xlsx.rawPayload);
  book.worksheets[0]!.eachRow((row) =>
    row.eachCell((c) => {
      if (typeof c.value === 'number') expect(allowed.has(String(c.value)), `${url} xlsx: ${c.value}`).toBe(true);
    }),
  );
}

/** The confidential sums of one publication of a market's period: its cells that break the rules, over the companies it counts. */
export function primaryTargets(
  spec: DisclosureSpec,
  market: string,
  period: string,
  counted: readonly string[],
  keys: { dimension: Dimension; key: number; codes: string[] }[],
  source: string,
): Target[] {
  const settings = { min: spec.settings?.min_contributors ?? 3, dominance: spec.settings?.dominance_percentage ?? 85 };
  const out: Target[] = [];
  for (const k of keys) {
    const per = new Map<string, { volume: Rational; value: Rational }>();
    for (const r of spec.rows)
      if (r.market === market && r.period === period && counted.includes(r.company) && k.codes.includes(r.code)) {
        const f = per.get(r.company) ?? { volume: rat(0), value: rat(0) };
        per.set(r.company, { volume: add(f.volume, parseDecimal(r.volume)), value: add(f.value, parseDecimal(r.value)) });
      }
    // Judged on magnitudes, per measure: a company whose figures add up to 0 contributes nothing;
    // of the others fewer than min, or the largest holding at least the dominance share of them all.
    const breaks = (['volume', 'value'] as const).some((m) => {
      const parts = [...per.values()].map((f) => (f[m].n < 0n ? mul(f[m], rat(-1)) : f[m])).filter((x) => x.n !== 0n);
      if (parts.length === 0) return false;
      if (parts.length < settings.min) return true;
      const total = parts.reduce((s, x) => add(s, x), rat(0));
      return parts.some((x) => compare(mul(x, rat(100)), mul(total, parseDecimal(String(settings.dominance)))) >= 0);
    });
    if (!breaks) continue;
    for (const m of ['volume', 'value'] as const) {
      const terms: Lin = new Map();
      for (const r of spec.rows)
        if (r.market === market && r.period === period && counted.includes(r.company) && k.codes.includes(r.code))
          terms.set(unknownKey(market, period, r.company, r.code, m), rat(1));
      out.push({ terms, source: `${source} ${k.dimension} ${k.key} ${m}` });
    }
  }
  return out;
}

const compare = (a: Rational, b: Rational) => {
  const x = a.n * b.d;
  const y = b.n * a.d;
  return x < y ? -1 : x > y ? 1 : 0;
};
