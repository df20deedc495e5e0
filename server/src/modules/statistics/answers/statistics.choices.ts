import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { StatisticsChoices } from '@mss/contracts/statistics';
import type { Db } from '../../../db/client.ts';
import { sqlArray } from '../../../db/sql-array.ts';
import { clusterMarkets, clusters, currencies, markets } from '../../../db/schema.ts';
import type { Principal } from '../../../auth/principal.ts';
import { marketsWhere, maySomewhere, organizationCondition } from '../../../auth/policy.ts';
import { accessIn } from '../disclosure/statistics.access.ts';
import { viewable } from '../figures/statistics.periods.ts';

/**
 * GET /statistics/choices: what the statistics screens offer to pick, and nothing more: the
 * markets of the caller's organization where they view statistics (each with its own currency),
 * the organization's clusters when they view cluster statistics (each with its markets), and every
 * currency (ISO code and name: master data, not figures) a value can be converted to.
 */
export async function findStatisticsChoices(db: Db, principal: Principal): Promise<StatisticsChoices> {
  const marketIds = await marketsWhere(db, principal, ['view-statistics']);
  const marketRows = marketIds.length
    ? await db
        .select({
          id: markets.id,
          international_name: markets.international_name,
          local_name: markets.local_name,
          iso_code: markets.iso_code,
          currency: currencies.iso_code,
        })
        .from(markets)
        .leftJoin(currencies, eq(currencies.id, markets.currency_id))
        .where(inArray(markets.id, marketIds))
        .orderBy(asc(markets.international_name))
    : [];
  let clusterRows: StatisticsChoices['clusters'] = [];
  if (maySomewhere(principal, 'view-cluster-statistics')) {
    const rows = await db
      .select({
        id: clusters.id,
        name: clusters.name,
        // "clusters"."id" written out: drizzle renders a column of the selected table unqualified,
        // which inside the subquery would name m.id.
        markets: sql<StatisticsChoices['clusters'][number]['markets']>`coalesce((
          select json_agg(json_build_object('id', m.id, 'international_name', m.international_name, 'local_name', m.local_name, 'iso_code', m.iso_code) order by m.international_name)
          from ${clusterMarkets} cm join ${markets} m on m.id = cm.market_id where cm.cluster_id = "clusters"."id"), '[]')`,
      })
      .from(clusters)
      .where(organizationCondition(principal, clusters.organization_id))
      .orderBy(asc(sql`lower(${clusters.name})`));
    clusterRows = await withLatestMonths(db, principal, rows);
  }
  const currencyRows = await db.select({ iso_code: currencies.iso_code, name: currencies.name }).from(currencies).orderBy(asc(currencies.iso_code));
  return { markets: marketRows, clusters: clusterRows, currencies: currencyRows };
}

/**
 * Each cluster's latest month with a period the caller would see in its answer (as
 * GET /statistics/cluster counts them): published, or not a draft where they approve.
 */
async function withLatestMonths(
  db: Db,
  principal: Principal,
  rows: Omit<StatisticsChoices['clusters'][number], 'latest_month'>[],
): Promise<StatisticsChoices['clusters']> {
  const ids = [...new Set(rows.flatMap((c) => c.markets.map((m) => m.id)))];
  const latest = new Map<number, { published: string | null; any: string | null }>();
  if (ids.length) {
    const found = await db.execute<{ market_id: number; published: string | null; any: string | null }>(sql`
      select p.market_id, to_char(max(p.starts_on) filter (where ${viewable(sql`p`)}), 'YYYY-MM') as published,
        to_char(max(p.starts_on), 'YYYY-MM') as any
      from periods p where p.market_id = any(${sqlArray(ids, 'int')}) and p.status <> 'draft' group by p.market_id`);
    for (const r of found.rows) latest.set(r.market_id, { published: r.published, any: r.any });
  }
  return rows.map((cluster) => {
    const months = cluster.markets
      .map((m) => {
        const access = accessIn(principal, m.id, principal.companyId);
        if (!access.sees) return null;
        return (access.approver ? latest.get(m.id)?.any : latest.get(m.id)?.published) ?? null;
      })
      .filter((month): month is string => month !== null)
      .sort();
    return { ...cluster, latest_month: months.at(-1) ?? null };
  });
}
