import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { StringDecoder } from 'node:string_decoder';
import zlib from 'node:zlib';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { migrateDatabase, openDatabase, type Database } from './client.ts';
import { acquireDataDirLock, readDataDirLock } from './data-dir-lock.ts';

/*
 * `npm run backup` and `npm run restore` for the embedded database (docs/decisions.md "Backups of
 * the embedded database"). A backup is gzip'd JSON lines:
 *   {"format":"mss-backup","format_version":1,"app_version":…,"created_at":…,"migrations":[…],"tables":[…],"sequences":{…}}
 *   {"table":"report_rows","rows":[{…},{…},…]}     one line per batch of a table's rows
 *   {"end":true,"rows":{"report_rows":123,…}}       the row count of every table
 * Rows are PostgreSQL's own `row_to_json`, read back by `json_populate_recordset`: numeric keeps
 * its digits (never through a JavaScript number), bytea is hex, timestamps carry their offset,
 * jsonb and arrays stay JSON. Only the app's tables (schema `public`): the migrations record is
 * the header's list, and pg-boss's queue is not kept (the app queues unfinished imports and
 * communications again when it starts).
 */

export const BACKUP_FORMAT = 'mss-backup';
export const BACKUP_FORMAT_VERSION = 1;
const SCHEMA = 'public';
const MIGRATIONS = path.join(import.meta.dirname, 'migrations');
/** Text per line (and per insert on restore); a fetch is sized from the last one to stay near it. */
const BATCH_CHARS = 4 * 1024 * 1024;
const FIRST_FETCH = 100;
const MAX_FETCH = 10_000;
/** How long a backup waits for a starting app's socket to appear. */
const CONNECT_WAIT_MS = 15_000;

/** A refusal with a message for the person running the command (no stack trace needed). */
export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

interface Migration {
  hash: string;
  created_at: number;
}

interface Header {
  format: string;
  format_version: number;
  app_version: string;
  created_at: string;
  migrations: Migration[];
  tables: string[];
  /** Each sequence's last value (null: never used), so that restored ids are not handed out again. */
  sequences: Record<string, string | null>;
}

export interface BackupSummary {
  file: string;
  bytes: number;
  /** Rows per table, every table of the schema. */
  tables: Record<string, number>;
  /** The running app the dump was read from, or null when the data folder was opened for it. */
  appPid: number | null;
}

export interface RestoreSummary {
  dataDir: string;
  tables: Record<string, number>;
  header: Pick<Header, 'app_version' | 'created_at'>;
  /** Migrations of this build applied after the data, which the backup's version did not have. */
  migrationsAfter: number;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;
const table = (name: string) => `${ident(SCHEMA)}.${ident(name)}`;

function appVersion(): string {
  const file = path.join(import.meta.dirname, '..', '..', '..', 'package.json');
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as { version: string }).version;
}

/** The default backup file: `backups/mss-<UTC time>.jsonl.gz` under the current directory. */
export function defaultBackupFile(now = new Date()): string {
  const stamp = now.toISOString().slice(0, 19).replace(/:/g, '-');
  return path.resolve('backups', `mss-${stamp}Z.jsonl.gz`);
}

const hasDatabase = (dataDir: string) => fs.existsSync(path.join(dataDir, 'pglite', 'PG_VERSION'));

/**
 * Backs up the embedded database of `dataDir` into `out`. When the app runs on the folder (its
 * lock names a live process), the dump is read through the app's socket beside the app's own
 * connection; the app's statements wait while the dump's transaction runs. Otherwise the folder
 * is opened here, locked against an app starting meanwhile.
 */
export async function backupEmbeddedDatabase(options: { dataDir: string; out: string }): Promise<BackupSummary> {
  const dataDir = path.resolve(options.dataDir);
  const out = path.resolve(options.out);
  const lock = readDataDirLock(dataDir);
  if (lock) {
    if (!lock.socket_dir) throw new BackupError(`The embedded database in ${dataDir} is being restored by process ${lock.pid}; back it up once that is done.`);
    const client = await connectToRunningApp(lock.socket_dir, lock.pid);
    try {
      const tables = await writeBackup(client, out);
      return { file: out, bytes: fs.statSync(out).size, tables, appPid: lock.pid };
    } finally {
      await client.end().catch(() => {});
    }
  }
  if (!hasDatabase(dataDir)) throw new BackupError(`There is no embedded database in ${dataDir} (no ${path.join(dataDir, 'pglite')} with data).`);
  const database = await openDatabase({ dataDir });
  try {
    const client = await database.pool.connect();
    try {
      const tables = await writeBackup(client, out);
      return { file: out, bytes: fs.statSync(out).size, tables, appPid: null };
    } finally {
      client.release();
    }
  } finally {
    await database.close();
  }
}

