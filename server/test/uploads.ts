import http from 'node:http';
import { Readable } from 'node:stream';
import type { App } from '../src/context.ts';
import { companies, companyMarkets, companyOrganizations, periods, reports } from '../src/db/schema.ts';
import { createMarket, createOrganization, createUser, signIn, type TestApp, XHR } from './helpers.ts';

/** A reporter and their company's report in an open period, in status 20: an upload is allowed. */
export async function createUploadableReport(t: TestApp) {
  const org = await createOrganization(t.db);
  const market = await createMarket(t.db, org.id);
  const [company] = await t.db.insert(companies).values({ name: 'Acme AB' }).returning();
  await t.db.insert(companyOrganizations).values({ company_id: company!.id, organization_id: org.id });
  await t.db.insert(companyMarkets).values({ company_id: company!.id, market_id: market.id });
  const user = await createUser(t.db, { roles: ['reporter'], organizationIds: [org.id], marketIds: [market.id], companyId: company!.id });
  const [period] = await t.db
    .insert(periods)
    .values({ market_id: market.id, title: '2026-10', starts_on: '2026-10-01', ends_on: '2026-10-31', status: 'open' })
    .returning();
  const [report] = await t.db.insert(reports).values({ period_id: period!.id, company_id: company!.id }).returning();
  return { report: report!, headers: { ...XHR, cookie: await signIn(t.app, user.email) } };
}

/**
 * A multipart/form-data body with one file in the field `file`, produced piece by piece (the
 * multipart head, then the file in pieces of `piece` bytes, then the closing boundary) without
 * ever holding the file in memory, so tests can send 100 MB cheaply. How a body is cut into
 * pieces matters to the server's parser: a file that reaches a size limit exactly at the end of a
 * piece is the case that once let over-limit files through.
 */
export function streamedUpload(size: number, options: { piece?: number; name?: string; first?: Buffer; fill?: number } = {}) {
  if (options.first && options.first.length > Math.min(size, options.piece ?? 64 * 1024)) throw new RangeError('`first` must fit in the first piece');
  const piece = options.piece ?? 64 * 1024;
  const boundary = `----mss-test-upload-${size}-${piece}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${options.name ?? 'upload.xlsx'}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const block = Buffer.alloc(piece, options.fill ?? 0x41);
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: head.length + size + tail.length,
    async *pieces(): AsyncGenerator<Buffer> {
      yield head;
      let sent = 0;
      while (sent < size) {
        const n = Math.min(piece, size - sent);
        // A turn of the event loop between pieces, as between packets: the server sees them apart.
        await new Promise((r) => setImmediate(r));
        // `first` (say an image signature) begins the first piece, which keeps its length.
        if (sent === 0 && options.first) yield Buffer.concat([options.first, block.subarray(0, n - options.first.length)]);
        else yield n === piece ? block : block.subarray(0, n);
        sent += n;
      }
      yield tail;
    },
  };
}

export type StreamedUpload = ReturnType<typeof streamedUpload>;

/** Sends the body through `app.inject`, piece by piece. */
export async function injectUpload(app: App, method: 'POST' | 'PUT', url: string, headers: Record<string, string>, body: StreamedUpload) {
  const res = await app.inject({
    method,
    url,
    headers: { ...headers, 'content-type': body.contentType },
    payload: Readable.from(body.pieces(), { objectMode: false }),
  });
  return { status: res.statusCode, json: () => res.json() as { message: string; errors?: Record<string, string[]>; data?: unknown } };
}

/**
 * Sends the body over real HTTP (the app must be listening at `base`), piece by piece with
 * backpressure; `sent` is how many bytes of the body had been written when the answer came.
 */
function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

export function httpUpload(base: string, method: 'POST' | 'PUT', url: string, headers: Record<string, string>, body: StreamedUpload) {
  let written = 0;
  return new Promise<{ status: number; sent: number; json: () => { message: string; errors?: Record<string, string[]>; data?: unknown } }>(
    (resolve, reject) => {
      let answer: { status: number; sent: number; text: string } | null = null;
      const settle = () => resolve({ status: answer!.status, sent: answer!.sent, json: () => JSON.parse(answer!.text) });
      // Kept alive as a browser's connection is: a server that answers before the body is all sent
      // then reads and discards the rest. (With "Connection: close" it would close the socket under
      // a client still writing, which fails the write with EPIPE.)
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const req = http.request(
        `${base}${url}`,
        { method, agent, headers: { ...headers, 'content-type': body.contentType, 'content-length': body.length } },
        (res) => {
          answer = { status: res.statusCode ?? 0, sent: written, text: '' };
          res.setEncoding('utf8');
          res.on('data', (c: string) => (answer!.text += c));
          res.on('end', () => {
            settle();
            // The server may answer before the whole body is sent (a refusal): the rest is not sent.
            req.destroy();
            agent.destroy();
          });
        },
      );
      // A write still under way when the answer came may fail as the connection goes: the answer
      // that arrived whole is what counts.
      req.on('error', (error) => {
        if (answer !== null && isJson(answer.text)) settle();
        else reject(error);
      });
      (async () => {
        for await (const chunk of body.pieces()) {
          if (req.destroyed) return;
          written += chunk.length;
          if (!req.write(chunk)) {
            await new Promise<void>((r) => {
              const done = () => {
                req.off('drain', done).off('close', done);
                r();
              };
              req.on('drain', done).on('close', done);
            });
          }
        }
        req.end();
      })().catch((error: unknown) => req.destroy(error as Error));
    },
  );
}
