import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCompany, createMarket, createOrganization } from '../../test/helpers.ts';
import { fileContent, storeFile } from '../lib/files.ts';
import { seedDemo } from '../seed/demo.ts';
import { backupEmbeddedDatabase, restoreEmbeddedDatabase } from './backup.ts';
import { migrateDatabase, openDatabase, type Database, type Db } from './client.ts';
import { lockFile } from './data-dir-lock.ts';
import { codes, markets, organizations, periods, reportRowSets, reports } from './schema.ts';

// Backups of the embedded database: real PGlite on disk, the dump read through the
// socket of a database that "the app" (this process, through openDatabase) holds open.

const FIGURES = [
  { code: 'A', volume: '12345678901234.5678', value: '0.0001' },
  { code: 'B', volume: '-9999999999999999.9999', value: null },
  { code: 'C', volume: '0.0000', value: '9999999999999999.9999' },
];
const ALL_BYTES = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
const LARGE = randomBytes(700 * 1024); // three chunks of file_chunks

const temp = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), `mss-backup-${prefix}-`));
const folders: string[] = [];
const folder = (prefix: string) => {
  const dir = temp(prefix);
  folders.push(dir);
  return dir;
};

let appDir: string;
let app: Database;
let world: { rowSetId: number; smallFileId: number; largeFileId: number };

async function buildWorld(db: Db) {
  await seedDemo(db);
  const org = await createOrganization(db);
  const market = await createMarket(db, org.id);
  const company = await createCompany(db, []);
  const made = await db
    .insert(codes)
    .values(FIGURES.map((f) => ({ organization_id: org.id, code: f.code, name: `Code ${f.code}` })))
    .returning();
  const [period] = await db.insert(periods).values({ market_id: market.id, title: '2026-10', starts_on: '2026-10-01', ends_on: '2026-10-31' }).returning();
  const [report] = await db.insert(reports).values({ period_id: period!.id, company_id: company.id }).returning();
  const [rowSet] = await db.insert(reportRowSets).values({ report_id: report!.id }).returning();
  for (const f of FIGURES) {
    const code = made.find((c) => c.code === f.code)!;
    await db.execute(
      sql`insert into report_rows (row_set_id, code_id, volume, value) values (${rowSet!.id}, ${code.id}, ${f.volume}::numeric, ${f.value}::numeric)`,
    );
  }
  await db.update(reports).set({ row_set_id: rowSet!.id }).where(eq(reports.id, report!.id));
  const smallFileId = await storeFile(db, { name: 'all-bytes.bin', mimeType: 'application/octet-stream', content: ALL_BYTES });
  const largeFileId = await storeFile(db, { name: 'large.bin', mimeType: 'application/octet-stream', content: LARGE });
  return { rowSetId: rowSet!.id, smallFileId, largeFileId };
}

