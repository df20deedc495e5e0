import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { acquireDataDirLock } from './data-dir-lock.ts';
import * as schema from './schema.ts';

export type Db = NodePgDatabase<typeof schema> & { $client: pg.Pool };

export interface Database {
  db: Db;
  pool: pg.Pool;
  /** `pglite` when the embedded database runs in a worker thread; `postgres` for a server. */
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
}

// Timestamps and bigints come back as JavaScript values; dates stay Date objects.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

const PGLITE_SOCKET_PORT = 5432;

/**
 * Starts PGlite in a worker thread behind a Unix socket and returns a `pg` pool connected to it.
 * `dataDir` (DATA_DIR) holds the database in `pglite/`; undefined means an in-memory database
 * (tests). A data folder is locked while open (`pglite.lock`, data-dir-lock.ts): a second opening,
 * from this process or another, is refused instead of corrupting the database.
 */
async function startPglite(dataDir: string | undefined): Promise<{ pool: pg.Pool; stop: () => Promise<void> }> {
  const socketDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mss-pg-'));
  fs.chmodSync(socketDir, 0o700);
  let release = () => {};
  try {
    if (dataDir) release = acquireDataDirLock(dataDir, socketDir);
  } catch (error) {
    fs.rmSync(socketDir, { recursive: true, force: true });
    throw error;
  }
  const pgliteDir = dataDir ? path.join(dataDir, 'pglite') : undefined;
  if (pgliteDir) fs.mkdirSync(pgliteDir, { recursive: true });
  const socketPath = path.join(socketDir, `.s.PGSQL.${PGLITE_SOCKET_PORT}`);
  const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), { workerData: { dataDir: pgliteDir, socketPath } });
  try {
    await new Promise<void>((resolve, reject) => {
      worker.once('error', reject);
      worker.once('message', (message: { type: string; message?: string }) => {
        if (message.type === 'ready') resolve();
        else reject(new Error(`The embedded database did not start: ${message.message ?? message.type}`));
      });
    });
  } catch (error) {
    await worker.terminate();
    fs.rmSync(socketDir, { recursive: true, force: true });
    release();
    throw error;
  }
  // One connection: PGlite serves one at a time, and requests queue in the pool instead.
  const pool = surviveConnectionErrors(new pg.Pool({ host: socketDir, port: PGLITE_SOCKET_PORT, user: 'postgres', database: 'postgres', max: 1 }));
  const stop = async () => {
    await pool.end();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 5000);
      worker.once('message', () => {
        clearTimeout(timer);
        resolve();
      });
      worker.postMessage({ type: 'stop' });
    });
    await worker.terminate();
    fs.rmSync(socketDir, { recursive: true, force: true });
    release();
  };
  return { pool, stop };
}

/**
 * A connection can fail while no query is running on it (the server restarts, an administrator
 * ends the session, or it is closing): node-postgres then emits 'error' on the client, and an
 * 'error' event without a listener ends the process. Every client gets a listener; the next query
 * gets a fresh connection from the pool.
 */
function surviveConnectionErrors(pool: pg.Pool): pg.Pool {
  const warn = (error: Error) => process.emitWarning(`database connection lost: ${error.message}`, 'DatabaseWarning');
  pool.on('error', warn);
  pool.on('connect', (client) => client.on('error', warn));
  return pool;
}

export async function openDatabase(options: { databaseUrl?: string; dataDir?: string; inMemory?: boolean }): Promise<Database> {
  if (options.databaseUrl) {
    const pool = surviveConnectionErrors(new pg.Pool({ connectionString: options.databaseUrl, max: 10 }));
    const db = drizzle(pool, { schema }) as Db;
    return { db, pool, kind: 'postgres', close: () => pool.end() };
  }
  const { pool, stop } = await startPglite(options.inMemory ? undefined : path.resolve(options.dataDir ?? './data'));
  const db = drizzle(pool, { schema }) as Db;
  return { db, pool, kind: 'pglite', close: stop };
}

/** The advisory lock migrations run under (any number; the same in every process of the app). */
const MIGRATION_LOCK = 7_311_846_201;

/**
 * Applies the migrations this build has, once however many processes start at the same moment:
 * each takes a session-level advisory lock on its own connection first, so the others
 * wait, then find the migrations applied and do nothing. A process that dies holding the lock
 * loses it with its connection.
 */
export async function migrateDatabase(db: Db): Promise<void> {
  const client = await db.$client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      await migrate(drizzle(client, { schema }), { migrationsFolder: path.join(import.meta.dirname, 'migrations') });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    client.release();
  }
}

/** A transaction handle, or the database itself: what a function that may run in either takes. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type Executor = Db | Tx;
