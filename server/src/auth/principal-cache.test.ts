import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { migrateDatabase, openDatabase, type Database } from '../db/client.ts';
import type { App } from '../context.ts';
import { createOrganization, createUser, signIn, testConfig, userForm, XHR } from '../../test/helpers.ts';
import { PrincipalCache } from './principal-cache.ts';

describe('the principal cache', () => {
  it('when a change clears it while a load is under way, then that load is not stored', () => {
    // Only its lifetime matters to the cache.
    const cache = new PrincipalCache<{ validUntil: number }>();
    const loadedAt = cache.generation();
    cache.clear();
    cache.set('k', { validUntil: Date.now() + 60_000 }, loadedAt);
    expect(cache.get('k')).toBeUndefined();
    cache.set('k', { validUntil: Date.now() + 60_000 }, cache.generation());
    expect(cache.get('k')).toBeDefined();
  });

  it('when an entry is older than its lifetime or its session has ended, then it is not used', async () => {
    const cache = new PrincipalCache<{ validUntil: number }>(50);
    cache.set('old', { validUntil: Date.now() + 60_000 }, cache.generation());
    cache.set('ended', { validUntil: Date.now() - 1 }, cache.generation());
    expect(cache.get('ended')).toBeUndefined();
    await new Promise((r) => setTimeout(r, 60));
    expect(cache.get('old')).toBeUndefined();
  });
});

// Several API processes on one PostgreSQL server (docs/architecture.md §2 "scaling past one machine"): a change
// made through one must reach the sessions cached by the other at once.
const serverUrl = process.env.TEST_DATABASE_URL;
describe.skipIf(!serverUrl)('two API processes on one PostgreSQL server', () => {
  const name = `mss_test_${randomUUID().replace(/-/g, '')}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mss-two-'));
  let databases: Database[] = [];
  let apps: App[] = [];

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(serverUrl!);
    url.pathname = `/${name}`;
    const config = testConfig(dataDir, { DATABASE_URL: url.toString() });
    databases = [await openDatabase({ databaseUrl: url.toString() }), await openDatabase({ databaseUrl: url.toString() })];
    await migrateDatabase(databases[0]!.db);
    apps = await Promise.all(databases.map((database) => buildApp({ config, database }, { logger: false })));
    await Promise.all(apps.map((a) => a.ready()));
    // Let both listeners connect.
    await new Promise((r) => setTimeout(r, 300));
  });
  afterAll(async () => {
    for (const a of apps) await a.close();
    for (const d of databases) await d.close();
    const c = new pg.Client({ connectionString: serverUrl });
    await c.connect();
    await c.query(`drop database if exists ${name} with (force)`);
    await c.end();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('when an administrator on process 1 disables a user, then the session cached on process 2 is refused at once', async () => {
    const [one, two] = apps as [App, App];
    const db = databases[0]!.db;
    const org = await createOrganization(db);
    const admin = await createUser(db, { roles: ['admin'], organizationIds: [org.id] });
    const user = await createUser(db, { roles: ['viewer'], organizationIds: [org.id] });
    const adminHeaders = { cookie: await signIn(one, admin.email), ...XHR };
    const userHeaders = { cookie: await signIn(two, user.email), ...XHR };
    expect((await two.inject({ url: '/api/v1/users/me', headers: userHeaders })).statusCode).toBe(200);
    const res = await one.inject({
      method: 'PUT',
      url: `/api/v1/admin/users/${user.id}`,
      headers: adminHeaders,
      payload: userForm({ email: user.email, roles: ['viewer'], disabled: true }),
    });
    expect(res.statusCode).toBe(200);
    // The notification travels through the server: give it a moment, far below the cache's 2 s.
    await new Promise((r) => setTimeout(r, 200));
    expect((await two.inject({ url: '/api/v1/users/me', headers: userHeaders })).statusCode).toBe(401);
  });
});
