import type { Role } from '@mss/contracts/enums';
import { sql } from 'drizzle-orm';
import { createOrganization, createUser, signIn, type TestApp, XHR } from './helpers.ts';
import { publishOutstanding } from '../src/modules/statistics/disclosure/statistics.publications.ts';

/*
 * A statistics world (tests only): market SE (SEK) with five companies, seven codes in two groups
 * and three sections, sixteen monthly periods 2025-01 … 2026-04, conversions SEK→EUR that change
 * between periods, USD only as the reverse pair, GBP only from 2025-06. Company 5 is disabled on
 * 2026-02-15; company 4's report of 2026-03 waits for approval; company 2's too (the test approves
 * it); 2026-04 is not published and company 3's report there is not approved. Code 1003 and 3001
 * have two contributors, 2002 one dominant company, and 1002 two contributors in 2026-01 only.
 */

export const PERIOD_TITLES = [...Array(16).keys()].map((i) => {
  const year = 2025 + Math.floor(i / 12);
  return `${year}-${String((i % 12) + 1).padStart(2, '0')}`;
});
const endOf = (title: string) => {
  const [y, m] = title.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
};

/** Deterministic figures with four decimals. */
function figure(seed: number, scale: number): string {
  const units = ((seed * 7919) % 99991) * scale + (seed % 10000);
  return `${Math.floor(units / 10000)}.${String(units % 10000).padStart(4, '0')}`;
}

