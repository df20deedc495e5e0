import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter, type TransportOptions } from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  attachments?: MailAttachment[];
  /** Stable per recipient of a communication: a resend after a crash carries the same one. */
  messageId?: string;
  headers?: Record<string, string>;
}

export interface MailResult {
  /** The server's answer (`250 OK …`), or where the file went without SMTP. */
  response: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<MailResult>;
  /** Mails to many recipients (communications): a pooled, rate-limited transport. */
  sendBulk(message: MailMessage): Promise<MailResult>;
  close(): void;
}

/** Why a mail was not accepted, and whether trying again later can help. */
export interface MailFailure {
  response: string;
  temporary: boolean;
}

/**
 * Reads a nodemailer error: a 5xx answer is permanent (the recipient is refused, the message is
 * rejected); a 4xx answer, a lost connection or a timeout is temporary.
 */
export function mailFailureOf(error: unknown): MailFailure {
  const e = error as { responseCode?: number; response?: string; message?: string; code?: string };
  const response = (e.response ?? e.message ?? String(error)).slice(0, 1000);
  if (typeof e.responseCode === 'number') return { response, temporary: e.responseCode < 500 };
  return { response: e.code ? `${e.code}: ${response}` : response, temporary: true };
}

/**
 * Sends over SMTP_URL when it is set; otherwise writes each message as an .eml file under
 * <DATA_DIR>/mail and logs it, so that the embedded default works offline.
 */
export function createMailer(options: {
  smtpUrl?: string;
  from: string;
  dataDir: string;
  log: FastifyBaseLogger;
  /** The bulk transport's pool: open connections, and mails per second. */
  pool?: { maxConnections: number; ratePerSecond: number };
}): Mailer {
  if (options.smtpUrl) {
    const timeouts = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 };
    const transport = nodemailer.createTransport({ url: options.smtpUrl, ...timeouts } as TransportOptions);
    const pool = options.pool ?? { maxConnections: 3, ratePerSecond: 10 };
    // Created on first use: most processes never send a communication.
    let bulk: Transporter | null = null;
    const bulkTransport = () =>
      (bulk ??= nodemailer.createTransport({
        url: options.smtpUrl,
        pool: true,
        maxConnections: pool.maxConnections,
        maxMessages: 100,
        rateDelta: 1000,
        rateLimit: pool.ratePerSecond,
        ...timeouts,
      } as TransportOptions));
    const via = async (t: Transporter, message: MailMessage) => {
      const info = (await t.sendMail({ from: options.from, ...message })) as { response?: string };
      options.log.info({ to: message.to, subject: message.subject }, 'mail sent');
      return { response: info.response ?? '250 OK' };
    };
    return {
      send: (message) => via(transport, message),
      sendBulk: (message) => via(bulkTransport(), message),
      close: () => {
        transport.close();
        bulk?.close();
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const dir = path.join(options.dataDir, 'mail');
  let sequence = 0;
  const write = async (message: MailMessage) => {
    const info = await transport.sendMail({ from: options.from, ...message });
    await fs.mkdir(dir, { recursive: true });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const file = path.join(dir, `${stamp}-${process.pid}-${String(++sequence).padStart(4, '0')}.eml`);
    await fs.writeFile(file, info.message as Buffer);
    options.log.info({ to: message.to, subject: message.subject, file }, 'mail written to file (no SMTP_URL)');
    return { response: `written to ${path.basename(file)}` };
  };
  return { send: write, sendBulk: write, close: () => transport.close() };
}
