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
  // PGlite is a single connection; one socket connection keeps transactions unambiguous.
  server = new PGLiteSocketServer({ db, path: socketPath, maxConnections: 1 });
  await server.start();
  parentPort.postMessage({ type: 'ready' });
} catch (error) {
  parentPort.postMessage({ type: 'error', message: error instanceof Error ? error.stack ?? error.message : String(error) });
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