/** `unpublished`: periods left unpublished besides 2026-04. */
export async function buildStatisticsWorld(t: TestApp, options: { unpublished?: readonly string[] } = {}) {
  const org = await createOrganization(t.db);
  const other = await createOrganization(t.db);
  const cur = async (iso: string) =>
    (
      await t.db.execute<{ id: number }>(
        sql`insert into currencies (iso_code, name) values (${iso}, ${iso}) on conflict (iso_code) do update set name = excluded.name returning id`,
      )
    ).rows[0]!.id;
  const [sek, eur, usd, gbp] = [await cur('SEK'), await cur('EUR'), await cur('USD'), await cur('GBP')];
  await cur('NOK');
  await t.db.execute(sql`delete from currency_conversions where from_currency_id in (${sek}, ${usd}) or to_currency_id in (${sek}, ${usd})`);
  await t.db.execute(sql`insert into currency_conversions (from_currency_id, to_currency_id, rate, valid_from) values
    (${sek}, ${eur}, '0.0912345678', '2025-01-01'), (${sek}, ${eur}, '0.0898765432', '2025-06-01'), (${sek}, ${eur}, '0.0876543210', '2026-02-01'),
    (${usd}, ${sek}, '10.1234567890', '2024-12-01'), (${sek}, ${gbp}, '0.0750000000', '2025-06-01')`);
  const market = (
    await t.db.execute<{ id: number }>(
      sql`insert into markets (organization_id, international_name, local_name, iso_code, currency_id) values (${org.id}, 'Sweden', 'Sverige', 'SE', ${sek}) returning id`,
    )
  ).rows[0]!.id;
  const otherMarket = (
    await t.db.execute<{ id: number }>(
      sql`insert into markets (organization_id, international_name, local_name, iso_code, currency_id) values (${org.id}, 'Finland', 'Suomi', 'FI', ${eur}) returning id`,
    )
  ).rows[0]!.id;
  const foreignMarket = (
    await t.db.execute<{ id: number }>(
      sql`insert into markets (organization_id, international_name, local_name, iso_code, currency_id) values (${other.id}, 'Latvia', 'Latvija', 'LV', ${eur}) returning id`,
    )
  ).rows[0]!.id;
  const cluster = (await t.db.execute<{ id: number }>(sql`insert into clusters (organization_id, name) values (${org.id}, 'Nordic') returning id`)).rows[0]!.id;
  await t.db.execute(sql`insert into cluster_markets (cluster_id, market_id) values (${cluster}, ${market}), (${cluster}, ${otherMarket})`);
  const foreignCluster = (await t.db.execute<{ id: number }>(sql`insert into clusters (organization_id, name) values (${other.id}, 'Baltic') returning id`))
    .rows[0]!.id;

  const codeTexts = ['1001', '1002', '1003', '2001', '2002', 'X-9', '3001'];
  const codeIds: Record<string, number> = {};
  for (const code of codeTexts) {
    codeIds[code] = (
      await t.db.execute<{ id: number }>(sql`insert into codes (organization_id, code, name) values (${org.id}, ${code}, ${`Code ${code}`}) returning id`)
    ).rows[0]!.id;
    await t.db.execute(sql`insert into code_markets (code_id, market_id) values (${codeIds[code]!}, ${market}), (${codeIds[code]!}, ${otherMarket})`);
  }
  const group = async (title: string, codesIn: string[]) => {
    const id = (await t.db.execute<{ id: number }>(sql`insert into code_groups (organization_id, title) values (${org.id}, ${title}) returning id`)).rows[0]!
      .id;
    for (const c of codesIn) await t.db.execute(sql`insert into code_group_codes (code_group_id, code_id) values (${id}, ${codeIds[c]!})`);
    return id;
  };
  const groups = { g1: await group('Group one', ['1001', '1002', '1003']), g2: await group('Group two', ['2001', '2002', 'X-9']) };
  const section = async (name: string, start: number) =>
    (
      await t.db.execute<{ id: number }>(
        sql`insert into code_sections (organization_id, name, start, length) values (${org.id}, ${name}, ${start}, 100) returning id`,
      )
    ).rows[0]!.id;
  const sections = { s1: await section('Section 1000', 1000), s2: await section('Section 2000', 2000), s3: await section('Section 3000', 3000) };

  const companyIds: number[] = [];
  for (let c = 1; c <= 5; c++) {
    const id = (
      await t.db.execute<{ id: number }>(
        sql`insert into companies (name, disabled_at) values (${`Company ${c}`}, ${c === 5 ? '2026-02-15T10:00:00Z' : null}) returning id`,
      )
    ).rows[0]!.id;
    await t.db.execute(sql`insert into company_organizations (company_id, organization_id) values (${id}, ${org.id})`);
    await t.db.execute(sql`insert into company_markets (company_id, market_id, roles) values (${id}, ${market}, ${'{reporter,company}'}::text[])`);
    companyIds.push(id);
  }
  // A company that reports only in Finland.
  const finnish = (await t.db.execute<{ id: number }>(sql`insert into companies (name) values ('Suomi Oy') returning id`)).rows[0]!.id;
  await t.db.execute(sql`insert into company_organizations (company_id, organization_id) values (${finnish}, ${org.id})`);
  await t.db.execute(sql`insert into company_markets (company_id, market_id, roles) values (${finnish}, ${otherMarket}, ${'{reporter,company}'}::text[])`);

  const periodIds: Record<string, { id: number; uuid: string }> = {};
  const reportIds: Record<string, number> = {};
  for (const [pi, title] of PERIOD_TITLES.entries()) {
    const published = title !== '2026-04' && !options.unpublished?.includes(title);
    const status = title === '2026-03' || title === '2026-04' ? 'open' : 'closed';
    const period = (
      await t.db.execute<{ id: number; uuid: string }>(sql`
        insert into periods (market_id, title, starts_on, ends_on, status, published_at)
        values (${market}, ${title}, ${`${title}-01`}, ${endOf(title)}, ${status}, ${published ? sql`now()` : null}) returning id, uuid::text as uuid`)
    ).rows[0]!;
    periodIds[title] = period;
    for (const [ci, companyId] of companyIds.entries()) {
      const c = ci + 1;
      let reportStatus = 60;
      if (title === '2026-03' && (c === 2 || c === 4)) reportStatus = 40;
      if (title === '2026-04' && c === 3) reportStatus = 20;
      const report = (
        await t.db.execute<{ id: number }>(
          sql`insert into reports (period_id, company_id, status) values (${period.id}, ${companyId}, ${reportStatus}) returning id`,
        )
      ).rows[0]!.id;
      reportIds[`${title}/${c}`] = report;
      const set = (await t.db.execute<{ id: number }>(sql`insert into report_row_sets (report_id) values (${report}) returning id`)).rows[0]!.id;
      await t.db.execute(sql`update reports set row_set_id = ${set} where id = ${report}`);
      const rows: [number, string | null, string | null][] = [];
      for (const [k, code] of codeTexts.entries()) {
        const seed = c * 1000 + pi * 37 + k * 101;
        if ((code === '1003' || code === '3001') && c > 2) continue;
        if (code === '1002' && title === '2026-01' && c > 2) continue;
        let volume: string | null = figure(seed, 1);
        let value: string | null = figure(seed + 5, 13);
        if (code === '1003') volume = c === 1 ? '7777.1234' : '1111.0001';
        if (code === '2002' && c === 1) value = '9000000.5000';
        if (code === '2001' && c === 3) value = null;
        if (code === 'X-9' && c === 4) volume = null;
        rows.push([codeIds[code]!, volume, value]);
      }
      for (const [codeId, volume, value] of rows)
        await t.db.execute(sql`insert into report_rows (row_set_id, code_id, volume, value) values (${set}, ${codeId}, ${volume}, ${value})`);
    }
  }
  const foreignPeriod = (
    await t.db.execute<{ uuid: string }>(
      sql`insert into periods (market_id, title, starts_on, ends_on, status, published_at) values (${foreignMarket}, '2026-03', '2026-03-01', '2026-03-31', 'open', now()) returning uuid::text as uuid`,
    )
  ).rows[0]!.uuid;
  const foreignCompany = (await t.db.execute<{ id: number }>(sql`insert into companies (name) values ('Latvija SIA') returning id`)).rows[0]!.id;
  await t.db.execute(sql`insert into company_organizations (company_id, organization_id) values (${foreignCompany}, ${other.id})`);
  const finnishPeriod = (
    await t.db.execute<{ id: number; uuid: string }>(
      sql`insert into periods (market_id, title, starts_on, ends_on, status, published_at) values (${otherMarket}, '2026-03', '2026-03-01', '2026-03-31', 'open', now()) returning id, uuid::text as uuid`,
    )
  ).rows[0]!;

  const user = async (roles: Role[], options: { companyId?: number; marketIds?: number[] } = {}) => {
    const u = await createUser(t.db, {
      roles,
      organizationIds: [org.id],
      marketIds: options.marketIds ?? [market],
      companyId: options.companyId,
    });
    return { cookie: await signIn(t.app, u.email), ...XHR };
  };
  const headers = {
    superAdmin: { cookie: await signIn(t.app, (await createUser(t.db, { roles: ['super-admin'] })).email), ...XHR },
    admin: await user(['admin']),
    marketAdmin: await user(['market-admin']),
    clusterAdmin: await user(['cluster-admin'], { marketIds: [market, otherMarket] }),
    viewer: await user(['viewer']),
    clusterViewer: await user(['cluster-viewer'], { marketIds: [market, otherMarket] }),
    justStats: await user(['just-stats']),
    reporter: await user(['reporter'], { companyId: companyIds[0] }),
    company: await user(['company'], { companyId: companyIds[0] }),
    finnishReporter: await user(['reporter'], { companyId: finnish, marketIds: [otherMarket] }),
    foreignAdmin: { cookie: await signIn(t.app, (await createUser(t.db, { roles: ['admin'], organizationIds: [other.id] })).email), ...XHR },
  };
  // The periods were marked published as they were written; they get their publications as an
  // upgraded database's do (no read publishes).
  await publishOutstanding(t.db);
  return {
    org,
    other,
    market,
    otherMarket,
    cluster,
    foreignCluster,
    foreignPeriod,
    foreignCompany,
    finnishPeriod,
    codeIds,
    groups,
    sections,
    companyIds,
    periodIds,
    reportIds,
    headers,
    currencies: { sek, eur, usd, gbp },
  };
}
export type StatisticsWorld = Awaited<ReturnType<typeof buildStatisticsWorld>>;