async function connectToRunningApp(socketDir: string, pid: number): Promise<pg.Client> {
  const started = Date.now();
  for (;;) {
    const client = new pg.Client({ host: socketDir, port: 5432, user: 'postgres', database: 'postgres' });
    // A connection lost while idle must not end the process; the next query fails instead.
    client.on('error', () => {});
    try {
      await client.connect();
      return client;
    } catch (error) {
      await client.end().catch(() => {});
      const code = (error as NodeJS.ErrnoException).code;
      // The app is starting (its socket is not there yet) or stopping.
      if ((code === 'ENOENT' || code === 'ECONNREFUSED') && Date.now() - started < CONNECT_WAIT_MS) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        continue;
      }
      throw new BackupError(`The app (process ${pid}) holds the embedded database but did not answer on ${socketDir}: ${(error as Error).message}`);
    }
  }
}

/**
 * Writes the whole schema as one consistent snapshot: one read-only repeatable-read transaction,
 * each table read through a cursor in batches of about BATCH_CHARS. The file is written as
 * `<out>.partial` and renamed when complete, so a failed backup never looks like a good one.
 */
export async function writeBackup(client: pg.ClientBase, out: string): Promise<Record<string, number>> {
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const partial = `${out}.partial`;
  // Backups hold password hashes and sessions: readable by the owner only.
  const gzip = zlib.createGzip();
  const written = pipeline(gzip, fs.createWriteStream(partial, { mode: 0o600 }));
  written.catch(() => {}); // awaited below; this only keeps an early failure from being unhandled
  const write = async (line: string) => {
    if (!gzip.write(`${line}\n`)) await Promise.race([once(gzip, 'drain'), written]);
  };
  const counts: Record<string, number> = {};
  try {
    await client.query('begin isolation level repeatable read read only');
    try {
      await client.query(`set local bytea_output = 'hex'`);
      const migrations = await appliedMigrations(client);
      const tables = (
        await client.query<{ name: string }>(
          `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
            where n.nspname = $1 and c.relkind = 'r' order by c.relname`,
          [SCHEMA],
        )
      ).rows.map((r) => r.name);
      const sequences = Object.fromEntries(
        (
          await client.query<{ name: string; last_value: string | null }>(
            `select sequencename as name, last_value::text as last_value from pg_sequences where schemaname = $1 order by sequencename`,
            [SCHEMA],
          )
        ).rows.map((r) => [r.name, r.last_value]),
      );
      const header: Header = {
        format: BACKUP_FORMAT,
        format_version: BACKUP_FORMAT_VERSION,
        app_version: appVersion(),
        created_at: new Date().toISOString(),
        migrations,
        tables,
        sequences,
      };
      await write(JSON.stringify(header));
      for (const name of tables) counts[name] = await writeTable(client, name, write);
      await client.query('commit');
    } catch (error) {
      await client.query('rollback').catch(() => {});
      throw error;
    }
    await write(JSON.stringify({ end: true, rows: counts }));
    gzip.end();
    await written;
    fs.renameSync(partial, out);
    return counts;
  } catch (error) {
    gzip.destroy();
    await written.catch(() => {});
    fs.rmSync(partial, { force: true });
    throw error;
  }
}

async function appliedMigrations(client: pg.ClientBase): Promise<Migration[]> {
  const exists = await client.query<{ found: boolean }>(`select to_regclass('drizzle.__drizzle_migrations') is not null as found`);
  if (!exists.rows[0]?.found) throw new BackupError('The database holds no data of this app (no migrations were ever applied to it).');
  const { rows } = await client.query<{ hash: string; created_at: string }>(
    `select hash, created_at::text as created_at from drizzle.__drizzle_migrations order by id`,
  );
  return rows.map((r) => ({ hash: r.hash, created_at: Number(r.created_at) }));
}

async function writeTable(client: pg.ClientBase, name: string, write: (line: string) => Promise<void>): Promise<number> {
  await client.query(`declare backup_rows no scroll cursor for select row_to_json(t)::text from ${table(name)} t`);
  const prefix = `{"table":${JSON.stringify(name)},"rows":[`;
  let fetch = FIRST_FETCH;
  let count = 0;
  for (;;) {
    const { rows } = await client.query<[string]>({ text: `fetch ${fetch} from backup_rows`, rowMode: 'array' });
    if (rows.length === 0) break;
    let chars = 0;
    const texts = rows.map(([text]) => ((chars += text.length), text));
    await write(`${prefix}${texts.join(',')}]}`);
    count += rows.length;
    if (rows.length < fetch) break;
    // A table of 256 KiB file chunks gets a few rows per fetch, report rows thousands.
    fetch = Math.min(MAX_FETCH, Math.max(1, Math.floor((rows.length * BATCH_CHARS) / Math.max(chars, 1))));
  }
  await client.query('close backup_rows');
  return count;
}

