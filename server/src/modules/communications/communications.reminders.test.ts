import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, createTestApp, type TestApp } from '../../../test/helpers.ts';
import { reportingWorld } from '../../../test/reporting.ts';
import { startSmtp } from '../../../test/smtp.ts';
import { createDueReminders } from './communications.reminders.ts';

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
const APP_URL = 'https://stats.example.test';

beforeAll(async () => {
  smtp = await startSmtp();
  // The jobs run, with a sweep every second: the reminders below are created and sent by it, as in production.
  t = await createTestApp({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Statistics <stats@example.test>',
    APP_URL,
    JOBS: 'on',
    NOTIFY_SWEEP_SECONDS: '1',
    MAIL_RETRY_BASE_SECONDS: '0.2',
    MAIL_RATE_PER_SECOND: '200',
  });
});

afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const api = (method: string, url: string, headers: Record<string, string>, payload?: unknown) =>
  t.app.inject({ method: method as 'GET', url: `/api/v1${url}`, headers, payload: payload as object });
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const setReminderDays = (organizationId: number, days: string) =>
  t.db.execute(sql`insert into organization_settings (organization_id, key, value) values (${organizationId}, 'reminder_days', ${days})
    on conflict (organization_id, key) do update set value = excluded.value`);

/**
 * Sweden with Acme (its reporter, and a second one who reads Swedish) and Rival (its reporter),
 * and the market administrator; period `title` open with its deadline on `deadline`: Acme's
 * report is Ongoing, Rival's waits for approval.
 */
async function world(title: string, deadline: string) {
  const rw = reportingWorld(() => t);
  const w = await rw.world();
  const { period } = await rw.openPeriod(w, title, `${title}-01`);
  await t.db.execute(sql`update periods set deadline = ${deadline}::date where uuid = ${period.uuid}`);
  const swede = await createUser(t.db, { roles: ['reporter'], organizationIds: [w.org.id], marketIds: [w.market.id], companyId: w.company.id });
  await t.db.execute(sql`update users set locale = 'sv-SE', first_name = 'Greta' where id = ${swede.id}`);
  const rivalReport = (await api('GET', `/reports?period_uuid=${period.uuid}`, w.rivalReporter)).json().data[0];
  await rw.storeRows(rivalReport.uuid, [[w.codes[0]!.id, 10, 100]]);
  expect((await rw.status(w.rivalReporter, rivalReport.uuid, { status: 40 })).statusCode).toBe(200);
  const acme = (await api('GET', '/users/me', w.reporter)).json().data as { email: string };
  const rival = (await api('GET', '/users/me', w.rivalReporter)).json().data as { email: string };
  const periodId = (await t.db.execute<{ id: number }>(sql`select id from periods where uuid = ${period.uuid}`)).rows[0]!.id;
  return { ...w, period, periodId, swede, acme, rival };
}

type Listed = { uuid: string; status: number; subject: string; reminder: string | null; author: unknown; recipients: { period_uuid: string | null } };

async function remindersOf(w: Awaited<ReturnType<typeof world>>) {
  const list = (await api('GET', '/communications?per_page=100', w.admin)).json().data as Listed[];
  return list.filter((c) => c.reminder !== null && c.recipients.period_uuid === w.period.uuid);
}

