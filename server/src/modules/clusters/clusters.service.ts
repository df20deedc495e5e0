import { and, asc, count, eq, inArray, ne, sql } from 'drizzle-orm';
import type { ListQuery } from '@mss/contracts/common';
import type { Cluster, ClusterInput } from '@mss/contracts/admin';
import type { Db } from '../../db/client.ts';
import { clusterMarkets, clusters, markets, organizations } from '../../db/schema.ts';
import { validationError } from '../../errors.ts';
import { replaceLinks } from '../../lib/links.ts';
import { type Paged, planList } from '../../lib/list.ts';
import { assertIdsInOrganization } from '../../lib/scope.ts';
import { assertInOrganization, organizationCondition, organizationForWrite } from '../../auth/policy.ts';
import { type Principal } from '../../auth/principal.ts';

// The id first: planList's second sort key is the first selected column.
const columns = { id: clusters.id, name: clusters.name, organization_id: organizations.id, organization_name: organizations.name };
type Row = { id: number; name: string; organization_id: number; organization_name: string };

function selectClusters(db: Db) {
  return db.select(columns).from(clusters).innerJoin(organizations, eq(organizations.id, clusters.organization_id));
}

async function withMarkets(db: Db, rows: Row[]): Promise<Cluster[]> {
  const ids = rows.map((r) => r.id);
  const links = ids.length
    ? await db
        .select({
          cluster_id: clusterMarkets.cluster_id,
          id: markets.id,
          international_name: markets.international_name,
          local_name: markets.local_name,
          iso_code: markets.iso_code,
        })
        .from(clusterMarkets)
        .innerJoin(markets, eq(markets.id, clusterMarkets.market_id))
        .where(inArray(clusterMarkets.cluster_id, ids))
        .orderBy(asc(markets.international_name), asc(markets.id))
    : [];
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    organization: { id: r.organization_id, name: r.organization_name },
    markets: links.filter((l) => l.cluster_id === r.id).map(({ cluster_id: _, ...market }) => market),
  }));
}

export async function findClusters(db: Db, principal: Principal, query: ListQuery): Promise<Paged<Cluster>> {
  const plan = planList(query, { sortable: { name: sql`lower(${clusters.name})`, id: clusters.id }, searchable: [clusters.name] });
  const where = and(organizationCondition(principal, clusters.organization_id, query.organization_id), plan.search);
  const [rows, [total]] = await Promise.all([
    selectClusters(db)
      .where(where)
      .orderBy(...plan.orderBy)
      .limit(plan.limit)
      .offset(plan.offset),
    db.select({ n: count() }).from(clusters).where(where),
  ]);
  return { data: await withMarkets(db, rows), meta: plan.meta(total!.n) };
}

export async function findCluster(db: Db, principal: Principal, id: number): Promise<Cluster> {
  const [row] = await selectClusters(db).where(eq(clusters.id, id));
  assertInOrganization(principal, row?.organization_id);
  const [cluster] = await withMarkets(db, [row!]);
  return cluster!;
}

/** The organization and distinct markets to store, after checking name and markets. */
async function validate(db: Db, principal: Principal, input: ClusterInput, requestedOrganizationId: number | undefined, exceptId?: number) {
  const organizationId = await organizationForWrite(db, principal, requestedOrganizationId);
  // Names are compared case-insensitively within the organization.
  const [taken] = await db
    .select({ id: clusters.id })
    .from(clusters)
    .where(
      and(eq(clusters.organization_id, organizationId), sql`lower(${clusters.name}) = lower(${input.name})`, exceptId ? ne(clusters.id, exceptId) : undefined),
    );
  if (taken) throw validationError('name', 'validation.unique');
  const marketIds = await assertIdsInOrganization(db, markets, input.market_ids, organizationId, 'market_ids');
  return { organizationId, marketIds };
}

export async function createCluster(db: Db, principal: Principal, input: ClusterInput): Promise<Cluster> {
  const { organizationId, marketIds } = await validate(db, principal, input, input.organization_id);
  const id = await db.transaction(async (tx) => {
    const [row] = await tx.insert(clusters).values({ organization_id: organizationId, name: input.name }).returning({ id: clusters.id });
    await replaceLinks(tx, clusterMarkets, 'cluster_id', row!.id, 'market_id', marketIds);
    return row!.id;
  });
  return findCluster(db, principal, id);
}

/** A super-admin may move a cluster by naming another organization; its markets must then be of that one. */
export async function updateCluster(db: Db, principal: Principal, id: number, input: ClusterInput): Promise<Cluster> {
  const existing = await findCluster(db, principal, id);
  const { organizationId, marketIds } = await validate(db, principal, input, input.organization_id ?? existing.organization.id, id);
  await db.transaction(async (tx) => {
    await tx
      .update(clusters)
      .set({ organization_id: organizationId, name: input.name, updated_at: sql`now()` })
      .where(eq(clusters.id, id));
    await replaceLinks(tx, clusterMarkets, 'cluster_id', id, 'market_id', marketIds);
  });
  return findCluster(db, principal, id);
}

export async function deleteCluster(db: Db, principal: Principal, id: number): Promise<void> {
  await findCluster(db, principal, id);
  // Its market links go with it (on delete cascade).
  await db.delete(clusters).where(eq(clusters.id, id));
}
