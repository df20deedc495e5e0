import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CommunicationStatus } from '@mss/contracts/enums';
import { type Database, openDatabase } from '../src/db/client.ts';
import { companies, companyMarkets, companyOrganizations, periods, reports, users } from '../src/db/schema.ts';
import { createMarket, createOrganization, createUser, PASSWORD, userForm } from './helpers.ts';
import { APP_PORTS, type AppProcess, findNginx, LB_URL, portAnswers, ready, signInOver, startApp, startNginx, until, XHR, xlsx } from './processes.ts';

/*
 * Two app processes on one PostgreSQL server behind nginx (the shipped configuration),
 * both running jobs. Sessions, memberships and disabled users hold across processes; imports,
 * communication sends and workflow mails run once each, on whichever process takes them; a
 * process killed with SIGKILL in the middle of a 100,000-row import or of a send is taken over;
 * SIGTERM lets the requests in flight finish. Needs TEST_DATABASE_URL (as CI provides) and nginx
 * (CI installs it).
 */

const serverUrl = process.env.TEST_DATABASE_URL;
const nginxMissing = !findNginx();
const ADMIN_EMAIL = 'root@processes.test';
const ADMIN_PASSWORD = 'a-long-root-password';
const COMPANIES = 20;
const CODES = 100_000;
const codeOf = (i: number) => String(1_000_000 + i);

let dbName: string | null = null;
let databaseUrl = '';
let database: Database;
let stopNginx: (() => Promise<void>) | null = null;
let nginxLog: () => string = () => '';
const apps: AppProcess[] = [];
const running: AppProcess[] = [];

// The SMTP server: counts accepted mails per recipient; `delayMs` holds each mail's answer a little.
const accepted = new Map<string, number>();
let smtpTotal = 0;
const smtpState = { delayMs: 0 };
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    stream.on('data', () => {});
    stream.on('end', () => {
      const answer = () => {
        smtpTotal++;
        for (const to of session.envelope.rcptTo) accepted.set(to.address, (accepted.get(to.address) ?? 0) + 1);
        callback();
      };
      if (smtpState.delayMs) setTimeout(answer, smtpState.delayMs);
      else answer();
    });
  },
});
// smtp-server re-emits each connection's socket error on the server. A process killed with SIGKILL
// resets its connections (ECONNRESET): that is the point of the test, not a failure of it.
smtp.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') console.error('SMTP server error', error);
});

const q = async <T = Record<string, unknown>>(text: string, values: unknown[] = []) => (await database.pool.query(text, values)).rows as T[];
const one = async <T = Record<string, unknown>>(text: string, values: unknown[] = []) => (await q<T>(text, values))[0]!;

function appEnv(smtpPort: number): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    ADMIN_EMAIL,
    ADMIN_PASSWORD,
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    MAIL_RATE_PER_SECOND: '1000',
    MAIL_RETRY_BASE_SECONDS: '0.2',
    // Short leases and sweeps so that the test does not wait for production's.
    MAIL_LEASE_SECONDS: '3',
    NOTIFY_SWEEP_SECONDS: '1',
  };
}
let env: Record<string, string> = {};

/** Starts a process on the port (in place of one that was there) and waits until it is ready. */
async function launch(port: number): Promise<AppProcess> {
  const app = startApp(port, env);
  apps.push(app);
  const at = running.findIndex((r) => r.port === port);
  if (at >= 0) running.splice(at, 1, app);
  else running.push(app);
  return app;
}
const processOn = (port: number) => running.find((r) => r.port === port)!;
const processNamed = (name: string) => running.find((r) => r.name === name);

