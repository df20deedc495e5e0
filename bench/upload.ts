// Benchmark: does a large report upload stall the other users, and how much memory does it take?
// (issue 8, finding 4: a valid 19 MB upload made other users wait 1-1.9 s and raised the server's
// memory from ~0.7 GB to ~2 GB.)
//
// The real app, as `npm start` runs it (embedded PGlite on disk in a worker thread behind its
// socket, one pool connection, the job queue on), listens on 127.0.0.1 in this process. Two users
// are signed in: a reporter uploads a valid ~20 MB xlsx over HTTP (streamed in 64 KiB writes, as a
// browser sends it) while another user sends GET /api/v1/users/me every 20 ms over HTTP, without
// waiting for the previous answer (as many users would). Measured, for each upload:
//   - the latency of every request of the other user that overlapped the upload (start of the
//     upload until its 202), max and p99, and the same before it (idle) for comparison;
//   - the upload's own time (first byte sent → 202);
//   - the RSS of this process (the embedded database's worker thread included): before (after a
//     forced GC), peak during the upload, and at the 202. Sampled every 10 ms and, where Linux
//     allows resetting it, from the kernel's peak (VmHWM), so a peak between samples is not missed.
// The import job that follows the upload is waited for (it also reads the stored file), and its
// figures are printed for information; the targets are about the upload and its storage.
// Targets: other users' requests under 200 ms, RSS growth under 200 MB. Exit code 1 if missed.
//
//   npm run bench                      # after the event-loop bench
//   BENCH_UPLOAD_RUNS=5 npx tsx bench/upload.ts
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import v8 from 'node:v8';
import vm from 'node:vm';
import { eq, sql } from 'drizzle-orm';
import { buildApp } from '../server/src/app.ts';
import { loadConfig } from '../server/src/config.ts';
import { migrateDatabase, openDatabase } from '../server/src/db/client.ts';
import { companies, companyMarkets, companyOrganizations, imports, reports } from '../server/src/db/schema.ts';
import { buildMiniXlsx } from '../server/src/lib/xlsx/test-support.ts';
import { createMarket, createOrganization, createUser, signIn, unique, XHR } from '../server/test/helpers.ts';

const FILE_BYTES = 20_000_000; // 20 MB, under the default limit of 20 MiB (IMPORT_MAX_MB=20)
const DATA_ROWS = 1_000;
const PING_EVERY_MS = 20;
const IDLE_MS = 1_000;
const SAMPLE_MS = 10;
const WRITE_BYTES = 64 * 1024;
const RUNS = Number(process.env.BENCH_UPLOAD_RUNS ?? 3);
const TARGET_LATENCY_MS = 200;
const TARGET_RSS_MB = 200;
const JOB_TIMEOUT_MS = 60_000;
const MB = 1024 * 1024;

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const settle = async () => {
  for (let i = 0; i < 3; i++) {
    gc();
    await sleep(30);
  }
};

// ---------------------------------------------------------------------------------------------
// Memory: sampled, and the kernel's high-water mark where it can be reset (writing 5 to
// /proc/self/clear_refs resets VmHWM to the current RSS).
// ---------------------------------------------------------------------------------------------

