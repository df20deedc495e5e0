import fs from 'node:fs';
import path from 'node:path';

/*
 * Who has the embedded database of a data folder open (docs/decisions.md "Backups of the embedded
 * database"). Two PGlite instances on one folder corrupt it, so opening takes `pglite.lock`
 * beside the `pglite/` folder: the process id, the directory of the socket it serves the
 * database on, and when it started. `npm run backup` reads it to reach a running app.
 */

export interface DataDirLock {
  pid: number;
  /** Where the PostgreSQL socket is (`.s.PGSQL.5432`); null while the folder is being restored. */
  socket_dir: string | null;
  started_at: string;
}

export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly lock: DataDirLock,
  ) {
    const who = lock.pid === process.pid ? `this process (${lock.pid})` : `process ${lock.pid}`;
    super(
      `The embedded database in ${dataDir} is in use by ${who} since ${lock.started_at}. ` +
        `Stop that process first; if no such process runs, delete ${lockFile(dataDir)}.`,
    );
    this.name = 'DataDirInUseError';
  }
}

export const lockFile = (dataDir: string) => path.join(dataDir, 'pglite.lock');

/** Folders this process holds: its own pid in a lock file is only "in use" if it is listed here. */
const held = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readFile(file: string): { text: string; lock: DataDirLock | null } | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  try {
    const lock = JSON.parse(text) as DataDirLock;
    return { text, lock: Number.isInteger(lock.pid) && lock.pid > 0 ? lock : null };
  } catch {
    // Cut short (a crash while writing it): nobody can be holding it.
    return { text, lock: null };
  }
}

/**
 * The lock of a data folder if a live process holds it, else null. A process that died leaves its
 * file behind; that is not a holder. Neither is this process's own pid from a previous life (a
 * container restarted gives the app the same pid), unless this process really holds the folder.
 */
export function readDataDirLock(dataDir: string): DataDirLock | null {
  const dir = path.resolve(dataDir);
  const found = readFile(lockFile(dir));
  if (!found?.lock) return null;
  const { lock } = found;
  if (lock.pid === process.pid) return held.has(dir) ? lock : null;
  return isAlive(lock.pid) ? lock : null;
}

/**
 * Takes the lock of a data folder for this process, or throws DataDirInUseError naming the live
 * process that holds it. A file left by a process that died is replaced. Returns the release.
 */
export function acquireDataDirLock(dataDir: string, socketDir: string | null): () => void {
  const dir = path.resolve(dataDir);
  const file = lockFile(dir);
  fs.mkdirSync(dir, { recursive: true });
  const lock: DataDirLock = { pid: process.pid, socket_dir: socketDir, started_at: new Date().toISOString() };
  for (let attempt = 0; ; attempt++) {
    try {
      // 'wx': created only if absent, so of two processes starting together one gets it.
      fs.writeFileSync(file, `${JSON.stringify(lock)}\n`, { flag: 'wx', mode: 0o600 });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 3) throw error;
    }
    const judged = readFile(file);
    const holder = readDataDirLock(dir);
    if (holder) throw new DataDirInUseError(dir, holder);
    // Stale. Removed only if it still reads as judged: another process may have just replaced it.
    if (readFile(file)?.text === judged?.text) fs.rmSync(file, { force: true });
  }
  held.add(dir);
  return () => {
    held.delete(dir);
    // Only our own file: after a crash and a restart someone else's may be there.
    if (readFile(file)?.lock?.pid === process.pid) fs.rmSync(file, { force: true });
  };
}
