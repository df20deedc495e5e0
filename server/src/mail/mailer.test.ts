import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passwordResets } from '../db/schema.ts';
import { passwordResetWork } from '../modules/auth/auth.service.ts';
import { createOrganization, createTestApp, createUser, type TestApp, XHR } from '../../test/helpers.ts';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

let smtp: SMTPServer;
let received: Received[];
let t: TestApp;
/** Error lines the app logged (JSON, one per line). */
let errorLogs: string[];

beforeAll(async () => {
  received = [];
  // A real SMTP server: the app speaks the whole SMTP conversation to it.
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const { port } = smtp.server.address() as AddressInfo;
  errorLogs = [];
  t = await createTestApp(
    { SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Statistics <stats@example.test>', APP_URL: 'https://stats.example.test' },
    { logger: { level: 'error', stream: { write: (line: string) => errorLogs.push(line) } } },
  );
});

afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

describe('mail over SMTP_URL', () => {
  it('when a password reset is requested, then the link is delivered over SMTP to the user', async () => {
    const org = await createOrganization(t.db);
    const user = await createUser(t.db, { roles: ['viewer'], organizationIds: [org.id] });
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/forgot-password', headers: XHR, payload: { email: user.email } });
    expect(res.statusCode).toBe(200);
    await passwordResetWork();
    expect(received).toHaveLength(1);
    const mail = received[0]!;
    expect(mail.from).toBe('stats@example.test');
    expect(mail.to).toEqual([user.email]);
    expect(mail.raw).toContain('Subject: Reset your password');
    const body = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    expect(body).toMatch(
      new RegExp(`https://stats\\.example\\.test/reset-password/[A-Za-z0-9_-]{43}\\?email=${encodeURIComponent(user.email).replace(/\./g, '\\.')}`),
    );
  });

  it('when the SMTP server refuses the recipient, then the answer is the same, the failure is logged and the link deleted', async () => {
    const org = await createOrganization(t.db);
    const user = await createUser(t.db, { roles: ['viewer'], organizationIds: [org.id] });
    smtp.onRcptTo = (_address, _session, callback) => callback(new Error('mailbox unavailable'));
    try {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/forgot-password', headers: XHR, payload: { email: user.email } });
      // "Email could not be sent to this email address." would be said only to addresses with an account.
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ data: { message: 'We have e-mailed your password reset link!' } });
      await passwordResetWork();
      expect(await t.db.select().from(passwordResets).where(eq(passwordResets.user_id, user.id))).toEqual([]);
      const logged = errorLogs.map((line) => JSON.parse(line) as { msg: string; userId?: number });
      expect(logged).toContainEqual(expect.objectContaining({ msg: 'password reset mail could not be sent', userId: user.id }));
    } finally {
      smtp.onRcptTo = (_address, _session, callback) => callback();
    }
  });

  it('when the address has an account, then the answer does not wait for the mail (the same work as for an unknown address)', async () => {
    const org = await createOrganization(t.db);
    const user = await createUser(t.db, { roles: ['viewer'], organizationIds: [org.id] });
    // The SMTP server holds the recipient until the test lets it go: a request that sent the mail
    // before answering could not answer now.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    smtp.onRcptTo = (_address, _session, callback) => void held.then(() => callback());
    try {
      const before = received.length;
      const res = await Promise.race([
        t.app.inject({ method: 'POST', url: '/api/v1/auth/forgot-password', headers: XHR, payload: { email: user.email } }),
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 5000)),
      ]);
      expect(res?.statusCode).toBe(200);
      expect(received.length).toBe(before);
      release();
      await passwordResetWork();
      expect(received.length).toBe(before + 1);
      expect(received.at(-1)!.to).toEqual([user.email]);
    } finally {
      release();
      smtp.onRcptTo = (_address, _session, callback) => callback();
    }
  });
});
