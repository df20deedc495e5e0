import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { communicationEvents, companies, companyMarkets, companyOrganizations, organizations, workflowNotifications } from '../../db/schema.ts';
import { createMarket, createOrganization, createUser, signIn, signInAs, type TestApp, createTestApp, XHR } from '../../../test/helpers.ts';
import { reportingWorld } from '../../../test/reporting.ts';
import { multipart } from '../../../test/world.ts';
import { startSmtp } from '../../../test/smtp.ts';
import { sendWorkflowNotifications } from './notifications.ts';

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
const APP_URL = 'https://stats.example.test';

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'Statistics <stats@example.test>',
    APP_URL,
    JOBS: 'on',
    MAIL_RETRY_BASE_SECONDS: '0.2',
    MAIL_MAX_ATTEMPTS: '3',
    MAIL_RATE_PER_SECOND: '200',
  });
});

afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const api = (method: string, url: string, headers: Record<string, string>, payload?: unknown) =>
  t.app.inject({ method: method as 'GET', url: `/api/v1${url}`, headers, payload: payload as object });

/**
 * Sweden with Acme (two reporters, one disabled) and Rival (one reporter), a company disabled
 * yesterday with its reporter, a viewer, and the market administrator who writes. Period 2026-11
 * is open: Acme's report is Ongoing, Rival's waits for approval.
 */
async function world() {
  const rw = reportingWorld(() => t);
  const w = await rw.world();
  await t.db.update(organizations).set({ mail_description: 'Nordic Sales Association\nBox 1, Stockholm' }).where(eq(organizations.id, w.org.id));
  await t.db.insert(companyOrganizations).values({ company_id: w.rival.id, organization_id: w.org.id });
  const { period, report } = await rw.openPeriod(w, '2026-11', '2026-11-01');
  const acmeUser = (await api('GET', '/users/me', w.reporter)).json().data;
  const rivalUser = (await api('GET', '/users/me', w.rivalReporter)).json().data;
  const secondAcme = await createUser(t.db, { roles: ['reporter'], organizationIds: [w.org.id], marketIds: [w.market.id], companyId: w.company.id });
  const disabledAcme = await createUser(t.db, {
    roles: ['reporter'],
    organizationIds: [w.org.id],
    marketIds: [w.market.id],
    companyId: w.company.id,
    disabled: true,
  });
  const [gone] = await t.db
    .insert(companies)
    .values({ name: 'Gone AB', disabled_at: new Date(Date.now() - 86_400_000) })
    .returning();
  await t.db.insert(companyOrganizations).values({ company_id: gone!.id, organization_id: w.org.id });
  await t.db.insert(companyMarkets).values({ company_id: gone!.id, market_id: w.market.id, roles: ['reporter'] });
  const goneReporter = await createUser(t.db, { organizationIds: [w.org.id], companyId: gone!.id });
  const viewer = await createUser(t.db, { roles: ['viewer'], organizationIds: [w.org.id], marketIds: [w.market.id] });
  // Rival's report waits for approval.
  const rivalReport = (await api('GET', `/reports?period_uuid=${period.uuid}`, w.rivalReporter)).json().data[0];
  await rw.storeRows(rivalReport.uuid, [[w.codes[0]!.id, 10, 100]]);
  const submitted = await rw.status(w.rivalReporter, rivalReport.uuid, { status: 40 });
  expect(submitted.statusCode).toBe(200);
  const author = (await api('GET', '/users/me', w.admin)).json().data;
  return { ...w, rw, period, report, rivalReport, acmeUser, rivalUser, secondAcme, disabledAcme, goneReporter, viewer, author };
}

type W = Awaited<ReturnType<typeof world>>;

const draft = (w: W, extra: Record<string, unknown> = {}, recipients: Record<string, unknown> = {}) => ({
  subject: 'Reminder for {{period}}, {{recipient_name}}',
  body: '<p>Hello {{recipient_name}} of {{company}},</p><p>your report is {{report_status}}. Open it: <a href="{{report_link}}">{{report_link}}</a></p>',
  foot_notes: 'Deadline {{deadline}}.',
  recipients: { market_ids: [w.market.id], roles: ['reporter'], company_ids: [], period_uuid: null, report_statuses: [], ...recipients },
  ...extra,
});

