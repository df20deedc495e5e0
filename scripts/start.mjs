// npm start: build the web app if needed, then run the server (migrations, demo data, listen).
import './node-version.mjs';
import { buildWebIfStale, run, serverArgs } from './lib.mjs';

buildWebIfStale();
process.exitCode = await run(process.execPath, serverArgs(), { env: { NODE_ENV: 'production', ...process.env } });
