// npm run restore -- <file> [--data-dir <dir>]: a backup into a data folder without a database (README "Backups").
import './node-version.mjs';
import path from 'node:path';
import { root, run } from './lib.mjs';

process.exitCode = await run(process.execPath, ['--import', 'tsx', path.join(root, 'server/src/db/backup.cli.ts'), 'restore', ...process.argv.slice(2)]);
