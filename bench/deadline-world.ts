import { randomBytes } from 'node:crypto';
import { hashPassword, hashToken } from '../server/src/auth/passwords.ts';
import type { Database } from '../server/src/db/client.ts';

export interface World {
  reporters: { cookie: string; reportUuid: string; company: number }[];
  approvers: string[];
  viewers: string[];
}

/** The world, in SQL: companies in MARKETS markets, a report each in an open period, sessions for all. */
export async function buildWorld(database: Database, size: { reports: number; rows: number; markets: number; readers: number }): Promise<World> {
  const { reports: REPORTS, rows: ROWS, markets: MARKETS, readers: READERS } = size;
  const q = async <T>(text: string, values: unknown[] = []) => (await database.pool.query(text, values)).rows as T[];
  const hash = await hashPassword(randomBytes(12).toString('hex'));
  const [org] = await q<{ id: number }>(`insert into organizations (name) values ('Deadline association') returning id`);
  const markets = await q<{ id: number }>(
    `insert into markets (organization_id, international_name, local_name, iso_code)
     select $1, 'Market ' || g, 'Market ' || g, 'M' || g from generate_series(1, ${MARKETS}) g returning id`,
    [org!.id],
  );
  const marketIds = `{${markets.map((m) => m.id).join(',')}}`;
  await q(
    `with c as (insert into codes (organization_id, code, name) select $1, (1000000 + g)::text, 'Code ' || g from generate_series(1, ${ROWS}) g returning id)
     insert into code_markets (code_id, market_id) select c.id, m from c, unnest($2::int[]) m`,
    [org!.id, marketIds],
  );
  const periods = await q<{ id: number; market_id: number }>(
    `insert into periods (market_id, title, starts_on, ends_on, status) select m, '2026-11', '2026-11-01', '2026-11-30', 'open' from unnest($1::int[]) m returning id, market_id`,
    [marketIds],
  );
  await q(`insert into companies (name) select 'Company ' || g from generate_series(1, ${REPORTS}) g`);
  const companies = await q<{ id: number; k: number }>(`select id, row_number() over (order by id)::int - 1 as k from companies order by id`);
  const marketOf = (k: number) => markets[k % MARKETS]!.id;
  const companyIds = `{${companies.map((c) => c.id).join(',')}}`;
  const companyMarkets = `{${companies.map((c) => marketOf(c.k)).join(',')}}`;
  await q(`insert into company_organizations (company_id, organization_id) select unnest($1::int[]), $2`, [companyIds, org!.id]);
  await q(`insert into company_markets (company_id, market_id) select unnest($1::int[]), unnest($2::int[])`, [companyIds, companyMarkets]);
  await q(`insert into company_codes (company_id, code_id) select c, codes.id from unnest($1::int[]) c, codes where codes.organization_id = $2`, [
    companyIds,
    org!.id,
  ]);
  await q(`insert into reports (period_id, company_id) select p.id, x.c from unnest($1::int[], $2::int[]) x(c, m) join periods p on p.market_id = x.m`, [
    companyIds,
    companyMarkets,
  ]);
  const reports = await q<{ uuid: string; company_id: number }>(`select uuid::text, company_id from reports`);
  const reportOf = new Map(reports.map((r) => [r.company_id, r.uuid]));
  // Users with sessions made in SQL (a sign-in each would cost a password hash per user).
  const session = async (email: string, role: string, market: number, company: number | null) => {
    const [user] = await q<{ id: number }>(
      `insert into users (email, first_name, last_name, password_hash, company_id) values ($1, 'Deadline', 'User', $2, $3) returning id`,
      [email, hash, company],
    );
    await q(`insert into user_organizations (user_id, organization_id) values ($1, $2)`, [user!.id, org!.id]);
    await q(`insert into user_roles (user_id, role) values ($1, $2)`, [user!.id, role]);
    await q(`insert into user_markets (user_id, market_id) values ($1, $2)`, [user!.id, market]);
    const token = randomBytes(32).toString('base64url');
    await q(`insert into sessions (token_hash, kind, user_id, organization_id, expires_at) values ($1, 'session', $2, $3, now() + interval '6 hours')`, [
      hashToken(token),
      user!.id,
      org!.id,
    ]);
    return `mss_session=${token}`;
  };
  const reporters: World['reporters'] = [];
  for (const c of companies) {
    reporters.push({ cookie: await session(`reporter${c.k}@deadline.test`, 'reporter', marketOf(c.k), c.id), reportUuid: reportOf.get(c.id)!, company: c.k });
  }
  const approvers: string[] = [];
  const viewers: string[] = [];
  for (let i = 0; i < READERS / 2; i++) {
    approvers.push(await session(`approver${i}@deadline.test`, 'market-admin', markets[i % MARKETS]!.id, null));
    viewers.push(await session(`viewer${i}@deadline.test`, 'viewer', markets[i % MARKETS]!.id, null));
  }
  void periods;
  return { reporters, approvers, viewers };
}
