import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { audit, type Fact, type Target } from '../../../test/auditor/auditor.ts';
import { parseDecimal, rat } from '../../../test/auditor/rational.ts';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { buildDisclosureWorld, type DisclosureSpec, type DisclosureWorld } from '../../../test/disclosure-world.ts';
import { type Estimate, estimateKey, intruder, primaryTargets, type Truth, unknownKey } from '../../../test/disclosure-intruder.ts';
import { processHistory } from '../history/history.service.ts';

/*
 * Confidentiality proven, not hoped for: an intruder that holds every figure a viewer, a
 * cluster viewer and each company's reporter can get (every breakdown, trend, cluster month,
 * download, and both publications of a period published twice) attacks every confidential cell
 * with exact rational arithmetic and linear programming (server/test/auditor). Each company also
 * knows its own figures. The worlds hold these cases: a partner worth 0, overlapping
 * groups, a confidential month inside a year to date, a company above the dominance limit, a
 * cluster, a late approval; and random worlds (DISCLOSURE_RUNS, DISCLOSURE_SEED).
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(async () => {
  await t?.close();
});

type Row = DisclosureSpec['rows'][number];
type Dimension = 'code' | 'code_group' | 'code_section' | 'total';

/** A world under test: what it was built from, and what the test knows was published. */
class Scenario {
  readonly truth: Truth;
  /** The facts each collection got, in order (what earlier publications showed stays known). */
  readonly collections: { public: Fact[]; companies: Map<string, Fact[]> }[] = [];
  /** Each market period's publications, in order: the companies each counted. */
  readonly publications = new Map<string, string[][]>();

  constructor(
    readonly spec: DisclosureSpec,
    readonly world: DisclosureWorld,
  ) {
    const approved = new Set(
      spec.rows
        .filter((r) => !spec.late?.some((l) => l.market === r.market && l.period === r.period && l.company === r.company))
        .map((r) => `${r.market}/${r.period}/${r.company}`),
    );
    this.truth = { spec, world, counted: new Map(), approved };
  }