/** Every table's rows as PostgreSQL writes them (row_to_json text), sorted. */
async function everyRow(database: Database): Promise<Record<string, string[]>> {
  const { rows: tables } = await database.pool.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'r' order by 1`,
  );
  const all: Record<string, string[]> = {};
  for (const { name } of tables) {
    all[name] = (await database.pool.query<{ r: string }>(`select row_to_json(t)::text as r from "${name}" t order by 1`)).rows.map((r) => r.r);
  }
  return all;
}

const contentOf = async (db: Db, id: number) => {
  const parts: Buffer[] = [];
  for await (const part of fileContent(db, id)) parts.push(part);
  return Buffer.concat(parts);
};

beforeAll(async () => {
  appDir = folder('app');
  app = await openDatabase({ dataDir: appDir });
  await migrateDatabase(app.db);
  world = await buildWorld(app.db);
});

afterAll(async () => {
  await app?.close();
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

describe('a backup while the app runs, restored into a fresh data folder', () => {
  let backupFile: string;
  let restoredDir: string;
  let expected: Record<string, string[]>;

  it('when the app holds the data folder, then the backup is read through its socket and the restore has every row, exact', async () => {
    backupFile = path.join(folder('out'), 'nightly.jsonl.gz');
    const summary = await backupEmbeddedDatabase({ dataDir: appDir, out: backupFile });
    expected = await everyRow(app);
    expect(summary.appPid).toBe(process.pid);
    expect(summary.tables).toEqual(Object.fromEntries(Object.entries(expected).map(([name, rows]) => [name, rows.length])));
    expect(summary.tables.report_rows).toBeGreaterThan(FIGURES.length); // the demo's rows and ours
    expect(summary.bytes).toBe(fs.statSync(backupFile).size);
    expect(fs.statSync(backupFile).mode & 0o777).toBe(0o600);
    expect(fs.existsSync(`${backupFile}.partial`)).toBe(false);

    restoredDir = folder('restored');
    const restored = await restoreEmbeddedDatabase({ file: backupFile, dataDir: restoredDir });
    expect(restored.tables).toEqual(summary.tables);
    expect(restored.migrationsAfter).toBe(0);
    expect(fs.readdirSync(restoredDir)).toEqual(['pglite']); // no lock, no work folder left behind

    const copy = await openDatabase({ dataDir: restoredDir });
    try {
      expect(await everyRow(copy)).toEqual(expected);
      const figures = await copy.pool.query(
        `select c.code, r.volume::text as volume, r.value::text as value from report_rows r join codes c on c.id = r.code_id where r.row_set_id = $1 order by c.code`,
        [world.rowSetId],
      );
      expect(figures.rows).toEqual(FIGURES);
      expect(await contentOf(copy.db, world.smallFileId)).toEqual(ALL_BYTES);
      expect((await contentOf(copy.db, world.largeFileId)).equals(LARGE)).toBe(true);
      // Sequences go on past the restored ids.
      const maxOrganization = (await copy.pool.query<{ id: number }>('select max(id)::int as id from organizations')).rows[0]!.id;
      const [added] = await copy.db.insert(organizations).values({ name: 'After the restore' }).returning();
      expect(added!.id).toBeGreaterThan(maxOrganization);
      const [rowSet] = await copy.db
        .insert(reportRowSets)
        .values({ report_id: (await copy.db.select().from(reports).limit(1))[0]!.id })
        .returning();
      expect(rowSet!.id).toBeGreaterThan(world.rowSetId);
    } finally {
      await copy.close();
    }
  });

  it('when the folder already holds a database, or the app holds it, then a restore is refused and changes nothing', async () => {
    const before = fs.readdirSync(path.join(restoredDir, 'pglite')).sort();
    await expect(restoreEmbeddedDatabase({ file: backupFile, dataDir: restoredDir })).rejects.toThrow(
      `${path.join(restoredDir, 'pglite')} already holds a database. Restore into a new data folder (--data-dir), or move that one away first.`,
    );
    expect(fs.readdirSync(restoredDir)).toEqual(['pglite']);
    expect(fs.readdirSync(path.join(restoredDir, 'pglite')).sort()).toEqual(before);
    await expect(restoreEmbeddedDatabase({ file: backupFile, dataDir: appDir })).rejects.toThrow(`${path.join(appDir, 'pglite')} already holds a database.`);
    await expect(app.pool.query('select count(*)::int as n from organizations')).resolves.toMatchObject({ rows: [{ n: expected.organizations!.length }] });
  });

  it('when the app does not run, then the backup opens the folder itself and leaves it unlocked', async () => {
    const out = path.join(folder('out'), 'offline.jsonl.gz');
    const summary = await backupEmbeddedDatabase({ dataDir: restoredDir, out });
    expect(summary.appPid).toBeNull();
    expect(summary.tables.organizations).toBe(expected.organizations!.length + 1);
    expect(fs.existsSync(lockFile(restoredDir))).toBe(false);
  });

  it('when a backup file is cut short, then the restore refuses it and leaves the folder without a database', async () => {
    const cut = path.join(folder('out'), 'cut.jsonl.gz');
    const whole = fs.readFileSync(backupFile);
    fs.writeFileSync(cut, whole.subarray(0, Math.floor(whole.length * 0.6)));
    const target = folder('cut');
    fs.mkdirSync(path.join(target, '.restore-killed', 'pglite'), { recursive: true }); // what a killed restore leaves
    await expect(restoreEmbeddedDatabase({ file: cut, dataDir: target })).rejects.toThrow(
      `The backup file ${cut} is damaged or incomplete: unexpected end of file`,
    );
    expect(fs.readdirSync(target)).toEqual([]);
  });

  it('when a backup comes from a newer version (a migration this one lacks), then the restore refuses it', async () => {
    const lines = zlib.gunzipSync(fs.readFileSync(backupFile)).toString('utf8').split('\n');
    const header = JSON.parse(lines[0]!);
    header.app_version = '9.9.9';
    header.migrations.push({ hash: 'f'.repeat(64), created_at: Date.parse('2099-01-01') });
    lines[0] = JSON.stringify(header);
    const newer = path.join(folder('out'), 'newer.jsonl.gz');
    fs.writeFileSync(newer, zlib.gzipSync(lines.join('\n')));
    const count = header.migrations.length;
    await expect(restoreEmbeddedDatabase({ file: newer, dataDir: folder('newer') })).rejects.toThrow(
      `The backup ${newer} was made by a newer version of the app (9.9.9, ${count} migrations; this one has ${count - 1}). Restore it with that version or a later one.`,
    );
  });
});

describe('a backup while the app writes', () => {
  it('when the app writes during the backup, then its statements wait and succeed, and the backup holds each of its transactions whole or not at all', async () => {
    let stop = false;
    let written = 0;
    const failures: unknown[] = [];
    // Each transaction adds an organization and its market: a backup cut between the two would show an organization without one.
    const writer = (async () => {
      while (!stop) {
        try {
          await app.db.transaction(async (tx) => {
            const [org] = await tx
              .insert(organizations)
              .values({ name: `concurrent-${written}` })
              .returning();
            await tx
              .insert(markets)
              .values({ organization_id: org!.id, international_name: `m${written}`, local_name: `m${written}`, iso_code: `C${written}` });
          });
          written++;
        } catch (error) {
          failures.push(error);
        }
      }
    })();
    const out = path.join(folder('out'), 'busy.jsonl.gz');
    let summary: Awaited<ReturnType<typeof backupEmbeddedDatabase>>;
    let afterBackup: number;
    try {
      while (written < 3) await new Promise((resolve) => setTimeout(resolve, 10));
      summary = await backupEmbeddedDatabase({ dataDir: appDir, out });
      afterBackup = written;
    } finally {
      stop = true;
      await writer;
    }
    expect(failures).toEqual([]);
    expect(summary.appPid).toBe(process.pid);

    const target = folder('busy');
    await restoreEmbeddedDatabase({ file: out, dataDir: target });
    const copy = await openDatabase({ dataDir: target });
    try {
      const { rows } = await copy.pool.query<{ organizations: number; without_market: number }>(
        `select count(*)::int as organizations, count(*) filter (where not exists (select 1 from markets m where m.organization_id = o.id))::int as without_market
           from organizations o where o.name like 'concurrent-%'`,
      );
      expect(rows[0]!.without_market).toBe(0);
      expect(rows[0]!.organizations).toBeGreaterThanOrEqual(3);
      expect(rows[0]!.organizations).toBeLessThanOrEqual(afterBackup + 1);
    } finally {
      await copy.close();
    }
  });
});

describe('one data folder, one database process', () => {
  it('when a data folder is open, then opening it again is refused, naming the process', async () => {
    await expect(openDatabase({ dataDir: appDir })).rejects.toThrow(
      new RegExp(
        `^The embedded database in ${appDir} is in use by this process \\(${process.pid}\\) since .+\\. Stop that process first; if no such process runs, delete ${lockFile(appDir)}\\.$`,
      ),
    );
    // The refused opening touched nothing: the app's database still answers.
    await expect(app.pool.query('select 1 as ok')).resolves.toMatchObject({ rows: [{ ok: 1 }] });
  });

  it('when another live process holds the lock, then opening is refused; when the process is gone, its lock is replaced', async () => {
    const dir = folder('locks');
    const other = process.ppid; // alive while this test runs, and not this process
    fs.writeFileSync(lockFile(dir), JSON.stringify({ pid: other, socket_dir: '/nowhere', started_at: '2026-11-27T10:00:00.000Z' }));
    await expect(openDatabase({ dataDir: dir })).rejects.toThrow(
      `The embedded database in ${dir} is in use by process ${other} since 2026-11-27T10:00:00.000Z.`,
    );
    expect(fs.existsSync(path.join(dir, 'pglite'))).toBe(false);

    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    fs.writeFileSync(lockFile(dir), JSON.stringify({ pid: gone, socket_dir: '/nowhere', started_at: '2026-11-27T10:00:00.000Z' }));
    const database = await openDatabase({ dataDir: dir });
    try {
      const lock = JSON.parse(fs.readFileSync(lockFile(dir), 'utf8'));
      expect(lock.pid).toBe(process.pid);
      expect(fs.existsSync(path.join(lock.socket_dir, '.s.PGSQL.5432'))).toBe(true);
    } finally {
      await database.close();
    }
    expect(fs.existsSync(lockFile(dir))).toBe(false);
  });
});
