import { loadConfig } from './config.ts';
import { migrateDatabase, openDatabase } from './db/client.ts';
import { buildApp } from './app.ts';
import { bootstrapAdmin } from './seed/bootstrap.ts';
import { DEMO_PASSWORD, isDatabaseEmpty, seedDemo } from './seed/demo.ts';

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
await migrateDatabase(database.db);

const app = await buildApp({ config, database });

if (config.ADMIN_EMAIL && config.ADMIN_PASSWORD) {
  const result = await bootstrapAdmin(database.db, config.ADMIN_EMAIL, config.ADMIN_PASSWORD);
  app.log.info({ email: config.ADMIN_EMAIL, result }, 'administrator bootstrap');
}
const empty = await isDatabaseEmpty(database.db);
let demo: Awaited<ReturnType<typeof seedDemo>> = [];
if (empty && config.SEED === 'demo') demo = await seedDemo(database.db);
else if (empty) app.log.warn('The database has no users. Set ADMIN_EMAIL and ADMIN_PASSWORD to create the first administrator.');

await app.listen({ host: config.HOST, port: config.PORT });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : config.PORT;
const where = database.kind === 'pglite' ? `embedded PGlite in ${config.dataDir}/pglite` : 'PostgreSQL server (DATABASE_URL)';
console.log(`\nMarket Sales Statistics is running on http://localhost:${port} (database: ${where})`);
if (demo.length) {
  console.log(`\nDemo data loaded. Sign in with any of these (password: ${DEMO_PASSWORD}):`);
  for (const s of demo) console.log(`  ${s.email.padEnd(28)} ${s.role}${s.organizations.length ? ` — ${s.organizations.join(', ')}` : ''}`);
  console.log('');
}

let stopping = false;
/**
 * SIGTERM or SIGINT (docs/decisions.md "Stopping and the load balancer"): /readyz answers 503
 * at once; the server takes no new connections (a load balancer sends them to another process)
 * and finishes the requests in flight; the job queue takes no new jobs, lets running ones go on
 * for SHUTDOWN_JOB_GRACE_SECONDS and hands back the rest; then the process exits, after
 * SHUTDOWN_TIMEOUT_SECONDS at the latest.
 */
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  app.health.draining = true;
  app.log.info({ signal }, 'shutting down');
  setTimeout(() => {
    app.log.error({ seconds: config.SHUTDOWN_TIMEOUT_SECONDS }, 'shutdown took too long: exiting');
    process.exit(1);
  }, config.SHUTDOWN_TIMEOUT_SECONDS * 1000).unref();
  await app.close();
  await database.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
