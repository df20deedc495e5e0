// Runs PGlite in its own thread and serves it over the PostgreSQL wire protocol on a Unix
// socket, so that a slow query blocks this thread and never the API's event loop.
// Plain JavaScript so that it loads in a worker without a TypeScript loader.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

const { dataDir, socketPath } = workerData;
let db;
let server;
try {
  db = await PGlite.create(dataDir ? { dataDir } : {});
  // The app's pool holds one connection at a time (PGlite is a single session). The socket server
  // accepts a few, because a connection the pool drops after an error is still closing when its
  // replacement connects; with a limit of 1 that replacement is refused and the query fails.
  server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: 4 });
  await server.start();
  parentPort.postMessage({ type: 'ready' });
} catch (error) {
  parentPort.postMessage({ type: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
}

parentPort.on('message', async (message) => {
  if (message?.type !== 'stop') return;
  try {
    await server?.stop();
    await db?.close();
  } finally {
    parentPort.postMessage({ type: 'stopped' });
  }
});
