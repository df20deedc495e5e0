import type { Role } from '@mss/contracts/enums';
import { sql } from 'drizzle-orm';
import { createOrganization, createUser, signIn, type TestApp, XHR } from './helpers.ts';

/*
 * A world for the disclosure tests (statistics.disclosure.test.ts), built from a small spec: an
 * organization with markets in one cluster, numeric codes, overlapping groups, sections, companies
 * reporting in every market, periods, and every company's figures. Written straight into the
 * database; periods are published through the API, as an administrator would. The test keeps the
 * truth (who is counted in each publication) itself.
 */

export interface DisclosureSpec {
  settings?: { min_contributors?: number; dominance_percentage?: number; protection_percentage?: number; estimate_missing_reports?: number };
  markets: { iso: string; currency: 'SEK' | 'EUR' }[];
  codes: string[];
  groups: { title: string; codes: string[] }[];
  sections: { name: string; start: number; length: number }[];
  companies: string[];
  /** Monthly periods ('2026-01'), in every market. */
  periods: string[];
  rows: { market: string; period: string; company: string; code: string; volume: string; value: string }[];
  /** Reports waiting for approval when the world is built (market, period, company): approved later by the test. */
  late?: { market: string; period: string; company: string }[];
}

export type Headers = Record<string, string>;

const endOf = (title: string) => {
  const [y, m] = title.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
};

/** SEK → EUR changes every month of the worlds (so a year to date in EUR adds months at different rates). */
export const sekToEur = (title: string) => {
  const [y, m] = title.split('-').map(Number) as [number, number];
  return `0.${String(870000000 + ((y * 12 + m) % 7) * 3100007).padStart(10, '0')}`;
};

