import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { PublicationPreview } from '@mss/contracts/periods';
import { createOrganization, createTestApp, createUser, signIn, type TestApp, XHR } from '../../../test/helpers.ts';
import { buildDisclosureWorld, type DisclosureSpec, type DisclosureWorld } from '../../../test/disclosure-world.ts';

/*
 * GET /periods/{uuid}/publication-preview: what publishing would show viewers, before the
 * administrator confirms, decided as publishing decides and written nowhere; and, for a period
 * with a report missing, what publishing again would hide once it is approved.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(async () => {
  await t?.close();
});

type Row = DisclosureSpec['rows'][number];
const rows = (period: string, company: string, figures: Record<string, [number, number]>): Row[] =>
  Object.entries(figures).map(([code, [volume, value]]) => ({ market: 'SE', period, company, code, volume: `${volume}.0000`, value: `${value}.0000` }));

/** Five companies over eight codes; E is late in 2026-03 and sends what it sent in 2026-02. */
function spec(): DisclosureSpec {
  const codes = ['1001', '1002', '1003', '1004', '2001', '2002', '2003', '2004'];
  const out: Row[] = [];
  for (const period of ['2026-02', '2026-03']) {
    out.push(...rows(period, 'A', { '1001': [100, 1000], '1002': [50, 400], '1003': [30, 300], '2001': [30, 300], '2002': [12, 120] }));
    out.push(...rows(period, 'B', { '1001': [110, 1050], '1002': [45, 420], '1004': [22, 210], '2002': [20, 200], '2003': [9, 90] }));
    out.push(...rows(period, 'C', { '1001': [95, 990], '1003': [28, 260], '2001': [35, 310], '2002': [25, 260], '2004': [14, 150] }));
    out.push(...rows(period, 'D', { '1002': [60, 500], '1004': [19, 180], '2001': [32, 290], '2003': [11, 100], '2004': [13, 140] }));
    // E's figures are large beside the others': alone, they are what two publications differ by.
    out.push(...rows(period, 'E', { '1001': [300, 3000], '1002': [150, 1400], '1003': [90, 900], '2001': [80, 800], '2002': [70, 700], '2004': [40, 400] }));
  }
  return {
    markets: [{ iso: 'SE', currency: 'SEK' }],
    codes,
    groups: [{ title: 'G1', codes: ['1001', '2001'] }],
    sections: [
      { name: 'S1', start: 1000, length: 100 },
      { name: 'S2', start: 2000, length: 100 },
    ],
    companies: ['A', 'B', 'C', 'D', 'E'],
    periods: ['2026-02', '2026-03'],
    rows: out,
    late: [{ market: 'SE', period: '2026-03', company: 'E' }],
  };
}

