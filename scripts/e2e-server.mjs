// The server for the Playwright specs: the built web app, demo data, and the data directory
// (database and written e-mails) that the config hands over in DATA_DIR.
import './node-version.mjs';
import fs from 'node:fs';
import path from 'node:path';
import { root, run, serverArgs } from './lib.mjs';

if (!fs.existsSync(path.join(root, 'web/dist/index.html'))) {
  console.error('web/dist is missing: run `npm run build` first.');
  process.exit(1);
}
if (!process.env.DATA_DIR) {
  console.error('DATA_DIR must be set for the end-to-end server.');
  process.exit(1);
}
process.exitCode = await run(process.execPath, serverArgs(), {
  env: { ...process.env, PORT: process.env.PORT ?? '3100', SEED: 'demo', NODE_ENV: 'test', DATABASE_URL: '', SMTP_URL: '', LOG_LEVEL: 'warn' },
});
// A throwaway data directory (made by the Playwright config) goes once the server has stopped.
if (process.env.E2E_REMOVE_DATA_DIR === '1') fs.rmSync(process.env.DATA_DIR, { recursive: true, force: true });