export async function buildDisclosureWorld(t: TestApp, spec: DisclosureSpec) {
  const org = await createOrganization(t.db);
  for (const [key, value] of Object.entries(spec.settings ?? {}))
    await t.db.execute(sql`insert into organization_settings (organization_id, key, value) values (${org.id}, ${key}, ${String(value)})`);
  const currency = async (iso: string) =>
    (
      await t.db.execute<{ id: number }>(
        sql`insert into currencies (iso_code, name) values (${iso}, ${iso}) on conflict (iso_code) do update set name = excluded.name returning id`,
      )
    ).rows[0]!.id;
  const sek = await currency('SEK');
  const eur = await currency('EUR');
  await t.db.execute(sql`delete from currency_conversions where from_currency_id = ${sek} or to_currency_id = ${sek}`);
  for (const title of spec.periods)
    await t.db.execute(
      sql`insert into currency_conversions (from_currency_id, to_currency_id, rate, valid_from) values (${sek}, ${eur}, ${sekToEur(title)}, ${`${title}-01`})`,
    );
  const marketIds: Record<string, number> = {};
  for (const m of spec.markets) {
    marketIds[m.iso] = (
      await t.db.execute<{ id: number }>(sql`
        insert into markets (organization_id, international_name, local_name, iso_code, currency_id)
        values (${org.id}, ${`Market ${m.iso}`}, ${`Market ${m.iso}`}, ${m.iso}, ${m.currency === 'SEK' ? sek : eur}) returning id`)
    ).rows[0]!.id;
  }
  const cluster = (await t.db.execute<{ id: number }>(sql`insert into clusters (organization_id, name) values (${org.id}, 'All') returning id`)).rows[0]!.id;
  for (const id of Object.values(marketIds)) await t.db.execute(sql`insert into cluster_markets (cluster_id, market_id) values (${cluster}, ${id})`);
  const codeIds: Record<string, number> = {};
  for (const code of spec.codes) {
    codeIds[code] = (
      await t.db.execute<{ id: number }>(sql`insert into codes (organization_id, code, name) values (${org.id}, ${code}, ${`Code ${code}`}) returning id`)
    ).rows[0]!.id;
    for (const id of Object.values(marketIds)) await t.db.execute(sql`insert into code_markets (code_id, market_id) values (${codeIds[code]!}, ${id})`);
  }
  const groupIds: Record<string, number> = {};
  for (const g of spec.groups) {
    groupIds[g.title] = (
      await t.db.execute<{ id: number }>(sql`insert into code_groups (organization_id, title) values (${org.id}, ${g.title}) returning id`)
    ).rows[0]!.id;
    for (const c of g.codes) await t.db.execute(sql`insert into code_group_codes (code_group_id, code_id) values (${groupIds[g.title]!}, ${codeIds[c]!})`);
  }
  const sectionIds: Record<string, number> = {};
  for (const s of spec.sections)
    sectionIds[s.name] = (
      await t.db.execute<{ id: number }>(
        sql`insert into code_sections (organization_id, name, start, length) values (${org.id}, ${s.name}, ${s.start}, ${s.length}) returning id`,
      )
    ).rows[0]!.id;
  const companyIds: Record<string, number> = {};
  for (const name of spec.companies) {
    companyIds[name] = (await t.db.execute<{ id: number }>(sql`insert into companies (name) values (${name}) returning id`)).rows[0]!.id;
    await t.db.execute(sql`insert into company_organizations (company_id, organization_id) values (${companyIds[name]!}, ${org.id})`);
    for (const id of Object.values(marketIds))
      await t.db.execute(sql`insert into company_markets (company_id, market_id, roles) values (${companyIds[name]!}, ${id}, ${'{reporter,company}'}::text[])`);
  }
  const periodIds: Record<string, { id: number; uuid: string }> = {};
  const reportIds: Record<string, number> = {};
  const key = (market: string, period: string) => `${market}/${period}`;
  for (const m of spec.markets) {
    for (const title of spec.periods) {
      // Open while a report waits for approval in it; closed otherwise.
      const status = spec.late?.some((l) => l.market === m.iso && l.period === title) ? 'open' : 'closed';
      const period = (
        await t.db.execute<{ id: number; uuid: string }>(sql`
          insert into periods (market_id, title, starts_on, ends_on, status) values (${marketIds[m.iso]!}, ${title}, ${`${title}-01`}, ${endOf(title)}, ${status})
          returning id, uuid::text as uuid`)
      ).rows[0]!;
      periodIds[key(m.iso, title)] = period;
      for (const name of spec.companies) {
        const rows = spec.rows.filter((r) => r.market === m.iso && r.period === title && r.company === name);
        if (rows.length === 0) continue;
        const late = spec.late?.some((l) => l.market === m.iso && l.period === title && l.company === name);
        const report = (
          await t.db.execute<{ id: number }>(
            sql`insert into reports (period_id, company_id, status) values (${period.id}, ${companyIds[name]!}, ${late ? 40 : 60}) returning id`,
          )
        ).rows[0]!.id;
        reportIds[`${key(m.iso, title)}/${name}`] = report;
        const set = (await t.db.execute<{ id: number }>(sql`insert into report_row_sets (report_id) values (${report}) returning id`)).rows[0]!.id;
        await t.db.execute(sql`update reports set row_set_id = ${set} where id = ${report}`);
        for (const r of rows)
          await t.db.execute(
            sql`insert into report_rows (row_set_id, code_id, volume, value) values (${set}, ${codeIds[r.code]!}, ${r.volume}::numeric, ${r.value}::numeric)`,
          );
      }
    }
  }
  const all = Object.values(marketIds);
  const user = async (roles: Role[], companyId?: number) => {
    const u = await createUser(t.db, { roles, organizationIds: [org.id], marketIds: all, companyId });
    return { cookie: await signIn(t.app, u.email), ...XHR } as Headers;
  };
  const headers = {
    marketAdmin: await user(['market-admin']),
    viewer: await user(['viewer']),
    clusterViewer: await user(['cluster-viewer']),
    reporters: Object.fromEntries(await Promise.all(spec.companies.map(async (name) => [name, await user(['reporter'], companyIds[name])] as const))),
  };
  return { org, marketIds, cluster, codeIds, groupIds, sectionIds, companyIds, periodIds, reportIds, headers, key };
}
export type DisclosureWorld = Awaited<ReturnType<typeof buildDisclosureWorld>>;