async function create(w: W, payload: unknown) {
  const res = await api('POST', '/communications', w.admin, payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { uuid: string; status: number; body: string };
}

async function untilDone(w: W, uuid: string) {
  for (let i = 0; i < 200; i++) {
    const c = (await api('GET', `/communications/${uuid}`, w.admin)).json().data;
    if (c.status === 20 || c.status === 30) return c;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the send did not finish');
}

async function sendNow(w: W, uuid: string) {
  const preflight = await api('POST', `/communications/${uuid}/preflight`, w.admin, {});
  expect(preflight.statusCode, preflight.body).toBe(200);
  const sent = await api('POST', `/communications/${uuid}/send`, w.admin, {});
  expect(sent.statusCode, sent.body).toBe(200);
  expect(sent.json().data.status).toBe(10);
  return untilDone(w, uuid);
}

describe('communications: statuses and their rules (docs/product.md §4, §8)', () => {
  it('when a draft is sent without a preflight, changed after it, or given a second one, then the specification messages; back to draft needs a new preflight', async () => {
    const w = await world();
    const c = await create(w, draft(w));
    expect(c.status).toBe(0);

    const early = await api('POST', `/communications/${c.uuid}/send`, w.admin, {});
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('A preflight must be sent before sending the mail.');

    const preflight = await api('POST', `/communications/${c.uuid}/preflight`, w.admin, {});
    expect(preflight.statusCode, preflight.body).toBe(200);
    expect(preflight.json().data.status).toBe(2);
    expect(preflight.json().data.preflight_to).toBe(w.author.email);

    const update = await api('PUT', `/communications/${c.uuid}`, w.admin, draft(w, { subject: 'Changed' }));
    expect(update.statusCode).toBe(409);
    expect(update.json().message).toBe('Communication status must be draft to be updated.');
    const again = await api('POST', `/communications/${c.uuid}/preflight`, w.admin, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('Communication status must be draft to send preflight email.');
    const remove = await api('DELETE', `/communications/${c.uuid}`, w.admin);
    expect(remove.statusCode).toBe(409);

    const back = await api('POST', `/communications/${c.uuid}/draft`, w.admin);
    expect(back.statusCode).toBe(200);
    expect(back.json().data).toMatchObject({ status: 0, preflight_sent_at: null });
    expect((await api('PUT', `/communications/${c.uuid}`, w.admin, draft(w, { subject: 'Changed' }))).statusCode).toBe(200);
    const late = await api('POST', `/communications/${c.uuid}/send`, w.admin, {});
    expect(late.json().message).toBe('A preflight must be sent before sending the mail.');
    expect((await api('DELETE', `/communications/${c.uuid}`, w.admin)).statusCode).toBe(204);
    expect((await api('GET', `/communications/${c.uuid}`, w.admin)).statusCode).toBe(404);
  });

  it('when a variable is not known, then saving is refused with its name', async () => {
    const w = await world();
    const res = await api('POST', '/communications', w.admin, draft(w, { body: '<p>Dear {{recipient}},</p>' }));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.body[0]).toBe(
      'The variable {{recipient}} is not known. Use one of: recipient_name, company, market, period, deadline, report_status, report_link.',
    );
  });

  it('when another organization asks, then 404; a market administrator of another market of the organization is refused the action', async () => {
    const w = await world();
    const c = await create(w, draft(w));
    const elsewhere = await createOrganization(t.db);
    const stranger = await signInAs(t, ['market-admin'], { organizationId: elsewhere.id, marketIds: [(await createMarket(t.db, elsewhere.id)).id] });
    expect((await api('GET', `/communications/${c.uuid}`, stranger.headers)).statusCode).toBe(404);
    expect((await api('POST', `/communications/${c.uuid}/preflight`, stranger.headers, {})).statusCode).toBe(404);
    const norway = await createMarket(t.db, w.org.id, 'Norway');
    const neighbour = await signInAs(t, ['market-admin'], { organizationId: w.org.id, marketIds: [norway.id] });
    const refused = await api('GET', `/communications/${c.uuid}`, neighbour.headers);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('You do not have access to this action.');
    expect((await api('POST', '/communications', neighbour.headers, draft(w))).json().message).toBe('You do not have access to this action.');
    expect((await api('GET', '/communications', neighbour.headers)).json().data.map((x: { uuid: string }) => x.uuid)).not.toContain(c.uuid);
    expect((await api('GET', '/communications', w.admin)).json().data.map((x: { uuid: string }) => x.uuid)).toContain(c.uuid);
  });
});

describe('communications: who gets it', () => {
  it('when an update leaves a recipient list out, then it is refused and the audience stays as it was (an empty list means every one)', async () => {
    const w = await world();
    const c = await create(w, draft(w));
    const { roles: _roles, ...withoutRoles } = draft(w).recipients;
    const res = await api('PUT', `/communications/${c.uuid}`, w.admin, { ...draft(w), recipients: withoutRoles });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('The roles field is required.');
    expect((await api('GET', `/communications/${c.uuid}`, w.admin)).json().data.recipients.roles).toEqual(['reporter']);
  });

  it('when the recipients are previewed by company, then each company it is about lists who gets it, and a company no one would reach says so first', async () => {
    const w = await world();
    // Silent AB reports in Sweden, but its only user is disabled: no one would get the mail.
    const [silent] = await t.db.insert(companies).values({ name: 'Silent AB' }).returning();
    await t.db.insert(companyOrganizations).values({ company_id: silent!.id, organization_id: w.org.id });
    await t.db.insert(companyMarkets).values({ company_id: silent!.id, market_id: w.market.id, roles: ['reporter'] });
    await createUser(t.db, { roles: ['reporter'], organizationIds: [w.org.id], marketIds: [w.market.id], companyId: silent!.id, disabled: true });
    const reach = async (c: { uuid: string }) => {
      const res = await api('GET', `/communications/${c.uuid}/companies`, w.admin);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().data as { company: { name: string }; recipients: { email: string }[] }[]).map((x): [string, string[]] => [
        x.company.name,
        x.recipients.map((r) => r.email).sort(),
      ]);
    };
    // Every reporter: Silent first (no recipient); Gone AB, disabled, is not expected at all.
    expect(await reach(await create(w, draft(w)))).toEqual([
      ['Silent AB', []],
      ['Acme AB', [w.acmeUser.email, w.secondAcme.email].sort()],
      ['Rival AB', [w.rivalUser.email]],
    ]);
    // Those whose 2026-11 report waits for approval: Rival only (Silent has no report there).
    expect(await reach(await create(w, draft(w, {}, { period_uuid: w.period.uuid, report_statuses: [40] })))).toEqual([['Rival AB', [w.rivalUser.email]]]);
    // Viewers only: every company is left without a recipient, which is what the preview must say.
    expect((await reach(await create(w, draft(w, {}, { roles: ['viewer'] })))).every(([, emails]) => emails.length === 0)).toBe(true);
  });

  it('when reporters whose 2026-11 report is not yet submitted are chosen, then only they: no disabled user, no disabled company, no viewer', async () => {
    const w = await world();
    const c = await create(w, draft(w, {}, { period_uuid: w.period.uuid, report_statuses: [10, 11, 20, 30, 50] }));
    const res = await api('GET', `/communications/${c.uuid}/recipients`, w.admin);
    expect(res.statusCode).toBe(200);
    expect(res.json().meta.total).toBe(2);
    expect(
      res
        .json()
        .data.map((r: { email: string }) => r.email)
        .sort(),
    ).toEqual([w.acmeUser.email, w.secondAcme.email].sort());
    expect(res.json().data[0]).toMatchObject({ company: { name: 'Acme AB' }, market: { name: 'Sweden' }, report_status: 20 });

    const every = await create(w, draft(w));
    const all = (await api('GET', `/communications/${every.uuid}/recipients`, w.admin)).json();
    expect(all.data.map((r: { email: string }) => r.email).sort()).toEqual([w.acmeUser.email, w.secondAcme.email, w.rivalUser.email].sort());
    for (const left of [w.disabledAcme.email, w.goneReporter.email, w.viewer.email]) expect(JSON.stringify(all)).not.toContain(left);

    const viewers = await create(w, draft(w, {}, { roles: ['viewer'] }));
    expect((await api('GET', `/communications/${viewers.uuid}/recipients`, w.admin)).json().data.map((r: { email: string }) => r.email)).toEqual([
      w.viewer.email,
    ]);
  });

  it("when the filter names another market's period or another organization's market, then 422", async () => {
    const w = await world();
    const other = await createMarket(t.db, (await createOrganization(t.db)).id);
    expect((await api('POST', '/communications', w.admin, draft(w, {}, { market_ids: [other.id] }))).statusCode).toBe(422);
    const norway = await createMarket(t.db, w.org.id, 'Norway');
    const res = await api('POST', '/communications', w.admin, draft(w, {}, { market_ids: [norway.id], period_uuid: w.period.uuid }));
    expect(res.statusCode).toBe(403);
  });
});

describe('communications: the mail', () => {
  it('when saved, then the body is sanitised: no scripts, handlers, javascript: links or remote images', async () => {
    const w = await world();
    const c = await create(
      w,
      draft(w, {
        body: '<p onclick="steal()">Hi <strong>{{recipient_name}}</strong></p><script>alert(1)</script><a href="javascript:alert(1)">x</a><img src="https://tracker.example/p.gif"><a href="https://example.test/a">ok</a>',
      }),
    );
    expect(c.body).toBe(
      '<p>Hi <strong>{{recipient_name}}</strong></p><a target="_blank" rel="noopener noreferrer nofollow">x</a><a href="https://example.test/a" target="_blank" rel="noopener noreferrer nofollow">ok</a>',
    );
  });

  it('when a mail names the deadline, then in the recipient\'s language ("10 november 2026" for sv-SE), never as an ISO date', async () => {
    const w = await world();
    await t.db.execute(sql`update users set locale = 'sv-SE' where id = ${w.acmeUser.id}`);
    await t.db.execute(sql`update periods set deadline = '2026-12-10' where uuid = ${w.period.uuid}`);
    try {
      const c = await create(w, draft(w, {}, { period_uuid: w.period.uuid }));
      const res = await api('POST', `/communications/${c.uuid}/preflight`, w.admin, { recipient_user_id: w.acmeUser.id });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().mail.text).toContain('Deadline 10 december 2026.');
      expect(res.json().mail.text).not.toContain('2026-12-10');
    } finally {
      await t.db.execute(sql`update users set locale = 'en-US' where id = ${w.acmeUser.id}`);
      await t.db.execute(sql`update periods set deadline = null where uuid = ${w.period.uuid}`);
    }
  });

  it('when a preflight is sent, then the author gets the mail exactly as the chosen recipient will: variables, sanitised HTML, text part, foot notes, footer, attachment', async () => {
    const w = await world();
    const c = await create(w, draft(w, { subject: 'Reminder for {{period}}\r\nBcc: victim@example.test, {{recipient_name}}' }, { period_uuid: w.period.uuid }));
    const file = multipart('instructions.pdf', Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\n%%EOF\n'));
    const attached = await t.app.inject({
      method: 'POST',
      url: `/api/v1/communications/${c.uuid}/attachments`,
      headers: { ...w.admin, ...file.headers },
      payload: file.payload,
    });
    expect(attached.statusCode, attached.body).toBe(201);
    expect(attached.json().data).toMatchObject({ name: 'instructions.pdf', mime_type: 'application/pdf' });

    const before = smtp.received.length;
    const res = await api('POST', `/communications/${c.uuid}/preflight`, w.admin, { recipient_user_id: w.acmeUser.id });
    expect(res.statusCode, res.body).toBe(200);
    const mail = res.json().mail;
    const name = `${w.acmeUser.first_name} ${w.acmeUser.last_name}`;
    expect(mail.subject).toBe(`Reminder for 2026-11 Bcc: victim@example.test, ${name}`);
    expect(mail.html).toContain(`<p>Hello ${name} of Acme AB,</p>`);
    expect(mail.html).toContain(`your report is Ongoing. Open it: <a href="${APP_URL}/import/${w.report.uuid}"`);
    expect(mail.text).toContain(`your report is Ongoing. Open it: ${APP_URL}/import/${w.report.uuid}`);
    expect(mail.text).toContain('Deadline');
    expect(mail.text).toContain('--\nNordic Sales Association\nBox 1, Stockholm');

    expect(smtp.received.length).toBe(before + 1);
    const got = smtp.received.at(-1)!;
    expect(got.to).toEqual([w.author.email]);
    expect(got.parsed.subject).toBe(mail.subject);
    expect(got.parsed.headers.has('bcc')).toBe(false);
    expect(got.raw).not.toMatch(/^Bcc:/im);
    expect(got.parsed.html).toContain(`<p>Hello ${name} of Acme AB,</p>`);
    expect(got.parsed.text).toContain(`${APP_URL}/import/${w.report.uuid}`);
    expect(got.parsed.attachments.map((a) => [a.filename, a.contentType])).toEqual([['instructions.pdf', 'application/pdf']]);
    const events = await t.db.select().from(communicationEvents).where(eq(communicationEvents.action, 'preflight'));
    expect(events.some((e) => (e.detail as { to: string }).to === w.author.email)).toBe(true);
  });

  it('when sent, then every recipient gets one mail with their own variables, the deliveries say sent, and the send is audited', async () => {
    const w = await world();
    const c = await create(w, draft(w, {}, { period_uuid: w.period.uuid }));
    const before = smtp.received.length;
    const done = await sendNow(w, c.uuid);
    expect(done.status).toBe(20);
    expect(done.deliveries).toEqual({ total: 3, queued: 0, sent: 3, failed: 0 });
    // The preflight to the author, then one mail per recipient.
    const mails = smtp.received.slice(before + 1);
    expect(mails.map((m) => m.to[0]).sort()).toEqual([w.acmeUser.email, w.secondAcme.email, w.rivalUser.email].sort());
    const rival = smtp.to(w.rivalUser.email).at(-1)!;
    expect(rival.parsed.html).toContain('of Rival AB');
    expect(rival.parsed.html).toContain('your report is Waiting for approval');
    expect(rival.parsed.text).toContain(`${APP_URL}/import/${w.rivalReport.uuid}`);
    const deliveries = (await api('GET', `/communications/${c.uuid}/deliveries`, w.admin)).json();
    expect(deliveries.meta.total).toBe(3);
    for (const d of deliveries.data) expect(d).toMatchObject({ status: 'sent', attempts: 1 });
    expect(deliveries.data[0].smtp_response).toMatch(/^250/);
    const events = (await t.db.select().from(communicationEvents)).filter((e) => e.communication_id !== null);
    const actions = events.filter((e) => ['send', 'dispatched', 'sent'].includes(e.action));
    expect(actions.length).toBeGreaterThanOrEqual(3);
    expect((await api('POST', `/communications/${c.uuid}/retry`, w.admin)).json().message).toBe('There are no failed deliveries to send again.');
  });

  it('when the server refuses one recipient, then that delivery fails with its answer, the others are sent, and a retry sends only to it', async () => {
    const w = await world();
    const c = await create(w, draft(w));
    smtp.state.refuse = (address) => (address === w.secondAcme.email ? 550 : null);
    try {
      const done = await sendNow(w, c.uuid);
      expect(done.status).toBe(20);
      expect(done.deliveries).toMatchObject({ total: 3, sent: 2, failed: 1 });
      const failed = (await api('GET', `/communications/${c.uuid}/deliveries?status=failed`, w.admin)).json().data;
      expect(failed).toHaveLength(1);
      expect(failed[0]).toMatchObject({ email: w.secondAcme.email, status: 'failed', attempts: 1 });
      expect(failed[0].smtp_response).toContain('550');
    } finally {
      smtp.state.refuse = () => null;
    }
    const before = smtp.received.length;
    const retry = await api('POST', `/communications/${c.uuid}/retry`, w.admin);
    expect(retry.statusCode, retry.body).toBe(200);
    const done = await untilDone(w, c.uuid);
    expect(done.deliveries).toMatchObject({ total: 3, sent: 3, failed: 0 });
    expect(smtp.received.slice(before).map((m) => m.to[0])).toEqual([w.secondAcme.email]);
  });

  it('when the server answers "try again later", then the delivery is retried with backoff and sent', async () => {
    const w = await world();
    const c = await create(w, draft(w, {}, { company_ids: [w.rival.id] }));
    let refusals = 0;
    smtp.state.refuse = (address) => (address === w.rivalUser.email && refusals++ < 1 ? 451 : null);
    try {
      const done = await sendNow(w, c.uuid);
      expect(done.deliveries).toMatchObject({ total: 1, sent: 1, failed: 0 });
      const [delivery] = (await api('GET', `/communications/${c.uuid}/deliveries`, w.admin)).json().data;
      expect(delivery).toMatchObject({ status: 'sent', attempts: 2 });
    } finally {
      smtp.state.refuse = () => null;
    }
  });

  it('when no recipient can be reached, then the communication is Failed', async () => {
    const w = await world();
    const c = await create(w, draft(w, {}, { company_ids: [w.rival.id] }));
    smtp.state.refuse = (address) => (address === w.rivalUser.email ? 550 : null);
    try {
      const preflight = await api('POST', `/communications/${c.uuid}/preflight`, w.admin, {});
      expect(preflight.statusCode).toBe(200);
      await api('POST', `/communications/${c.uuid}/send`, w.admin, {});
      const done = await untilDone(w, c.uuid);
      expect(done.status).toBe(30);
      expect(done.deliveries).toMatchObject({ total: 1, sent: 0, failed: 1 });
    } finally {
      smtp.state.refuse = () => null;
    }
  });
});

describe('communications: a send that did not reach everyone, and its attempts', () => {
  type Attempt = { number: number; outcome: string; smtp_response: string | null; started_at: string; finished_at: string | null };
  type DeliveryRow = { email: string; status: string; attempts: number; smtp_response: string | null; attempt_history: Attempt[] };

  /** The world's three reporters and two more of Acme: five recipients. */
  async function fiveRecipients(w: W) {
    const more = [];
    for (let i = 0; i < 2; i++)
      more.push(await createUser(t.db, { roles: ['reporter'], organizationIds: [w.org.id], marketIds: [w.market.id], companyId: w.company.id }));
    return more;
  }

  const deliveriesOf = async (w: W, uuid: string): Promise<Map<string, DeliveryRow>> =>
    new Map(((await api('GET', `/communications/${uuid}/deliveries`, w.admin)).json().data as DeliveryRow[]).map((d) => [d.email, d]));

  it('when 2 of 5 recipients are refused by the mail server, then the communication reads "Sent — 2 of 5 failed" in its detail and in the list', async () => {
    const w = await world();
    const [fourth, fifth] = await fiveRecipients(w);
    const subject = `Two refused ${Date.now()}`;
    const c = await create(w, draft(w, { subject }));
    expect((await api('GET', `/communications/${c.uuid}/recipients`, w.admin)).json().meta.total).toBe(5);
    const refused = [w.secondAcme.email, fifth!.email];
    smtp.state.refuse = (address) => (refused.includes(address) ? 550 : null);
    try {
      const done = await sendNow(w, c.uuid);
      expect(done.status).toBe(20);
      expect(done.status_text).toBe('Sent — 2 of 5 failed');
      expect(done.deliveries).toEqual({ total: 5, queued: 0, sent: 3, failed: 2 });
    } finally {
      smtp.state.refuse = () => null;
    }
    const listed = (await api('GET', `/communications?search=${encodeURIComponent(subject)}`, w.admin)).json().data;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ status: 20, status_text: 'Sent — 2 of 5 failed', deliveries: { total: 5, sent: 3, failed: 2 } });
    // A send that reached everyone is plainly Sent.
    const everyone = await create(w, draft(w, { subject: `${subject} everyone` }));
    expect((await sendNow(w, everyone.uuid)).status_text).toBe('Sent');

    const deliveries = await deliveriesOf(w, c.uuid);
    for (const email of refused) {
      expect(deliveries.get(email)).toMatchObject({ status: 'failed', attempts: 1 });
      expect(deliveries.get(email)!.attempt_history).toHaveLength(1);
      expect(deliveries.get(email)!.attempt_history[0]).toMatchObject({ number: 1, outcome: 'failed' });
      expect(deliveries.get(email)!.attempt_history[0]!.smtp_response).toMatch(/^550/);
    }
    expect(deliveries.get(fourth!.email)).toMatchObject({ status: 'sent', attempts: 1 });
    expect(deliveries.get(fourth!.email)!.attempt_history[0]!.smtp_response).toMatch(/^250/);
  });

  it('when failed deliveries are retried, then their earlier attempts stay with their answers and the new ones are added, counted on', async () => {
    const w = await world();
    const [, fifth] = await fiveRecipients(w);
    const c = await create(w, draft(w));
    // The fifth is refused for good; the second Acme reporter is refused, and later accepted.
    smtp.state.refuse = (address) => (address === w.secondAcme.email || address === fifth!.email ? 550 : null);
    try {
      await sendNow(w, c.uuid);
      // Retry: the second Acme reporter is told "try again later" once, then accepted.
      let later = 0;
      smtp.state.refuse = (address) => (address === fifth!.email ? 550 : address === w.secondAcme.email && later++ < 1 ? 451 : null);
      const retry = await api('POST', `/communications/${c.uuid}/retry`, w.admin);
      expect(retry.statusCode, retry.body).toBe(200);
      const done = await untilDone(w, c.uuid);
      expect(done.status_text).toBe('Sent — 1 of 5 failed');
      expect(done.deliveries).toEqual({ total: 5, queued: 0, sent: 4, failed: 1 });

      const deliveries = await deliveriesOf(w, c.uuid);
      const second = deliveries.get(w.secondAcme.email)!;
      expect(second).toMatchObject({ status: 'sent', attempts: 3 });
      expect(second.attempt_history.map((a) => [a.number, a.outcome])).toEqual([
        [1, 'failed'],
        [2, 'deferred'],
        [3, 'sent'],
      ]);
      expect(second.attempt_history.map((a) => a.smtp_response!.slice(0, 3))).toEqual(['550', '451', '250']);
      expect(second.smtp_response).toMatch(/^250/);
      const gone = deliveries.get(fifth!.email)!;
      expect(gone).toMatchObject({ status: 'failed', attempts: 2 });
      expect(gone.attempt_history.map((a) => [a.number, a.outcome, a.smtp_response!.slice(0, 3)])).toEqual([
        [1, 'failed', '550'],
        [2, 'failed', '550'],
      ]);
      for (const attempt of [...second.attempt_history, ...gone.attempt_history]) expect(attempt.finished_at).not.toBeNull();

      // A second retry is a new round: MAIL_MAX_ATTEMPTS (3) "try again later" answers before it gives up, whatever came before.
      smtp.state.refuse = (address) => (address === fifth!.email ? 451 : null);
      expect((await api('POST', `/communications/${c.uuid}/retry`, w.admin)).statusCode).toBe(200);
      await untilDone(w, c.uuid);
      const last = (await deliveriesOf(w, c.uuid)).get(fifth!.email)!;
      expect(last).toMatchObject({ status: 'failed', attempts: 5 });
      expect(last.attempt_history.map((a) => a.outcome)).toEqual(['failed', 'failed', 'deferred', 'deferred', 'failed']);
    } finally {
      smtp.state.refuse = () => null;
    }
  });
});

