import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { eq, sql } from 'drizzle-orm';
import type { Role } from '@mss/contracts/enums';
import { buildApp, type BuildOptions } from '../src/app.ts';
import { loadConfig, type Config } from '../src/config.ts';
import { migrateDatabase, openDatabase, type Database, type Db } from '../src/db/client.ts';
import {
  companies,
  companyMarkets,
  companyOrganizations,
  markets,
  organizations,
  reports,
  userMarkets,
  userOrganizations,
  userRoles,
  users,
} from '../src/db/schema.ts';
import { hashPassword } from '../src/auth/passwords.ts';
import type { App } from '../src/context.ts';

export const XHR = { 'x-requested-with': 'XMLHttpRequest' };

export interface TestApp {
  app: App;
  db: Db;
  /** The database itself: a second app on it (another process) is built with it. */
  database: Database;
  config: Config;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * A fresh database for one test file: in-memory PGlite in a worker (the default), or a new
 * database on the PostgreSQL server of TEST_DATABASE_URL, dropped afterwards.
 */
async function freshDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const database = await openDatabase({ inMemory: true });
    return { database, drop: async () => {} };
  }
  const name = `mss_test_${randomUUID().replace(/-/g, '')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString() });
  return {
    database,
    drop: async () => {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/**
 * The configuration of an app under test, with its data in `dataDir`. Background jobs only where a
 * test asks for them (JOBS: 'on'): starting the queue costs a second. No timed vacuum of the
 * embedded database in the middle of a test's statements (maintenance.test.ts tests it on its
 * own): a test file runs longer than its one-minute interval.
 */
export function testConfig(dataDir: string, env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIST: path.join(dataDir, 'no-web'),
    JOBS: 'off',
    DB_MAINTENANCE_MINUTES: '0',
    ...env,
  });
}

/** `options.logger`: a test that checks what is logged passes its own (otherwise nothing is logged). */
export async function createTestApp(env: Record<string, string> = {}, options: BuildOptions = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mss-test-'));
  const config = testConfig(dataDir, env);
  const { database, drop } = await freshDatabase();
  await migrateDatabase(database.db);
  const app = await buildApp({ config, database }, { logger: false, ...options });
  await app.ready();
  return {
    app,
    db: database.db,
    database,
    config,
    dataDir,
    async close() {
      await app.close();
      await database.close();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

let counter = 0;
export const unique = (prefix: string) => `${prefix}-${process.pid}-${++counter}`;

export async function createOrganization(db: Db, name = unique('Org')) {
  const [org] = await db.insert(organizations).values({ name }).returning();
  return org!;
}

export async function createMarket(db: Db, organizationId: number, name = unique('Market')) {
  const [market] = await db
    .insert(markets)
    .values({ organization_id: organizationId, international_name: name, local_name: name, iso_code: unique('X') })
    .returning();
  return market!;
}

export const PASSWORD = 'correct-horse-battery';

/**
 * The whole form of POST/PUT /admin/users, as the web sends it (write bodies are strict and whole,
 * docs/decisions.md "Write bodies are strict"), for a user made by createUser: every field, the
 * lists empty unless given.
 */
export const userForm = (fields: Record<string, unknown> = {}) => ({
  first_name: 'Test',
  last_name: 'User',
  phone: null,
  locale: 'en-US',
  company_id: null,
  organization_ids: [],
  market_ids: [],
  roles: [],
  disabled: false,
  ...fields,
});

export async function createUser(
  db: Db,
  options: {
    email?: string;
    password?: string | null;
    roles?: Role[];
    organizationIds?: number[];
    marketIds?: number[];
    companyId?: number;
    disabled?: boolean;
  } = {},
) {
  const email = options.email ?? `${unique('user')}@example.test`;
  const [user] = await db
    .insert(users)
    .values({
      email,
      first_name: 'Test',
      last_name: 'User',
      password_hash: options.password === null ? null : await hashPassword(options.password ?? PASSWORD),
      company_id: options.companyId ?? null,
      disabled_at: options.disabled ? new Date() : null,
    })
    .returning();
  for (const role of options.roles ?? []) await db.insert(userRoles).values({ user_id: user!.id, role });
  for (const id of options.organizationIds ?? []) await db.insert(userOrganizations).values({ user_id: user!.id, organization_id: id });
  for (const id of options.marketIds ?? []) await db.insert(userMarkets).values({ user_id: user!.id, market_id: id });
  return { ...user!, email };
}

export async function createCompany(db: Db, marketRoles: { marketId: number; roles: string[] }[], name = unique('Company')) {
  const [company] = await db.insert(companies).values({ name }).returning();
  for (const m of marketRoles) await db.insert(companyMarkets).values({ company_id: company!.id, market_id: m.marketId, roles: m.roles });
  return company!;
}

/** Signs in through the API and returns the cookie header to send with later requests. */
export async function signIn(app: App, email: string, password = PASSWORD, organization?: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/api/v1/auth/login', headers: XHR, payload: { email, password, organization } });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  const cookie = res.cookies.find((c) => c.name === 'mss_session');
  if (!cookie) throw new Error(`no session cookie: ${res.body}`);
  return `mss_session=${cookie.value}`;
}

/** Signs in a new user holding the roles (in a new organization unless one is given). */
export async function signInAs(t: TestApp, roles: Role[], options: { organizationId?: number; marketIds?: number[] } = {}) {
  const organizationId = roles.includes('super-admin') ? undefined : (options.organizationId ?? (await createOrganization(t.db)).id);
  const user = await createUser(t.db, { roles, organizationIds: organizationId ? [organizationId] : [], marketIds: options.marketIds });
  const cookie = await signIn(t.app, user.email);
  return { user, organizationId, cookie, headers: { cookie, ...XHR } };
}

/**
 * A company with `n` codes (codes 1000001…, all in one market and all the company's, made in one
 * statement), its reporter, and an open period that a market administrator opened through the
 * API, with the company's report (status 20). For import tests and benchmarks.
 */
export async function createReportWithCodes(t: TestApp, n: number) {
  const org = await createOrganization(t.db);
  const market = await createMarket(t.db, org.id);
  const [company] = await t.db
    .insert(companies)
    .values({ name: unique('Company') })
    .returning();
  await t.db.insert(companyOrganizations).values({ company_id: company!.id, organization_id: org.id });
  await t.db.insert(companyMarkets).values({ company_id: company!.id, market_id: market.id });
  await t.db.execute(sql`
    with c as (
      insert into codes (organization_id, code, name)
      select ${org.id}, (1000000 + g)::text, 'Code ' || g from generate_series(1, ${n}::int) g
      returning id
    ), m as (
      insert into code_markets (code_id, market_id) select id, ${market.id}::int from c
    )
    insert into company_codes (company_id, code_id) select ${company!.id}::int, id from c`);
  const reporterUser = await createUser(t.db, { roles: ['reporter'], organizationIds: [org.id], marketIds: [market.id], companyId: company!.id });
  const reporter = { ...XHR, cookie: await signIn(t.app, reporterUser.email) };
  const adminUser = await createUser(t.db, { roles: ['market-admin'], organizationIds: [org.id], marketIds: [market.id] });
  const admin = { ...XHR, cookie: await signIn(t.app, adminUser.email) };
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/v1/periods',
    headers: admin,
    payload: { market_id: market.id, title: '2026-10', starts_on: '2026-10-01', ends_on: '2026-10-31' },
  });
  if (created.statusCode !== 201 && created.statusCode !== 200) throw new Error(`period not created: ${created.statusCode} ${created.body}`);
  const opened = await t.app.inject({ method: 'POST', url: `/api/v1/periods/${created.json().data.uuid}/open`, headers: admin });
  if (opened.statusCode >= 300) throw new Error(`period not opened: ${opened.statusCode} ${opened.body}`);
  const [report] = await t.db.select().from(reports).where(eq(reports.company_id, company!.id));
  if (!report) throw new Error('opening the period created no report');
  return { reporter, report };
}

/** A company of the organization that reports in the market (reporter and company roles), written directly. */
export async function insertMemberCompany(db: Db, organizationId: number, marketId: number, name = unique('Company')): Promise<number> {
  const id = (await db.execute<{ id: number }>(sql`insert into companies (name) values (${name}) returning id`)).rows[0]!.id;
  await db.execute(sql`insert into company_organizations (company_id, organization_id) values (${id}, ${organizationId})`);
  await db.execute(sql`insert into company_markets (company_id, market_id, roles) values (${id}, ${marketId}, ${'{reporter,company}'}::text[])`);
  return id;
}

/** A report of the company in the period, in `status`, holding `rows` as its current row set, written directly. */
export async function insertReport(
  db: Db,
  report: { periodId: number; companyId: number; status: number; rows: readonly { codeId: number; volume: string | null; value: string | null }[] },
): Promise<{ id: number; uuid: string }> {
  const made = (
    await db.execute<{ id: number; uuid: string }>(
      sql`insert into reports (period_id, company_id, status) values (${report.periodId}, ${report.companyId}, ${report.status}) returning id, uuid::text as uuid`,
    )
  ).rows[0]!;
  const set = (await db.execute<{ id: number }>(sql`insert into report_row_sets (report_id) values (${made.id}) returning id`)).rows[0]!.id;
  await db.execute(sql`update reports set row_set_id = ${set} where id = ${made.id}`);
  for (const r of report.rows)
    await db.execute(sql`insert into report_rows (row_set_id, code_id, volume, value) values (${set}, ${r.codeId}, ${r.volume}, ${r.value})`);
  return made;
}