function resetPeak(): boolean {
  try {
    fs.writeFileSync('/proc/self/clear_refs', '5');
    return true;
  } catch {
    return false;
  }
}
function kernelPeak(): number | null {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}
function sampleRss() {
  const hwm = resetPeak();
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, SAMPLE_MS);
  return {
    stop() {
      clearInterval(timer);
      const now = process.memoryUsage.rss();
      const kernel = hwm ? kernelPeak() : null;
      return { peak: Math.max(peak, now, kernel ?? 0), now, kernel: kernel !== null };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The other user: GET /users/me every 20 ms, each timed from sending to the end of its answer.
// ---------------------------------------------------------------------------------------------

interface Ping {
  start: number;
  end: number;
  status: number;
}

function startPings(base: string, cookie: string, agent: http.Agent) {
  const pings: Ping[] = [];
  const pending = new Set<Promise<void>>();
  const one = () => {
    const ping: Ping = { start: performance.now(), end: NaN, status: 0 };
    pings.push(ping);
    const done = new Promise<void>((resolve) => {
      const req = http.get(`${base}/api/v1/users/me`, { agent, headers: { cookie } }, (res) => {
        ping.status = res.statusCode ?? 0;
        res.resume();
        res.on('end', () => {
          ping.end = performance.now();
          resolve();
        });
      });
      req.on('error', () => {
        ping.end = performance.now();
        resolve();
      });
    });
    pending.add(done);
    void done.then(() => pending.delete(done));
  };
  const timer = setInterval(one, PING_EVERY_MS);
  return {
    pings,
    async stop() {
      clearInterval(timer);
      await Promise.all(pending);
    },
  };
}

/** Requests that were waiting at some moment of the window (or, with `startedIn`, sent in it). */
function latencies(pings: Ping[], from: number, to: number, startedIn = false) {
  const inWindow = pings.filter((p) => (startedIn ? p.start >= from && p.start <= to : p.start <= to && p.end >= from));
  const ms = inWindow.map((p) => p.end - p.start).sort((a, b) => a - b);
  const failed = inWindow.filter((p) => p.status !== 200).length;
  const p99 = ms.length ? ms[Math.min(ms.length - 1, Math.ceil(ms.length * 0.99) - 1)]! : NaN;
  return { count: ms.length, max: ms.at(-1) ?? NaN, p99, median: ms.length ? ms[Math.floor(ms.length / 2)]! : NaN, failed };
}

// ---------------------------------------------------------------------------------------------
// The upload: a multipart body streamed over HTTP in 64 KiB writes.
// ---------------------------------------------------------------------------------------------

function upload(base: string, reportUuid: string, cookie: string, content: Buffer, agent: http.Agent) {
  const boundary = `----mss-bench-upload-${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="large.xlsx"\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise<{ status: number; body: string; ms: number }>((resolve, reject) => {
    const started = performance.now();
    const req = http.request(
      `${base}/api/v1/reports/${reportUuid}/file`,
      {
        method: 'POST',
        agent,
        headers: { ...XHR, cookie, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + content.length + tail.length },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, ms: performance.now() - started }));
      },
    );
    req.on('error', reject);
    req.write(head);
    let sent = 0;
    const pump = () => {
      while (sent < content.length) {
        const piece = content.subarray(sent, sent + WRITE_BYTES);
        sent += piece.length;
        if (!req.write(piece)) {
          req.once('drain', pump);
          return;
        }
      }
      req.end(tail);
    };
    pump();
  });
}

/**
 * A valid report workbook of ~20 MB: 1,000 rows of the company's codes, and a stored (not
 * compressed) entry of random bytes, as an embedded picture would be. The reader ignores parts it
 * does not need, so the import is quick; what is measured is the upload and the storage of 20 MB.
 */
function largeWorkbook(codes: string[]): Buffer {
  const rows = codes.map((code, i) => `<row r="${i + 2}"><c r="A${i + 2}" t="inlineStr"><is><t>${code}</t></is></c><c r="B${i + 2}"><v>${i + 1}</v></c><c r="C${i + 2}"><v>${(i + 1) * 10}</v></c></row>`);
  const header = '<row r="1"><c r="A1" t="inlineStr"><is><t>Code</t></is></c><c r="B1" t="inlineStr"><is><t>Volume</t></is></c><c r="C1" t="inlineStr"><is><t>Value</t></is></c></row>';
  const without = buildMiniXlsx({ sheets: [{ name: 'Report', xml: header + rows.join('') }] });
  const name = 'xl/media/image1.bin';
  // A zip entry costs its local header (30 bytes), its central directory record (46) and its name twice.
  const padding = FILE_BYTES - without.length - (30 + 46 + 2 * name.length);
  const book = buildMiniXlsx({ sheets: [{ name: 'Report', xml: header + rows.join('') }], extraEntries: [{ name, data: randomBytes(padding), method: 0 }] });
  if (book.length !== FILE_BYTES) throw new Error(`workbook is ${book.length} bytes, not ${FILE_BYTES}`);
  return book;
}

// ---------------------------------------------------------------------------------------------
// Run
// ---------------------------------------------------------------------------------------------

const fmt = (ms: number) => (Number.isFinite(ms) ? `${ms.toFixed(0)} ms` : '-');
const fmtMb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mss-bench-upload-'));
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', SEED: 'none', JOBS: 'on', WEB_DIST: path.join(dataDir, 'no-web') });
const database = await openDatabase({ dataDir: config.dataDir });
await migrateDatabase(database.db);
const app = await buildApp({ config, database }, { logger: false });
const base = await app.listen({ host: '127.0.0.1', port: 0 });
const db = database.db;
let exitCode = 0;
try {
  const cpus = os.cpus();
  const [{ version }] = (await db.execute<{ version: string }>(sql`select version() as version`)).rows as { version: string }[];
  console.log(`Upload benchmark, ${new Date().toISOString()}`);
  console.log(`Machine: ${cpus.length} × ${cpus[0]?.model.trim() ?? 'CPU'}, ${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB RAM, Node ${process.version}`);
  console.log(`Database: embedded PGlite on disk in a worker thread (${version.split(' on ')[0]}), IMPORT_MAX_MB=${config.IMPORT_MAX_MB}`);

  // The world: a company reporting in a market, its reporter, another user of the organization.
  const org = await createOrganization(db);
  const market = await createMarket(db, org.id);
  const [company] = await db.insert(companies).values({ name: unique('Bench company') }).returning();
  await db.insert(companyOrganizations).values({ company_id: company!.id, organization_id: org.id });
  await db.insert(companyMarkets).values({ company_id: company!.id, market_id: market.id });
  const codes = Array.from({ length: DATA_ROWS }, (_, i) => String(1_000_000 + i));
  await db.execute(sql`
    with c as (
      insert into codes (organization_id, code, name)
      select ${org.id}, (1000000 + g)::text, 'Code ' || g from generate_series(0, ${DATA_ROWS - 1}::int) g
      returning id
    ), m as (insert into code_markets (code_id, market_id) select id, ${market.id}::int from c)
    insert into company_codes (company_id, code_id) select ${company!.id}::int, id from c`);
  const reporter = await createUser(db, { roles: ['reporter'], organizationIds: [org.id], marketIds: [market.id], companyId: company!.id });
  const other = await createUser(db, { roles: ['viewer'], organizationIds: [org.id], marketIds: [market.id] });
  const admin = await createUser(db, { roles: ['market-admin'], organizationIds: [org.id], marketIds: [market.id] });
  const reporterCookie = await signIn(app, reporter.email);
  const otherCookie = await signIn(app, other.email);
  const adminHeaders = { ...XHR, cookie: await signIn(app, admin.email) };
  const created = await app.inject({ method: 'POST', url: '/api/v1/periods', headers: adminHeaders, payload: { market_id: market.id, title: '2026-10', starts_on: '2026-10-01', ends_on: '2026-10-31' } });
  await app.inject({ method: 'POST', url: `/api/v1/periods/${created.json().data.uuid}/open`, headers: adminHeaders });
  const [report] = await db.select().from(reports).where(eq(reports.company_id, company!.id));
  if (!report) throw new Error('opening the period created no report');

  const content = largeWorkbook(codes);
  console.log(`File: ${content.length.toLocaleString('en-US')} bytes (${DATA_ROWS.toLocaleString('en-US')} rows and a stored picture of random bytes); ${RUNS} uploads\n`);
  const agent = new http.Agent({ keepAlive: true });

  const results = [];
  for (let run = 1; run <= RUNS; run++) {
    await settle();
    const pings = startPings(base, otherCookie, agent);
    await sleep(IDLE_MS);
    const rssBefore = process.memoryUsage.rss();
    const memory = sampleRss();
    const t0 = performance.now();
    const res = await upload(base, report.uuid, reporterCookie, content, agent);
    const t202 = performance.now();
    const rss = memory.stop();
    if (res.status !== 202) throw new Error(`upload refused: ${res.status} ${res.body}`);
    const importUuid = (JSON.parse(res.body) as { data: { uuid: string } }).data.uuid;

    // The import job that follows (for information): until the import is done.
    const jobMemory = sampleRss();
    let status = 'queued';
    while (status === 'queued' || status === 'processing') {
      if (performance.now() - t202 > JOB_TIMEOUT_MS) throw new Error(`import not done after ${JOB_TIMEOUT_MS} ms`);
      await sleep(50);
      status = (await db.select({ status: imports.status }).from(imports).where(eq(imports.uuid, importUuid)))[0]!.status;
    }
    const tDone = performance.now();
    const jobRss = jobMemory.stop();
    await pings.stop();
    if (status !== 'done') throw new Error(`import ${status}`);

    const idle = latencies(pings.pings, t0 - IDLE_MS, t0 - 1);
    const during = latencies(pings.pings, t0, t202);
    const job = latencies(pings.pings, t202, tDone, true);
    const result = { run, uploadMs: t202 - t0, idle, during, job, jobMs: tDone - t202, rssBefore, rssPeak: rss.peak, rssAt202: rss.now, jobRssPeak: jobRss.peak, rssAfter: jobRss.now, kernel: rss.kernel };
    results.push(result);
    console.log(
      `upload ${run}: ${fmt(result.uploadMs)} to 202 | other user during it: ${during.count} requests, max ${fmt(during.max)}, p99 ${fmt(during.p99)}, median ${fmt(during.median)}` +
        `${during.failed ? `, ${during.failed} failed` : ''} (idle: max ${fmt(idle.max)}) | RSS ${fmtMb(rssBefore)} → peak ${fmtMb(rss.peak)} (+${fmtMb(rss.peak - rssBefore)}), ${fmtMb(rss.now)} at 202`,
    );
    console.log(
      `          then the import job: ${fmt(result.jobMs)}, other user's requests sent meanwhile: max ${fmt(job.max)}, p99 ${fmt(job.p99)}; RSS peak ${fmtMb(jobRss.peak)}, ${fmtMb(jobRss.now)} when done`,
    );
  }

  const worstLatency = Math.max(...results.map((r) => r.during.max));
  const worstGrowth = Math.max(...results.map((r) => r.rssPeak - r.rssBefore));
  const failed = results.reduce((n, r) => n + r.during.failed, 0);
  const latencyMet = worstLatency < TARGET_LATENCY_MS && failed === 0;
  const memoryMet = worstGrowth < TARGET_RSS_MB * MB;
  console.log(`\nPeak RSS from ${results[0]?.kernel ? 'the kernel (VmHWM) and ' : ''}samples every ${SAMPLE_MS} ms.`);
  console.log('Targets, worst of the runs:');
  console.log(`  ${latencyMet ? 'MET    ' : 'NOT MET'}  other users' requests during the upload under ${TARGET_LATENCY_MS} ms: max ${fmt(worstLatency)}${failed ? `, ${failed} failed` : ''}`);
  console.log(`  ${memoryMet ? 'MET    ' : 'NOT MET'}  RSS growth during the upload under ${TARGET_RSS_MB} MB: +${fmtMb(worstGrowth)}`);
  if (!latencyMet || !memoryMet) exitCode = 1;
} catch (error) {
  console.error(error);
  exitCode = 1;
} finally {
  await app.close().catch(() => {});
  await database.close().catch(() => {});
  fs.rmSync(dataDir, { recursive: true, force: true });
}
process.exit(exitCode);