function multipart(content: Buffer, name = 'report.xlsx') {
  const boundary = `----mss-processes-${randomUUID()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { head, tail, contentType: `multipart/form-data; boundary=${boundary}` };
}

async function upload(base: string, cookie: string, reportUuid: string, content: Buffer): Promise<{ status: number; uuid: string }> {
  const { head, tail, contentType } = multipart(content);
  const res = await fetch(`${base}/api/v1/reports/${reportUuid}/file`, {
    method: 'POST',
    headers: { ...XHR, cookie, 'content-type': contentType },
    body: Buffer.concat([head, content, tail]),
  });
  const body = (await res.json()) as { data?: { uuid: string } };
  return { status: res.status, uuid: body.data?.uuid ?? '' };
}

// The world, written in SQL once both processes are up.
let org: { id: number };
let marketA: { id: number };
let marketB: { id: number };
let admin: { id: number; email: string };
let reporters: { id: number; email: string; reportId: number; reportUuid: string; companyId: number }[] = [];
let big: { reportId: number; reportUuid: string; email: string };

async function companyWithReport(name: string, market: { id: number }, periodId: number, codes: number) {
  const [company] = await database.db.insert(companies).values({ name }).returning();
  await database.db.insert(companyOrganizations).values({ company_id: company!.id, organization_id: org.id });
  await database.db.insert(companyMarkets).values({ company_id: company!.id, market_id: market.id });
  await q(`insert into company_codes (company_id, code_id) select $1, id from codes where organization_id = $2 and code::int - 1000000 <= $3`, [
    company!.id,
    org.id,
    codes,
  ]);
  const [report] = await database.db.insert(reports).values({ period_id: periodId, company_id: company!.id }).returning();
  const user = await createUser(database.db, { roles: ['reporter'], organizationIds: [org.id], marketIds: [market.id], companyId: company!.id });
  return { id: user.id, email: user.email, reportId: report!.id, reportUuid: report!.uuid, companyId: company!.id };
}

afterAll(async () => {
  for (const app of apps) if (app.child.exitCode === null) app.child.kill('SIGKILL');
  await Promise.all(apps.map((a) => a.exited));
  await stopNginx?.();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
  await database?.close();
  if (serverUrl && dbName) {
    const adminClient = new pg.Client({ connectionString: serverUrl });
    await adminClient.connect();
    await adminClient.query(`drop database if exists ${dbName} with (force)`);
    await adminClient.end();
  }
}, 60_000);

describe.skipIf(!serverUrl)('several processes on one PostgreSQL behind nginx', () => {
  beforeAll(async () => {
    if (nginxMissing) {
      if (process.env.CI === 'true') throw new Error('nginx is missing: CI must run the several-processes test (.ci/run installs nginx)');
      return;
    }
    dbName = `mss_processes_${randomUUID().replace(/-/g, '')}`;
    const adminClient = new pg.Client({ connectionString: serverUrl });
    await adminClient.connect();
    await adminClient.query(`create database ${dbName}`);
    await adminClient.end();
    const url = new URL(serverUrl!);
    url.pathname = `/${dbName}`;
    databaseUrl = url.toString();
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    env = appEnv((smtp.server.address() as AddressInfo).port);

    const nginx = await startNginx();
    stopNginx = nginx.stop;
    nginxLog = nginx.log;
    // Both processes start at the same moment on the empty database.
    for (const port of APP_PORTS) if (await portAnswers(port)) throw new Error(`port ${port} is taken: the shipped configuration sends to it`);
    const started = await Promise.all(APP_PORTS.map((port) => launch(port)));
    await Promise.all(started.map((app) => ready(app)));

    database = await openDatabase({ databaseUrl });
    org = await createOrganization(database.db, 'Processes association');
    marketA = await createMarket(database.db, org.id, 'Sweden');
    marketB = await createMarket(database.db, org.id, 'Norway');
    await q(
      `with c as (
         insert into codes (organization_id, code, name) select $1, (1000000 + g)::text, 'Code ' || g from generate_series(1, ${CODES}) g returning id
       ) insert into code_markets (code_id, market_id) select id, m from c, unnest($2::int[]) m`,
      [org.id, `{${marketA.id},${marketB.id}}`],
    );
    const [period] = await database.db
      .insert(periods)
      .values({ market_id: marketA.id, title: '2026-10', starts_on: '2026-10-01', ends_on: '2026-10-31', status: 'open' })
      .returning();
    const [periodB] = await database.db
      .insert(periods)
      .values({ market_id: marketB.id, title: '2026-10', starts_on: '2026-10-01', ends_on: '2026-10-31', status: 'open' })
      .returning();
    reporters = [];
    for (let i = 0; i < COMPANIES; i++) reporters.push(await companyWithReport(`Company ${i + 1}`, marketA, period!.id, 50));
    const bigCompany = await companyWithReport('Big company', marketB, periodB!.id, CODES);
    big = { reportId: bigCompany.reportId, reportUuid: bigCompany.reportUuid, email: bigCompany.email };
    const adminUser = await createUser(database.db, { roles: ['admin'], organizationIds: [org.id] });
    admin = { id: adminUser.id, email: adminUser.email };
  }, 300_000);

  it.skipIf(nginxMissing)(
    'when two processes start at the same moment on an empty database, then the migrations and the first administrator are written once and both are ready',
    async () => {
      const journal = (await import('../src/db/migrations/meta/_journal.json', { with: { type: 'json' } })).default as { entries: unknown[] };
      const applied = await one<{ n: number; distinct_hashes: number }>(
        `select count(*)::int as n, count(distinct hash)::int as distinct_hashes from drizzle.__drizzle_migrations`,
      );
      expect(applied).toEqual({ n: journal.entries.length, distinct_hashes: journal.entries.length });
      const admins = await database.db.select({ id: users.id }).from(users).where(eq(users.email, ADMIN_EMAIL));
      expect(admins).toHaveLength(1);
      for (const app of running) expect((await fetch(`${app.url}/readyz`)).status).toBe(200);
      expect((await fetch(`${LB_URL}/readyz`)).status).toBe(200);
    },
  );

  it.skipIf(nginxMissing)(
    'when a session is made on one process, then the other serves it; a membership removed or a user disabled on one is refused by the other at the next request',
    async () => {
      const [a, b] = APP_PORTS.map(processOn) as [AppProcess, AppProcess];
      const adminCookie = await signInOver(LB_URL, admin.email, PASSWORD);
      // A market administrator of both markets, signed in on the first process.
      const manager = await createUser(database.db, { roles: ['market-admin'], organizationIds: [org.id], marketIds: [marketA.id, marketB.id] });
      const cookie = await signInOver(a.url, manager.email, PASSWORD);
      const me = await fetch(`${b.url}/api/v1/users/me`, { headers: { cookie } });
      expect(me.status).toBe(200);
      expect(((await me.json()) as { data: { email: string } }).data.email).toBe(manager.email);
      // Through the load balancer, whichever process answers.
      for (let i = 0; i < 6; i++) expect((await fetch(`${LB_URL}/api/v1/users/me`, { headers: { cookie } })).status).toBe(200);
      const bigReport = `/api/v1/reports/${big.reportUuid}`;
      expect((await fetch(`${b.url}${bigReport}`, { headers: { cookie } })).status).toBe(200);

      // The second market is taken away on the first process: the second refuses its report next.
      const put = (base: string, id: number, body: Record<string, unknown>) =>
        fetch(`${base}/api/v1/admin/users/${id}`, {
          method: 'PUT',
          headers: { ...XHR, cookie: adminCookie, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
      const form = userForm({ email: manager.email, roles: ['market-admin'], organization_ids: [], market_ids: [marketA.id] });
      const removed = await put(a.url, manager.id, form);
      expect(removed.status, await removed.clone().text()).toBe(200);
      expect([403, 404]).toContain((await fetch(`${b.url}${bigReport}`, { headers: { cookie } })).status);
      expect((await fetch(`${b.url}/api/v1/users/me`, { headers: { cookie } })).status).toBe(200);

      // Disabled on the second process: the first refuses the session next.
      const disabled = await put(b.url, manager.id, { ...form, disabled: true });
      expect(disabled.status, await disabled.clone().text()).toBe(200);
      expect((await fetch(`${a.url}/api/v1/users/me`, { headers: { cookie } })).status).toBe(401);
    },
  );

  it.skipIf(nginxMissing)(
    `when ${COMPANIES} companies upload at once through the load balancer, then each import runs once on one of the processes, with exactly its rows; workflow mails and a communication go out once each`,
    async () => {
      const names = new Set(running.map((r) => r.name));
      const cookies = await Promise.all(reporters.map((r) => signInOver(LB_URL, r.email, PASSWORD)));
      const files = await Promise.all(
        reporters.map((_, k) => xlsx([['Code', 'Volume', 'Value'], ...Array.from({ length: 50 }, (_, i) => [codeOf(i + 1), k * 1000 + i + 1, (k + i) / 4])])),
      );
      const uploads = await Promise.all(reporters.map((r, k) => upload(LB_URL, cookies[k]!, r.reportUuid, files[k]!)));
      expect(uploads.map((u) => u.status)).toEqual(reporters.map(() => 202));
      const uuids = uploads.map((u) => u.uuid);
      const states = () =>
        q<{ status: string; attempts: number; worker: string; row_count: number }>(
          `select status, attempts, worker, row_count from imports where uuid = any($1::uuid[])`,
          [uuids],
        );
      await until(
        async () => (await states()).every((s) => s.status === 'done'),
        async () => `every import done: ${JSON.stringify(await states())}`,
      );
      for (const s of await states()) {
        expect(s).toMatchObject({ status: 'done', attempts: 1, row_count: 50 });
        expect(names.has(s.worker)).toBe(true);
      }
      // Exactly each company's rows in each report, and each import's job completed once.
      for (const [k, r] of reporters.entries()) {
        const rows = await one<{ n: number; volume: string; sets: number }>(
          `select count(*)::int as n, sum(rr.volume)::text as volume, (select count(*)::int from report_row_sets s where s.report_id = r.id) as sets
         from reports r join report_rows rr on rr.row_set_id = r.row_set_id where r.id = $1 group by r.id`,
          [r.reportId],
        );
        expect(rows).toEqual({
          n: 50,
          volume: (await one<{ v: string }>(`select sum(${k * 1000} + g)::numeric::text as v from generate_series(1, 50) g`)).v + '.0000',
          sets: 1,
        });
      }
      const jobs = await q<{ state: string; n: number }>(`select state, count(*)::int as n from pgboss.job where name = 'report-import' group by state`);
      expect(jobs).toEqual([{ state: 'completed', n: COMPANIES }]);

      // Workflow mails: one "approved" notification per reporter, swept by both processes every second.
      accepted.clear();
      await q(`insert into workflow_notifications (user_id, report_id, kind) select unnest($1::int[]), unnest($2::int[]), 'approved'`, [
        `{${reporters.map((r) => r.id).join(',')}}`,
        `{${reporters.map((r) => r.reportId).join(',')}}`,
      ]);
      await until(
        async () => (await one<{ n: number }>(`select count(*)::int as n from workflow_notifications where status = 'sent'`)).n === COMPANIES,
        () => 'every workflow notification sent',
      );
      // Three more sweeps of each process: nothing is sent again.
      await new Promise((r) => setTimeout(r, 3500));
      expect(reporters.map((r) => accepted.get(r.email))).toEqual(reporters.map(() => 1));

      // A communication to the reporters of the first market, sent through the load balancer.
      accepted.clear();
      const adminCookie = await signInOver(LB_URL, admin.email, PASSWORD);
      const communication = await one<{ id: number; uuid: string }>(
        `insert into communications (organization_id, status, subject, body, market_ids, recipients, preflight_sent_at)
       values ($1, ${CommunicationStatus.PreflightSent}, 'Deadline', '<p>Hello {{recipient_name}}</p>', $2,
         '{"roles": ["reporter"], "company_ids": [], "period_id": null, "report_statuses": []}', now()) returning id, uuid`,
        [org.id, `{${marketA.id}}`],
      );
      const sent = await fetch(`${LB_URL}/api/v1/communications/${communication.uuid}/send`, {
        method: 'POST',
        headers: { ...XHR, cookie: adminCookie, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(sent.status, await sent.clone().text()).toBe(200);
      await until(
        async () => (await one<{ status: number }>(`select status from communications where id = $1`, [communication.id])).status === CommunicationStatus.Sent,
        () => 'the communication sent',
      );
      expect(reporters.map((r) => accepted.get(r.email))).toEqual(reporters.map(() => 1));
      expect(accepted.size).toBe(COMPANIES);
    },
  );

  it.skipIf(nginxMissing)(
    `when the process importing a ${CODES.toLocaleString('en')}-row file is killed (SIGKILL), then the other finishes it within 2 minutes with exactly the file's rows and one import`,
    async () => {
      const file = await xlsx(
        (function* () {
          yield ['Code', 'Volume', 'Value'];
          for (let i = 1; i <= CODES; i++) yield [codeOf(i), (i % 997) + 1, Math.round(i * 12.5) / 100];
        })(),
      );
      const cookie = await signInOver(LB_URL, big.email, PASSWORD);
      const before = await one<{ n: number }>(`select count(*)::int as n from imports where report_id = $1`, [big.reportId]);
      const res = await upload(LB_URL, cookie, big.reportUuid, file);
      expect(res.status).toBe(202);
      // The moment its rows are being written: which process has it?
      let victim: AppProcess | undefined;
      await until(
        async () => {
          const row = await one<{ status: string; worker: string | null; writing: boolean }>(
            `select i.status, i.worker, exists (select 1 from report_row_sets s join report_rows rr on rr.row_set_id = s.id
             where s.report_id = i.report_id and s.id is distinct from r.row_set_id) as writing
           from imports i join reports r on r.id = i.report_id where i.uuid = $1`,
            [res.uuid],
          );
          if (row.status !== 'processing' && row.status !== 'queued') throw new Error(`the import ended (${row.status}) before it could be interrupted`);
          victim = row.worker && row.writing ? processNamed(row.worker) : undefined;
          return victim !== undefined;
        },
        () => 'the import to be writing rows',
        60_000,
        10,
      );
      victim!.child.kill('SIGKILL');
      await victim!.exited;
      const killedAt = Date.now();
      const state = () =>
        one<{ status: string; attempts: number; worker: string; row_count: number | null }>(
          `select status, attempts, worker, row_count from imports where uuid = $1`,
          [res.uuid],
        );
      await until(
        async () => (await state()).status === 'done',
        async () => `the import taken over: ${JSON.stringify(await state())}`,
        120_000,
        200,
      );
      const tookOver = Date.now() - killedAt;
      const done = await state();
      expect(done.worker).not.toBe(victim!.name);
      expect(done).toMatchObject({ status: 'done', attempts: 2, row_count: CODES });
      const rows = await one<{ n: number; volume_ok: boolean; value_ok: boolean; sets: number }>(
        `select count(*)::int as n,
         sum(rr.volume) = (select sum((g % 997) + 1) from generate_series(1, ${CODES}) g) as volume_ok,
         sum(rr.value) = (select sum(round(g * 12.5) / 100) from generate_series(1, ${CODES}) g) as value_ok,
         (select count(*)::int from report_row_sets s where s.report_id = r.id) as sets
       from reports r join report_rows rr on rr.row_set_id = r.row_set_id where r.id = $1 group by r.id`,
        [big.reportId],
      );
      expect(rows).toEqual({ n: CODES, volume_ok: true, value_ok: true, sets: 1 });
      expect((await one<{ n: number }>(`select count(*)::int as n from imports where report_id = $1`, [big.reportId])).n).toBe(before.n + 1);
      console.info(`import taken over and done ${tookOver} ms after the SIGKILL`);
      expect(tookOver).toBeLessThan(120_000);
      await ready(await launch(victim!.port));
    },
    300_000,
  );

  it.skipIf(nginxMissing)(
    'when the process sending a communication is killed (SIGKILL), then every recipient gets the mail, and only mails in flight at the kill go twice',
    async () => {
      const RECIPIENTS = 300;
      const market = await createMarket(database.db, org.id, 'Denmark');
      const [company] = await database.db.insert(companies).values({ name: 'Many readers' }).returning();
      await database.db.insert(companyOrganizations).values({ company_id: company!.id, organization_id: org.id });
      await q(`insert into company_markets (company_id, market_id, roles) values ($1, $2, '{reporter}')`, [company!.id, market.id]);
      await q(
        `with u as (
         insert into users (email, first_name, last_name, company_id)
         select 'reader' || g || '@processes.test', 'Reader', g::text, $1 from generate_series(1, ${RECIPIENTS}) g returning id
       ) insert into user_organizations (user_id, organization_id) select id, $2 from u`,
        [company!.id, org.id],
      );
      const communication = await one<{ id: number; uuid: string }>(
        `insert into communications (organization_id, status, subject, body, market_ids, recipients, preflight_sent_at)
       values ($1, ${CommunicationStatus.PreflightSent}, 'News', '<p>Hello {{recipient_name}}</p>', $2,
         '{"roles": ["reporter"], "company_ids": [], "period_id": null, "report_statuses": []}', now()) returning id, uuid`,
        [org.id, `{${market.id}}`],
      );
      accepted.clear();
      smtpTotal = 0;
      smtpState.delayMs = 15;
      const adminCookie = await signInOver(LB_URL, admin.email, PASSWORD);
      const sent = await fetch(`${LB_URL}/api/v1/communications/${communication.uuid}/send`, {
        method: 'POST',
        headers: { ...XHR, cookie: adminCookie, 'content-type': 'application/json' },
        body: '{}',
      });
      expect(sent.status).toBe(200);
      await until(
        () => smtpTotal >= 100,
        () => `100 mails accepted (${smtpTotal})`,
      );
      // The process holding the most deliveries in flight. Between two of its batches none may be
      // (one recorded, the next not claimed yet): wait for a moment when some are, not for time.
      let sender: { claimed_by: string } | undefined;
      await until(
        async () =>
          (sender = (
            await q<{ claimed_by: string }>(
              `select claimed_by from communication_deliveries where communication_id = $1 and status = 'sending' group by claimed_by order by count(*) desc limit 1`,
              [communication.id],
            )
          )[0]) !== undefined,
        () => 'a delivery in flight',
        30_000,
        5,
      );
      const victim = processNamed(sender!.claimed_by)!;
      expect(victim).toBeDefined();
      victim.child.kill('SIGKILL');
      await victim.exited;
      // What the dead process had claimed and not recorded: the in-flight window.
      const inFlight = (
        await one<{ n: number }>(
          `select count(*)::int as n from communication_deliveries where communication_id = $1 and status = 'sending' and claimed_by = $2`,
          [communication.id, victim.name],
        )
      ).n;
      smtpState.delayMs = 0;
      await until(
        async () => (await one<{ status: number }>(`select status from communications where id = $1`, [communication.id])).status === CommunicationStatus.Sent,
        async () =>
          `the send to finish: ${JSON.stringify(await q(`select status, count(*)::int from communication_deliveries where communication_id = $1 group by 1`, [communication.id]))}`,
        120_000,
      );
      const counts = [...accepted.values()];
      const duplicates = counts.reduce((sum, n) => sum + n - 1, 0);
      console.info(`killed with ${inFlight} deliveries in flight; ${duplicates} recipients got the mail twice`);
      expect(accepted.size).toBe(RECIPIENTS);
      expect(counts.every((n) => n >= 1)).toBe(true);
      expect(duplicates).toBeLessThanOrEqual(inFlight);
      expect(await q(`select status, count(*)::int as n from communication_deliveries where communication_id = $1 group by 1`, [communication.id])).toEqual([
        { status: 'sent', n: RECIPIENTS },
      ]);
      await ready(await launch(victim.port));
    },
    300_000,
  );

  it.skipIf(nginxMissing)(
    'when a process gets SIGTERM with 20 uploads in flight, then each finishes (202), the load balancer serves everyone meanwhile, the imports run on the other process and the process exits within the bound',
    async () => {
      const [a] = APP_PORTS.map(processOn) as [AppProcess];
      const cookies = await Promise.all(reporters.map((r) => signInOver(a.url, r.email, PASSWORD)));
      const viewer = await signInOver(LB_URL, admin.email, PASSWORD);
      const file = await xlsx([['Code', 'Volume', 'Value'], ...Array.from({ length: 50 }, (_, i) => [codeOf(i + 1), i + 7, 1])]);
      // Twenty uploads straight to the process, each stopped halfway through its file, on
      // keep-alive connections (as a browser's, or a load balancer's with upstream keep-alive):
      // the process must not wait for their clients to leave.
      const keepAlive = new http.Agent({ keepAlive: true, keepAliveMsecs: 60_000 });
      const inFlight = reporters.map((r, k) => {
        const { head, tail, contentType } = multipart(file);
        const request = http.request(`${a.url}/api/v1/reports/${r.reportUuid}/file`, {
          method: 'POST',
          agent: keepAlive,
          headers: { ...XHR, cookie: cookies[k], 'content-type': contentType, 'content-length': head.length + file.length + tail.length },
        });
        const response = new Promise<{ status: number; body: string; connection: string | undefined }>((resolve, reject) => {
          request.on('response', (res) => {
            let body = '';
            res.on('data', (c: Buffer) => (body += c.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body, connection: res.headers.connection }));
          });
          request.on('error', reject);
        });
        request.write(Buffer.concat([head, file.subarray(0, file.length >> 1)]));
        return { request, response, rest: Buffer.concat([file.subarray(file.length >> 1), tail]) };
      });
      await new Promise((r) => setTimeout(r, 300));
      // Everyone else goes on through the load balancer while the process stops.
      const others: number[] = [];
      let reading = true;
      const reader = (async () => {
        while (reading) others.push((await fetch(`${LB_URL}/api/v1/reports`, { headers: { cookie: viewer } }).catch(() => ({ status: 0 }))).status);
      })();
      const termAt = Date.now();
      a.child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 500));
      // A process on its way out takes no new connection: the load balancer sends them elsewhere.
      expect(await portAnswers(a.port)).toBe(false);
      for (const f of inFlight) f.request.end(f.rest);
      const answers = await Promise.all(inFlight.map((f) => f.response));
      expect(answers.map((r) => r.status)).toEqual(reporters.map(() => 202));
      const code = await a.exited;
      const exitMs = Date.now() - termAt;
      reading = false;
      await reader;
      console.info(`SIGTERM to exit: ${exitMs} ms; ${others.length} other requests meanwhile`);
      expect(code).toBe(0);
      expect(answers.every((r) => r.connection === 'close')).toBe(true);
      expect(exitMs).toBeLessThan(10_000); // the README's bound when no request runs longer
      keepAlive.destroy();
      expect(others.length).toBeGreaterThan(0);
      expect(others.filter((s) => s !== 200)).toEqual([]);
      // The twenty imports: done, by the process that stayed.
      const uuids = answers.map((r) => (JSON.parse(r.body) as { data: { uuid: string } }).data.uuid);
      const states = () => q<{ status: string; worker: string }>(`select status, worker from imports where uuid = any($1::uuid[])`, [uuids]);
      await until(
        async () => (await states()).every((s) => s.status === 'done'),
        async () => `the imports done: ${JSON.stringify(await states())}\n${nginxLog().slice(-2000)}`,
      );
      expect(new Set((await states()).map((s) => s.worker))).toEqual(new Set([processOn(APP_PORTS[1]).name]));
    },
    300_000,
  );
});
