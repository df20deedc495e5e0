// npm run dev: the API with reload on port 3000 and Vite's dev server (proxying /api) on 5173.
import './node-version.mjs';
import { spawn } from 'node:child_process';
import { root } from './lib.mjs';

const children = [
  spawn(process.execPath, ['--import', 'tsx', '--watch', 'server/src/main.ts'], { cwd: root, stdio: 'inherit' }),
  spawn('npm', ['run', 'dev', '-w', 'web'], { cwd: root, stdio: 'inherit' }),
];
const stop = () => children.forEach((c) => c.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