  /** Publishes (or publishes again) a market's period through the API and notes whom it counts. */
  async publish(market: string, period: string, action: 'publish' | 'republish' = 'publish') {
    const uuid = this.world.periodIds[this.world.key(market, period)]!.uuid;
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/periods/${uuid}/${action}`, headers: this.world.headers.marketAdmin });
    expect(res.statusCode, res.body).toBe(200);
    await this.published(market, period);
    return res.json().data;
  }

  /** Notes a new publication of the period (made through the API or a history import): whom it counts, and its estimates. */
  async published(market: string, period: string) {
    const counted = [
      ...new Set(
        this.spec.rows
          .filter((r) => r.market === market && r.period === period && this.truth.approved.has(`${market}/${period}/${r.company}`))
          .map((r) => r.company),
      ),
    ];
    const key = `${market}/${period}`;
    this.truth.counted.set(key, counted);
    this.publications.set(key, [...(this.publications.get(key) ?? []), counted]);
    // The estimates it counts, as the intruder knows them: whose, made from which period, times what change.
    const { sql } = await import('drizzle-orm');
    const estimates = await t.db.execute<{
      company_id: number;
      source: string;
      code_id: number;
      volume: string | null;
      value: string | null;
      volume_ratio: string;
      value_ratio: string;
    }>(sql`
      select e.company_id, sp.title as source, er.code_id, er.volume::text as volume, er.value::text as value,
        er.volume_ratio::text as volume_ratio, er.value_ratio::text as value_ratio
      from statistics_publications p cross join lateral unnest(p.estimate_ids) as x(id)
      join statistics_estimates e on e.id = x.id join periods sp on sp.id = e.source_period_id
      join statistics_estimate_rows er on er.estimate_id = e.id
      where p.period_id = ${this.world.periodIds[this.world.key(market, period)]!.id}
        and p.number = (select max(number) from statistics_publications where period_id = p.period_id)`);
    const companyName = new Map(Object.entries(this.world.companyIds).map(([name, id]) => [id, name]));
    const codeText = new Map(Object.entries(this.world.codeIds).map(([code, id]) => [id, code]));
    const list: Estimate[] = [];
    for (const r of estimates.rows) {
      const company = companyName.get(r.company_id)!;
      const code = codeText.get(r.code_id)!;
      let e = list.find((x) => x.company === company);
      if (!e) list.push((e = { company, source: r.source, ratio: new Map() }));
      e.ratio.set(code, { volume: parseDecimal(r.volume_ratio), value: parseDecimal(r.value_ratio) });
      for (const m of ['volume', 'value'] as const)
        (this.truth.estimated ??= new Map()).set(estimateKey(market, period, company, code, m), parseDecimal(r[m] ?? '0'));
    }
    (this.truth.estimates ??= new Map()).set(key, list);
  }

  async approve(market: string, period: string, company: string) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/reports/${await this.reportUuid(market, period, company)}/status`,
      headers: this.world.headers.marketAdmin,
      payload: { status: 60 },
    });
    expect(res.statusCode, res.body).toBe(200);
    this.truth.approved.add(`${market}/${period}/${company}`);
  }

  /** Undoes a company's approval in a published period (opened again: a closed one changes nothing), which publishes it again without the report. */
  async unapprove(market: string, period: string, company: string) {
    const uuid = this.world.periodIds[this.world.key(market, period)]!.uuid;
    await t.app.inject({ method: 'POST', url: `/api/v1/periods/${uuid}/open`, headers: this.world.headers.marketAdmin });
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/v1/reports/${await this.reportUuid(market, period, company)}/unapprove`,
      headers: this.world.headers.marketAdmin,
      payload: { comment: 'Approved by mistake', republish: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    this.truth.approved.delete(`${market}/${period}/${company}`);
    await this.published(market, period);
  }

  private async reportUuid(market: string, period: string, company: string) {
    const id = this.world.reportIds[`${this.world.key(market, period)}/${company}`]!;
    const { sql } = await import('drizzle-orm');
    return (await t.db.execute<{ uuid: string }>(sql`select uuid::text as uuid from reports where id = ${id}`)).rows[0]!.uuid;
  }

  /** Downloads everything each role can get now, and keeps it. */
  async collect(options: { downloads?: boolean; companies?: readonly string[] } = {}) {
    const { headers } = this.world;
    const everyone = intruder(this.truth);
    await everyone.markets(t, headers.viewer, { downloads: options.downloads });
    await everyone.trends(t, headers.viewer, { downloads: options.downloads });
    await everyone.trends(t, headers.clusterViewer, { cluster: true, downloads: options.downloads });
    await everyone.clusters(t, headers.clusterViewer, { downloads: options.downloads });
    const collection = { public: everyone.facts, companies: new Map<string, Fact[]>() };
    for (const company of options.companies ?? this.spec.companies) {
      const member = intruder(this.truth);
      await member.markets(t, headers.reporters[company]!, { member: company });
      await member.trends(t, headers.reporters[company]!, { member: company });
      await member.company(t, headers.reporters[company]!, company, { downloads: options.downloads });
      collection.companies.set(company, member.facts);
    }
    this.collections.push(collection);
  }

  /** Every confidential sum of every publication, and of the difference of two publications of a period. */
  targets(): Target[] {
    const out: Target[] = [];
    const codesPresent = (market: string, period: string, counted: readonly string[]) => [
      ...new Set(this.spec.rows.filter((r) => r.market === market && r.period === period && counted.includes(r.company)).map((r) => r.code)),
    ];
    const keys = (market: string, period: string, counted: readonly string[]) => {
      const present = codesPresent(market, period, counted);
      const list: { dimension: Dimension; key: number; codes: string[] }[] = present.map((c) => ({
        dimension: 'code',
        key: this.world.codeIds[c]!,
        codes: [c],
      }));
      for (const g of this.spec.groups)
        list.push({ dimension: 'code_group', key: this.world.groupIds[g.title]!, codes: g.codes.filter((c) => present.includes(c)) });
      for (const s of this.spec.sections)
        list.push({
          dimension: 'code_section',
          key: this.world.sectionIds[s.name]!,
          codes: present.filter((c) => /^\d+$/.test(c) && Number(c) >= s.start && Number(c) < s.start + s.length),
        });
      list.push({ dimension: 'total', key: 0, codes: present });
      return list.filter((k) => k.codes.length > 0);
    };
    for (const [key, publications] of this.publications) {
      const [market, period] = key.split('/') as [string, string];
      publications.forEach((counted, i) =>
        out.push(...primaryTargets(this.spec, market, period, counted, keys(market, period, counted), `${key} publication ${i + 1}`)),
      );
      for (let j = 1; j < publications.length; j++)
        for (let i = 0; i < j; i++)
          for (const [from, other] of [
            [j, i],
            [i, j],
          ] as const) {
            const only = publications[from]!.filter((c) => !publications[other]!.includes(c));
            if (only.length)
              out.push(
                ...primaryTargets(this.spec, market, period, only, keys(market, period, publications[from]!), `${key} ${from + 1} without ${other + 1}`),
              );
          }
    }
    return out;
  }

  /** The intruder's findings with what the first `upTo` collections got: an outsider with the public figures, each company with those and its own view. */
  private async attackWith(upTo: number, targets: Target[]) {
    const unknowns = this.spec.rows.flatMap((r: Row) =>
      (['volume', 'value'] as const).map((m) => ({
        key: unknownKey(r.market, r.period, r.company, r.code, m),
        company: this.spec.companies.indexOf(r.company),
        truth: parseDecimal(r[m]),
        // The intruder knows the sign of every figure, and who reported 0.
        sign: signOf(parseDecimal(r[m])),
      })),
    );
    // Every estimate a publication counted: the company's (it knows how its own are made).
    for (const [key, truth] of this.truth.estimated ?? []) {
      const company = key.split('|')[3]!;
      unknowns.push({ key, company: this.spec.companies.indexOf(company), truth, sign: signOf(truth) });
    }
    const protection = rat(this.spec.settings?.protection_percentage ?? 10, 100);
    const collections = this.collections.slice(0, upTo);
    const publicFacts = collections.flatMap((c) => c.public);
    const findings = await audit({ unknowns, facts: publicFacts, targets, intruders: [{ name: 'outsider', company: null }], protection });
    for (const company of new Set(collections.flatMap((c) => [...c.companies.keys()])))
      findings.push(
        ...(await audit({
          unknowns,
          facts: [...publicFacts, ...collections.flatMap((c) => c.companies.get(company) ?? [])],
          targets,
          intruders: [{ name: company, company: this.spec.companies.indexOf(company) }],
          protection,
        })),
      );
    return findings;
  }

  /**
   * What the latest collection gives away that the earlier ones had not: the first publications
   * must protect every confidential sum; a later one may not give away more than what was already
   * known (a sum an earlier publication narrowed stays narrowed, whatever is hidden now).
   */
  async attack() {
    const targets = this.targets();
    const after = await this.attackWith(this.collections.length, targets);
    if (after.length === 0 || this.collections.length === 1) return after;
    const before = new Map((await this.attackWith(this.collections.length - 1, targets)).map((f) => [`${f.target}|${f.intruder}`, f]));
    return after.filter((f) => {
      const was = before.get(`${f.target}|${f.intruder}`);
      return !was || (f.kind === 'determined' && was.kind !== 'determined');
    });
  }
}

/**
 * Publishes SE 2026-03 and attacks everything collected; approves the late company's report,
 * publishes again and attacks what the two publications show together. The republished period.
 */
async function lateApproval(s: Scenario, company: string) {
  await s.publish('SE', '2026-03');
  await s.collect({ downloads: true });
  expect(await s.attack()).toEqual([]);
  await s.approve('SE', '2026-03', company);
  const period = await s.publish('SE', '2026-03', 'republish');
  await s.collect();
  expect(await s.attack()).toEqual([]);
  return period;
}

const signOf = (x: { n: bigint }): 1 | -1 | 0 => (x.n === 0n ? 0 : x.n > 0n ? 1 : -1);

async function scenario(spec: DisclosureSpec) {
  return new Scenario(spec, await buildDisclosureWorld(t, spec));
}

/** Rows of a company in a market and period: code → [volume, value]. */
const rowsOf = (market: string, period: string, company: string, figures: Record<string, [number, number]>): Row[] =>
  Object.entries(figures).map(([code, [volume, value]]) => ({ market, period, company, code, volume: `${volume}.0000`, value: `${value}.5000` }));

/** Five companies' 2026-03 in Sweden, E's report the late one (the late-approval and the estimates worlds). */
const MARCH_ROWS: Row[] = [
  ...rowsOf('SE', '2026-03', 'A', { '1001': [100, 1000], '1002': [50, 400], '2001': [30, 300] }),
  ...rowsOf('SE', '2026-03', 'B', { '1001': [110, 1050], '1002': [45, 420], '2002': [20, 200] }),
  ...rowsOf('SE', '2026-03', 'C', { '1001': [95, 990], '2001': [35, 310], '2002': [25, 260] }),
  ...rowsOf('SE', '2026-03', 'D', { '1002': [60, 500], '2001': [32, 290], '2002': [22, 230] }),
  ...rowsOf('SE', '2026-03', 'E', { '1001': [70, 800], '1002': [40, 380], '2001': [10, 90], '2002': [15, 150] }),
];

/** A row of Sweden's March 2026. */
const row = (company: string, code: string, volume: string, value: string): Row => ({ market: 'SE', period: '2026-03', company, code, volume, value });

/** Sweden's March 2026 of five companies, company E's report the late one: the codes, group G1's codes, the rows; sections 1xxx and 2xxx. */
const lateMarch = (codes: string[], group: string[], rows: Row[]): DisclosureSpec => ({
  markets: [{ iso: 'SE', currency: 'SEK' }],
  codes,
  groups: [{ title: 'G1', codes: group }],
  sections: [
    { name: 'S1', start: 1000, length: 100 },
    { name: 'S2', start: 2000, length: 100 },
  ],
  companies: ['A', 'B', 'C', 'D', 'E'],
  periods: ['2026-03'],
  rows,
  late: [{ market: 'SE', period: '2026-03', company: 'E' }],
});

// ---------------------------------------------------------------------------------------------

const PERIODS = ['2025-01', '2025-02', '2026-01', '2026-02'];
const CODES = ['1001', '1002', '1003', '2001', '2002', '2003'];

/**
 * Sweden (SEK) and Finland (EUR) in one cluster, last year and a year to date. In Sweden:
 * - 1003 has company A alone, and its smallest neighbour 2003 is worth 0 (B, C, D report zeros);
 * - 1002 has two companies in 2026-01 (a confidential month inside 2026-02's year to date);
 * - 2001 is held at 90 % by company E (above the dominance limit);
 * - the groups overlap on 1002; sections split 1xxx and 2xxx.
 * In Finland 1003 has three companies, so the cluster's 1003 is Sweden's plus a shown cell.
 */
function linkedTablesSpec(): DisclosureSpec {
  const rows: Row[] = [];
  for (const period of PERIODS) {
    const k = PERIODS.indexOf(period) + 1;
    rows.push(...rowsOf('SE', period, 'A', { '1001': [100 + k, 1000 + 7 * k], '1003': [40 + k, 700 + k], '2002': [60, 900 + k] }));
    rows.push(...rowsOf('SE', period, 'B', { '1001': [90, 1100 + k], '1002': [30 + k, 300], '2002': [70 + k, 800], '2003': [0, 0] }));
    rows.push(...rowsOf('SE', period, 'C', { '1001': [80 + k, 950], '1002': [35, 310 + k], '2001': [5, 40], '2003': [0, 0] }));
    rows.push(...rowsOf('SE', period, 'D', { '1002': period === '2026-01' ? [0, 0] : [28, 290], '2002': [66, 870 + 2 * k], '2003': [0, 0] }));
    rows.push(...rowsOf('SE', period, 'E', { '2001': [90 + k, 900 + k], '1001': [20, 200] }));
    rows.push(...rowsOf('FI', period, 'B', { '1003': [50, 500 + k], '1001': [70, 640] }));
    rows.push(...rowsOf('FI', period, 'C', { '1003': [55 + k, 520], '1001': [75, 610 + k] }));
    rows.push(...rowsOf('FI', period, 'D', { '1003': [52, 530], '1001': [66 + k, 600] }));
  }
  // D reports 1002 in 2026-01 only with nothing: it is not there that month.
  return {
    markets: [
      { iso: 'SE', currency: 'SEK' },
      { iso: 'FI', currency: 'EUR' },
    ],
    codes: CODES,
    groups: [
      { title: 'G1', codes: ['1001', '1002', '2001'] },
      { title: 'G2', codes: ['1002', '2002', '2003'] },
    ],
    sections: [
      { name: 'S1', start: 1000, length: 100 },
      { name: 'S2', start: 2000, length: 100 },
    ],
    companies: ['A', 'B', 'C', 'D', 'E'],
    periods: PERIODS,
    rows: rows.filter((r) => !(r.company === 'D' && r.code === '1002' && r.period === '2026-01')),
  };
}

describe('disclosure control, attacked', () => {
  it('when everything a viewer, a cluster viewer and each reporter can get is collected (a zero partner, overlapping groups, a confidential month in a year to date, a dominant company, a cluster), then no confidential cell is worked out or narrowed within ±10 %', async () => {
    const s = await scenario(linkedTablesSpec());
    for (const market of ['SE', 'FI']) for (const period of PERIODS) await s.publish(market, period);
    await s.collect({ downloads: true });
    expect(await s.attack()).toEqual([]);
  }, 600_000);

  it('when a period is published, a late report approved and the period published again, then neither publication nor their difference gives a company away', async () => {
    const spec: DisclosureSpec = {
      markets: [{ iso: 'SE', currency: 'SEK' }],
      codes: ['1001', '1002', '2001', '2002'],
      groups: [{ title: 'G1', codes: ['1001', '2001'] }],
      sections: [{ name: 'S1', start: 1000, length: 100 }],
      companies: ['A', 'B', 'C', 'D', 'E'],
      periods: ['2026-03'],
      rows: [...MARCH_ROWS],
      late: [{ market: 'SE', period: '2026-03', company: 'E' }],
    };
    const s = await scenario(spec);
    const period = await lateApproval(s, 'E');
    expect(period.publication).toMatchObject({ number: 2, changed: false });
    // E's figures alone are what the two publications differ by: every cell of them is confidential.
    expect(s.targets().filter((x) => x.source.includes('2 without 1')).length).toBeGreaterThan(0);
  }, 600_000);

  it('when an approval in a published period is undone, which publishes it again without the report, then neither publication nor their difference gives the company away', async () => {
    const spec: DisclosureSpec = {
      markets: [{ iso: 'SE', currency: 'SEK' }],
      codes: ['1001', '1002', '2001', '2002'],
      groups: [{ title: 'G1', codes: ['1001', '2001'] }],
      sections: [{ name: 'S1', start: 1000, length: 100 }],
      companies: ['A', 'B', 'C', 'D', 'E'],
      periods: ['2026-03'],
      rows: [...MARCH_ROWS],
    };
    const s = await scenario(spec);
    await s.publish('SE', '2026-03');
    await s.collect({ downloads: true });
    expect(await s.attack()).toEqual([]);
    await s.unapprove('SE', '2026-03', 'E');
    await s.collect();
    expect(await s.attack()).toEqual([]);
    // E's figures alone are what the two publications differ by, and they are attacked.
    expect(s.targets().filter((x) => x.source.includes('1 without 2')).length).toBeGreaterThan(0);
  }, 600_000);

  it('when members report returns (a company alone, two together, a late one), zeros and an exactly dominant share, then nothing is worked out or narrowed, before or after the late report', async () => {
    // 1003 and 1004 are returns codes.
    const spec = lateMarch(
      ['1001', '1002', '1003', '1004', '2001', '2002'],
      ['1001', '1003', '2001'],
      [
        ...rowsOf('SE', '2026-03', 'A', { '1001': [700, 7000], '1003': [-40, -401], '2001': [5, 50], '2002': [186, 1860] }),
        row('A', '1002', '500.0000', '5000.0000'),
        ...rowsOf('SE', '2026-03', 'B', { '1001': [300, 3000], '1004': [-30, -300], '2002': [190, 1900] }),
        row('B', '1002', '0.0000', '0.0000'),
        ...rowsOf('SE', '2026-03', 'C', { '1001': [250, 2500], '1004': [-50, -500], '2002': [175, 1750] }),
        row('C', '1002', '0.0000', '0.0000'),
        row('D', '1001', '310.0000', '3100.0000'),
        row('D', '2001', '85.0000', '850.0000'),
        row('D', '2002', '160.0000', '1600.0000'),
        row('E', '1001', '280.0000', '2800.0000'),
        row('E', '1004', '-25.0000', '-250.0000'),
        row('E', '2001', '10.0000', '100.0000'),
      ],
    );
    const s = await scenario(spec);
    await lateApproval(s, 'E');
    // 1002 (A's 500 beside two zeros) and 2001 (D's 85 of 100) break the rules: viewers never see them.
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/v1/statistics/market?period_uuid=${s.world.periodIds[s.world.key('SE', '2026-03')]!.uuid}&by=code`,
      headers: s.world.headers.viewer,
    });
    expect(res.statusCode, res.body).toBe(200);
    const codes = res.json().data.rows as { key: { id: number }; confidential: boolean; volume: string | null }[];
    for (const code of ['1002', '2001', '1003', '1004'])
      expect(
        codes.find((r) => r.key.id === s.world.codeIds[code]),
        code,
      ).toMatchObject({ confidential: true, volume: null });
  }, 600_000);
});

