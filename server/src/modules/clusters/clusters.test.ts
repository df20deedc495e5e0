import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createMarket, createOrganization, createTestApp, signInAs, unique, type TestApp } from '../../../test/helpers.ts';
import { clusterMarkets, clusters } from '../../db/schema.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const url = '/api/v1/admin/clusters';

async function createCluster(organizationId: number, name = unique('Cluster'), marketIds: number[] = []) {
  const [cluster] = await t.db.insert(clusters).values({ organization_id: organizationId, name }).returning();
  for (const marketId of marketIds) await t.db.insert(clusterMarkets).values({ cluster_id: cluster!.id, market_id: marketId });
  return cluster!;
}

const summary = (m: { id: number; international_name: string; local_name: string; iso_code: string }) => ({
  id: m.id,
  international_name: m.international_name,
  local_name: m.local_name,
  iso_code: m.iso_code,
});

describe('clusters', () => {
  it('when not signed in, then 401; without manage-clusters, then 403', async () => {
    expect((await t.app.inject({ url })).statusCode).toBe(401);
    const clusterAdmin = await signInAs(t, ['cluster-admin']);
    const res = await t.app.inject({ url, headers: clusterAdmin.headers });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'Permission denied. Your user does not have permission to view this resource.' });
    const create = await t.app.inject({ method: 'POST', url, headers: clusterAdmin.headers, payload: { name: 'Nordic', market_ids: [] } });
    expect(create.statusCode).toBe(403);
    expect(await t.db.select().from(clusters).where(eq(clusters.organization_id, clusterAdmin.organizationId!))).toHaveLength(0);
  });

  it('when an administrator creates a cluster with markets, then it is listed, found, updated and deleted', async () => {
    const admin = await signInAs(t, ['admin']);
    const orgId = admin.organizationId!;
    const sweden = await createMarket(t.db, orgId, unique('Sweden'));
    const finland = await createMarket(t.db, orgId, unique('Finland'));
    const norway = await createMarket(t.db, orgId, unique('Norway'));
    const created = await t.app.inject({
      method: 'POST',
      url,
      headers: admin.headers,
      payload: { name: 'Nordic', market_ids: [sweden.id, finland.id, sweden.id] },
    });
    expect(created.statusCode).toBe(201);
    const cluster = created.json().data;
    expect(cluster).toEqual({
      id: expect.any(Number),
      name: 'Nordic',
      organization: { id: orgId, name: expect.any(String) },
      markets: [summary(finland), summary(sweden)],
    });
    expect((await t.app.inject({ url, headers: admin.headers })).json()).toEqual({ data: [cluster], meta: { page: 1, per_page: 25, total: 1 } });
    expect((await t.app.inject({ url: `${url}/${cluster.id}`, headers: admin.headers })).json()).toEqual({ data: cluster });

    const updated = await t.app.inject({
      method: 'PUT',
      url: `${url}/${cluster.id}`,
      headers: admin.headers,
      payload: { name: 'Nordics', market_ids: [norway.id] },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().data).toMatchObject({ name: 'Nordics', markets: [summary(norway)] });
    expect(await t.db.select().from(clusterMarkets).where(eq(clusterMarkets.cluster_id, cluster.id))).toEqual([
      { cluster_id: cluster.id, market_id: norway.id },
    ]);

    expect((await t.app.inject({ method: 'DELETE', url: `${url}/${cluster.id}`, headers: admin.headers })).statusCode).toBe(204);
    expect((await t.app.inject({ url: `${url}/${cluster.id}`, headers: admin.headers })).statusCode).toBe(404);
    expect(await t.db.select().from(clusterMarkets).where(eq(clusterMarkets.cluster_id, cluster.id))).toHaveLength(0);
  });

  it("when an administrator reaches for another organization's cluster, then 404 and it stays untouched", async () => {
    const admin = await signInAs(t, ['admin']);
    const other = await createOrganization(t.db);
    const market = await createMarket(t.db, other.id);
    const theirs = await createCluster(other.id, 'Theirs', [market.id]);
    expect((await t.app.inject({ url: `${url}/${theirs.id}`, headers: admin.headers })).statusCode).toBe(404);
    const update = await t.app.inject({ method: 'PUT', url: `${url}/${theirs.id}`, headers: admin.headers, payload: { name: 'Mine', market_ids: [] } });
    expect(update.statusCode).toBe(404);
    expect(update.json()).toEqual({ message: 'Could not find what you were looking for.' });
    expect((await t.app.inject({ method: 'DELETE', url: `${url}/${theirs.id}`, headers: admin.headers })).statusCode).toBe(404);
    const [stored] = await t.db.select().from(clusters).where(eq(clusters.id, theirs.id));
    expect(stored!.name).toBe('Theirs');
    expect(await t.db.select().from(clusterMarkets).where(eq(clusterMarkets.cluster_id, theirs.id))).toHaveLength(1);
    const list = await t.app.inject({ url: `${url}?organization_id=${other.id}`, headers: admin.headers });
    expect(list.json().data).toEqual([]);
  });

  it('when a market belongs to another organization or does not exist, then 422 on market_ids and nothing is stored', async () => {
    const admin = await signInAs(t, ['admin']);
    const own = await createMarket(t.db, admin.organizationId!);
    const foreign = await createMarket(t.db, (await createOrganization(t.db)).id);
    const res = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload: { name: 'Mixed', market_ids: [own.id, foreign.id] } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ market_ids: ['The chosen markets must belong to the same organization.'] });
    const missing = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload: { name: 'Missing', market_ids: [999999] } });
    expect(missing.statusCode).toBe(422);
    expect(await t.db.select().from(clusters).where(eq(clusters.organization_id, admin.organizationId!))).toHaveLength(0);

    const cluster = await createCluster(admin.organizationId!, 'Kept', [own.id]);
    const update = await t.app.inject({
      method: 'PUT',
      url: `${url}/${cluster.id}`,
      headers: admin.headers,
      payload: { name: 'Kept', market_ids: [foreign.id] },
    });
    expect(update.statusCode).toBe(422);
    expect(await t.db.select().from(clusterMarkets).where(eq(clusterMarkets.cluster_id, cluster.id))).toEqual([{ cluster_id: cluster.id, market_id: own.id }]);
  });

  it('when a PUT sends markets instead of market_ids, then 422 naming markets, and the cluster keeps its name and markets', async () => {
    const admin = await signInAs(t, ['admin']);
    const sweden = await createMarket(t.db, admin.organizationId!);
    const finland = await createMarket(t.db, admin.organizationId!);
    const cluster = await createCluster(admin.organizationId!, 'Nordic', [sweden.id, finland.id]);
    const stored = async () => ({
      name: (await t.db.select().from(clusters).where(eq(clusters.id, cluster.id)))[0]!.name,
      markets: (await t.db.select().from(clusterMarkets).where(eq(clusterMarkets.cluster_id, cluster.id))).map((m) => m.market_id).sort(),
    });
    const before = await stored();
    expect(before.markets).toHaveLength(2);
    const put = (payload: object) => t.app.inject({ method: 'PUT', url: `${url}/${cluster.id}`, headers: admin.headers, payload });
    const misnamed = await put({ name: 'Nordics', markets: [sweden.id] });
    expect(misnamed.statusCode).toBe(422);
    expect(misnamed.json()).toEqual({
      message: 'The markets field is not allowed.',
      errors: { markets: ['The markets field is not allowed.'], market_ids: ['The markets field is required.'] },
    });
    expect(await stored()).toEqual(before);
    // Left out, the list is required too: a rename must say which markets stay.
    const renamed = await put({ name: 'Nordics' });
    expect(renamed.json()).toEqual({ message: 'The markets field is required.', errors: { market_ids: ['The markets field is required.'] } });
    expect(await stored()).toEqual(before);
  });

  it('when the name is taken in the organization (any letter case), then 422 on name; another organization may use it', async () => {
    const admin = await signInAs(t, ['admin']);
    const existing = await createCluster(admin.organizationId!, 'Baltic');
    const res = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload: { name: 'BALTIC', market_ids: [] } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ name: ['The name has already been taken.'] });
    const self = await t.app.inject({ method: 'PUT', url: `${url}/${existing.id}`, headers: admin.headers, payload: { name: 'Baltic', market_ids: [] } });
    expect(self.statusCode).toBe(200);
    const elsewhere = await signInAs(t, ['admin']);
    expect((await t.app.inject({ method: 'POST', url, headers: elsewhere.headers, payload: { name: 'Baltic', market_ids: [] } })).statusCode).toBe(201);
    const empty = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload: { name: ' ', market_ids: [] } });
    expect(empty.json().errors).toEqual({ name: ['The name field is required.'] });
  });

  it('when three clusters whose names differ only in case are created at once, then one exists and the others get 422 on name', async () => {
    const admin = await signInAs(t, ['admin']);
    const names = ['Iberia', 'IBERIA', 'iberia'];
    const answers = await Promise.all(names.map((name) => t.app.inject({ method: 'POST', url, headers: admin.headers, payload: { name, market_ids: [] } })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 422, 422]);
    for (const a of answers.filter((x) => x.statusCode === 422)) expect(a.json().errors).toEqual({ name: ['The name has already been taken.'] });
    expect(await t.db.select().from(clusters).where(eq(clusters.organization_id, admin.organizationId!))).toHaveLength(1);
  });

  it('when a super-admin creates a cluster, then the organization must be named and the markets be of it', async () => {
    const superAdmin = await signInAs(t, ['super-admin']);
    const org = await createOrganization(t.db);
    const market = await createMarket(t.db, org.id);
    const unnamed = await t.app.inject({ method: 'POST', url, headers: superAdmin.headers, payload: { name: 'Anywhere', market_ids: [] } });
    expect(unnamed.statusCode).toBe(422);
    expect(unnamed.json().errors).toEqual({ organization_id: ['The organization field is required.'] });
    const created = await t.app.inject({
      method: 'POST',
      url,
      headers: superAdmin.headers,
      payload: { organization_id: org.id, name: 'Central', market_ids: [market.id] },
    });
    expect(created.statusCode).toBe(201);
    expect(created.json().data).toMatchObject({ organization: { id: org.id, name: org.name }, markets: [summary(market)] });
    const list = await t.app.inject({ url: `${url}?organization_id=${org.id}`, headers: superAdmin.headers });
    expect(list.json().data.map((c: { name: string }) => c.name)).toEqual(['Central']);
  });

  it('when the list is searched, sorted (ignoring letter case) and paged, then meta counts all matches', async () => {
    const admin = await signInAs(t, ['admin']);
    const orgId = admin.organizationId!;
    await createCluster(orgId, 'Group B');
    await createCluster(orgId, 'group A');
    await createCluster(orgId, 'Group C');
    await createCluster(orgId, 'Other');
    const names = (res: { json(): { data: { name: string }[] } }) => res.json().data.map((c) => c.name);
    expect(names(await t.app.inject({ url: `${url}?search=group`, headers: admin.headers }))).toEqual(['group A', 'Group B', 'Group C']);
    const page = await t.app.inject({ url: `${url}?search=group&sort=name&direction=desc&per_page=2&page=2`, headers: admin.headers });
    expect(names(page)).toEqual(['group A']);
    expect(page.json().meta).toEqual({ page: 2, per_page: 2, total: 3 });
    expect((await t.app.inject({ url: `${url}?sort=organization_id`, headers: admin.headers })).statusCode).toBe(422);
  });
});
