// The JavaScript the browser loads for the first screens (sign-in and dashboard): index.html's
// script and everything it imports statically, as the server sends it (the .gz copies of
// scripts/compress-assets.mjs; a file too small to compress is counted as it is). Fails when it
// passes the first-load budget (docs/performance.md, "The first screen on a slow line").
// Usage: node scripts/first-load.mjs [dist] [--check] (after `npm run build`); the build prints
// it, CI (.ci/run) checks it.
import fs from 'node:fs';
import path from 'node:path';

const BUDGET_GZIP_KB = 250;
const args = process.argv.slice(2);
const check = args.includes('--check');
const dist = path.resolve(args.find((a) => !a.startsWith('--')) ?? 'web/dist');
const assets = path.join(dist, 'assets');
const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const entry = [...html.matchAll(/(?:src|href)="\/assets\/([^"]+\.js)"/g)].map((m) => m[1]);
const imports = (file) => [...fs.readFileSync(path.join(assets, file), 'utf8').matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)].map((m) => m[1]);
const loaded = new Set();
for (const stack = [...entry]; stack.length;) {
  const file = stack.pop();
  if (loaded.has(file)) continue;
  loaded.add(file);
  stack.push(...imports(file));
}
const size = (file) => (fs.existsSync(file) ? fs.statSync(file).size : null);
let raw = 0;
let gzip = 0;
let brotli = 0;
for (const file of loaded) {
  const full = path.join(assets, file);
  const bytes = size(full);
  raw += bytes;
  gzip += size(`${full}.gz`) ?? bytes;
  brotli += size(`${full}.br`) ?? bytes;
}
const kb = (n) => (n / 1024).toFixed(1);
console.log(`first load: ${loaded.size} scripts, ${kb(raw)} KB, ${kb(gzip)} KB gzip, ${kb(brotli)} KB brotli (budget ${BUDGET_GZIP_KB} KB gzip)`);
if (gzip / 1024 > BUDGET_GZIP_KB) {
  console.error(`The first screens' JavaScript is over its budget of ${BUDGET_GZIP_KB} KB gzip: split what only later screens need.`);
  if (check) process.exit(1);
}
