import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { aggregate } from './figures/statistics.aggregate.ts';
import type { Executor } from '../../db/client.ts';
import type { z } from 'zod';
import { clusterStatisticsSchema, companyStatisticsSchema, coverageDiffers, marketStatisticsSchema, trendStatisticsSchema } from '@mss/contracts/statistics';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { buildStatisticsWorld, PERIOD_TITLES, type StatisticsWorld } from '../../../test/statistics-world.ts';
import {
  type Cell,
  cellsOf,
  changePct,
  divRound,
  type Fact,
  fails,
  format,
  loadFacts,
  type Rules,
  sharePct,
  showValue,
  showVolume,
  sumOf,
  tooFew,
  units,
} from '../../../test/statistics-expected.ts';
import { openWorkbook } from '../../../test/workbook.ts';

let t: TestApp;
let w: StatisticsWorld;
const P = '2026-03';

beforeAll(async () => {
  t = await createTestApp();
  // P is published once its reports are in: the first read (an approver's, of the unpublished
  // period) builds the cells; company 2's report is then approved through the API, so the answers
  // below come from cells grown by the approval; then P is published through the API. The other
  // periods were published before publications existed: the job that publishes such periods once
  // has published them as they are.
  w = await buildStatisticsWorld(t, { unpublished: [P] });
  const first = await get('marketAdmin', `/statistics/market?period_uuid=${uuid(P)}&by=code`);
  expect(first.statusCode).toBe(200);
  const approve = await t.app.inject({
    method: 'POST',
    url: `/api/v1/reports/${await reportUuid(P, 2)}/status`,
    headers: w.headers.marketAdmin,
    payload: { status: 60 },
  });
  expect(approve.statusCode).toBe(200);
  const publish = await t.app.inject({ method: 'POST', url: `/api/v1/periods/${uuid(P)}/publish`, headers: w.headers.marketAdmin });
  expect(publish.statusCode, publish.body).toBe(200);
  expect(publish.json().data.publication).toMatchObject({ number: 1, changed: false });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const uuid = (title: string) => w.periodIds[title]!.uuid;
async function reportUuid(title: string, company: number) {
  const rows = await t.db.execute<{ uuid: string }>(sql`select uuid::text as uuid from reports where id = ${w.reportIds[`${title}/${company}`]!}`);
  return rows.rows[0]!.uuid;
}
/** The routes' answers are written without their response schema (statistics.routes.ts): every answer here is checked against it. */
const ANSWER_SCHEMAS: [RegExp, z.ZodType][] = [
  [/^\/statistics\/market\?/, marketStatisticsSchema],
  [/^\/statistics\/cluster\?/, clusterStatisticsSchema],
  [/^\/statistics\/company\?/, companyStatisticsSchema],
  [/^\/statistics\/trend\?/, trendStatisticsSchema],
];

async function get(who: keyof StatisticsWorld['headers'], url: string) {
  const res = await t.app.inject({ url: `/api/v1${url}`, headers: w.headers[who] });
  const schema = ANSWER_SCHEMAS.find(([path]) => path.test(url))?.[1];
  if (schema && res.statusCode === 200 && String(res.headers['content-type']).includes('json')) schema.parse(res.json().data);
  return res;
}

// ---------------------------------------------------------------------------------------------
// The recomputation of a market answer
// ---------------------------------------------------------------------------------------------

const EUR_RATES: [string, bigint][] = [
  ['2026-02-01', 876543210n],
  ['2025-06-01', 898765432n],
  ['2025-01-01', 912345678n],
];
const endOf = (title: string) => {
  const [y, m] = title.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
};
const eurRate = (title: string) => EUR_RATES.find(([from]) => from <= endOf(title))?.[1] ?? null;

type By = 'code' | 'code_group' | 'code_section' | 'company' | 'total';

async function keysFn(by: By): Promise<(f: Fact) => number[]> {
  if (by === 'code') return (f) => [f.codeId];
  if (by === 'company') return (f) => [f.company];
  if (by === 'total') return () => [0];
  if (by === 'code_group') {
    const rows = await t.db.execute<{ code_id: number; code_group_id: number }>(sql`select code_id, code_group_id from code_group_codes`);
    return (f) => rows.rows.filter((r) => r.code_id === f.codeId).map((r) => r.code_group_id);
  }
  const sections = (
    await t.db.execute<{ id: number; start: number; length: number }>(sql`select id, start, length from code_sections where organization_id = ${w.org.id}`)
  ).rows;
  return (f) => (/^\d+$/.test(f.code) ? sections.filter((s) => Number(f.code) >= s.start && Number(f.code) < s.start + s.length).map((s) => s.id) : []);
}

/** A row as the recomputation expects it (figures as strings, or null). */
type ExpectedRow = { id: number; confidential: boolean; contributors: number | null } & Record<string, string | null>;

interface Options {
  by: By;
  period: string;
  eur?: boolean;
  viewer: 'approver' | 'viewer' | 'member';
  ownCompany?: number;
  settings?: { min: number; dominance: number };
  /** The answer's coverage differs from last year's (checked on its own against the world's reports): its change is flagged `b`. */
  coverageDiffers?: boolean;
}

/** The cells each published period's current publication hides ("dimension/key" by period title). */
async function patterns(): Promise<Map<string, Set<string>>> {
  const rows = await t.db.execute<{ title: string; dimension: string; key_id: number }>(sql`
    select p.title, c.dimension, c.key_id from statistics_publication_cells c
    join statistics_publications s on s.id = c.publication_id join periods p on p.id = s.period_id
    where c.hidden and p.published_at is not null and s.number = (select max(number) from statistics_publications x where x.period_id = s.period_id)`);
  const out = new Map<string, Set<string>>();
  for (const r of rows.rows) out.set(r.title, (out.get(r.title) ?? new Set()).add(`${r.dimension}/${r.key_id}`));
  return out;
}

/** Each published period's first and latest publication: their numbers and figures ("dimension/key" by period title). */
async function publicationFigures(): Promise<
  Map<string, { latest: number; first: Map<string, [string | null, string | null, boolean]>; last: Map<string, [string | null, string | null]> }>
> {
  const rows = await t.db.execute<{
    title: string;
    number: number;
    latest: number;
    dimension: string;
    key_id: number;
    volume: string | null;
    value: string | null;
    hidden: boolean;
  }>(sql`
    select p.title, s.number, (select max(number) from statistics_publications x where x.period_id = s.period_id)::int as latest,
      c.dimension, c.key_id, c.volume::text as volume, c.value::text as value, c.hidden
    from statistics_publication_cells c join statistics_publications s on s.id = c.publication_id join periods p on p.id = s.period_id
    where p.market_id = ${w.market}`);
  const out = new Map<
    string,
    { latest: number; first: Map<string, [string | null, string | null, boolean]>; last: Map<string, [string | null, string | null]> }
  >();
  for (const r of rows.rows) {
    const entry = out.get(r.title) ?? { latest: r.latest, first: new Map(), last: new Map() };
    if (r.number === 1) entry.first.set(`${r.dimension}/${r.key_id}`, [r.volume, r.value, r.hidden]);
    if (r.number === r.latest) entry.last.set(`${r.dimension}/${r.key_id}`, [r.volume, r.value]);
    out.set(r.title, entry);
  }
  return out;
}

async function expectedMarket(o: Options) {
  const facts = await loadFacts(t.db, w.market);
  const hiddenIn = await patterns();
  const publications = await publicationFigures();
  const year = Number(o.period.slice(0, 4));
  const ly = `${year - 1}${o.period.slice(4)}`;
  const published = new Set(facts.filter((f) => f.published).map((f) => f.period));
  const usable = (p: string) => PERIOD_TITLES.includes(p) && (o.viewer === 'approver' || published.has(p) || p === o.period);
  const ytd = PERIOD_TITLES.filter((p) => p.startsWith(String(year)) && p <= o.period && usable(p));
  const ytdLy = PERIOD_TITLES.filter((p) => p.startsWith(String(year - 1)) && p <= ly && usable(p));
  const lastYear = usable(ly) ? [ly] : [];
  const live = new Set(o.viewer === 'approver' ? PERIOD_TITLES.filter((p) => !published.has(p)) : []);
  const rules = (keysOf: (f: Fact) => number[]): Rules => ({
    keysOf,
    rate: (p) => (o.eur ? eurRate(p) : null),
    live,
    minContributors: o.settings?.min ?? 3,
    dominance: o.settings?.dominance ?? 85,
  });
  const involved = [...new Set([o.period, ...lastYear, ...ytd, ...ytdLy])];
  const build = (r: Rules) => new Map(involved.map((p) => [p, cellsOf(facts, p, r)] as [string, Map<number, Cell>]));
  const rowRules = rules(await keysFn(o.by === 'total' ? 'total' : o.by));
  const totalRules = rules(() => [0]);
  const cells = build(rowRules);
  const totalCells = build(totalRules);
  const figures = (c: Map<string, Map<number, Cell>>, key: number, r: Rules) => {
    const p = sumOf(c, [o.period], key, r);
    const l = sumOf(c, lastYear, key, r);
    const y = sumOf(c, ytd, key, r);
    const yl = sumOf(c, ytdLy, key, r);
    const primary = involved.some((period) => {
      const cell = c.get(period)?.get(key);
      return cell ? fails(cell, r) : false;
    });
    return { p, l, y, yl, primary, contributors: c.get(o.period)?.get(key)?.contributors ?? null };
  };
  const total = figures(totalCells, 0, totalRules);
  const keys = new Set<number>();
  for (const m of cells.values()) for (const k of m.keys()) keys.add(k);
  const rows = [...keys].map((key) => ({ key, f: figures(cells, key, rowRules) }));
  // A row is confidential when a cell it adds up is hidden by its period's publication, or (for an
  // approver, who sees current figures) breaks the rules; viewers see only what was published.
  const dimension = o.by === 'total' ? 'total' : o.by;
  const isConfidential = (dim: string, key: number, primary: boolean) =>
    (o.viewer === 'approver' && primary) || involved.some((period) => hiddenIn.get(period)?.has(`${dim}/${key}`));
  const confidential = new Set(rows.filter((r) => isConfidential(dimension, r.key, r.f.primary)).map((r) => r.key));
  const totalsConfidential = isConfidential('total', 0, total.primary);
  // The pattern hides at least every cell that breaks the rules.
  for (const r of rows) if (r.f.primary) expect(confidential.has(r.key), `row ${r.key} breaks the rules`).toBe(true);
  const apply = o.viewer !== 'approver';
  // The flags, worked out from the periods each figure compares (no estimates here: no `e`).
  // Revised: what the caller reads of a published period differs from its first publication (an
  // approver reads the figures as they stand, a viewer the latest publication).
  const revisedIn = (period: string, dim: string, key: number, cell: Cell | undefined) => {
    const pub = publications.get(period);
    // The company breakdown is never published.
    if (!pub || !published.has(period) || !cell || dim === 'company') return false;
    const first = pub.first.get(`${dim}/${key}`);
    if (o.viewer === 'approver') return !first || units(first[0]) !== cell.volume || units(first[1]) !== cell.value;
    const last = pub.last.get(`${dim}/${key}`);
    return pub.latest > 1 && (!first || last?.[0] !== first[0] || last?.[1] !== first[1]);
  };
  const provisional = {
    p: live.has(o.period),
    ly: lastYear.some((p) => live.has(p)),
    ytd: ytd.some((p) => live.has(p)),
    ytdly: ytdLy.some((p) => live.has(p)),
  };
  const month = (p: string) => p.slice(5);
  const ytdBreak = ytd.length !== ytdLy.length || ytd.some((p) => !ytdLy.map(month).includes(month(p)));
  const changeBreak = lastYear.length === 0 || (o.coverageDiffers ?? false);
  const flagsOf = (c: boolean, cellsBy: Map<string, Map<number, Cell>>, dim: string, key: number) => {
    // Not on withheld figures.
    const rev = (periods: string[]) => !(apply && c) && periods.some((p) => revisedIn(p, dim, key, cellsBy.get(p)?.get(key)));
    const [rp, rl, ry, ryl] = [rev([o.period]), rev(lastYear), rev(ytd), rev(ytdLy)];
    const f = (prov: boolean, r: boolean, brk = false) => `${c ? 'c' : ''}${prov ? 'p' : ''}${r ? 'r' : ''}${brk ? 'b' : ''}`;
    return {
      period: f(provisional.p, rp),
      last_year: f(provisional.ly, rl),
      change: f(provisional.p || provisional.ly, rp || rl, changeBreak),
      ytd: f(provisional.ytd, ry),
      ytd_last_year: f(provisional.ytdly, ryl),
      ytd_change: f(provisional.ytd || provisional.ytdly, ry || ryl, ytdBreak),
    };
  };
  // Why a row is hidden, told to approvers: the period's own cell breaking the rules (too few
  // companies first), or hidden by its publication to protect another; else another period's cell.
  const reasonOf = (cellsBy: Map<string, Map<number, Cell>>, dim: string, key: number, r: Rules) => {
    const own = cellsBy.get(o.period)?.get(key);
    if (own && tooFew(own, r)) return 'contributors';
    if (own && fails(own, r)) return 'dominance';
    if (hiddenIn.get(o.period)?.has(`${dim}/${key}`)) return 'protection';
    return 'derived';
  };
  const ownRules: Rules = { ...rowRules, live: new Set() };
  const ownCells = (keysOf: (f: Fact) => number[]) =>
    cellsOf(
      facts.filter((f) => f.company === o.ownCompany),
      o.period,
      { ...ownRules, keysOf },
    );
  const ownRow = o.ownCompany ? ownCells(rowRules.keysOf) : null;
  const ownTotal = o.ownCompany ? ownCells(() => [0]) : null;
  // A revised row's figures as the first publication showed them: to approvers, and to others where it showed them.
  const firstOf = (periodFlags: string, key: string) => {
    const first = publications.get(o.period)?.first.get(key);
    if (!periodFlags.includes('r') || !first || (apply && first[2])) return null;
    const rate = o.eur ? eurRate(o.period)! : 10000000000n;
    const value = units(first[1]);
    return { volume: first[0] === null ? null : showVolume(units(first[0])), value: value === null ? null : showValue(value * rate) };
  };
  const shape = (
    key: string,
    f: ReturnType<typeof figures>,
    isConfidential: boolean,
    own: Cell | undefined | null,
    reason: () => string,
    flags: ReturnType<typeof flagsOf>,
  ) => {
    const hide = apply && isConfidential;
    const show = <T>(v: T) => (hide ? null : v);
    const rate = o.eur ? eurRate(o.period)! : 10000000000n;
    const out: Record<string, unknown> = {
      volume: show(showVolume(f.p.volume)),
      value: show(showValue(f.p.value)),
      volume_last_year: show(showVolume(f.l.volume)),
      value_last_year: show(showValue(f.l.value)),
      volume_change_pct: show(changePct(f.p.volume, f.l.volume)),
      value_change_pct: show(changePct(f.p.value, f.l.value)),
      ytd_volume: show(showVolume(f.y.volume)),
      ytd_value: show(showValue(f.y.value)),
      ytd_volume_last_year: show(showVolume(f.yl.volume)),
      ytd_value_last_year: show(showValue(f.yl.value)),
      ytd_volume_change_pct: ytdBreak ? null : show(changePct(f.y.volume, f.yl.volume)),
      ytd_value_change_pct: ytdBreak ? null : show(changePct(f.y.value, f.yl.value)),
      volume_share_pct: apply && totalsConfidential ? null : show(sharePct(f.p.volume, total.p.volume)),
      value_share_pct: apply && totalsConfidential ? null : show(sharePct(f.p.value, total.p.value)),
      contributors: show(f.contributors),
      confidential: isConfidential,
      // This world publishes no estimates for missing reports.
      estimated: false,
      estimated_last_year: false,
      ytd_estimated: false,
      ytd_estimated_last_year: false,
      flags,
      hidden_reason: !apply && isConfidential ? reason() : null,
      first_published: firstOf(flags.period, key),
    };
    if (o.viewer === 'member') {
      const ownValue = own?.value === null || own?.value === undefined ? null : own.value * rate;
      out.own_volume = showVolume(own?.volume ?? null);
      out.own_value = showValue(ownValue);
      out.own_volume_share_pct = show(sharePct(own?.volume ?? null, f.p.volume));
      out.own_value_share_pct = show(sharePct(ownValue, f.p.value));
    }
    return out;
  };
  return {
    rows:
      o.by === 'total'
        ? []
        : rows.map(
            (r) =>
              ({
                id: r.key,
                ...shape(
                  `${dimension}/${r.key}`,
                  r.f,
                  confidential.has(r.key),
                  ownRow?.get(r.key),
                  () => reasonOf(cells, dimension, r.key, rowRules),
                  flagsOf(confidential.has(r.key), cells, dimension, r.key),
                ),
              }) as ExpectedRow,
          ),
    totals: shape(
      'total/0',
      total,
      totalsConfidential,
      ownTotal?.get(0),
      () => reasonOf(totalCells, 'total', 0, totalRules),
      flagsOf(totalsConfidential, totalCells, 'total', 0),
    ),
  };
}

async function expectMarketAnswer(who: keyof StatisticsWorld['headers'], o: Options) {
  const res = await get(who, `/statistics/market?period_uuid=${uuid(o.period)}&by=${o.by}${o.eur ? '&currency=EUR' : ''}`);
  expect(res.statusCode, res.body).toBe(200);
  const data = res.json().data;
  const expected = await expectedMarket({ ...o, coverageDiffers: coverageDiffers(data.coverage, data.comparison.last_year_coverage) });
  const actualRows = (data.rows as { key: { id: number } }[]).map(({ key, ...rest }) => ({ id: key.id, ...rest }));
  expect(actualRows.sort((a, b) => a.id - b.id)).toEqual(expected.rows.sort((a, b) => a.id - b.id));
  expect(data.totals).toEqual(expected.totals);
  return data;
}

// ---------------------------------------------------------------------------------------------

describe('GET /statistics/market: the arithmetic', () => {
  for (const by of ['code', 'code_group', 'code_section', 'company', 'total'] as const) {
    for (const eur of [false, true]) {
      it(`when an approver asks by ${by}${eur ? ' in EUR' : ''}, then every figure equals the recomputation from the stored rows, character for character`, async () => {
        const data = await expectMarketAnswer('marketAdmin', { by, period: P, eur, viewer: 'approver' });
        expect(data.coverage).toEqual({ approved: 3, expected: 4 });
        expect(data.provisional).toBe(false);
        expect(data.currency).toBe(eur ? 'EUR' : 'SEK');
        expect(data.rate).toEqual(eur ? { from: 'SEK', to: 'EUR', rate: '0.0876543210', valid_from: '2026-02-01', inverse: false } : null);
        expect(data.comparison).toMatchObject({
          last_year: { title: '2025-03' },
          last_year_coverage: { approved: 5, expected: 5 },
          ytd_periods: 3,
          ytd_last_year_periods: 3,
        });
      });
    }
  }

  it('when the cells are rebuilt from the rows, then the answer is the one the approval grew them into', async () => {
    const url = `/statistics/market?period_uuid=${uuid(P)}&by=code_group&currency=EUR`;
    const grown = (await get('admin', url)).json();
    await t.db.execute(sql`delete from statistics_periods`);
    const rebuilt = (await get('admin', url)).json();
    expect(rebuilt).toEqual(grown);
  });

  it('when an approver opens the unpublished period, then reports not yet approved count too and the answer is provisional', async () => {
    const data = await expectMarketAnswer('marketAdmin', { by: 'code', period: '2026-04', viewer: 'approver' });
    expect(data.provisional).toBe(true);
    expect(data.coverage).toEqual({ approved: 3, expected: 4 });
    expect(data.totals.contributors).toBe(4);
  });

  it('when a company is disabled during the year, then it counts in the periods that ended before and not after', async () => {
    const total = (p: string) => get('admin', `/statistics/market?period_uuid=${uuid(p)}&by=total`);
    const [jan, feb] = await Promise.all([total('2026-01'), total('2026-02')]);
    expect(jan.json().data.totals.contributors).toBe(5);
    expect(feb.json().data.totals.contributors).toBe(4);
    expect(feb.json().data.coverage).toEqual({ approved: 4, expected: 4 });
  });

  it('when the currency has only the reverse pair, then its inverse rounded to 10 decimals is the rate applied', async () => {
    const res = await get('admin', `/statistics/market?period_uuid=${uuid(P)}&by=total&currency=usd`);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    const inverse = format(divRound(10n ** 20n, 101234567890n), 10);
    expect(data.rate).toEqual({ from: 'SEK', to: 'USD', rate: inverse, valid_from: '2024-12-01', inverse: true });
    const sek = (await get('admin', `/statistics/market?period_uuid=${uuid(P)}&by=total`)).json().data.totals.value as string;
    const [i, f = ''] = sek.split('.');
    expect(data.totals.value).toBe(format(divRound(BigInt(i! + f.padEnd(4, '0')) * BigInt(inverse.replace('.', '')), 10000000000n), 4));
  });

  it("when a period of the comparison has no rate, then 422 names the pair and that period's end", async () => {
    const nok = await get('admin', `/statistics/market?period_uuid=${uuid(P)}&by=code&currency=NOK`);
    expect(nok.statusCode).toBe(422);
    expect(nok.json()).toEqual({
      message: 'There is no conversion rate from SEK to NOK valid on 2026-03-31.',
      errors: { currency: ['There is no conversion rate from SEK to NOK valid on 2026-03-31.'] },
    });
    // GBP has a rate from 2025-06 only: last year's year to date (2025-01 … 03) has none.
    const gbp = await get('admin', `/statistics/market?period_uuid=${uuid(P)}&by=code&currency=GBP`);
    expect(gbp.statusCode).toBe(422);
    expect(gbp.json().message).toBe('There is no conversion rate from SEK to GBP valid on 2025-03-31.');
    const unknown = await get('admin', `/statistics/market?period_uuid=${uuid(P)}&by=code&currency=XYZ`);
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().message).toBe('The currency XYZ does not exist.');
  });
});

describe('GET /statistics/market: who sees what', () => {
  for (const role of ['viewer', 'justStats', 'clusterViewer'] as const) {
    it(`when a ${role} asks, then confidential cells have no figures, and the figures of the two-company code appear nowhere (json, csv, xlsx)`, async () => {
      for (const by of ['code', 'code_group', 'code_section', 'total'] as const) {
        for (const eur of [false, true]) await expectMarketAnswer(role, { by, period: P, eur, viewer: 'viewer' });
      }
      const code1003 = (await expectedMarket({ by: 'code', period: P, viewer: 'approver' })).rows.find((r) => r.id === w.codeIds['1003'])!;
      expect(code1003.confidential).toBe(true);
      const secrets = ['7777.1234', '1111.0001', code1003.volume as string, code1003.value as string, code1003.ytd_volume as string];
      for (const format of ['json', 'csv', 'xlsx']) {
        const res = await get(role, `/statistics/market?period_uuid=${uuid(P)}&by=code&format=${format}`);
        expect(res.statusCode).toBe(200);
        const text = format === 'xlsx' ? await xlsxText(res.rawPayload) : res.body;
        for (const secret of secrets) expect(text).not.toContain(secret);
      }
    });
  }

  it('when a viewer asks for the company breakdown, then 403', async () => {
    const res = await get('viewer', `/statistics/market?period_uuid=${uuid(P)}&by=company`);
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('You do not have access to these statistics.');
  });

  for (const role of ['reporter', 'company'] as const) {
    it(`when a ${role} user asks, then the market with confidentiality applied, plus the company's own figures and share`, async () => {
      for (const by of ['code', 'code_group', 'total'] as const) {
        const data = await expectMarketAnswer(role, { by, period: P, eur: by === 'code_group', viewer: 'member', ownCompany: w.companyIds[0] });
        expect(data.confidentiality.applied).toBe(true);
      }
    });
  }

  it('when the confidentiality settings change, then the published period says so, and viewers see the new pattern once it is published again', async () => {
    const periodOf = async () =>
      (
        (await t.app.inject({ url: `/api/v1/periods?market_id=${w.market}`, headers: w.headers.marketAdmin })).json().data as {
          title: string;
          publication: { number: number; changed: boolean } | null;
        }[]
      ).find((p) => p.title === P)!.publication!;
    const url = `/statistics/market?period_uuid=${uuid(P)}&by=code_section`;
    const before = (await get('viewer', url)).json();
    expect((await periodOf()).changed).toBe(false);
    await t.db.execute(sql`insert into organization_settings (organization_id, key, value) values (${w.org.id}, 'dominance_percentage', '100')`);
    try {
      expect((await periodOf()).changed).toBe(true);
      // Until it is published again, viewers see what was published.
      expect((await get('viewer', url)).json()).toEqual(before);
      const again = await t.app.inject({ method: 'POST', url: `/api/v1/periods/${uuid(P)}/republish`, headers: w.headers.marketAdmin });
      expect(again.statusCode, again.body).toBe(200);
      expect(again.json().data.publication).toMatchObject({ number: 2, changed: false });
      const data = await expectMarketAnswer('viewer', { by: 'code_section', period: P, viewer: 'viewer', settings: { min: 3, dominance: 100 } });
      // Section 3000 has two companies: it is hidden.
      expect((data.rows as { key: { id: number }; confidential: boolean }[]).find((r) => r.key.id === w.sections.s3)!.confidential).toBe(true);
    } finally {
      await t.db.execute(sql`delete from organization_settings where organization_id = ${w.org.id}`);
    }
    expect((await periodOf()).changed).toBe(true);
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/periods/${uuid(P)}/republish`, headers: w.headers.marketAdmin })).statusCode).toBe(200);
    expect((await periodOf()).number).toBe(3);
  });

  it('when an approval in a published period is undone, then only together with publishing it again: viewers see it without the report, and approving it again brings it back', async () => {
    const report = await reportUuid(P, 2);
    const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url: `/api/v1${url}`, headers: w.headers.marketAdmin, payload });
    const url = `/statistics/market?period_uuid=${uuid(P)}&by=total`;
    const before = (await get('viewer', url)).json().data;
    const approverBefore = (await get('marketAdmin', url)).json().data;
    const refused = await post(`/reports/${report}/unapprove`, { comment: 'By mistake' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('The period is published: undoing this approval publishes the period again without this report.');
    expect((await get('viewer', url)).json().data).toEqual(before);
    try {
      const undone = await post(`/reports/${report}/unapprove`, { comment: 'By mistake', republish: true });
      expect(undone.statusCode, undone.body).toBe(200);
      expect(undone.json().data).toMatchObject({ status: 40, period: { published: true } });
      const after = (await get('viewer', url)).json().data;
      expect(after.coverage).toEqual({ ...before.coverage, approved: before.coverage.approved - 1 });
      // The approver's current figures, too (the stored cells were built again without it).
      const approverAfter = (await get('marketAdmin', url)).json().data;
      expect(approverAfter.coverage.approved).toBe(before.coverage.approved - 1);
      expect(approverAfter.totals.value).not.toBe(approverBefore.totals.value);
    } finally {
      expect((await post(`/reports/${report}/status`, { status: 60 })).statusCode).toBe(200);
      expect((await post(`/periods/${uuid(P)}/republish`, {})).statusCode).toBe(200);
    }
    expect((await get('viewer', url)).json().data.coverage).toEqual(before.coverage);
    expect((await get('marketAdmin', url)).json().data.totals).toEqual(approverBefore.totals);
  });

  it('when a viewer asks for an unpublished period, then 403 "The period is not yet published for viewing."', async () => {
    for (const role of ['viewer', 'reporter', 'justStats'] as const) {
      const res = await get(role, `/statistics/market?period_uuid=${uuid('2026-04')}&by=code`);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: 'The period is not yet published for viewing.' });
    }
  });

  it('when a company user asks for a market where the company does not report, then 403 "The period is not available for this company."', async () => {
    const res = await get('finnishReporter', `/statistics/market?period_uuid=${uuid(P)}&by=code`);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'The period is not available for this company.' });
    const company = await get('finnishReporter', `/statistics/company?company_id=${w.companyIds[0]}&period_uuid=${uuid(P)}`);
    expect(company.statusCode).toBe(403);
  });

  it("when anyone asks for another organization's period, market, cluster or company, then 404", async () => {
    const period = await get('admin', `/statistics/market?period_uuid=${w.foreignPeriod}&by=code`);
    expect(period.statusCode).toBe(404);
    expect(period.json().message).toBe('Could not find what you were looking for.');
    expect((await get('foreignAdmin', `/statistics/market?period_uuid=${uuid(P)}&by=code`)).statusCode).toBe(404);
    expect((await get('admin', `/statistics/cluster?cluster_id=${w.foreignCluster}&month=2026-03&currency=EUR`)).statusCode).toBe(404);
    expect((await get('admin', `/statistics/trend?cluster_id=${w.foreignCluster}&currency=EUR`)).statusCode).toBe(404);
    expect((await get('foreignAdmin', `/statistics/trend?market_id=${w.market}`)).statusCode).toBe(404);
    expect((await get('admin', `/statistics/company?company_id=${w.foreignCompany}&period_uuid=${uuid(P)}`)).statusCode).toBe(404);
    expect((await get('admin', `/statistics/market?period_uuid=not-a-uuid&by=code`)).statusCode).toBe(404);
  });
});

describe('GET /statistics/trend, /cluster, /company', () => {
  it('when an approver asks for the trend of a code group in EUR, then each point equals the recomputation of its period and the same period last year', async () => {
    const res = await get('admin', `/statistics/trend?market_id=${w.market}&code_group_id=${w.groups.g1}&currency=EUR&periods=6`);
    expect(res.statusCode, res.body).toBe(200);
    const points = res.json().data.points as {
      period: { title: string };
      volume: string;
      value: string;
      volume_last_year: string;
      value_change_pct: string;
      contributors: number;
    }[];
    expect(points.map((p) => p.period.title)).toEqual(['2025-11', '2025-12', '2026-01', '2026-02', '2026-03', '2026-04']);
    for (const point of points) {
      // Each point carries its coverage and last year's, as the period's own answer has them.
      const answer = (await get('admin', `/statistics/market?period_uuid=${uuid(point.period.title)}&by=total&currency=EUR`)).json().data;
      expect(point).toMatchObject({ coverage: answer.coverage, last_year_coverage: answer.comparison.last_year_coverage });
      const expected = await expectedMarket({ by: 'code_group', period: point.period.title, eur: true, viewer: 'approver' });
      const row = expected.rows.find((r) => r.id === w.groups.g1)!;
      expect(point).toMatchObject({
        volume: row.volume,
        value: row.value,
        volume_last_year: row.volume_last_year,
        value_change_pct: row.value_change_pct,
        contributors: row.contributors,
      });
    }
  });

  it('when a viewer asks for a trend, then only published periods, and confidential points have no figures', async () => {
    const res = await get('viewer', `/statistics/trend?market_id=${w.market}&code_id=${w.codeIds['1003']}`);
    expect(res.statusCode).toBe(200);
    const points = res.json().data.points as { period: { title: string }; volume: string | null; confidential: boolean }[];
    expect(points.at(-1)!.period.title).toBe('2026-03');
    expect(points.every((p) => p.confidential && p.volume === null)).toBe(true);
    expect(res.body).not.toContain('7777.1234');
  });

  it('when a cluster has one market, then it answers what the market answers, for an approver (provisional too) and for a viewer', async () => {
    const alone = (await t.db.execute<{ id: number }>(sql`insert into clusters (organization_id, name) values (${w.org.id}, 'Sweden alone') returning id`))
      .rows[0]!.id;
    await t.db.execute(sql`insert into cluster_markets (cluster_id, market_id) values (${alone}, ${w.market})`);
    const figures = (row: Record<string, unknown>) => {
      const { key: _key, markets: _markets, market_id: _market, ...rest } = row;
      return rest;
    };
    for (const [who, period] of [
      ['clusterAdmin', '2026-04'],
      ['clusterAdmin', P],
      ['clusterViewer', P],
    ] as const) {
      for (const by of ['code', 'code_group', 'total'] as const) {
        const market = (await get(who, `/statistics/market?period_uuid=${uuid(period)}&by=${by}&currency=EUR`)).json().data;
        const res = await get(who, `/statistics/cluster?cluster_id=${alone}&month=${period}&by=${by}&currency=EUR`);
        expect(res.statusCode, res.body).toBe(200);
        const cluster = res.json().data;
        expect(cluster.provisional).toBe(market.provisional);
        expect(cluster.coverage).toEqual(market.coverage);
        expect(cluster.markets[0]).toMatchObject({ last_year: market.comparison.last_year, last_year_coverage: market.comparison.last_year_coverage });
        expect(cluster.rows.map(figures)).toEqual(market.rows.map(figures));
        // A market's cell beside the others: that market's volume and value, as its own answer has them.
        const cell = ({ volume, value, contributors, confidential, estimated, flags }: Record<string, unknown>) => ({
          volume,
          value,
          contributors,
          confidential,
          estimated,
          flags: { period: (flags as { period: string }).period },
        });
        expect(cluster.rows.map((r: { markets: Record<string, unknown>[] }) => r.markets[0]!)).toEqual(
          market.rows.map((r: Record<string, unknown>) => ({ market_id: w.market, ...cell(r) })),
        );
        expect(figures(cluster.totals)).toEqual(figures(market.totals));
      }
    }
    await t.db.execute(sql`delete from clusters where id = ${alone}`);
  });

  it('when the cluster is asked for by code in EUR, then each market side by side and the cluster total equal the recomputation', async () => {
    const res = await get('admin', `/statistics/cluster?cluster_id=${w.cluster}&month=2026-03&by=code&currency=EUR`);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    const expected = await expectedMarket({ by: 'code', period: P, eur: true, viewer: 'approver' });
    for (const row of data.rows as { key: { id: number }; volume: string; value: string; markets: { market_id: number; volume: string; value: string }[] }[]) {
      const e = expected.rows.find((r) => r.id === row.key.id)!;
      // Finland has no reports: the cluster is Sweden converted.
      expect(row.volume).toBe(e.volume);
      expect(row.value).toBe(e.value);
      expect(row.markets.find((m) => m.market_id === w.market)).toMatchObject({ volume: e.volume, value: e.value });
    }
    expect(data.totals.value).toBe(expected.totals.value);
    expect(data.markets.map((m: { market: { iso_code: string } }) => m.market.iso_code)).toEqual(['SE', 'FI']);
  });

  it("when an administrator reads a company's statistics, the market by company, or downloads a table, then each is an audit entry of the organization; the company's own reporter reading its own is not", async () => {
    const entries = async () =>
      (
        await t.db.execute<{ action: string; details: Record<string, unknown> }>(
          sql`select action, details from audit_entries where organization_id = ${w.org.id} and action like 'statistics.%' order by id`,
        )
      ).rows;
    const before = (await entries()).length;
    expect((await get('reporter', `/statistics/company?company_id=${w.companyIds[0]}&period_uuid=${uuid(P)}`)).statusCode).toBe(200);
    expect((await entries()).length).toBe(before);
    expect((await get('admin', `/statistics/company?company_id=${w.companyIds[0]}&period_uuid=${uuid(P)}`)).statusCode).toBe(200);
    expect((await get('admin', `/statistics/market?period_uuid=${uuid(P)}&by=company`)).statusCode).toBe(200);
    expect((await get('admin', `/statistics/market?period_uuid=${uuid(P)}&by=code&format=csv`)).statusCode).toBe(200);
    expect((await entries()).slice(before)).toEqual([
      { action: 'statistics.company_read', details: { company_id: w.companyIds[0], period_uuid: uuid(P), format: 'json' } },
      { action: 'statistics.company_read', details: { company_id: null, by: 'company', format: 'json' } },
      { action: 'statistics.downloaded', details: { query: expect.objectContaining({ period_uuid: uuid(P), by: 'code', format: 'csv' }) } },
    ]);
  });

  it('when a reporter asks for the company statistics of their company, then own figures, the market and the share per code', async () => {
    const res = await get('reporter', `/statistics/company?company_id=${w.companyIds[0]}&period_uuid=${uuid(P)}`);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    const expected = await expectedMarket({ by: 'code', period: P, viewer: 'member', ownCompany: w.companyIds[0] });
    for (const row of data.rows as {
      key: { id: number };
      own_volume: string;
      volume: string | null;
      own_volume_share_pct: string | null;
      confidential: boolean;
    }[]) {
      const e = expected.rows.find((r) => r.id === row.key.id)!;
      expect(row).toMatchObject({ own_volume: e.own_volume, volume: e.volume, own_volume_share_pct: e.own_volume_share_pct, confidential: e.confidential });
    }
    expect(data.history.length).toBe(15);
    expect(data.history.at(-1).period.title).toBe(P);
    // Another company's statistics are not the reporter's to see.
    expect((await get('reporter', `/statistics/company?company_id=${w.companyIds[1]}&period_uuid=${uuid(P)}`)).statusCode).toBe(403);
  });
});

describe('downloads', () => {
  it('when an xlsx is asked for, then a header block, a frozen header row with an autofilter, and figures as numbers with formats', async () => {
    const res = await get('admin', `/statistics/market?period_uuid=${uuid(P)}&by=code&currency=EUR&format=xlsx`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const book = await openWorkbook(res.rawPayload);
    const sheet = book.worksheets[0]!;
    expect(sheet.getCell('A1').value).toBe('Market');
    expect(sheet.getCell('B1').value).toBe('Sweden');
    expect(sheet.getCell('B3').value).toBe('EUR');
    expect(String(sheet.getCell('B4').value)).toContain('0.0876543210');
    expect(sheet.getCell('B5').value).toBe('approved 3 of 4');
    // Last year's coverage differs (5 of 5): the download says so, as the screen does.
    expect(sheet.getCell('A6').value).toBe('Coverage last year (2025-03)');
    expect(sheet.getCell('B6').value).toBe('approved 5 of 5');
    expect(sheet.getCell('A7').value).toBe('Note');
    expect(String(sheet.getCell('B7').value)).toContain('unequal sets of companies');
    expect(String(sheet.getCell('B8').value)).toMatch(/^Flags \(the column after each figure\): c confidential/);
    const headerRow = 10;
    expect(sheet.getCell(`A${headerRow}`).value).toBe('Code');
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: headerRow });
    expect(sheet.autoFilter).toBeTruthy();
    const json = (await get('admin', `/statistics/market?period_uuid=${uuid(P)}&by=code&currency=EUR`)).json().data;
    const first = sheet.getRow(headerRow + 1);
    expect(first.getCell(1).value).toBe(json.rows[0].key.code);
    expect(first.getCell(3).value).toBe(Number(json.rows[0].volume));
    expect(first.getCell(3).numFmt).toBe('#,##0.0000');
    // Each figure is followed by its flags, as text: the change against a last year of other coverage is a break.
    expect(sheet.getRow(headerRow).getCell(4).value).toBe('Volume flags');
    expect(first.getCell(4).value ?? '').toBe(json.rows[0].flags.period);
    expect(sheet.getRow(headerRow).getCell(11).value).toBe('Volume change %');
    expect(first.getCell(11).numFmt).toBe('0.0');
    expect(first.getCell(12).value).toMatch(/b$/);
  });

  it('when a csv is asked for, then UTF-8 with a byte-order mark, the header block of the xlsx, and the table with figures as plain decimals', async () => {
    const res = await get('admin', `/statistics/market?period_uuid=${uuid(P)}&by=code_group&currency=EUR&format=csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    // The byte-order mark, as bytes: what makes Excel and LibreOffice read UTF-8.
    expect([...res.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const json = (await get('admin', `/statistics/market?period_uuid=${uuid(P)}&by=code_group&currency=EUR`)).json().data;
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    const blank = lines.indexOf('');
    expect(lines.slice(0, blank)).toEqual([
      'Market,Sweden',
      `Period,${json.period.title}`,
      'Currency,EUR',
      expect.stringMatching(/^Rate,.*0\.0876543210/),
      'Coverage,approved 3 of 4',
      'Coverage last year (2025-03),approved 5 of 5',
      expect.stringMatching(/^Note,"The coverage differs from last year's/),
      expect.stringMatching(/^Note,"Flags /),
    ]);
    expect(lines[blank + 1]!.startsWith('Name,Volume,Volume flags,Value,Value flags,')).toBe(true);
    const plain = (decimal: string) => decimal.replace(/\.?0+$/, '');
    const first = lines[blank + 2]!.split(',');
    expect(first.slice(0, 5)).toEqual([
      json.rows[0].key.title,
      plain(json.rows[0].volume),
      json.rows[0].flags.period,
      plain(json.rows[0].value),
      json.rows[0].flags.period,
    ]);
    // No needless zeros (the line above says it is exactly the JSON answer's decimal, as text).
    expect(first[1]).not.toMatch(/\.\d*0$/);
  });

  it('when a name begins like a formula, then the csv keeps it as text with an apostrophe in front, and the xlsx as it is', async () => {
    await t.db.execute(sql`update code_groups set title = ${'=HYPERLINK("http://x")'} where id = ${w.groups.g1}`);
    try {
      const csv = (await get('admin', `/statistics/market?period_uuid=${uuid(P)}&by=code_group&format=csv`)).body;
      expect(csv).toContain(`\r\n"'=HYPERLINK(""http://x"")",`);
      expect(csv).not.toMatch(/(^|\n)"?=HYPERLINK/);
      const book = await openWorkbook((await get('admin', `/statistics/market?period_uuid=${uuid(P)}&by=code_group&format=xlsx`)).rawPayload);
      const titles: unknown[] = [];
      book.worksheets[0]!.eachRow((row) => titles.push(row.getCell(1).value));
      expect(titles).toContain('=HYPERLINK("http://x")');
    } finally {
      await t.db.execute(sql`update code_groups set title = 'Group one' where id = ${w.groups.g1}`);
    }
  });
});

describe('OpenAPI', () => {
  it('when the API document is read, then the four statistics endpoints are in it with their query parameters', async () => {
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json() as { paths: Record<string, { get?: { parameters?: { name: string }[] } }> };
    for (const [path, parameter] of [
      ['/statistics/market', 'period_uuid'],
      ['/statistics/cluster', 'month'],
      ['/statistics/trend', 'code_group_id'],
      ['/statistics/company', 'company_id'],
    ] as const) {
      expect(doc.paths[path]?.get?.parameters?.map((p) => p.name)).toContain(parameter);
      expect(doc.paths[path]?.get?.parameters?.map((p) => p.name)).toContain('format');
    }
  });
});

describe('invalidation', () => {
  const mappingVersion = async (organizationId: number) =>
    (await t.db.execute<{ v: number }>(sql`select coalesce((select version from code_mapping_versions where organization_id = ${organizationId}), 0) as v`))
      .rows[0]!.v;
  const publicationsBehindMapping = async () =>
    (
      await t.db.execute<{ n: number }>(sql`
        select count(*)::int as n from statistics_publications s join periods p on p.id = s.period_id join markets m on m.id = p.market_id
        where m.organization_id = ${w.org.id} and s.mapping_version is distinct from ${await mappingVersion(w.org.id)}`)
    ).rows[0]!.n;

  it('when a code leaves a group, then the group figures follow on the next read, and the published periods say their figures changed', async () => {
    const url = `/statistics/market?period_uuid=${uuid(P)}&by=code_group`;
    await get('admin', url);
    const changed = async () =>
      (
        (await t.app.inject({ url: `/api/v1/periods?market_id=${w.market}`, headers: w.headers.marketAdmin })).json().data as {
          title: string;
          publication: { changed: boolean } | null;
        }[]
      )
        .filter((p) => p.publication)
        .map((p) => [p.title, p.publication!.changed]);
    expect((await changed()).every(([, c]) => !c)).toBe(true);
    // Published at the organization's current code mapping: nothing to compare.
    expect(await publicationsBehindMapping()).toBe(0);
    await t.db.execute(sql`delete from code_group_codes where code_group_id = ${w.groups.g1} and code_id = ${w.codeIds['1003']!}`);
    expect(await publicationsBehindMapping()).toBeGreaterThan(0);
    try {
      await expectMarketAnswer('admin', { by: 'code_group', period: P, viewer: 'approver' });
      // Every published period with 1003 in it: group one adds up other codes now.
      expect((await changed()).filter(([, c]) => c).length).toBeGreaterThan(0);
    } finally {
      await t.db.execute(sql`insert into code_group_codes (code_group_id, code_id) values (${w.groups.g1}, ${w.codeIds['1003']!})`);
    }
    await expectMarketAnswer('admin', { by: 'code_group', period: P, viewer: 'approver' });
    expect((await changed()).every(([, c]) => !c)).toBe(true);
  });

  it("when a group's codes, a section's range or markets, or a code's number change, then the organization's code mapping version moves on, once per change; a code's name, or another organization's change, does not move it", async () => {
    const org = w.org.id;
    const steps: [string, SQL, number][] = [
      ['a code renamed', sql`update codes set name = name || ' (renamed)' where id = ${w.codeIds['1003']!}`, 0],
      ['a code renamed back', sql`update codes set name = replace(name, ' (renamed)', '') where id = ${w.codeIds['1003']!}`, 0],
      ['a code renumbered', sql`update codes set code = '1003999' where id = ${w.codeIds['1003']!}`, 1],
      ['a code renumbered back', sql`update codes set code = '1003' where id = ${w.codeIds['1003']!}`, 1],
      ['a code left a group', sql`delete from code_group_codes where code_group_id = ${w.groups.g1} and code_id = ${w.codeIds['1003']!}`, 1],
      ['a code joined a group', sql`insert into code_group_codes (code_group_id, code_id) values (${w.groups.g1}, ${w.codeIds['1003']!})`, 1],
      ['a section added', sql`insert into code_sections (organization_id, name, start, length) values (${org}, 'Version test', 9000, 10)`, 1],
      [
        'a section shown in a market',
        sql`insert into code_section_markets (code_section_id, market_id) select id, ${w.market} from code_sections where name = 'Version test'`,
        1,
      ],
      ['a section moved', sql`update code_sections set start = 9100 where name = 'Version test'`, 1],
      ['a section deleted (its markets with it)', sql`delete from code_sections where name = 'Version test'`, 1],
      ['nothing updated', sql`update codes set code = code where false`, 0],
    ];
    for (const [what, statement, moves] of steps) {
      const [before, otherBefore] = [await mappingVersion(org), await mappingVersion(w.other.id)];
      await t.db.execute(statement);
      expect(await mappingVersion(org), what).toBe(before + moves);
      expect(await mappingVersion(w.other.id), what).toBe(otherBefore);
    }
  });

  it('when a report of a kept period is approved, even while others read, then the kept figures are dropped and the next read counts it', async () => {
    const report = w.reportIds[`${P}/2`]!;
    const periodId = w.periodIds[P]!.id;
    const keptWith = async () =>
      (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from statistics_sums where period_ids @> array[${periodId}::int]`)).rows[0]!.n;
    // Company 2's report back to submitted, and P's cells rebuilt without it.
    await t.db.execute(sql`update reports set status = 40 where id = ${report}`);
    await t.db.execute(sql`delete from statistics_periods where period_id = ${periodId}`);
    const url = `/statistics/market?period_uuid=${uuid(P)}&by=code`;
    const published = (await get('viewer', url)).json();
    await expectMarketAnswer('marketAdmin', { by: 'code', period: P, viewer: 'approver' });
    expect(await keptWith()).toBeGreaterThan(0);
    await expectMarketAnswer('marketAdmin', { by: 'code', period: P, viewer: 'approver' });
    const [approve] = await Promise.all([
      t.app.inject({ method: 'POST', url: `/api/v1/reports/${await reportUuid(P, 2)}/status`, headers: w.headers.marketAdmin, payload: { status: 60 } }),
      get('marketAdmin', url),
      get('marketAdmin', url),
      get('viewer', url),
    ]);
    expect(approve.statusCode, approve.body).toBe(200);
    await expectMarketAnswer('marketAdmin', { by: 'code', period: P, viewer: 'approver' });
    // Viewers see what was published, whatever happened to the reports since.
    expect((await get('viewer', url)).json()).toEqual(published);
    await expectMarketAnswer('viewer', { by: 'code', period: P, viewer: 'viewer' });
  });

  it('when the kept figures a read found are deleted before it reads them (a rate or setting changed), then it answers from the cells', async () => {
    const [jan, feb, mar] = ['2026-01', '2026-02', P].map((title) => w.periodIds[title]!.id);
    const input = {
      selections: [
        { bucket: 1, periodId: mar!, role: 'p' as const, rate: null, publication: null, pattern: null },
        ...[jan!, feb!, mar!].map((periodId) => ({ bucket: 1, periodId, role: 'ytd' as const, rate: null, publication: null, pattern: null })),
      ],
      live: [],
      dimensions: ['code' as const, 'total' as const],
      settings: { minContributors: 3, dominancePercentage: '85' },
    };
    const expected = await aggregate(t.db, input);
    // The same read, with every kept set deleted right after it found them (in its own transaction).
    const dialect = new PgDialect();
    let deleted = 0;
    const deleting = (tx: Executor): Executor =>
      new Proxy(tx, {
        get: (target, name, receiver) =>
          name === 'execute'
            ? async (query: SQL) => {
                const result = await target.execute(query);
                if (dialect.sqlToQuery(query).sql.includes('from statistics_sums where signature')) {
                  deleted += (await target.execute(sql`delete from statistics_sums`)).rowCount ?? 0;
                }
                return result;
              }
            : Reflect.get(target, name, receiver),
      });
    const db = new Proxy(t.db, {
      get: (target, name, receiver) =>
        name === 'transaction' ? (fn: (tx: Executor) => Promise<unknown>) => target.transaction((tx) => fn(deleting(tx))) : Reflect.get(target, name, receiver),
    });
    expect(await aggregate(db, input)).toEqual(expected);
    expect(deleted).toBeGreaterThan(0);
  });

  it('when a company is disabled, then the periods ending after that leave it out on the next read', async () => {
    await get('admin', `/statistics/market?period_uuid=${uuid('2025-12')}&by=total`);
    await t.db.execute(sql`update companies set disabled_at = '2025-12-31T12:00:00Z' where id = ${w.companyIds[3]!}`);
    try {
      await expectMarketAnswer('admin', { by: 'code', period: '2025-12', viewer: 'approver' });
    } finally {
      await t.db.execute(sql`update companies set disabled_at = null where id = ${w.companyIds[3]!}`);
    }
  });
});

async function xlsxText(buffer: Buffer): Promise<string> {
  const book = await openWorkbook(buffer);
  const out: string[] = [];
  book.worksheets[0]!.eachRow((row) => row.eachCell((cell) => out.push(String(cell.value))));
  return out.join('\n');
}