describe('communications: attachments', () => {
  const attach = (w: W, uuid: string, name: string, content: Buffer) => {
    const file = multipart(name, content);
    return t.app.inject({ method: 'POST', url: `/api/v1/communications/${uuid}/attachments`, headers: { ...w.admin, ...file.headers }, payload: file.payload });
  };

  it('when a file is not what it says, too large, or one too many, then it is refused; removing one works on a draft', async () => {
    const w = await world();
    const c = await create(w, draft(w));
    const exe = await attach(w, c.uuid, 'report.pdf', Buffer.concat([Buffer.from('MZ'), Buffer.alloc(100, 0)]));
    expect(exe.statusCode).toBe(422);
    expect(exe.json().message).toBe('The file report.pdf is not an accepted attachment: PDF, PNG, JPEG, xlsx, docx, text or CSV.');
    const big = await attach(w, c.uuid, 'big.txt', Buffer.alloc(5 * 1024 * 1024 + 1, 'a'));
    expect(big.statusCode).toBe(422);
    expect(big.json().message).toBe('An attachment can be at most 5 MB.');
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const ok = await attach(w, c.uuid, `list-${i}.csv`, Buffer.from(`code;volume\n${i};1\n`));
      expect(ok.statusCode, ok.body).toBe(201);
      ids.push(ok.json().data.id);
    }
    const sixth = await attach(w, c.uuid, 'one-more.csv', Buffer.from('x\n'));
    expect(sixth.json().message).toBe('A communication can have at most 5 attachments.');
    const download = await api('GET', `/communications/${c.uuid}/attachments/${ids[0]}`, w.admin);
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe('code;volume\n0;1\n');
    expect((await api('DELETE', `/communications/${c.uuid}/attachments/${ids[0]}`, w.admin)).statusCode).toBe(204);
    expect((await api('GET', `/communications/${c.uuid}`, w.admin)).json().data.attachments).toHaveLength(4);
  });

  it('when x.html and x.svg hold text, then they are stored and mailed as x.txt (text/plain); a name keeps its extension only when it matches the content', async () => {
    const w = await world();
    const c = await create(w, draft(w));
    const uploads: [string, Buffer][] = [
      ['x.html', Buffer.from('<!doctype html><html><body><script>alert(1)</script><p>Prices</p></body></html>\n')],
      ['x.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><text>1</text></svg>\n')],
      ['figures.csv', Buffer.from('code;volume\n1001;5\n')],
      ['scan.pdf', Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(32, 1)])],
    ];
    const stored = [];
    for (const [name, content] of uploads) {
      const res = await attach(w, c.uuid, name, content);
      expect(res.statusCode, res.body).toBe(201);
      stored.push(res.json().data);
    }
    const identities = [
      ['x.txt', 'text/plain'],
      ['x.txt', 'text/plain'],
      ['figures.csv', 'text/csv'],
      ['scan.png', 'image/png'],
    ];
    expect(stored.map((a: { name: string; mime_type: string }) => [a.name, a.mime_type])).toEqual(identities);
    const shown = (await api('GET', `/communications/${c.uuid}`, w.admin)).json().data.attachments;
    expect(shown.map((a: { name: string; mime_type: string }) => [a.name, a.mime_type])).toEqual(identities);
    const download = await api('GET', `/communications/${c.uuid}/attachments/${stored[0].id}`, w.admin);
    expect(download.headers['content-type']).toMatch(/^text\/plain/);

    // Mailed (the preflight's real SMTP conversation) under the same names and types.
    const before = smtp.received.length;
    expect((await api('POST', `/communications/${c.uuid}/preflight`, w.admin, {})).statusCode).toBe(200);
    const mail = smtp.received.slice(before).find((m) => m.to.includes(w.author.email))!;
    expect(mail.parsed.attachments.map((a) => [a.filename, a.contentType])).toEqual(identities);
    expect(mail.raw).not.toMatch(/x\.html|x\.svg|scan\.pdf/);
    expect(mail.parsed.attachments[0]!.content.toString('utf8')).toContain('<script>alert(1)</script>');
  });
});