/** The file's lines, one at a time (a line holds at most about BATCH_CHARS plus one row). */
async function* readLines(file: string): AsyncGenerator<string> {
  const source = fs.createReadStream(file);
  const gunzip = zlib.createGunzip();
  source.on('error', (error) => gunzip.destroy(error));
  source.pipe(gunzip);
  const decoder = new StringDecoder('utf8');
  let pieces: string[] = [];
  try {
    for await (const chunk of gunzip) {
      let text = decoder.write(chunk as Buffer);
      for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n')) {
        pieces.push(text.slice(0, nl));
        yield pieces.join('');
        pieces = [];
        text = text.slice(nl + 1);
      }
      if (text) pieces.push(text);
    }
    const rest = pieces.join('') + decoder.end();
    if (rest) yield rest;
  } catch (error) {
    throw new BackupError(`The backup file ${file} is damaged or incomplete: ${(error as Error).message}`);
  } finally {
    source.destroy();
    gunzip.destroy();
  }
}

async function readHeader(file: string): Promise<Header> {
  if (!fs.existsSync(file)) throw new BackupError(`There is no backup file ${file}.`);
  for await (const line of readLines(file)) {
    let header: Header | null = null;
    try {
      header = JSON.parse(line) as Header;
    } catch {
      // Not JSON: refused below.
    }
    if (header?.format !== BACKUP_FORMAT) break;
    if (header.format_version !== BACKUP_FORMAT_VERSION) {
      throw new BackupError(`The backup file ${file} has format version ${header.format_version}; this version of the app reads ${BACKUP_FORMAT_VERSION}.`);
    }
    return header;
  }
  throw new BackupError(`The file ${file} is not a backup of this app.`);
}

/**
 * The backup's migrations must be this build's first ones, in order: the data is loaded into the
 * schema as it was then, and the newer migrations (with whatever data changes they make) run after.
 */
function checkMigrations(header: Header, file: string) {
  const build = readMigrationFiles({ migrationsFolder: MIGRATIONS });
  if (header.migrations.length > build.length) {
    throw new BackupError(
      `The backup ${file} was made by a newer version of the app (${header.app_version}, ${header.migrations.length} migrations; ` +
        `this one has ${build.length}). Restore it with that version or a later one.`,
    );
  }
  header.migrations.forEach((m, i) => {
    if (m.hash !== build[i]!.hash) {
      throw new BackupError(
        `The backup ${file} (version ${header.app_version}) has a migration this version of the app does not have (number ${i + 1}, ` +
          `of ${new Date(m.created_at).toISOString()}). Restore it with the version that made it.`,
      );
    }
  });
}

/** A copy of the migrations folder holding the first `count` migrations (the journal cut to match). */
function firstMigrations(count: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mss-restore-migrations-'));
  fs.mkdirSync(path.join(dir, 'meta'));
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  journal.entries = journal.entries.slice(0, count);
  fs.writeFileSync(path.join(dir, 'meta', '_journal.json'), JSON.stringify(journal));
  for (const entry of journal.entries) fs.copyFileSync(path.join(MIGRATIONS, `${entry.tag}.sql`), path.join(dir, `${entry.tag}.sql`));
  return dir;
}

/**
 * Restores a backup into `dataDir`, which must hold no database yet. The database is built in a
 * folder beside (`<dataDir>/.restore-…`) and moved to `<dataDir>/pglite` only when everything is
 * in, so a restore that fails leaves nothing behind. The folder stays locked meanwhile.
 */
export async function restoreEmbeddedDatabase(options: { file: string; dataDir: string }): Promise<RestoreSummary> {
  const file = path.resolve(options.file);
  const dataDir = path.resolve(options.dataDir);
  const header = await readHeader(file);
  checkMigrations(header, file);
  const target = path.join(dataDir, 'pglite');
  const refuseIfDatabase = () => {
    if (fs.existsSync(target) && fs.readdirSync(target).length > 0) {
      throw new BackupError(`${target} already holds a database. Restore into a new data folder (--data-dir), or move that one away first.`);
    }
  };
  refuseIfDatabase();
  const release = acquireDataDirLock(dataDir, null);
  let work: string | null = null;
  let database: Database | null = null;
  try {
    refuseIfDatabase();
    // Left by a restore that was killed (the lock it held is stale, so it is not running).
    for (const left of fs.readdirSync(dataDir).filter((name) => name.startsWith('.restore-'))) {
      fs.rmSync(path.join(dataDir, left), { recursive: true, force: true });
    }
    work = fs.mkdtempSync(path.join(dataDir, '.restore-'));
    database = await openDatabase({ dataDir: work });
    const partial = firstMigrations(header.migrations.length);
    try {
      await migrate(database.db, { migrationsFolder: partial });
    } finally {
      fs.rmSync(partial, { recursive: true, force: true });
    }
    const tables = await loadRows(database, file, header);
    await database.pool.query('analyze');
    const before = header.migrations.length;
    await migrateDatabase(database.db);
    const migrationsAfter = (await database.pool.query<{ n: number }>('select count(*)::int as n from drizzle.__drizzle_migrations')).rows[0]!.n - before;
    await database.close();
    database = null;
    if (fs.existsSync(target)) fs.rmdirSync(target);
    fs.renameSync(path.join(work, 'pglite'), target);
    return { dataDir, tables, header: { app_version: header.app_version, created_at: header.created_at }, migrationsAfter };
  } finally {
    await database?.close();
    if (work) fs.rmSync(work, { recursive: true, force: true });
    release();
  }
}