/** Runs a history import's step as the queue would (this app runs no jobs) and waits for its answer. */
async function historyStep(s: Scenario, uuid: string, action: 'check' | 'import' | 'publish', done: string) {
  const { sql } = await import('drizzle-orm');
  if (action !== 'check') {
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/history-imports/${uuid}/${action}`, headers: s.world.headers.marketAdmin });
    expect(res.statusCode, res.body).toBe(200);
  }
  const [row] = (await t.db.execute<{ id: number }>(sql`select id from history_imports where uuid = ${uuid}`)).rows;
  await processHistory(t.db, t.app.log, row!.id);
  const detail = (await t.app.inject({ url: `/api/v1/history-imports/${uuid}`, headers: s.world.headers.marketAdmin })).json().data;
  expect(detail.status, JSON.stringify(detail.errors)).toBe(done);
  return detail;
}

describe('disclosure control, attacked after a history import', () => {
  it('when a history import brings a late report of returns and zeros into a published period and publishes it again, then neither publication nor their difference gives a company away', async () => {
    // E's report is the late one: it arrives in the association's history file, with a return,
    // a zero and a code only it and one other company report.
    const late: Row[] = [
      row('E', '1001', '280.0000', '2800.0000'),
      row('E', '1004', '-25.0000', '-250.0000'),
      row('E', '2001', '0.0000', '0.0000'),
      row('E', '2002', '12.0000', '125.5000'),
    ];
    const spec = lateMarch(
      ['1001', '1002', '1004', '2001', '2002'],
      ['1001', '1004', '2001'],
      [
        ...rowsOf('SE', '2026-03', 'A', { '1001': [700, 7000], '1002': [500, 5000], '2001': [5, 50] }),
        ...rowsOf('SE', '2026-03', 'B', { '1001': [300, 3000], '1004': [-30, -300], '2002': [190, 1900] }),
        row('B', '1002', '0.0000', '0.0000'),
        ...rowsOf('SE', '2026-03', 'C', { '1001': [250, 2500], '1004': [-50, -500], '2002': [175, 1750] }),
        ...rowsOf('SE', '2026-03', 'D', { '1001': [310, 3100], '2001': [85, 850], '2002': [160, 1600] }),
        ...late,
      ],
    );
    const s = await scenario(spec);
    await s.publish('SE', '2026-03');
    await s.collect({ downloads: true });
    expect(await s.attack()).toEqual([]);

    // The codes each company reports (the world writes reports straight into the database; an
    // import, of a report's file or a history, checks them).
    const { sql } = await import('drizzle-orm');
    await t.db.execute(sql`
      insert into company_codes (company_id, code_id)
      select c, k from unnest(${`{${Object.values(s.world.companyIds).join(',')}}`}::int[]) c cross join unnest(${`{${Object.values(s.world.codeIds).join(',')}}`}::int[]) k`);
    // The history file: E's rows of March (the figures with a decimal comma, as members export them).
    const csv = [
      'Market;Period;Company;Code;Volume;Value',
      ...late.map((r) => `SE;2026-03;E;${r.code};${r.volume.replace('.', ',')};${r.value.replace('.', ',')}`),
    ].join('\r\n');
    const boundary = '----mss-disclosure-history';
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/v1/history-imports',
      headers: { ...s.world.headers.marketAdmin, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="history.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`,
      ),
    });
    expect(uploaded.statusCode, uploaded.body).toBe(202);
    const uuid = uploaded.json().data.uuid as string;
    await historyStep(s, uuid, 'check', 'checked');
    expect((await historyStep(s, uuid, 'import', 'imported')).result).toMatchObject({ reports_replaced: 1, reports_created: 0 });
    expect((await historyStep(s, uuid, 'publish', 'published')).result).toMatchObject({ periods_published: 1 });
    s.truth.approved.add('SE/2026-03/E');
    await s.published('SE', '2026-03');
    expect(s.publications.get('SE/2026-03')!.map((c) => c.length)).toEqual([4, 5]);
    await s.collect();
    expect(await s.attack()).toEqual([]);
    // E's figures alone are what the two publications differ by: every cell of them is attacked.
    expect(s.targets().filter((x) => x.source.includes('2 without 1')).length).toBeGreaterThan(0);
  }, 600_000);
});