describe('workflow notifications', () => {
  it('when a report is submitted, the approvers get one digest an hour; when it is sent back or approved, its reporters are told, unless they turned it off', async () => {
    const w = await world();
    // Rival's submission (in world()) is waiting for the market administrator.
    const pending = await t.db.select().from(workflowNotifications).where(eq(workflowNotifications.kind, 'submitted'));
    expect(pending.some((n) => n.user_id === w.author.id)).toBe(true);
    const mailer = (await import('../../mail/mailer.ts')).createMailer({
      smtpUrl: smtp.url,
      from: 'Statistics <stats@example.test>',
      dataDir: t.dataDir,
      log: t.app.log,
    });
    try {
      const before = smtp.received.length;
      await sendWorkflowNotifications({ db: t.db, mailer, log: t.app.log, appUrl: APP_URL });
      const digest = smtp.received.slice(before).filter((m) => m.to.includes(w.author.email));
      expect(digest).toHaveLength(1);
      expect(digest[0]!.parsed.subject).toBe('Reports waiting for your approval');
      expect(digest[0]!.parsed.text).toContain(`Rival AB, Sweden 2026-11: ${APP_URL}/import/${w.rivalReport.uuid}`);

      // Acme submits within the hour: no second digest yet.
      await w.rw.storeRows(w.report.uuid, [[w.codes[0]!.id, 5, 50]]);
      expect((await w.rw.status(w.reporter, w.report.uuid, { status: 40 })).statusCode).toBe(200);
      const mid = smtp.received.length;
      await sendWorkflowNotifications({ db: t.db, mailer, log: t.app.log, appUrl: APP_URL });
      expect(smtp.received.slice(mid).filter((m) => m.to.includes(w.author.email))).toHaveLength(0);

      // Rival's report is sent back with a comment; its reporter has turned workflow mails off, Acme's has not.
      const off = await api('PUT', '/users/me/notifications', w.rivalReporter, { workflow_mails: false });
      expect(off.statusCode, off.body).toBe(200);
      expect(off.json().data).toEqual({ workflow_mails: false });
      expect((await w.rw.status(w.admin, w.rivalReport.uuid, { status: 50, comment: 'Code 1001 looks too low.' })).statusCode).toBe(200);
      expect((await w.rw.status(w.admin, w.report.uuid, { status: 60 })).statusCode).toBe(200);
      const late = smtp.received.length;
      await sendWorkflowNotifications({ db: t.db, mailer, log: t.app.log, appUrl: APP_URL });
      const told = smtp.received.slice(late);
      expect(told.filter((m) => m.to.includes(w.rivalUser.email))).toHaveLength(0);
      const approved = told.filter((m) => m.to.includes(w.acmeUser.email));
      expect(approved).toHaveLength(1);
      expect(approved[0]!.parsed.subject).toBe('Your report for 2026-11 (Sweden) was approved');
      expect(approved[0]!.parsed.text).toContain(`${APP_URL}/import/${w.report.uuid}`);
      // The way to turn them off: the profile screen, where the switch is.
      expect(approved[0]!.parsed.text).toContain(`Turn them off in your profile: ${APP_URL}/profile`);
    } finally {
      mailer.close();
    }
  });

  it('when a report is sent back, its reporter gets the comment and a link', async () => {
    const w = await world();
    const mailer = (await import('../../mail/mailer.ts')).createMailer({
      smtpUrl: smtp.url,
      from: 'Statistics <stats@example.test>',
      dataDir: t.dataDir,
      log: t.app.log,
    });
    try {
      expect((await w.rw.status(w.admin, w.rivalReport.uuid, { status: 50, comment: 'Code 1001 looks too low.' })).statusCode).toBe(200);
      const before = smtp.received.length;
      await sendWorkflowNotifications({ db: t.db, mailer, log: t.app.log, appUrl: APP_URL });
      const mail = smtp.received.slice(before).find((m) => m.to.includes(w.rivalUser.email));
      expect(mail?.parsed.subject).toBe('Your report for 2026-11 (Sweden) was sent back');
      expect(mail?.parsed.text).toContain('Comment: Code 1001 looks too low.');
      expect(mail?.parsed.text).toContain(`${APP_URL}/import/${w.rivalReport.uuid}`);
    } finally {
      mailer.close();
    }
  });
});