/**
 * Loads every row in one transaction with triggers and foreign-key checks off
 * (`session_replication_role = replica`): the rows are a consistent snapshot already, and the
 * statistics triggers would otherwise react to the order tables come in. Then every sequence is
 * set past both its backed-up value and the largest id of its column.
 */
async function loadRows(database: Database, file: string, header: Header): Promise<Record<string, number>> {
  const client = await database.pool.connect();
  try {
    await client.query('begin');
    await client.query('set local session_replication_role = replica');
    const columns = new Map<string, string>();
    for (const row of (
      await client.query<{ name: string; columns: string }>(
        `select c.relname as name, string_agg(quote_ident(a.attname), ', ' order by a.attnum) as columns
           from pg_class c join pg_namespace n on n.oid = c.relnamespace
           join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
          where n.nspname = $1 and c.relkind = 'r' group by c.relname`,
        [SCHEMA],
      )
    ).rows) {
      columns.set(row.name, row.columns);
    }
    for (const name of header.tables) {
      if (!columns.has(name)) throw new BackupError(`The backup holds the table ${name}, which the database of its version should have but does not.`);
    }
    // A migration could have put rows in; the backup's rows are the truth at its version.
    if (columns.size) await client.query(`truncate ${[...columns.keys()].map(table).join(', ')}`);
    const counts: Record<string, number> = Object.fromEntries(header.tables.map((name) => [name, 0]));
    let end: { rows: Record<string, number> } | null = null;
    let first = true;
    for await (const line of readLines(file)) {
      if (first) {
        first = false;
        continue;
      }
      const batch = /^\{"table":("(?:[^"\\]|\\.)*"),"rows":/.exec(line);
      if (batch) {
        const name = JSON.parse(batch[1]!) as string;
        const cols = columns.get(name);
        if (!cols || !header.tables.includes(name)) throw new BackupError(`The backup file ${file} has rows of ${name}, which its header does not list.`);
        // The rows go to PostgreSQL as the text they were written as: no figure passes through a JavaScript number.
        const rows = line.slice(batch[0].length, -1);
        const result = await client.query(`insert into ${table(name)} (${cols}) select ${cols} from json_populate_recordset(null::${table(name)}, $1::json)`, [
          rows,
        ]);
        counts[name]! += result.rowCount ?? 0;
        continue;
      }
      end = JSON.parse(line) as { rows: Record<string, number> };
      break;
    }
    if (!end) throw new BackupError(`The backup file ${file} is incomplete: its last line (the row counts) is missing.`);
    for (const name of header.tables) {
      if (counts[name] !== (end.rows[name] ?? 0)) {
        throw new BackupError(`The backup file ${file} is damaged: ${name} has ${counts[name]} rows, its last line says ${end.rows[name] ?? 0}.`);
      }
    }
    await setSequences(client, header.sequences);
    await client.query('commit');
    return counts;
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

async function setSequences(client: pg.PoolClient, saved: Record<string, string | null>) {
  const { rows } = await client.query<{ sequence: string; owner: string | null; column: string | null }>(
    `select s.relname as sequence, t.relname as owner, a.attname as column
       from pg_class s join pg_namespace n on n.oid = s.relnamespace
       left join pg_depend d on d.objid = s.oid and d.classid = 'pg_class'::regclass and d.refclassid = 'pg_class'::regclass and d.deptype in ('a', 'i')
       left join pg_class t on t.oid = d.refobjid
       left join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
      where s.relkind = 'S' and n.nspname = $1`,
    [SCHEMA],
  );
  for (const s of rows) {
    const largest = s.owner && s.column ? `(select max(${ident(s.column)}) from ${table(s.owner)})` : 'null';
    // The next id is one past the larger of the two; a sequence never used and an empty table start at 1.
    await client.query(`select setval($1::regclass, greatest(v, 1), v > 0) from (select greatest(coalesce(${largest}, 0), coalesce($2::bigint, 0)) as v) x`, [
      table(s.sequence),
      saved[s.sequence] ?? null,
    ]);
  }
}
