import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { afterAll, describe, expect, it } from 'vitest';
import { CommunicationStatus } from '@mss/contracts/enums';
import { migrateDatabase, openDatabase } from '../../db/client.ts';
import { type AppProcess, startApp } from '../../../test/processes.ts';

/*
 * The process that sends a 500-recipient communication is killed in the middle (SIGKILL: no
 * clean-up of any kind) and started again; every recipient gets exactly one mail.
 *
 * The app runs as a real child process (server/src/main.ts) on a PostgreSQL server database; a
 * real SMTP server in this test accepts mails. At the 200th mail the SMTP server stops answering
 * (mails in the middle of their SMTP conversation are then not accepted), waits until every mail
 * it accepted is recorded as sent (so the kill does not fall in the milliseconds between the
 * server's answer and the app's commit, the one window docs/decisions.md "Communications"
 * describes), and kills the app. The restarted app must send the rest, and nothing twice.
 *
 * Needs a PostgreSQL server (TEST_DATABASE_URL, as CI provides): the embedded database does not
 * promise to survive a SIGKILL of its process.
 */

const serverUrl = process.env.TEST_DATABASE_URL;
const RECIPIENTS = 500;
const KILL_AT = 200;

let dbName: string | null = null;
const children: ChildProcess[] = [];

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  if (serverUrl && dbName) {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  }
});

describe.skipIf(!serverUrl)('communications: a crash in the middle of a send', () => {
  it(`when the sending process is killed after ${KILL_AT} of ${RECIPIENTS} mails and started again, then every recipient gets exactly one mail`, async () => {
    dbName = `mss_crash_${randomUUID().replace(/-/g, '')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    await admin.end();
    const url = new URL(serverUrl!);
    url.pathname = `/${dbName}`;
    const databaseUrl = url.toString();

    // The world, in SQL: 500 reporters of one company in one market, and a communication to them
    // waiting to be sent (its preflight and the send request are the API's, tested elsewhere).
    const database = await openDatabase({ databaseUrl });
    await migrateDatabase(database.db);
    const q = (text: string, values: unknown[] = []) => database.pool.query(text, values);
    const org = (await q(`insert into organizations (name) values ('Crash test') returning id`)).rows[0].id;
    const market = (
      await q(`insert into markets (organization_id, international_name, local_name, iso_code) values ($1, 'Sweden', 'Sverige', 'SE') returning id`, [org])
    ).rows[0].id;
    const company = (await q(`insert into companies (name) values ('Acme AB') returning id`)).rows[0].id;
    await q(`insert into company_organizations (company_id, organization_id) values ($1, $2)`, [company, org]);
    await q(`insert into company_markets (company_id, market_id, roles) values ($1, $2, '{reporter}')`, [company, market]);
    await q(
      `with u as (
         insert into users (email, first_name, last_name, company_id)
         select 'r' || g || '@crash.test', 'Reporter', g::text, $1 from generate_series(1, ${RECIPIENTS}) g returning id
       ) insert into user_organizations (user_id, organization_id) select id, $2 from u`,
      [company, org],
    );
    const communication = (
      await q(
        `insert into communications (organization_id, status, subject, body, market_ids, recipients, preflight_sent_at)
         values ($1, ${CommunicationStatus.WaitingToBeSent}, 'Reminder {{recipient_name}}', '<p>Hello {{recipient_name}}</p>', $2, '{"roles": ["reporter"], "company_ids": [], "period_id": null, "report_statuses": []}', now())
         returning id`,
        [org, `{${market}}`],
      )
    ).rows[0].id;

    // The SMTP server: counts accepted mails per recipient; at KILL_AT it holds every mail unanswered.
    const accepted = new Map<string, number>();
    let total = 0;
    let holding = false;
    let killed: Promise<void> | null = null;
    let first: ChildProcess | null = null;
    const recordedSent = async () => Number((await q(`select count(*) from communication_deliveries where status = 'sent'`)).rows[0].count);
    const smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        stream.on('data', () => {});
        stream.on('end', () => {
          if (holding) return; // never answered: the mail is not accepted
          if (killed === null && total + 1 === KILL_AT) {
            holding = true;
            killed = (async () => {
              for (let i = 0; i < 200 && (await recordedSent()) < total; i++) await new Promise((r) => setTimeout(r, 25));
              first!.kill('SIGKILL');
              await new Promise((r) => first!.once('exit', r));
            })();
            return;
          }
          total++;
          for (const to of session.envelope.rcptTo) accepted.set(to.address, (accepted.get(to.address) ?? 0) + 1);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const { port } = smtp.server.address() as AddressInfo;

    const apps: AppProcess[] = [];
    const start = () => {
      const app = startApp(0, {
        DATABASE_URL: databaseUrl,
        SMTP_URL: `smtp://127.0.0.1:${port}`,
        MAIL_RATE_PER_SECOND: '1000',
        MAIL_MAX_CONNECTIONS: '3',
        MAIL_LEASE_SECONDS: '2',
        MAIL_RETRY_BASE_SECONDS: '0.2',
      });
      apps.push(app);
      children.push(app.child);
      return app.child;
    };
    const status = async () => Number((await q(`select status from communications where id = $1`, [communication])).rows[0].status);
    const until = async (done: () => Promise<boolean> | boolean, what: string, ms = 120_000) => {
      const end = Date.now() + ms;
      while (!(await done())) {
        if (Date.now() > end) {
          const state = (await q(`select status, count(*)::int as n from communication_deliveries group by status`)).rows;
          throw new Error(
            `timed out waiting for ${what}: deliveries ${JSON.stringify(state)}, communication ${await status()}; app said:\n${apps
              .map((a) => a.output())
              .join('\n')
              .slice(-3000)}`,
          );
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    };

    try {
      first = start();
      await until(() => killed !== null, `the ${KILL_AT}th mail`);
      await killed;
      expect(await status()).toBe(CommunicationStatus.WaitingToBeSent);
      const inFlight = Number((await q(`select count(*) from communication_deliveries where status = 'sending'`)).rows[0].count);
      expect(total).toBe(KILL_AT - 1);
      expect(inFlight).toBeGreaterThan(0); // the kill did fall in the middle of sends

      holding = false;
      start();
      await until(async () => (await status()) === CommunicationStatus.Sent, 'the send to finish after the restart');

      const deliveries = (await q(`select status, count(*)::int as n from communication_deliveries group by status`)).rows;
      expect(deliveries).toEqual([{ status: 'sent', n: RECIPIENTS }]);
      expect(accepted.size).toBe(RECIPIENTS);
      expect([...accepted.values()].every((n) => n === 1)).toBe(true);
      expect(total).toBe(RECIPIENTS);
    } finally {
      for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      await database.close();
    }
  }, 180_000);
});