describe('withdrawals and undone approvals', () => {
  it('when a submission is withdrawn, the approvers already told are told with the reason, the digest not yet sent drops it; an undone approval is told to the reporters in their language', async () => {
    const w = await world();
    const mailer = (await import('../../mail/mailer.ts')).createMailer({
      smtpUrl: smtp.url,
      from: 'Statistics <stats@example.test>',
      dataDir: t.dataDir,
      log: t.app.log,
    });
    const send = async () => {
      const before = smtp.received.length;
      await sendWorkflowNotifications({ db: t.db, mailer, log: t.app.log, appUrl: APP_URL });
      return smtp.received.slice(before);
    };
    try {
      // Rival's submission reaches the market administrator in the digest; then Rival withdraws it.
      expect((await send()).filter((m) => m.to.includes(w.author.email))).toHaveLength(1);
      const withdrawn = await api('POST', `/reports/${w.rivalReport.uuid}/withdraw`, w.rivalReporter, { comment: 'Wrong month in column B.' });
      expect(withdrawn.statusCode, withdrawn.body).toBe(200);
      expect(withdrawn.json().data.status).toBe(20);
      expect(withdrawn.json().data.history.at(-1)).toMatchObject({ from_status: 40, to_status: 20, comment: 'Wrong month in column B.' });
      const told = (await send()).filter((m) => m.to.includes(w.author.email));
      expect(told.map((m) => m.parsed.subject)).toEqual(['Rival AB withdrew its report for 2026-11 (Sweden)']);
      expect(told[0]!.parsed.text).toContain('Comment: Wrong month in column B.');
      // An approver cannot withdraw; a reporter cannot undo an approval.
      expect((await api('POST', `/reports/${w.rivalReport.uuid}/withdraw`, w.admin, {})).statusCode).toBe(403);

      // Acme submits and withdraws before any digest: nothing waits to be sent about it.
      await w.rw.storeRows(w.report.uuid, [[w.codes[0]!.id, 5, 50]]);
      expect((await w.rw.status(w.reporter, w.report.uuid, { status: 40 })).statusCode).toBe(200);
      expect((await api('POST', `/reports/${w.report.uuid}/withdraw`, w.reporter, {})).statusCode).toBe(200);
      const queued = await t.db.execute<{ kind: string }>(
        sql`select n.kind from workflow_notifications n join reports r on r.id = n.report_id where r.uuid = ${w.report.uuid} and n.status = 'queued'`,
      );
      expect(queued.rows).toEqual([]);

      // Approved, then the approval undone with a reason: Acme's reporters are told, in Swedish where they read Swedish.
      expect((await w.rw.status(w.reporter, w.report.uuid, { status: 40 })).statusCode).toBe(200);
      expect((await w.rw.status(w.admin, w.report.uuid, { status: 60 })).statusCode).toBe(200);
      expect((await api('POST', `/reports/${w.report.uuid}/unapprove`, w.reporter, {})).statusCode).toBe(403);
      await send();
      await t.db.execute(sql`update users set locale = 'sv-SE' where id = ${w.acmeUser.id}`);
      const undone = await api('POST', `/reports/${w.report.uuid}/unapprove`, w.admin, { comment: 'Approved by mistake.' });
      expect(undone.statusCode, undone.body).toBe(200);
      expect(undone.json().data).toMatchObject({ status: 40, approved_at: null });
      const mails = await send();
      const swedish = mails.find((m) => m.to.includes(w.acmeUser.email));
      expect(swedish?.parsed.subject).toBe('Godkännandet av din rapport för 2026-11 (Sweden) har ångrats');
      expect(swedish?.parsed.text).toContain('Approved by mistake.');
      expect(mails.find((m) => m.to.includes(w.secondAcme.email))?.parsed.subject).toBe('The approval of your report for 2026-11 (Sweden) was undone');
    } finally {
      await t.db.execute(sql`update users set locale = 'en-US' where id = ${w.acmeUser.id}`);
      mailer.close();
    }
  });
});

