import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';

export interface ReceivedMail {
  /** Envelope recipients. */
  to: string[];
  raw: string;
  parsed: ParsedMail;
}

/**
 * A real SMTP server for tests: the app speaks the whole SMTP conversation to it. `refuse` decides
 * per recipient: null accepts, a number answers with that code (550 permanent, 451 temporary).
 */
export async function startSmtp() {
  const received: ReceivedMail[] = [];
  const state = { refuse: (_address: string): number | null => null };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 50 * 1024 * 1024,
    onRcptTo(address: SMTPServerAddress, _session, callback) {
      const code = state.refuse(address.address);
      if (code === null) return callback();
      const error = new Error(code >= 500 ? 'Mailbox unavailable' : 'Try again later') as Error & { responseCode: number };
      error.responseCode = code;
      callback(error);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        simpleParser(raw)
          .then((parsed) => {
            received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: raw.toString('utf8'), parsed });
            callback();
          })
          .catch(callback);
      });
    },
  });
  // smtp-server re-emits a connection's socket error (a client that hangs up: ECONNRESET) on the
  // server; unheard, it would end the test run as an uncaught exception.
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') console.error('SMTP server error', error);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    state,
    /** Mails whose envelope went to `address`. */
    to: (address: string) => received.filter((m) => m.to.includes(address)),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
