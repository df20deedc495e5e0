import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, createTestApp, createUser, type TestApp, XHR } from '../../test/helpers.ts';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

let smtp: SMTPServer;
let received: Received[];
let t: TestApp;

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
  t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'Statistics <stats@example.test>', APP_URL: 'https://stats.example.test' });
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
    expect(received).toHaveLength(1);
    const mail = received[0]!;
    expect(mail.from).toBe('stats@example.test');
    expect(mail.to).toEqual([user.email]);
    expect(mail.raw).toContain('Subject: Reset your password');
    const body = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    expect(body).toMatch(new RegExp(`https://stats\\.example\\.test/reset-password/[A-Za-z0-9_-]{43}\\?email=${encodeURIComponent(user.email).replace(/\./g, '\\.')}`));
  });

  it('when the SMTP server refuses the recipient, then "Email could not be sent to this email address."', async () => {
    const org = await createOrganization(t.db);
    const user = await createUser(t.db, { roles: ['viewer'], organizationIds: [org.id] });
    smtp.onRcptTo = (_address, _session, callback) => callback(new Error('mailbox unavailable'));
    try {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/forgot-password', headers: XHR, payload: { email: user.email } });
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBe('Email could not be sent to this email address.');
    } finally {
      smtp.onRcptTo = (_address, _session, callback) => callback();
    }
  });
});
