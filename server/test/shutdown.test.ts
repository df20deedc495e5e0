import http from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { type AppProcess, ready, startApp, until, XHR } from './processes.ts';

/*
 * The app as `npm start` runs it (server/src/main.ts, the embedded database) gets SIGTERM while
 * requests are in flight on keep-alive connections: each is answered, with `Connection: close`, and
 * the process exits within 10 s (docs/decisions.md "Stopping and the load balancer"). The same
 * with two processes on a PostgreSQL server behind nginx: processes.test.ts.
 */

const PORT = 3311;
let app: AppProcess | undefined;

afterAll(async () => {
  if (app && app.child.exitCode === null) app.child.kill('SIGKILL');
  await app?.exited;
});

// With TEST_DATABASE_URL the suite runs a second time, on the server, maybe beside the first.
describe.skipIf(process.env.TEST_DATABASE_URL)('stopping the embedded-database process', () => {
  it('when the process gets SIGTERM with five requests in flight on keep-alive connections, then each is answered with Connection: close and the process exits within 10 s', async () => {
    // Its log at info names each request as it comes in: the test waits for them.
    app = startApp(PORT, { ADMIN_EMAIL: 'root@shutdown.test', ADMIN_PASSWORD: 'a-long-root-password', LOG_LEVEL: 'info' });
    await ready(app);
    const agent = new http.Agent({ keepAlive: true, keepAliveMsecs: 60_000 });
    try {
      const body = Buffer.from(JSON.stringify({ email: 'root@shutdown.test', password: 'not-the-password-at-all' }));
      const inFlight = Array.from({ length: 5 }, () => {
        const request = http.request(`${app!.url}/api/v1/auth/login`, {
          method: 'POST',
          agent,
          headers: { ...XHR, 'content-type': 'application/json', 'content-length': body.length },
        });
        const response = new Promise<{ status: number; connection: string | undefined }>((resolve, reject) => {
          request.on('response', (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection }));
          });
          request.on('error', reject);
        });
        request.write(body.subarray(0, 10));
        return { request, response };
      });
      // Every request has reached the process (its headers read) before it is told to stop.
      const arrived = () =>
        app!
          .output()
          .split('\n')
          .filter((line) => line.includes('"url":"/api/v1/auth/login"') && line.includes('incoming request')).length;
      await until(
        () => arrived() === 5,
        () => `five requests in: ${arrived()}`,
      );
      const termAt = Date.now();
      app.child.kill('SIGTERM');
      await until(
        () => app!.output().includes('"msg":"shutting down"'),
        () => 'the process says it is stopping',
      );
      for (const f of inFlight) f.request.end(body.subarray(10));
      const answers = await Promise.all(inFlight.map((f) => f.response));
      expect(answers).toEqual(inFlight.map(() => ({ status: 422, connection: 'close' })));
      const code = await app.exited;
      const exitMs = Date.now() - termAt;
      console.info(`SIGTERM to exit (embedded database): ${exitMs} ms`);
      expect(code).toBe(0);
      expect(exitMs).toBeLessThan(10_000);
    } finally {
      agent.destroy();
    }
  }, 180_000);
});
