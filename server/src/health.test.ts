import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROLES } from '@mss/contracts/enums';
import { createOrganization, createTestApp, signInAs, type TestApp } from '../test/helpers.ts';
import { migrateDatabase, openDatabase } from './db/client.ts';

let t: TestApp;
const web = fs.mkdtempSync(path.join(os.tmpdir(), 'mss-health-web-'));
beforeAll(async () => {
  // With a web build present, as in production: an unknown path would answer the web app's page.
  fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>app</title>');
  t = await createTestApp({ WEB_DIST: web });
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(web, { recursive: true, force: true });
});

describe('health for load balancers', () => {
  it('when /healthz and /readyz are asked without a session, then JSON says the process is alive and ready, never cached, not the web page', async () => {
    expect((await t.app.inject({ url: '/some/screen' })).headers['content-type']).toContain('text/html');
    for (const [url, status] of [
      ['/healthz', 'ok'],
      ['/readyz', 'ready'],
    ] as const) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('application/json');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.json()).toEqual({ status });
    }
  });

  it("when every role of this and another organization asks, signed in or not, then each gets the same answer: the probes hold no one's data", async () => {
    const org = await createOrganization(t.db);
    const other = await createOrganization(t.db);
    const callers: Record<string, string>[] = [{}];
    for (const role of ROLES) for (const organizationId of [org.id, other.id]) callers.push((await signInAs(t, [role], { organizationId })).headers);
    for (const url of ['/healthz', '/readyz']) {
      const answers = await Promise.all(callers.map(async (headers) => (await t.app.inject({ url, headers })).body));
      expect(new Set(answers), url).toEqual(new Set([answers[0]]));
    }
  });

  it('when the newest migration of this build is not applied, then /readyz answers 503 and /healthz still 200', async () => {
    const [newest] = (
      await t.db.execute<{ id: number; hash: string; created_at: string }>(
        sql`select id, hash, created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`,
      )
    ).rows;
    await t.db.execute(sql`delete from drizzle.__drizzle_migrations where id = ${newest!.id}`);
    try {
      const res = await t.app.inject({ url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'migrations pending' });
      expect((await t.app.inject({ url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await t.db.execute(sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${newest!.id}, ${newest!.hash}, ${newest!.created_at})`);
    }
    expect((await t.app.inject({ url: '/readyz' })).statusCode).toBe(200);
  });

  it('when the process starts stopping, then /readyz answers 503 draining, and /healthz 200', async () => {
    t.app.health.draining = true;
    try {
      const res = await t.app.inject({ url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ status: 'draining' });
      expect((await t.app.inject({ url: '/healthz' })).json()).toEqual({ status: 'ok' });
    } finally {
      t.app.health.draining = false;
    }
  });
});

describe('migrations from processes starting at once', () => {
  // Two pools on one fresh database are two processes as far as PostgreSQL can tell; the embedded
  // database has one process by design.
  it.runIf(process.env.TEST_DATABASE_URL)(
    'when three processes migrate a fresh PostgreSQL database at the same moment, then every migration is applied once and all three come up',
    async () => {
      const server = process.env.TEST_DATABASE_URL!;
      const name = `mss_test_${randomUUID().replace(/-/g, '')}`;
      const admin = new pg.Client({ connectionString: server });
      await admin.connect();
      await admin.query(`create database ${name}`);
      const url = new URL(server);
      url.pathname = `/${name}`;
      const processes = await Promise.all([1, 2, 3].map(() => openDatabase({ databaseUrl: url.toString() })));
      try {
        const results = await Promise.allSettled(processes.map((p) => migrateDatabase(p.db)));
        expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled']);
        const journal = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, 'db', 'migrations', 'meta', '_journal.json'), 'utf8')) as {
          entries: unknown[];
        };
        const applied = await processes[0]!.pool.query<{ n: number }>(
          'select count(*)::int as n, count(distinct hash)::int as hashes from drizzle.__drizzle_migrations',
        );
        expect(applied.rows[0]).toEqual({ n: journal.entries.length, hashes: journal.entries.length });
      } finally {
        await Promise.all(processes.map((p) => p.close()));
        await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    },
  );
});