async function until<T>(what: () => Promise<T | null | undefined | false>, label: string): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const value = await what();
    if (value) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${label}`);
}

describe('automatic reminders', () => {
  it('when reminder_days is set and a deadline is that many days away, then the reporters of companies not submitted get one reminder each, in their language, listed with the communications', async () => {
    const w = await world('2026-07', day(3));
    await setReminderDays(w.org.id, '3');
    const sent = await until(async () => (await remindersOf(w)).find((c) => c.status === 20), 'the reminder to be sent');
    expect(sent).toMatchObject({ reminder: 'before', author: null });
    expect(sent.subject).toMatch(/^Reminder: the report for 2026-07 \(Sweden\) is due [A-Z][a-z]+ \d+, \d{4}$/);

    const mails = smtp.received.filter((m) => m.parsed.subject?.includes('2026-07'));
    const to = mails.flatMap((m) => m.to).sort();
    expect(to).toEqual([w.acme.email, w.swede.email].sort());
    const english = mails.find((m) => m.to.includes(w.acme.email))!;
    expect(english.parsed.subject).toMatch(/^Reminder: the report for 2026-07 \(Sweden\) is due [A-Z][a-z]+ \d+, \d{4}$/);
    expect(english.parsed.text).toContain('the report of Acme AB for 2026-07 (Sweden) is due');
    expect(english.parsed.text).toContain('(its status: Ongoing)');
    expect(english.parsed.text).toContain(`Open the report: ${APP_URL}/import/`);
    expect(english.parsed.text).toContain('automatically 3 days before the deadline');
    const swedish = mails.find((m) => m.to.includes(w.swede.email))!;
    expect(swedish.parsed.subject).toMatch(/^Påminnelse: rapporten för 2026-07 \(Sweden\) ska skickas in senast \d+ [a-zé]+ \d{4}$/);
    expect(swedish.parsed.text).toContain('Hej Greta');
    expect(swedish.parsed.text).toContain('(status: Pågående)');
    expect(mails.some((m) => m.to.includes(w.rival.email))).toBe(false);

    // The deliveries are tracked as for any communication; a Swedish reader sees the Swedish text.
    const deliveries = (await api('GET', `/communications/${sent.uuid}/deliveries`, w.admin)).json();
    expect(deliveries.data.map((d: { status: string }) => d.status)).toEqual(['sent', 'sent']);
    const inSwedish = (await t.app.inject({ url: `/api/v1/communications/${sent.uuid}`, headers: { ...w.admin, 'accept-language': 'sv-SE' } })).json().data;
    expect(inSwedish.subject).toMatch(/^Påminnelse: rapporten för 2026-07 \(Sweden\) ska skickas in senast \d+ [a-zé]+ \d{4}$/);

    // Sweeps go on every second: still one reminder, one mail each.
    await new Promise((r) => setTimeout(r, 2500));
    expect(await remindersOf(w)).toHaveLength(1);
    expect(smtp.received.filter((m) => m.parsed.subject?.includes('2026-07'))).toHaveLength(2);
  });

  it('when the deadline passed yesterday, then one reminder after it; several processes sweeping at once create it once', async () => {
    const w = await world('2026-06', day(-1));
    // Three sweeps at once on the app's database, before the background one sees the setting.
    const [a, b, c] = await Promise.all([
      (async () => {
        await setReminderDays(w.org.id, '2');
        return createDueReminders(t.db);
      })(),
      createDueReminders(t.db),
      createDueReminders(t.db),
    ]);
    // Whoever won (one of these or the background sweep): one reminder, after the deadline.
    const all = await until(async () => {
      const list = await remindersOf(w);
      return list.length > 0 ? list : null;
    }, 'the reminder after the deadline');
    await new Promise((r) => setTimeout(r, 1500));
    expect((await remindersOf(w)).map((x) => x.reminder)).toEqual(['after']);
    expect(a.length + b.length + c.length).toBeLessThanOrEqual(1);
    expect(all[0]!.subject).toMatch(/^Overdue: the report for 2026-06 \(Sweden\) was due [A-Z][a-z]+ \d+, \d{4}$/);
    const claims = (await t.db.execute<{ kind: string }>(sql`select kind from period_reminders where period_id = ${w.periodId}`)).rows;
    expect(claims).toEqual([{ kind: 'after' }]);
  });

  it('when the days come and go, then "before" once inside its window, nothing on the deadline, "after" the day after and not a week later; none without the setting, at 0, or in a closed period', async () => {
    // Deadlines far from today: the background sweep never finds these due; the days are given.
    const w = await world('2031-02', '2031-03-10');
    await setReminderDays(w.org.id, '5');
    const kinds = async () =>
      (await t.db.execute<{ kind: string; due_on: string }>(sql`select kind, due_on::text from period_reminders where period_id = ${w.periodId} order by kind`))
        .rows;
    expect(await createDueReminders(t.db, '2031-03-04')).toEqual([]);
    expect(await createDueReminders(t.db, '2031-03-05')).toHaveLength(1);
    expect(await createDueReminders(t.db, '2031-03-06')).toEqual([]);
    expect(await createDueReminders(t.db, '2031-03-10')).toEqual([]);
    expect(await kinds()).toEqual([{ kind: 'before', due_on: '2031-03-05' }]);
    expect(await createDueReminders(t.db, '2031-03-11')).toHaveLength(1);
    expect(await kinds()).toEqual([
      { kind: 'after', due_on: '2031-03-11' },
      { kind: 'before', due_on: '2031-03-05' },
    ]);

    // A week after the deadline is too late for a first "after"; a closed period, 0 and no setting send none.
    const late = await world('2031-04', '2031-05-10');
    await setReminderDays(late.org.id, '5');
    expect(await createDueReminders(t.db, '2031-05-18')).toEqual([]);
    const closed = await world('2031-05', '2031-06-10');
    await setReminderDays(closed.org.id, '5');
    await t.db.execute(sql`update periods set status = 'closed' where id = ${closed.periodId}`);
    const off = await world('2031-06', '2031-06-10');
    await setReminderDays(off.org.id, '0');
    await world('2031-07', '2031-06-10');
    expect(await createDueReminders(t.db, '2031-06-07')).toEqual([]);

    // The reminder's recipients are the not-submitted companies' reporters: Rival's is not among them.
    const reminder = (await remindersOf(w)).find((c) => c.reminder === 'before')!;
    const recipients = (await api('GET', `/communications/${reminder.uuid}/recipients`, w.admin)).json().data as { email: string }[];
    expect(recipients.map((r) => r.email).sort()).toEqual([w.acme.email, w.swede.email].sort());
  });
});
