// Benchmark: what a signed-in request costs.
//
// Starts the real server as `npm start` runs it (embedded PGlite in a worker thread, demo data,
// jobs on) in a child process on a throwaway data directory, signs in as admin@demo.test, and
// measures with autocannon (8 connections, as the probe did):
//   1. the ceiling of the unauthenticated GET /api/v1/protocol/enums/en-US (requests/s);
//   2. the ceiling of the signed-in GET /api/v1/users/me (requests/s), and its share of (1);
//   3. 200 requests/s of mixed signed-in reads (/users/me, /reports, /periods?market_id=,
//      /admin/codes, the market statistics of a published period) for the same time: latency
//      p50/p99/max;
//   4. each of those endpoints alone, at 50 requests/s;
// with the share of answers that were kept ones (X-Kept-Answer: hit; KEPT_ANSWERS_MB=0 turns them off).
// Targets: (2) at least 25 % of (1); p99 of (3) under 100 ms on the embedded database, under 50 ms
// on a PostgreSQL server. Exit code 1 when one is missed.
//
//   npm run bench                 # the event-loop benchmark, then this one
//   BENCH_SECONDS=20 npx tsx bench/auth.ts
//   KEPT_ANSWERS_MB=0 npx tsx bench/auth.ts  # every read computed
//   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:55432/postgres npx tsx bench/auth.ts
//                                 # on a PostgreSQL server (a database of its own, dropped after)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import net from 'node:net';
import { spawn } from 'node:child_process';
import autocannon from 'autocannon';
import pg from 'pg';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 8;
const MIXED_RATE = 200;
const ALONE_RATE = 50;
const TARGET_SHARE = 0.25;
const serverUrl = process.env.BENCH_DATABASE_URL;
const TARGET_P99_MS = serverUrl ? 50 : 100;
const root = path.resolve(import.meta.dirname, '..');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mss-bench-auth-'));
// On a PostgreSQL server: a fresh database of its own (the demo data is seeded into an empty one).
let databaseUrl: string | undefined;
const databaseName = `mss_bench_${process.pid}`;
async function onServer(statement: string) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  await client.query(statement);
  await client.end();
}
if (serverUrl) {
  await onServer(`drop database if exists ${databaseName} with (force)`);
  await onServer(`create database ${databaseName}`);
  const url = new URL(serverUrl);
  url.pathname = `/${databaseName}`;
  databaseUrl = url.toString();
}
const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/src/main.ts')], {
  env: {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    SEED: 'demo',
    LOG_LEVEL: 'warn',
    WEB_DIST: path.join(dataDir, 'no-web'),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const stop = () => {
  child.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
};
process.on('exit', stop);

async function waitForServer() {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${base}/api/v1/protocol/enums/en-US`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the server did not start within 2 minutes');
}

const XHR = { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/json' };

async function signIn(): Promise<string> {
  const login = (body: object) => fetch(`${base}/api/v1/auth/login`, { method: 'POST', headers: XHR, body: JSON.stringify(body) });
  const credentials = { email: 'admin@demo.test', password: 'demo-password' };
  const first = await login(credentials);
  const choice = (await first.json()) as { data: { organizations?: { uuid: string; name: string }[] } };
  // The demo's organization with the figures (the other has one market and no reports).
  const organization = choice.data.organizations?.find((o) => o.name === 'Nordic Sales Association')?.uuid;
  if (!organization) throw new Error('admin@demo.test is not in the Nordic Sales Association');
  const res = await login({ ...credentials, organization });
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('mss_session='));
  if (!res.ok || !cookie) throw new Error(`sign-in failed: ${res.status}`);
  return cookie.split(';')[0]!;
}

function run(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon({ duration: SECONDS, connections: CONNECTIONS, ...options }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

function checkErrors(label: string, result: autocannon.Result) {
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0) throw new Error(`${label}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`);
}

await waitForServer();
const cookie = await signIn();
const me = (await (await fetch(`${base}/api/v1/users/me`, { headers: { cookie } })).json()) as { data: { markets: { id: number }[] } };
// A market of the admin's with a published period (the demo publishes some of its markets' months).
let marketId = 0;
let published: { uuid: string } | undefined;
for (const market of me.data.markets) {
  const res = await fetch(`${base}/api/v1/periods?market_id=${market.id}`, { headers: { cookie } });
  if (!res.ok) throw new Error(`GET /periods?market_id=${market.id}: ${res.status} ${await res.text()}`);
  const list = (await res.json()) as { data: { uuid: string; published: boolean }[] };
  published = list.data.find((p) => p.published);
  marketId = market.id;
  if (published) break;
}
if (!published) throw new Error(`admin@demo.test has no market with a published period (markets ${me.data.markets.map((m) => m.id).join(', ')})`);
// Warm up both paths (JIT, the database's caches) before measuring.
await run({ url: `${base}/api/v1/users/me`, headers: { cookie }, duration: 2 });

const anonymous = await run({ url: `${base}/api/v1/protocol/enums/en-US` });
checkErrors('unauthenticated', anonymous);
const signedIn = await run({ url: `${base}/api/v1/users/me`, headers: { cookie } });
checkErrors('signed-in', signedIn);
const mixedPaths = [
  '/api/v1/users/me',
  '/api/v1/reports',
  `/api/v1/periods?market_id=${marketId}`,
  '/api/v1/admin/codes',
  `/api/v1/statistics/market?period_uuid=${published.uuid}&by=code`,
];
// How many answers were kept ones (X-Kept-Answer: hit), by path.
const kept = new Map<string, { hit: number; all: number }>();
const counted = (p: string) => ({
  method: 'GET' as const,
  path: p,
  onResponse: (_status: number, _body: string, _context: object, headers: Record<string, string | string[] | undefined> | undefined) => {
    const count = kept.get(p) ?? { hit: 0, all: 0 };
    count.all++;
    if (headers?.['x-kept-answer'] === 'hit') count.hit++;
    kept.set(p, count);
  },
});
const keptShare = (p: string) => {
  const count = kept.get(p);
  return count && count.all > 0 ? `${((count.hit / count.all) * 100).toFixed(0)} % kept` : '';
};
// Each read once before measuring: the first read after a change computes its answer (measured
// alone with KEPT_ANSWERS_MB=0); what is measured is the steady state of reads of unchanged data.
for (const p of mixedPaths) await (await fetch(`${base}${p}`, { headers: { cookie } })).text();
const mixed = await run({
  url: base,
  overallRate: MIXED_RATE,
  headers: { cookie },
  requests: mixedPaths.map(counted),
});
checkErrors('mixed', mixed);
const mixedKept = mixedPaths.map((p) => `${p.split('?')[0]!.replace('/api/v1', '')} ${keptShare(p) || 'computed'}`).join(', ');
kept.clear();
const alone: { path: string; result: autocannon.Result }[] = [];
for (const p of mixedPaths) {
  const result = await run({ url: base, overallRate: ALONE_RATE, headers: { cookie }, requests: [counted(p)] });
  checkErrors(p, result);
  alone.push({ path: p, result });
}

const share = signedIn.requests.average / anonymous.requests.average;
const shareOk = share >= TARGET_SHARE;
const p99Ok = mixed.latency.p99 < TARGET_P99_MS;
const rps = (r: autocannon.Result) => r.requests.average.toFixed(0).padStart(6);
const where = serverUrl ? 'PostgreSQL server' : 'embedded database';
console.log(`\nSigned-in requests (${SECONDS} s each, ${CONNECTIONS} connections, ${where}, jobs on)`);
console.log(`  GET /protocol/enums/en-US (no session)  ${rps(anonymous)} requests/s`);
console.log(`  GET /users/me (signed in)               ${rps(signedIn)} requests/s = ${(share * 100).toFixed(1)} % of the unauthenticated ceiling`);
console.log(
  `  ${MIXED_RATE} mixed signed-in reads/s             p50 ${mixed.latency.p50} ms, p99 ${mixed.latency.p99} ms, max ${mixed.latency.max} ms (${mixed.requests.total} requests)`,
);
console.log(`    answers: ${mixedKept}`);
console.log(`  each alone at ${ALONE_RATE}/s: p50 / p99 / max`);
for (const { path: p, result } of alone)
  console.log(`    ${p.replace(/=[0-9a-f-]{36}/, '=…').padEnd(44)} ${result.latency.p50} / ${result.latency.p99} / ${result.latency.max} ms  ${keptShare(p)}`);
console.log(`\nTarget: signed-in ceiling >= ${TARGET_SHARE * 100} % of the unauthenticated one: ${shareOk ? 'met' : 'NOT met'}`);
console.log(`Target: p99 < ${TARGET_P99_MS} ms at ${MIXED_RATE} mixed signed-in reads/s: ${p99Ok ? 'met' : 'NOT met'}`);
const exited = child.exitCode === null ? new Promise((r) => child.once('exit', r)) : Promise.resolve();
stop();
await exited;
if (serverUrl) await onServer(`drop database if exists ${databaseName} with (force)`);
process.exit(shareOk && p99Ok ? 0 : 1);
