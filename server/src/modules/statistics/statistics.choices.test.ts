import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createMarket, createOrganization, createTestApp, signInAs, type TestApp, unique } from '../../../test/helpers.ts';
import { clusterMarkets, clusters, currencies, markets, periods } from '../../db/schema.ts';
import { publishOutstanding } from './disclosure/statistics.publications.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function world() {
  const org = await createOrganization(t.db);
  const other = await createOrganization(t.db);
  const [sek] = await t.db
    .insert(currencies)
    // Unique across the test files sharing a database (two random letters once collided in CI).
    .values({ iso_code: unique('SEK'), name: 'Test krona' })
    .returning();
  const sweden = await createMarket(t.db, org.id, 'Aa Sweden');
  await t.db.update(markets).set({ currency_id: sek!.id }).where(eq(markets.id, sweden.id));
  const norway = await createMarket(t.db, org.id, 'Ab Norway');
  const estonia = await createMarket(t.db, other.id, 'Estonia');
  const [nordic] = await t.db.insert(clusters).values({ organization_id: org.id, name: 'Nordic' }).returning();
  await t.db.insert(clusterMarkets).values([
    { cluster_id: nordic!.id, market_id: sweden.id },
    { cluster_id: nordic!.id, market_id: norway.id },
  ]);
  const [baltic] = await t.db.insert(clusters).values({ organization_id: other.id, name: 'Baltic' }).returning();
  await t.db.insert(clusterMarkets).values({ cluster_id: baltic!.id, market_id: estonia.id });
  return { org, sek: sek!, sweden, norway, estonia, nordic: nordic!, baltic: baltic! };
}

const choices = async (headers: Record<string, string>) => {
  const res = await t.app.inject({ url: '/api/v1/statistics/choices', headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};

describe('what the statistics screens offer to pick (GET /statistics/choices)', () => {
  it("when a viewer of one market asks, then that market with its currency, no clusters, and every currency's code and name", async () => {
    const w = await world();
    const viewer = await signInAs(t, ['viewer'], { organizationId: w.org.id, marketIds: [w.sweden.id] });
    const data = await choices(viewer.headers);
    expect(data.markets).toEqual([
      { id: w.sweden.id, international_name: 'Aa Sweden', local_name: 'Aa Sweden', iso_code: w.sweden.iso_code, currency: w.sek.iso_code },
    ]);
    expect(data.clusters).toEqual([]);
    expect(data.currencies).toContainEqual({ iso_code: w.sek.iso_code, name: 'Test krona' });
  });

  it("when a cluster viewer asks, then their organization's clusters with their markets, never another organization's", async () => {
    const w = await world();
    const viewer = await signInAs(t, ['cluster-viewer'], { organizationId: w.org.id, marketIds: [w.sweden.id, w.norway.id] });
    const data = await choices(viewer.headers);
    expect(data.markets.map((m: { id: number }) => m.id)).toEqual([w.sweden.id, w.norway.id]);
    expect(data.clusters).toEqual([
      {
        id: w.nordic.id,
        name: 'Nordic',
        markets: [w.sweden, w.norway].map((m) => ({ id: m.id, international_name: m.international_name, local_name: m.local_name, iso_code: m.iso_code })),
        latest_month: null,
      },
    ]);
    expect(JSON.stringify(data)).not.toContain('Baltic');
    expect(JSON.stringify(data)).not.toContain('Estonia');
  });

  it('when the cluster has periods, then it opens on the latest month with one the caller sees: published for a viewer, any but drafts for an approver', async () => {
    const w = await world();
    const period = (market: number, title: string, status: 'draft' | 'open' | 'closed', published: boolean) => ({
      market_id: market,
      title,
      starts_on: `${title}-01`,
      ends_on: `${title}-28`,
      status,
      published_at: published ? new Date() : null,
    });
    await t.db
      .insert(periods)
      .values([
        period(w.sweden.id, '2026-08', 'closed', true),
        period(w.norway.id, '2026-09', 'closed', true),
        period(w.sweden.id, '2026-10', 'open', false),
        period(w.norway.id, '2026-11', 'draft', false),
      ]);
    await publishOutstanding(t.db);
    const viewer = await signInAs(t, ['cluster-viewer'], { organizationId: w.org.id, marketIds: [w.sweden.id, w.norway.id] });
    expect((await choices(viewer.headers)).clusters[0].latest_month).toBe('2026-09');
    const onlySweden = await signInAs(t, ['cluster-viewer'], { organizationId: w.org.id, marketIds: [w.sweden.id] });
    expect((await choices(onlySweden.headers)).clusters[0].latest_month).toBe('2026-08');
    const admin = await signInAs(t, ['admin'], { organizationId: w.org.id });
    expect((await choices(admin.headers)).clusters[0].latest_month).toBe('2026-10');
  });

  it("when an administrator asks, then every market of their organization and not the other organization's", async () => {
    const w = await world();
    const admin = await signInAs(t, ['admin'], { organizationId: w.org.id });
    const data = await choices(admin.headers);
    expect(data.markets.map((m: { id: number }) => m.id)).toEqual([w.sweden.id, w.norway.id]);
    expect(data.clusters.map((c: { id: number }) => c.id)).toEqual([w.nordic.id]);
  });
});
