import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp, XHR } from '../../test/helpers.ts';
import { RequestsInFlight } from '../lib/requests-in-flight.ts';

describe('stopping with requests in flight on keep-alive connections', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('when a request is being served it is in flight, and when it is answered or its client gives up it no longer is', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const body = Buffer.from(JSON.stringify({ email: 'nobody@in-flight.test', password: 'not-the-password-at-all' }));
    const send = () => {
      const request = http.request({
        host: '127.0.0.1',
        port,
        path: '/api/v1/auth/login',
        method: 'POST',
        agent: false,
        headers: { ...XHR, 'content-type': 'application/json', 'content-length': body.length },
      });
      const answered = new Promise<number>((resolve) => {
        request.on('response', (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        });
        request.on('error', () => resolve(0));
      });
      return { request, answered };
    };
    expect(t.app.requestsInFlight.size).toBe(0);
    const received = new Promise((r) => t.app.server.once('request', r));
    const answered = send();
    answered.request.write(body.subarray(0, 10));
    await received;
    await vi.waitFor(() => expect(t.app.requestsInFlight.size).toBe(1));
    answered.request.end(body.subarray(10));
    expect(await answered.answered).toBe(422);
    await vi.waitFor(() => expect(t.app.requestsInFlight.size).toBe(0));
    // A client that gives up halfway through its body.
    const abandoned = send();
    const arrived = new Promise((r) => t.app.server.once('request', r));
    abandoned.request.write(body.subarray(0, 10));
    await arrived;
    await vi.waitFor(() => expect(t.app.requestsInFlight.size).toBe(1));
    abandoned.request.destroy();
    await vi.waitFor(() => expect(t.app.requestsInFlight.size).toBe(0));
  });

  it('when the process stops while a keep-alive connection carries a request, then the request is answered with Connection: close and the server closes without waiting for the client to leave', async () => {
    const { port } = t.app.server.address() as AddressInfo;
    const agent = new http.Agent({ keepAlive: true, keepAliveMsecs: 60_000 });
    try {
      // A connection the client keeps: one request answered on it first.
      const first = await new Promise<http.IncomingMessage>((resolve, reject) =>
        http.get({ host: '127.0.0.1', port, path: '/healthz', agent }, resolve).on('error', reject),
      );
      first.resume();
      expect(first.headers.connection).toBe('keep-alive');
      await new Promise((r) => first.once('end', r));
      // The next request on it is in flight when the process starts stopping: half its body sent.
      const body = Buffer.from(JSON.stringify({ email: 'nobody@in-flight.test', password: 'not-the-password-at-all' }));
      const request = http.request({
        host: '127.0.0.1',
        port,
        path: '/api/v1/auth/login',
        method: 'POST',
        agent,
        headers: { ...XHR, 'content-type': 'application/json', 'content-length': body.length },
      });
      const answered = new Promise<{ status: number; connection: string | undefined; socketClosed: Promise<void> }>((resolve, reject) => {
        request.on('response', (res) => {
          res.resume();
          const socketClosed = new Promise<void>((done) => res.socket.once('close', () => done()));
          res.once('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, socketClosed }));
        });
        request.on('error', reject);
      });
      const received = new Promise((r) => t.app.server.once('request', r));
      request.write(body.subarray(0, 10));
      await received;
      t.app.health.draining = true;
      let closed = false;
      const closing = t.app.close().then(() => (closed = true));
      request.end(body.subarray(10));
      const answer = await answered;
      expect(answer.status).toBe(422); // wrong password
      expect(answer.connection).toBe('close');
      await answer.socketClosed;
      // Without the fix the close waited for the client, or for the keep-alive timeout (72 s).
      await closing;
      expect(closed).toBe(true);
    } finally {
      agent.destroy();
    }
  });
});

describe('RequestsInFlight', () => {
  it('when a request never tells its end (a client gone mid-answer), then it is forgotten after a minute and nothing waits for it', async () => {
    vi.useFakeTimers();
    try {
      const requests = new RequestsInFlight();
      requests.begin();
      expect(requests.size).toBe(1);
      await vi.advanceTimersByTimeAsync(RequestsInFlight.FORGET_AFTER_MS + 1);
      expect(requests.size).toBe(0);
      let quiet = false;
      await requests.quiet(50).then(() => (quiet = true));
      expect(quiet).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });

  it('when nothing is being served, then quiet() resolves at once; when a request is, then it resolves as the last one ends', async () => {
    const requests = new RequestsInFlight();
    await requests.quiet(60_000);
    const [one, two] = [requests.begin(), requests.begin()];
    let quiet = false;
    const waiting = requests.quiet(60_000).then(() => (quiet = true));
    requests.end(one);
    requests.end(one);
    await Promise.resolve();
    expect(quiet).toBe(false);
    requests.end(two);
    await waiting;
    expect(quiet).toBe(true);
    expect(requests.size).toBe(0);
  });

  it('when requests go on and on, then quiet() still resolves after its longest wait: background work is never starved', async () => {
    vi.useFakeTimers();
    try {
      const requests = new RequestsInFlight();
      const token = requests.begin();
      let quiet = false;
      const waiting = requests.quiet(50).then(() => (quiet = true));
      await vi.advanceTimersByTimeAsync(49);
      expect(quiet).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await waiting;
      expect(quiet).toBe(true);
      requests.end(token);
    } finally {
      vi.useRealTimers();
    }
  });
});