describe('estimates for missing reports', () => {
  /**
   * 2026-02 is complete and published; in 2026-03, E is late. With estimates on, 2026-03 is first
   * published with E's 2026-02 rows times the change of A–D, then again with E's report. The
   * intruder holds everything of both periods and knows how the estimate is made.
   */
  const spec = (): DisclosureSpec => ({
    settings: { estimate_missing_reports: 1 },
    markets: [{ iso: 'SE', currency: 'SEK' }],
    codes: ['1001', '1002', '2001', '2002'],
    groups: [{ title: 'G1', codes: ['1001', '2001'] }],
    sections: [
      { name: 'S1', start: 1000, length: 100 },
      { name: 'S2', start: 2000, length: 100 },
    ],
    companies: ['A', 'B', 'C', 'D', 'E'],
    periods: ['2026-02', '2026-03'],
    rows: [
      ...rowsOf('SE', '2026-02', 'A', { '1001': [90, 900], '1002': [45, 380], '2001': [28, 280] }),
      ...rowsOf('SE', '2026-02', 'B', { '1001': [100, 1000], '1002': [40, 400], '2002': [18, 180] }),
      ...rowsOf('SE', '2026-02', 'C', { '1001': [85, 900], '2001': [30, 300], '2002': [22, 240] }),
      ...rowsOf('SE', '2026-02', 'D', { '1002': [55, 450], '2001': [30, 270], '2002': [20, 210] }),
      ...rowsOf('SE', '2026-02', 'E', { '1001': [60, 700], '1002': [35, 350], '2001': [9, 80], '2002': [12, 130] }),
      ...MARCH_ROWS,
    ],
    late: [{ market: 'SE', period: '2026-03', company: 'E' }],
  });
  const market = async (s: Scenario, headers: Record<string, string>, format = '') =>
    t.app.inject({ url: `/api/v1/statistics/market?period_uuid=${s.world.periodIds[s.world.key('SE', '2026-03')]!.uuid}&by=code${format}`, headers });

  it('when a late report is published as an estimate and then arrives, then the figures are marked estimated until it does, and nothing of either period is worked out or narrowed', async () => {
    const s = await scenario(spec());
    await s.publish('SE', '2026-02');
    await s.collect();
    expect(await s.attack()).toEqual([]);

    // The preview says the missing report will be estimated; once it is in, publishing again hides only what the difference from the estimate asks.
    const preview = await t.app.inject({
      url: `/api/v1/periods/${s.world.periodIds[s.world.key('SE', '2026-03')]!.uuid}/publication-preview`,
      headers: s.world.headers.marketAdmin,
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().data).toMatchObject({ estimated: 1, changed: true, later: { simulated: 1 } });
    const first = await s.publish('SE', '2026-03');
    expect(first.publication).toMatchObject({ number: 1 });
    const { sql } = await import('drizzle-orm');
    const made = await t.db.execute<{ code: string; volume: string; value: string; volume_ratio: string; value_ratio: string }>(sql`
      select c.code, er.volume::text as volume, er.value::text as value, er.volume_ratio::text as volume_ratio, er.value_ratio::text as value_ratio
      from statistics_estimates e join statistics_estimate_rows er on er.estimate_id = e.id join codes c on c.id = er.code_id
      where e.company_id = ${s.world.companyIds.E!} order by c.code`);
    // 1001: A, B and C sold 100 + 110 + 95 = 305 now against 90 + 100 + 85 = 275 then; E's 60 times that.
    expect(made.rows.find((r) => r.code === '1001')).toEqual({
      code: '1001',
      volume_ratio: '1.109091',
      value_ratio: expect.any(String),
      volume: '66.5455',
      value: expect.any(String),
    });
    expect(made.rows.map((r) => r.code)).toEqual(['1001', '1002', '2001', '2002']);
    const viewer = (await market(s, s.world.headers.viewer)).json().data;
    // The total counts A–D's reports and E's estimate, and says so.
    expect(viewer.totals.estimated).toBe(true);
    for (const row of viewer.rows as { confidential: boolean; estimated: boolean }[]) expect(row.estimated).toBe(!row.confidential);
    const csv = await market(s, s.world.headers.viewer, '&format=csv');
    expect(csv.body).toContain('Estimated');
    // The year to date counts this period too; each figure is followed by its flags (no last year: the changes are breaks).
    expect(csv.body).toContain('Total,,752.616,e,7320.7517,e,,,,,,eb,,eb,1431.616,e,14098.7517,e,,,,,,eb,,eb,100,e,100,e,5,,"period, year to date"\r\n');
    await s.collect({ downloads: true });
    expect(await s.attack()).toEqual([]);

    await s.approve('SE', '2026-03', 'E');
    const second = await s.publish('SE', '2026-03', 'republish');
    expect(second.publication).toMatchObject({ number: 2 });
    const after = (await market(s, s.world.headers.viewer)).json().data;
    expect(after.totals.estimated).toBe(false);
    expect((after.rows as { estimated: boolean }[]).some((r) => r.estimated)).toBe(false);
    await s.collect();
    expect(await s.attack()).toEqual([]);
  }, 600_000);

  it('when an estimate is made from a figure that was confidential last period, then the cell that holds it does not give it away', async () => {
    // 2026-02: C alone sold 2003 (a confidential cell). 2026-03: only D reports 2003, C is late and
    // estimated; two companies suffice, so 2003 = D's 100 + C's estimate could be shown, and D,
    // knowing its own figure and the change, would read C's confidential 2026-02 figure off it.
    const s = await scenario({
      settings: { estimate_missing_reports: 1, min_contributors: 2 },
      markets: [{ iso: 'SE', currency: 'SEK' }],
      codes: ['1001', '1002', '2003'],
      groups: [],
      sections: [{ name: 'S1', start: 1000, length: 2000 }],
      companies: ['A', 'B', 'C', 'D'],
      periods: ['2026-02', '2026-03'],
      rows: [
        ...rowsOf('SE', '2026-02', 'A', { '1001': [90, 900], '1002': [45, 380] }),
        ...rowsOf('SE', '2026-02', 'B', { '1001': [100, 1000], '1002': [40, 400] }),
        ...rowsOf('SE', '2026-02', 'C', { '1001': [85, 900], '2003': [134, 750] }),
        ...rowsOf('SE', '2026-02', 'D', { '1001': [70, 800], '1002': [55, 450] }),
        ...rowsOf('SE', '2026-03', 'A', { '1001': [100, 1000], '1002': [50, 400] }),
        ...rowsOf('SE', '2026-03', 'B', { '1001': [110, 1050], '1002': [45, 420] }),
        ...rowsOf('SE', '2026-03', 'C', { '1001': [95, 990], '2003': [120, 700] }),
        ...rowsOf('SE', '2026-03', 'D', { '1001': [75, 820], '1002': [60, 500], '2003': [100, 484] }),
      ],
      late: [{ market: 'SE', period: '2026-03', company: 'C' }],
    });
    await s.publish('SE', '2026-02');
    await s.collect();
    expect(await s.attack()).toEqual([]);
    await s.publish('SE', '2026-03');
    await s.collect({ downloads: true });
    expect(await s.attack()).toEqual([]);
    await s.approve('SE', '2026-03', 'C');
    await s.publish('SE', '2026-03', 'republish');
    await s.collect();
    expect(await s.attack()).toEqual([]);
  }, 600_000);

  it('when a period is published with estimates while the period they are made from is published again, then both publish and nothing is given away', async () => {
    // D is late in 2026-02 too: 2026-02 is published without it, then D is approved, and 2026-02 is
    // published again at the same time as 2026-03 (whose estimate of E is made from 2026-02).
    const base = spec();
    const s = await scenario({ ...base, late: [...base.late!, { market: 'SE', period: '2026-02', company: 'D' }] });
    await s.publish('SE', '2026-02');
    await s.collect();
    await s.approve('SE', '2026-02', 'D');
    const [again, first] = await Promise.all([s.publish('SE', '2026-02', 'republish'), s.publish('SE', '2026-03')]);
    expect(again.publication).toMatchObject({ number: 2 });
    expect(first.publication).toMatchObject({ number: 1 });
    await s.collect({ downloads: true });
    expect(await s.attack()).toEqual([]);
  }, 600_000);

  it('when no report of the period is approved yet, then nothing is estimated (no respondents, no change)', async () => {
    const base = spec();
    const s = await scenario({ ...base, late: base.companies.map((company) => ({ market: 'SE', period: '2026-03', company })) });
    await s.publish('SE', '2026-02');
    const preview = await t.app.inject({
      url: `/api/v1/periods/${s.world.periodIds[s.world.key('SE', '2026-03')]!.uuid}/publication-preview`,
      headers: s.world.headers.marketAdmin,
    });
    expect(preview.json().data).toMatchObject({ estimated: 0, now: { cells: 0 } });
  }, 600_000);

  it('when the organization does not estimate, then the late report is left out and nothing is marked estimated', async () => {
    const s = await scenario({ ...spec(), settings: {} });
    await s.publish('SE', '2026-02');
    await s.publish('SE', '2026-03');
    const viewer = (await market(s, s.world.headers.viewer)).json().data;
    expect(viewer.totals.estimated).toBe(false);
    const { sql } = await import('drizzle-orm');
    expect((await t.db.execute(sql`select 1 from statistics_estimates e where e.company_id = ${s.world.companyIds.E!}`)).rows).toEqual([]);
  }, 600_000);
});

// ---------------------------------------------------------------------------------------------

const seed = Number(process.env.DISCLOSURE_SEED ?? 19);
const runs = Number(process.env.DISCLOSURE_RUNS ?? 6);

/** A small random world: one or two markets, up to five companies and five codes (1002 a returns code), zeros, exactly dominant shares, three periods, a late report. */
const randomSpec: fc.Arbitrary<DisclosureSpec> = fc
  .record({
    markets: fc.integer({ min: 1, max: 2 }),
    companies: fc.integer({ min: 2, max: 5 }),
    codes: fc.integer({ min: 2, max: 5 }),
    settings: fc.record({
      min_contributors: fc.integer({ min: 2, max: 4 }),
      dominance_percentage: fc.constantFrom(70, 85),
      protection_percentage: fc.constantFrom(10, 20),
    }),
  })
  .chain((shape) => {
    const markets = ['SE', 'FI'].slice(0, shape.markets);
    const companies = ['A', 'B', 'C', 'D', 'E'].slice(0, shape.companies);
    const codes = ['1001', '1002', '2001', '2002', '2003'].slice(0, shape.codes);
    const periods = ['2025-01', '2026-01', '2026-02'];
    const cells = markets.flatMap((market) =>
      periods.flatMap((period) => companies.flatMap((company) => codes.map((code) => ({ market, period, company, code })))),
    );
    return fc
      .record({
        present: fc.array(fc.boolean(), { minLength: cells.length, maxLength: cells.length }),
        figures: fc.array(
          fc.oneof(
            { weight: 5, arbitrary: fc.tuple(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: 3000 })) },
            { weight: 1, arbitrary: fc.constant([0, 0] as [number, number]) },
            { weight: 1, arbitrary: fc.constantFrom<[number, number]>([85, 850], [15, 150], [100, 1000]) },
          ),
          { minLength: cells.length, maxLength: cells.length },
        ),
        groups: fc.array(fc.subarray(codes, { minLength: 1 }), { maxLength: 2 }),
        late: fc.nat({ max: companies.length - 1 }),
      })
      .map(({ present, figures, groups, late }): DisclosureSpec => ({
        settings: shape.settings,
        markets: markets.map((iso) => ({ iso, currency: iso === 'SE' ? 'SEK' : 'EUR' })),
        codes,
        groups: groups.map((g, i) => ({ title: `G${i + 1}`, codes: g })),
        sections: [{ name: 'S1', start: 1000, length: 100 }],
        companies,
        periods,
        // 1002 is a returns code: its figures are below zero.
        rows: cells.flatMap((c, i) => {
          if (!present[i]) return [];
          const sign = c.code === '1002' && figures[i]![0] + figures[i]![1] > 0 ? '-' : '';
          return [{ ...c, volume: `${figures[i]![0] ? sign : ''}${figures[i]![0]}.0000`, value: `${figures[i]![1] ? sign : ''}${figures[i]![1]}.0000` }];
        }),
        late: [{ market: markets[0]!, period: '2026-02', company: companies[late]! }],
      }));
  });

describe('disclosure control, attacked in random worlds', () => {
  it(`when ${runs} random worlds are published, a late report approved and published again (seed ${seed}), then the intruder finds nothing`, async () => {
    await fc.assert(
      fc.asyncProperty(randomSpec, async (spec) => {
        const s = await scenario(spec);
        for (const m of spec.markets) for (const p of spec.periods) if (spec.rows.some((r) => r.market === m.iso && r.period === p)) await s.publish(m.iso, p);
        await s.collect({ companies: spec.companies.slice(0, 2) });
        const late = spec.late![0]!;
        if (spec.rows.some((r) => r.market === late.market && r.period === late.period && r.company === late.company)) {
          await s.approve(late.market, late.period, late.company);
          await s.publish(late.market, late.period, 'republish');
          await s.collect({ companies: spec.companies.slice(0, 2) });
        }
        expect(await s.attack()).toEqual([]);
      }),
      { seed, numRuns: runs },
    );
  }, 900_000);
});
