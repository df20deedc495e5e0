// Runs PGlite in its own thread and serves it over the PostgreSQL wire protocol on a Unix
// socket, so that a slow query blocks this thread and never the API's event loop.
// Plain JavaScript so that it loads in a worker without a TypeScript loader.
import net from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketHandler } from '@electric-sql/pglite-socket';

/**
 * The app's pool holds one connection at a time (PGlite is a single session). The server accepts
 * a few: a connection the pool drops after an error is still closing when its replacement
 * connects, and `npm run backup` connects beside the app (docs/decisions.md "Backups of the embedded database").
 */
const MAX_CONNECTIONS = 4;

const READY_FOR_QUERY = 0x5a; // 'Z'
const IDLE = 0x49; // 'I'

/**
 * Whose turn it is on PGlite's one session. Every connection's messages go through here, one at a
 * time, and a connection keeps the turn until the session is idle again: until the backend answers
 * ReadyForQuery with status "idle". So a transaction (status "in transaction" or "failed") and an
 * extended-protocol exchange (Parse, Bind, Describe, Execute, which are answered without
 * ReadyForQuery until the Sync) are never cut into by another connection.
 *
 * pglite-socket's own queue keeps the turn only while a transaction block is open. Between a
 * Parse and its Sync another connection's statement could run, drop the unnamed prepared
 * statement and take over the implicit transaction: with a second connection issuing
 * `begin … commit` beside queries carrying 300 KB parameters (which reach the socket in several
 * pieces), 7 of 300 queries failed with "unnamed prepared statement does not exist".
 * The object has the shape PGLiteSocketHandler expects of its `queryQueue`.
 */
class SessionTurns {
  #db;
  #queue = [];
  #running = false;
  /** The connection whose exchange or transaction is open, or null when the session is idle. */
  #owner = null;
  /** Connections that went away; if one held the turn, what it left open is rolled back. */
  #gone = new Set();

  constructor(db) {
    this.#db = db;
  }

  enqueue(handlerId, message, onData) {
    return new Promise((resolve, reject) => {
      this.#queue.push({ handlerId, message, onData, resolve, reject });
      void this.#run();
    });
  }

  getQueueLength() {
    return this.#queue.length;
  }

  clearQueueForHandler(handlerId) {
    this.#gone.add(handlerId);
    this.#queue = this.#queue.filter((item) => {
      if (item.handlerId !== handlerId) return true;
      item.reject(new Error('Handler disconnected'));
      return false;
    });
  }

  async clearTransactionIfNeeded(handlerId) {
    this.#gone.add(handlerId);
    await this.#run();
  }

  async #run() {
    if (this.#running) return;
    this.#running = true;
    try {
      for (;;) {
        if (this.#owner !== null && this.#gone.has(this.#owner)) await this.#abandonTurn();
        // Only the loop makes a connection the owner, so the others that went away are done with.
        this.#gone.clear();
        const index = this.#owner === null ? (this.#queue.length ? 0 : -1) : this.#queue.findIndex((q) => q.handlerId === this.#owner);
        if (index < 0) break;
        const [item] = this.#queue.splice(index, 1);
        await this.#execute(item);
      }
    } finally {
      this.#running = false;
    }
  }

  async #execute(item) {
    let size = 0;
    // The last 6 bytes answered: a ReadyForQuery message ('Z', length 5, status) ends a response.
    let tail = Buffer.alloc(0);
    try {
      await this.#db.runExclusive(() =>
        this.#db.execProtocolRawStream(item.message, {
          onRawData: (data) => {
            size += data.length;
            tail = Buffer.concat([tail, Buffer.from(data.subarray(Math.max(0, data.length - 6)))]).subarray(-6);
            item.onData(data);
          },
        }),
      );
    } catch (error) {
      item.reject(error);
      return;
    }
    // Nothing answered (Terminate, a Flush with nothing pending, copy data): the turn stays as it was.
    if (size > 0) {
      const idle = tail.length === 6 && tail[0] === READY_FOR_QUERY && tail.readInt32BE(1) === 5 && tail[5] === IDLE;
      this.#owner = idle ? null : item.handlerId;
    }
    item.resolve(size);
  }

  /**
   * A connection went away in its turn, inside a transaction or between Parse and Sync: roll back
   * what it began, as PostgreSQL does when a client disconnects. `exec` sends the ROLLBACK and a
   * Sync; after an error the backend skips the ROLLBACK until that Sync, hence the second one.
   */
  async #abandonTurn() {
    this.#owner = null;
    try {
      await this.#db.exec('ROLLBACK');
      if (this.#db.isInTransaction()) await this.#db.exec('ROLLBACK');
    } catch {
      // Nothing was open.
    }
  }
}

const { dataDir, socketPath } = workerData;
let db;
let server;
const handlers = new Set();
try {
  db = await PGlite.create(dataDir ? { dataDir } : {});
  const turns = new SessionTurns(db);
  server = net.createServer((socket) => {
    if (handlers.size >= MAX_CONNECTIONS) {
      socket.end();
      return;
    }
    const handler = new PGLiteSocketHandler({ queryQueue: turns, closeOnDetach: true });
    handlers.add(handler);
    const forget = () => handlers.delete(handler);
    handler.addEventListener('close', forget);
    handler.addEventListener('error', forget);
    handler.attach(socket).catch(() => {
      forget();
      socket.destroy();
    });
  });
  server.maxConnections = MAX_CONNECTIONS;
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, resolve);
  });
  parentPort.postMessage({ type: 'ready' });
} catch (error) {
  parentPort.postMessage({ type: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
}

parentPort.on('message', async (message) => {
  if (message?.type !== 'stop') return;
  try {
    await Promise.all([...handlers].map((handler) => handler.detach(true)));
    handlers.clear();
    if (server?.listening) await new Promise((resolve) => server.close(() => resolve()));
    await db?.close();
  } finally {
    parentPort.postMessage({ type: 'stopped' });
  }
});
