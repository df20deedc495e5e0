import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import type { App } from '../../context.ts';
import {
  createMarket,
  createOrganization,
  createTestApp,
  insertMemberCompany,
  insertReport,
  signInAs,
  type TestApp,
  testConfig,
  unique,
} from '../../../test/helpers.ts';
import { publishOutstanding } from './disclosure/statistics.publications.ts';

/*
 * Reading statistics never writes. A period marked published without a publication (published
 * before publications existed, or marked in the database) is not published for viewing until the
 * job that publishes such periods once has run; no GET publishes it.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** A market whose period 2026-05 is marked published, with three approved reports, and no publication. */
async function world() {
  const org = await createOrganization(t.db);
  const market = await createMarket(t.db, org.id);
  const code = (await t.db.execute<{ id: number }>(sql`insert into codes (organization_id, code, name) values (${org.id}, '1001', 'Code') returning id`))
    .rows[0]!.id;
  await t.db.execute(sql`insert into code_markets (code_id, market_id) values (${code}, ${market.id})`);
  const period = (
    await t.db.execute<{ id: number; uuid: string }>(sql`
      insert into periods (market_id, title, starts_on, ends_on, status, published_at)
      values (${market.id}, '2026-05', '2026-05-01', '2026-05-31', 'closed', now()) returning id, uuid::text as uuid`)
  ).rows[0]!;
  for (const [i, volume] of ['10.5', '20.25', '30'].entries()) {
    const company = await insertMemberCompany(t.db, org.id, market.id, unique(`Company ${i}`));
    await insertReport(t.db, { periodId: period.id, companyId: company, status: 60, rows: [{ codeId: code, volume, value: '100' }] });
  }
  const viewer = await signInAs(t, ['viewer'], { organizationId: org.id, marketIds: [market.id] });
  const approver = await signInAs(t, ['market-admin'], { organizationId: org.id, marketIds: [market.id] });
  return { org, market, period, viewer, approver };
}

const publications = async (periodId: number) =>
  (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from statistics_publications where period_id = ${periodId}`)).rows[0]!.n;
const market = (uuid: string, headers: Record<string, string>, app: App = t.app) =>
  app.inject({ url: `/api/v1/statistics/market?period_uuid=${uuid}&by=code`, headers });

describe('reading statistics never writes', () => {
  it('when a published period has no publication, then no read makes one: viewers are told it is not yet published, approvers see it provisionally', async () => {
    const w = await world();
    const viewer = await market(w.period.uuid, w.viewer.headers);
    expect(viewer.statusCode, viewer.body).toBe(403);
    expect(viewer.json()).toEqual({ message: 'The period is not yet published for viewing.' });
    const approver = await market(w.period.uuid, w.approver.headers);
    expect(approver.statusCode, approver.body).toBe(200);
    expect(approver.json().data.provisional).toBe(true);
    expect(approver.json().data.rows.find((r: { key: { code?: string } }) => r.key.code === '1001')?.volume).toBe('60.7500');
    for (const path of [`/statistics/trend?market_id=${w.market.id}`, '/statistics/choices'])
      expect((await t.app.inject({ url: `/api/v1${path}`, headers: w.viewer.headers })).statusCode).toBe(200);
    expect(await publications(w.period.id)).toBe(0);
  });

  it('when the job that publishes outstanding periods has run, then the period has one publication and viewers read it; run again, it publishes nothing', async () => {
    const w = await world();
    expect(await publishOutstanding(t.db)).toBeGreaterThanOrEqual(1);
    expect(await publications(w.period.id)).toBe(1);
    const viewer = await market(w.period.uuid, w.viewer.headers);
    expect(viewer.statusCode, viewer.body).toBe(200);
    expect(viewer.json().data.rows.find((r: { key: { code?: string } }) => r.key.code === '1001')?.volume).toBe('60.7500');
    expect(await publishOutstanding(t.db)).toBe(0);
    expect(await publications(w.period.id)).toBe(1);
  });

  it('when a process that runs jobs starts, then it publishes the outstanding periods by itself', async () => {
    const w = await world();
    const jobs = await buildApp({ config: testConfig(t.dataDir, { JOBS: 'on' }), database: t.database }, { logger: false });
    try {
      await jobs.ready();
      // Wait for the state, not for a time: the job runs in the background.
      await expect.poll(() => publications(w.period.id), { timeout: 60_000, interval: 100 }).toBe(1);
      expect((await market(w.period.uuid, w.viewer.headers, jobs)).statusCode).toBe(200);
    } finally {
      await jobs.close();
    }
  });
});
