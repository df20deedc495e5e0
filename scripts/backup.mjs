// npm run backup [-- --out <file>]: a backup of the embedded database, also while the app runs (README "Backups").
import './node-version.mjs';
import path from 'node:path';
import { root, run } from './lib.mjs';

process.exitCode = await run(process.execPath, ['--import', 'tsx', path.join(root, 'server/src/db/backup.cli.ts'), 'backup', ...process.argv.slice(2)]);
