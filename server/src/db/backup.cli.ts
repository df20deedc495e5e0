// `npm run backup [-- --out <file>]` and `npm run restore -- <file> [--data-dir <dir>]`
// (scripts/backup.mjs, scripts/restore.mjs; README "Backups").
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { BackupError, backupEmbeddedDatabase, defaultBackupFile, restoreEmbeddedDatabase } from './backup.ts';
import { DataDirInUseError } from './data-dir-lock.ts';

const USAGE = `Usage:
  npm run backup [-- --out <file>] [--data-dir <dir>]
  npm run restore -- <file> [--data-dir <dir>]`;

const n = (value: number) => value.toLocaleString('en-US');

function printTables(tables: Record<string, number>) {
  const total = Object.values(tables).reduce((a, b) => a + b, 0);
  console.log(`  ${n(Object.keys(tables).length)} tables, ${n(total)} rows`);
  const width = Math.max(...Object.keys(tables).map((t) => t.length));
  for (const [name, rows] of Object.entries(tables)) if (rows > 0) console.log(`    ${name.padEnd(width)} ${n(rows).padStart(12)}`);
}

async function main(argv: string[]) {
  const [command, ...rest] = argv;
  const { values, positionals } = parseArgs({
    args: rest,
    options: { out: { type: 'string' }, 'data-dir': { type: 'string' } },
    allowPositionals: true,
  });
  const config = loadConfig();
  if (config.DATABASE_URL) {
    throw new BackupError('DATABASE_URL is set: the app uses a PostgreSQL server. Back it up with pg_dump (README "Backups").');
  }
  const dataDir = values['data-dir'] ? path.resolve(values['data-dir']) : config.dataDir;
  if (command === 'backup' && positionals.length === 0) {
    const out = values.out ? path.resolve(values.out) : defaultBackupFile();
    const summary = await backupEmbeddedDatabase({ dataDir, out });
    const from = summary.appPid ? `the running app (process ${summary.appPid})` : 'the data folder (the app was not running)';
    console.log(`Backup of ${dataDir} written to ${summary.file} (${n(summary.bytes)} bytes), read from ${from}:`);
    printTables(summary.tables);
    return;
  }
  if (command === 'restore' && positionals.length === 1 && !values.out) {
    const summary = await restoreEmbeddedDatabase({ file: positionals[0]!, dataDir });
    console.log(`Restored ${path.resolve(positionals[0]!)} (made ${summary.header.created_at} by version ${summary.header.app_version}) into ${dataDir}:`);
    printTables(summary.tables);
    if (summary.migrationsAfter) console.log(`  then applied ${summary.migrationsAfter} newer migration(s) of this version`);
    return;
  }
  throw new BackupError(USAGE);
}

try {
  await main(process.argv.slice(2));
} catch (error) {
  // Refusals say what to do; anything else is a fault worth its stack trace.
  console.error(error instanceof BackupError || error instanceof DataDirInUseError ? error.message : error);
  process.exitCode = 1;
}
