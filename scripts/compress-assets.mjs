// After `vite build`: writes a brotli (.br) and a gzip (.gz) copy beside every text asset of the
// build, so that the server sends them compressed without compressing on each request
// (@fastify/static `preCompressed`). Files under 1 KiB are left alone: they gain nothing.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const dist = path.resolve(process.argv[2] ?? 'dist');
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map|md)$/;
let before = 0;
let brotli = 0;
let gzip = 0;

function walk(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) walk(file);
    else if (COMPRESSIBLE.test(entry.name)) compress(file);
  }
}

function compress(file) {
  const content = fs.readFileSync(file);
  if (content.length < 1024) return;
  const br = zlib.brotliCompressSync(content, {
    params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length },
  });
  const gz = zlib.gzipSync(content, { level: 9 });
  fs.writeFileSync(`${file}.br`, br);
  fs.writeFileSync(`${file}.gz`, gz);
  before += content.length;
  brotli += br.length;
  gzip += gz.length;
}

walk(dist);
const kib = (n) => `${(n / 1024).toFixed(0)} KiB`;
console.log(`compressed assets: ${kib(before)} → brotli ${kib(brotli)}, gzip ${kib(gzip)}`);