describe('without SMTP_URL', () => {
  it('when a preflight is sent, then the mail is written as an .eml file, as password reset does', async () => {
    const local = await createTestApp({ APP_URL });
    try {
      const org = await createOrganization(local.db);
      const market = await createMarket(local.db, org.id, 'Sweden');
      const [company] = await local.db.insert(companies).values({ name: 'Acme AB' }).returning();
      await local.db.insert(companyOrganizations).values({ company_id: company!.id, organization_id: org.id });
      await local.db.insert(companyMarkets).values({ company_id: company!.id, market_id: market.id, roles: ['reporter'] });
      await createUser(local.db, { organizationIds: [org.id], companyId: company!.id, email: 'anna@example.test' });
      const author = await createUser(local.db, { roles: ['market-admin'], organizationIds: [org.id], marketIds: [market.id] });
      const headers = { cookie: await signIn(local.app, author.email), ...XHR };
      const created = await local.app.inject({
        method: 'POST',
        url: '/api/v1/communications',
        headers,
        payload: {
          subject: 'Hello {{recipient_name}}',
          body: '<p>Hi</p>',
          recipients: { market_ids: [market.id], roles: [], company_ids: [], period_uuid: null, report_statuses: [] },
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      const res = await local.app.inject({ method: 'POST', url: `/api/v1/communications/${created.json().data.uuid}/preflight`, headers, payload: {} });
      expect(res.statusCode, res.body).toBe(200);
      const fs = await import('node:fs');
      const files = fs.readdirSync(`${local.dataDir}/mail`).filter((f) => f.endsWith('.eml'));
      expect(files).toHaveLength(1);
      const eml = fs.readFileSync(`${local.dataDir}/mail/${files[0]}`, 'utf8');
      expect(eml).toContain(`To: ${author.email}`);
      expect(eml).toContain('Subject: Hello Test User');
    } finally {
      await local.close();
    }
  });
});
