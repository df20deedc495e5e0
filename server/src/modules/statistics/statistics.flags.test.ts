import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterStatisticsSchema, marketStatisticsSchema, trendStatisticsSchema } from '@mss/contracts/statistics';
import { createMarket, createOrganization, createTestApp, insertMemberCompany, insertReport, signInAs, type TestApp, unique } from '../../../test/helpers.ts';

/*
 * The flags of a figure and comparisons like with like (docs/architecture.md §8 "Flags"): a year to
 * date over other months than last year's is no change; a change without a published last year is
 * flagged; a figure republished differently is revised; approvers are told why a row is hidden;
 * overlapping groups say their shares can exceed 100 %.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

/**
 * A market that reports from 2025-03 (as Finland in the demo reports from 2025-09): 2025-03 and
 * 2026-01…03 published, 2025-01 a closed period nobody published. Four companies; company 4 has
 * code 1002 alone in 2026-02 (a cell of one company), and its 2026-03 report is approved late.
 */
async function world() {
  const org = await createOrganization(t.db);
  const market = await createMarket(t.db, org.id);
  const code = async (text: string) => {
    const id = (
      await t.db.execute<{ id: number }>(sql`insert into codes (organization_id, code, name) values (${org.id}, ${text}, ${`Code ${text}`}) returning id`)
    ).rows[0]!.id;
    await t.db.execute(sql`insert into code_markets (code_id, market_id) values (${id}, ${market.id})`);
    return id;
  };
  const codes = { c1001: await code('1001'), c1002: await code('1002'), c2001: await code('2001') };
  // Two groups sharing code 1001: their shares can add up to more than 100 %.
  const groups: number[] = [];
  for (const [title, members] of [
    ['Cars', [codes.c1001, codes.c1002]],
    ['Everything small', [codes.c1001, codes.c2001]],
  ] as const) {
    const group = (await t.db.execute<{ id: number }>(sql`insert into code_groups (organization_id, title) values (${org.id}, ${unique(title)}) returning id`))
      .rows[0]!.id;
    for (const c of members) await t.db.execute(sql`insert into code_group_codes (code_group_id, code_id) values (${group}, ${c})`);
    groups.push(group);
  }
  const companies: number[] = [];
  for (let c = 1; c <= 4; c++) companies.push(await insertMemberCompany(t.db, org.id, market.id, unique(`Company ${c}`)));
  const periods: Record<string, { id: number; uuid: string }> = {};
  const reports: Record<string, string> = {};
  for (const title of ['2025-01', '2025-03', '2026-01', '2026-02', '2026-03']) {
    const [y, m] = title.split('-').map(Number) as [number, number];
    const ends = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
    const period = (
      await t.db.execute<{ id: number; uuid: string }>(sql`
        insert into periods (market_id, title, starts_on, ends_on, status) values (${market.id}, ${title}, ${`${title}-01`}, ${ends}, ${title === '2026-03' ? 'open' : 'closed'})
        returning id, uuid::text as uuid`)
    ).rows[0]!;
    periods[title] = period;
    for (const [i, company] of companies.entries()) {
      const late = title === '2026-03' && i === 3;
      const base = 100 + i * 10 + Number(title.slice(5));
      const rows = [
        { codeId: codes.c1001, volume: String(base), value: String(base * 10) },
        { codeId: codes.c2001, volume: String(base + 1), value: String(base * 11) },
        ...(i === 3 && title === '2026-02' ? [{ codeId: codes.c1002, volume: '5', value: '50' }] : []),
      ];
      const report = await insertReport(t.db, { periodId: period.id, companyId: company, status: late ? 40 : 60, rows });
      reports[`${title}/${i + 1}`] = report.uuid;
    }
  }
  // A cluster of this market, one whose 2026-03 is not published (two companies expected), and one without periods; all in EUR.
  const eur = (
    await t.db.execute<{ id: number }>(
      sql`insert into currencies (iso_code, name) values ('EUR', 'Euro') on conflict (iso_code) do update set name = excluded.name returning id`,
    )
  ).rows[0]!.id;
  const late = await createMarket(t.db, org.id, unique('Late market'));
  const quiet = await createMarket(t.db, org.id, unique('Quiet market'));
  await t.db.execute(sql`update markets set currency_id = ${eur} where id in (${market.id}, ${late.id}, ${quiet.id})`);
  const latePeriod = (
    await t.db.execute<{ id: number }>(
      sql`insert into periods (market_id, title, starts_on, ends_on, status) values (${late.id}, '2026-03', '2026-03-01', '2026-03-31', 'open') returning id`,
    )
  ).rows[0]!.id;
  for (const company of companies.slice(0, 2)) {
    await t.db.execute(sql`insert into company_markets (company_id, market_id, roles) values (${company}, ${late.id}, ${'{reporter,company}'}::text[])`);
    await t.db.execute(sql`insert into reports (period_id, company_id, status) values (${latePeriod}, ${company}, 60)`);
  }
  const cluster = (await t.db.execute<{ id: number }>(sql`insert into clusters (organization_id, name) values (${org.id}, ${unique('Cluster')}) returning id`))
    .rows[0]!.id;
  await t.db.execute(
    sql`insert into cluster_markets (cluster_id, market_id) values (${cluster}, ${market.id}), (${cluster}, ${late.id}), (${cluster}, ${quiet.id})`,
  );
  const admin = await signInAs(t, ['market-admin'], { organizationId: org.id, marketIds: [market.id] });
  const viewer = await signInAs(t, ['viewer'], { organizationId: org.id, marketIds: [market.id] });
  const clusterViewer = await signInAs(t, ['cluster-viewer'], { organizationId: org.id, marketIds: [market.id, late.id, quiet.id] });
  for (const title of ['2025-03', '2026-01', '2026-02', '2026-03']) {
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/periods/${periods[title]!.uuid}/publish`, headers: admin.headers });
    expect(res.statusCode, res.body).toBe(200);
  }
  return { org, market, late, quiet, cluster, codes, groups, periods, reports, admin, viewer, clusterViewer };
}

type World = Awaited<ReturnType<typeof world>>;
let w: World;
beforeAll(async () => {
  w = await world();
}, 60_000);

const market = async (headers: Record<string, string>, title: string, by = 'code', format = '') => {
  const res = await t.app.inject({ url: `/api/v1/statistics/market?period_uuid=${w.periods[title]!.uuid}&by=${by}${format}`, headers });
  expect(res.statusCode, res.body).toBe(200);
  if (format) return res;
  return marketStatisticsSchema.parse(res.json().data) && res.json().data;
};

describe('comparisons like with like', () => {
  it('when last year has fewer months to date than this year, then the year-to-date change is withheld, flagged b, and the answer says why', async () => {
    const data = await market(w.viewer.headers, '2026-03');
    expect(data.comparison).toMatchObject({ ytd_periods: 3, ytd_last_year_periods: 1, ytd_break: { months: 3, matching: 1, last_year_months: 1 } });
    // The figures of both years to date are there; their change is not.
    expect(data.totals.ytd_volume).not.toBeNull();
    expect(data.totals.ytd_volume_last_year).not.toBeNull();
    expect(data.totals.ytd_volume_change_pct).toBeNull();
    expect(data.totals.ytd_value_change_pct).toBeNull();
    expect(data.totals.flags.ytd_change).toBe('b');
    // The month against the same month a year earlier: shown, flagged b, as company 4's report is
    // not approved yet (3 of 4 against 4 of 4).
    expect(data.comparison.last_year_break).toBe('coverage');
    expect(data.totals.volume_change_pct).not.toBeNull();
    expect(data.totals.flags.change).toBe('b');
  });

  it('when there is no period a year earlier, or one not published, then the change is flagged b and the answer says which', async () => {
    const none = await market(w.viewer.headers, '2026-02');
    expect(none.comparison.last_year_break).toBe('missing');
    expect(none.totals.volume_change_pct).toBeNull();
    expect(none.totals.flags.change).toBe('b');
    const unpublished = await market(w.viewer.headers, '2026-01');
    expect(unpublished.comparison.last_year_break).toBe('unpublished');
    expect(unpublished.totals.flags.change).toBe('b');
    // The approver sees that period provisionally: a change, flagged provisional.
    const approver = await market(w.admin.headers, '2026-01');
    expect(approver.comparison.last_year_break).toBeNull();
    expect(approver.totals.volume_change_pct).not.toBeNull();
    expect(approver.totals.flags).toMatchObject({ period: '', last_year: 'p', change: 'p' });
  });

  it('when the downloads are asked for, then each figure has its flags column and the notes say why a change is missing', async () => {
    const csv = (await market(w.viewer.headers, '2026-03', 'code', '&format=csv')) as { body: string };
    const lines = csv.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines).toContain('Note,"Year to date: 2025 has 1 of these 3 months, so the change is not shown."');
    const header = lines.find((l) => l.startsWith('Code,Name,'))!.split(',');
    const total = lines.find((l) => l.startsWith('Total,'))!.split(',');
    expect(header[header.indexOf('Volume year to date change %') + 1]).toBe('Volume year to date change % flags');
    expect(total[header.indexOf('Volume year to date change %')]).toBe('');
    expect(total[header.indexOf('Volume year to date change % flags')]).toBe('b');
  });
});

describe('a cluster says what it holds', () => {
  const cluster = async (month: string) => {
    const res = await t.app.inject({
      url: `/api/v1/statistics/cluster?cluster_id=${w.cluster}&month=${month}&by=code&currency=EUR`,
      headers: w.clusterViewer.headers,
    });
    expect(res.statusCode, res.body).toBe(200);
    return clusterStatisticsSchema.parse(res.json().data);
  };

  it("when one market of three is published for the month, then the answer lists the other two and why, and its coverage is the cluster's", async () => {
    const data = await cluster('2026-03');
    expect(data.markets.map((m) => m.market.id)).toEqual([w.market.id]);
    expect(data.absent).toEqual([
      { market: expect.objectContaining({ id: w.late.id }), state: 'unpublished' },
      { market: expect.objectContaining({ id: w.quiet.id }), state: 'no_period' },
    ]);
    // The published market's approved reports, of every report expected this month (4 there, 2 in the late market).
    const own = await market(w.viewer.headers, '2026-03');
    expect(data.coverage).toEqual({ approved: own.coverage.approved, expected: 6 });
    // The only market has its month a year earlier: the change is there.
    expect(data.change_withheld).toBe(false);
    expect(data.totals.volume_change_pct).not.toBeNull();
    const csv = await t.app.inject({
      url: `/api/v1/statistics/cluster?cluster_id=${w.cluster}&month=2026-03&by=code&currency=EUR&format=csv`,
      headers: w.clusterViewer.headers,
    });
    expect(csv.body).toContain(
      `Note,"Not in these figures: ${w.late.international_name} (not yet published), ${w.quiet.international_name} (no period this month)."`,
    );
  });

  it('when a market of the figures has no period a year earlier, then the cluster change is withheld and flagged b, though the other has one', async () => {
    const admin = await signInAs(t, ['admin'], { organizationId: w.org.id });
    const uuid = (await t.db.execute<{ uuid: string }>(sql`select uuid::text as uuid from periods where market_id = ${w.late.id}`)).rows[0]!.uuid;
    const publish = await t.app.inject({ method: 'POST', url: `/api/v1/periods/${uuid}/publish`, headers: admin.headers });
    expect(publish.statusCode, publish.body).toBe(200);
    const data = await cluster('2026-03');
    expect(data.markets.map((m) => m.market.id)).toEqual([w.market.id, w.late.id]);
    expect(data.absent).toEqual([{ market: expect.objectContaining({ id: w.quiet.id }), state: 'no_period' }]);
    // A year earlier the sums would hold one market of the two: no change.
    expect(data.change_withheld).toBe(true);
    expect(data.totals.volume_last_year).not.toBeNull();
    expect(data.totals.volume_change_pct).toBeNull();
    expect(data.totals.flags.change).toContain('b');
  });
});

describe('flags on the figures', () => {
  it('when a late report is approved, then the approver sees the figures revised at once, and viewers the published ones until it is published again', async () => {
    const published = await market(w.viewer.headers, '2026-03');
    expect(published.totals.flags.period).toBe('');
    expect(published.totals.first_published).toBeNull();
    const approve = await t.app.inject({
      method: 'POST',
      url: `/api/v1/reports/${w.reports['2026-03/4']}/status`,
      headers: w.admin.headers,
      payload: { status: 60 },
    });
    expect(approve.statusCode, approve.body).toBe(200);
    // The approver reads the figures as they stand: revised against the first publication already.
    const approver = await market(w.admin.headers, '2026-03');
    expect(approver.totals.flags.period).toBe('r');
    // And what it was first published as: what viewers read.
    expect(approver.totals.first_published).toEqual({ volume: published.totals.volume, value: published.totals.value });
    expect(approver.totals.volume).not.toBe(published.totals.volume);
    expect(approver.totals.flags.ytd).toBe('r');
    // Last year's year to date counts 2025-01, which is not published: provisional for the approver.
    expect(approver.totals.flags.ytd_last_year).toBe('p');
    expect((await market(w.viewer.headers, '2026-03')).totals.flags.period).toBe('');
    const republish = await t.app.inject({ method: 'POST', url: `/api/v1/periods/${w.periods['2026-03']!.uuid}/republish`, headers: w.admin.headers });
    expect(republish.statusCode, republish.body).toBe(200);
    // The difference of the two publications is company 4's own figures: the cells it changed are
    // hidden, and a hidden figure carries no r (that would tell it changed).
    const after = await market(w.viewer.headers, '2026-03');
    expect(after.comparison.last_year_break).toBeNull();
    for (const row of [...after.rows, after.totals]) if (row.confidential) expect(row.flags.period).toBe('c');
  });

  it('when a group loses a code and the period is published again, then viewers see that group flagged r and the other not', async () => {
    await t.db.execute(sql`delete from code_group_codes where code_group_id = ${w.groups[1]!} and code_id = ${w.codes.c2001}`);
    const republish = await t.app.inject({ method: 'POST', url: `/api/v1/periods/${w.periods['2026-01']!.uuid}/republish`, headers: w.admin.headers });
    expect(republish.statusCode, republish.body).toBe(200);
    const data = await market(w.viewer.headers, '2026-01', 'code_group');
    const [cars, small] = w.groups.map((id) => data.rows.find((r: { key: { id: number } }) => r.key.id === id));
    expect(small).toMatchObject({ confidential: false });
    expect(small.flags.period).toBe('r');
    // The group first held 1001 and 2001: the total of the two codes, as the first publication showed it.
    expect(small.first_published).toEqual({ volume: data.totals.volume, value: data.totals.value });
    expect(cars.first_published).toBeNull();
    expect(cars.flags.period).not.toContain('r');
    // The codes themselves did not change.
    const byCode = await market(w.viewer.headers, '2026-01');
    for (const row of [...byCode.rows, byCode.totals]) expect(row.flags.period).not.toContain('r');
  });

  it('when a cell has one company, then it is c for everyone, and only its approvers are told why (too few companies, or hidden to protect it)', async () => {
    const viewer = await market(w.viewer.headers, '2026-02');
    const lone = viewer.rows.find((r: { key: { code: string } }) => r.key.code === '1002');
    expect(lone).toMatchObject({ confidential: true, volume: null, hidden_reason: null });
    expect(lone.flags.period).toBe('c');
    const approver = await market(w.admin.headers, '2026-02');
    const seen = approver.rows.find((r: { key: { code: string } }) => r.key.code === '1002');
    expect(seen).toMatchObject({ confidential: true, volume: '5.0000', hidden_reason: 'contributors' });
    // Whatever else is hidden, it is hidden for a reason an approver can read.
    for (const row of [...approver.rows, approver.totals])
      if (row.confidential) expect(['contributors', 'dominance', 'protection', 'derived', 'unprotectable']).toContain(row.hidden_reason);
      else expect(row.hidden_reason).toBeNull();
  });

  it('when the groups share a code, then the answer says the shares can add up to more than 100 %, and by code it does not', async () => {
    expect((await market(w.viewer.headers, '2026-02', 'code_group')).shares_overlap).toBe(true);
    expect((await market(w.viewer.headers, '2026-02', 'code')).shares_overlap).toBe(false);
  });
});

describe('a trend says where it breaks', () => {
  const trend = async (query: string, headers: Record<string, string>) => {
    const res = await t.app.inject({ url: `/api/v1/statistics/trend?${query}`, headers });
    expect(res.statusCode, res.body).toBe(200);
    return trendStatisticsSchema.parse(res.json().data);
  };

  it('when a market joins the cluster’s figures, then that month breaks the series (b), and its change against a year of fewer markets is withheld', async () => {
    const data = await trend(`cluster_id=${w.cluster}&periods=24&currency=EUR`, w.clusterViewer.headers);
    const march = data.points.find((p) => p.period.title === '2026-03')!;
    expect(march.breaks).toContain('markets');
    expect(march.flags.period).toContain('b');
    // A year earlier only the first market had a period: no base for the two.
    expect(march.volume_last_year).toBeNull();
    expect(march.volume_change_pct).toBeNull();
    expect(march.flags.change).toContain('b');
    expect(data.points.find((p) => p.period.title === '2026-02')!.breaks).toEqual([]);
  });

  it('when a group holds other codes in one published month than in the month before, then the group’s trend breaks there, and the total’s does not', async () => {
    // 2026-01 was published again with the group holding code 1001 alone; 2026-02 holds 1001 and 2001.
    const group = await trend(`market_id=${w.market.id}&periods=24&code_group_id=${w.groups[1]!}`, w.viewer.headers);
    expect(group.points.find((p) => p.period.title === '2026-02')!.breaks).toEqual(['codes']);
    const total = await trend(`market_id=${w.market.id}&periods=24`, w.viewer.headers);
    expect(total.points.flatMap((p) => p.breaks)).toEqual([]);
  });
});

describe('migration 0024 on publications made before it', () => {
  it('when the reasons are filled in from what older publications stored, then every hidden cell gets the reason publishing gives it now', async () => {
    const before = await t.db.execute<{ publication_id: number; dimension: string; key_id: number; reason: string | null }>(
      sql`select publication_id, dimension, key_id, reason from statistics_publication_cells where hidden order by 1, 2, 3`,
    );
    expect(before.rows.length).toBeGreaterThan(0);
    const statements = fs
      .readFileSync(path.join(import.meta.dirname, '../../db/migrations/0024_figure-flags.sql'), 'utf8')
      .split('--> statement-breakpoint')
      .filter((statement) => statement.includes('UPDATE "statistics_publication_cells"'));
    expect(statements).toHaveLength(1);
    await t.db.execute(sql`update statistics_publication_cells set reason = null`);
    await t.db.execute(sql.raw(statements[0]!));
    const after = await t.db.execute<{ publication_id: number; dimension: string; key_id: number; reason: string | null }>(
      sql`select publication_id, dimension, key_id, reason from statistics_publication_cells where hidden order by 1, 2, 3`,
    );
    // This world's primary cells have too few companies by count as well as per measure: the fill is exact here.
    expect(after.rows).toEqual(before.rows);
    const shown = await t.db.execute<{ n: number }>(sql`select count(*)::int as n from statistics_publication_cells where not hidden and reason is not null`);
    expect(shown.rows[0]!.n).toBe(0);
  });
});