describe('publication preview', () => {
  let w: DisclosureWorld;
  let uuid: string;
  const preview = async (headers = w.headers.marketAdmin) => t.app.inject({ url: `/api/v1/periods/${uuid}/publication-preview`, headers });
  const publications = async () => (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from statistics_publications`)).rows[0]!.n;
  let before: PublicationPreview;

  beforeAll(async () => {
    w = await buildDisclosureWorld(t, spec());
    uuid = w.periodIds[w.key('SE', '2026-03')]!.uuid;
  }, 60_000);

  it('when a period with a late report is previewed, then it tells what viewers would see and what publishing again would hide, and writes nothing', async () => {
    const published = await publications();
    const res = await preview();
    expect(res.statusCode, res.body).toBe(200);
    before = res.json().data;
    expect(await publications()).toBe(published);
    expect(before).toMatchObject({ number: 1, changed: true, coverage: { approved: 4, expected: 5 } });
    expect(before.now.cells).toBe(before.now.by_dimension.reduce((s, d) => s + d.cells, 0));
    expect(before.now.by_dimension.map((d) => d.dimension)).toEqual(['code', 'code_group', 'code_section', 'total']);
    expect(before.now.unprotectable).toEqual([]);
    // E alone is what the second publication adds: its large figures take the total and the sections with them.
    expect(before.later).toMatchObject({ simulated: 1, unknown: 0 });
    expect(before.later!.pattern.hidden).toBeGreaterThan(before.now.hidden);
    expect(before.later!.pattern.total_hidden).toBe(true);
    expect(before.advice).toBe('wait');
  });

  it('when the period is then published, the late report approved and the period published again, then each publication hides what the preview said', async () => {
    const first = await t.app.inject({ method: 'POST', url: `/api/v1/periods/${uuid}/publish`, headers: w.headers.marketAdmin });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data.publication).toMatchObject({ number: 1, hidden_cells: before.now.hidden, primary_cells: before.now.primary, unprotectable: 0 });
    // Nothing changed since: the preview is the latest publication.
    const same = (await preview()).json().data as PublicationPreview;
    expect(same).toMatchObject({ number: 1, changed: false });
    expect(same.now).toEqual(before.now);

    const report = (await t.db.execute<{ uuid: string }>(sql`select uuid::text as uuid from reports where id = ${w.reportIds[`${w.key('SE', '2026-03')}/E`]!}`))
      .rows[0]!.uuid;
    const approved = await t.app.inject({ method: 'POST', url: `/api/v1/reports/${report}/status`, headers: w.headers.marketAdmin, payload: { status: 60 } });
    expect(approved.statusCode, approved.body).toBe(200);
    const again = (await preview()).json().data as PublicationPreview;
    expect(again).toMatchObject({ number: 2, changed: true, coverage: { approved: 5, expected: 5 }, later: null, advice: null });
    // E sent what it sent the month before: the simulation was exact.
    expect(again.now).toEqual(before.later!.pattern);
    const second = await t.app.inject({ method: 'POST', url: `/api/v1/periods/${uuid}/republish`, headers: w.headers.marketAdmin });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json().data.publication).toMatchObject({ number: 2, hidden_cells: again.now.hidden });
  });

  it('when the latest publication was decided by older rules (before returns and zeros were protected), then it counts as changed and publishing again replaces it', async () => {
    await t.db.execute(sql`update statistics_publications set rules = 1 where period_id = ${w.periodIds[w.key('SE', '2026-03')]!.id}`);
    const period = (await t.app.inject({ url: `/api/v1/periods/${uuid}`, headers: w.headers.marketAdmin })).json().data;
    expect(period.publication).toMatchObject({ number: 2, changed: true });
    expect((await preview()).json().data).toMatchObject({ number: 3, changed: true });
    const again = await t.app.inject({ method: 'POST', url: `/api/v1/periods/${uuid}/republish`, headers: w.headers.marketAdmin });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data.publication).toMatchObject({ number: 3, changed: false });
  });

  it('when a viewer, a reporter or another organization asks, then it is refused; a draft has nothing to preview', async () => {
    expect((await preview(w.headers.viewer)).statusCode).toBe(403);
    expect((await preview(w.headers.reporters.A)).statusCode).toBe(403);
    const other = await createOrganization(t.db);
    const stranger = await createUser(t.db, { roles: ['admin'], organizationIds: [other.id] });
    const strangerHeaders = { cookie: await signIn(t.app, stranger.email), ...XHR };
    expect((await preview(strangerHeaders)).statusCode).toBe(404);
    const draft = (
      await t.db.execute<{ uuid: string }>(sql`
        insert into periods (market_id, title, starts_on, ends_on) values (${w.marketIds.SE!}, '2026-04', '2026-04-01', '2026-04-30') returning uuid::text as uuid`)
    ).rows[0]!.uuid;
    const res = await t.app.inject({ url: `/api/v1/periods/${draft}/publication-preview`, headers: w.headers.marketAdmin });
    expect(res.statusCode, res.body).toBe(409);
  });
});
