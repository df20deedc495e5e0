// Benchmark: does a large report upload stall the other users, and how much memory does it take?
// (The security probe found that a valid 19 MB upload made other users wait 1-1.9 s and raised
// the server's memory from ~0.7 GB to ~2 GB.)
//
// The server is the real app as `npm start` runs it (embedded PGlite on disk in a worker thread
// behind its socket, one pool connection, the job queue on), in a child process of this one, so
// that the clients below do not share its event loop. Two users are signed in: a reporter uploads
// a valid 20 MB xlsx over HTTP (streamed in 64 KiB writes, as a browser sends it) while another
// user sends GET /api/v1/users/me every 20 ms, without waiting for the previous answer (as many
// users would). Measured, for each upload:
//   - the latency of every request of the other user that was waiting at some moment between the
//     first byte of the upload and its 202: max, p99 and median; the same in the second before
//     the upload (idle) for comparison;
//   - the upload's own time (first byte sent → 202) and the server's longest event-loop delay;
//   - the server process's RSS (the embedded database's worker thread included), from /proc:
//     before (after a forced GC), peak during the upload and at the 202. The peak is the kernel's
//     high-water mark (VmHWM, reset before each upload) where Linux allows resetting it, and
//     samples every 10 ms otherwise.
// The import job that follows each upload is waited for (it reads the stored file back); its
// figures are printed for information. The targets are about the upload and its storage: other
// users' requests under 200 ms, RSS growth under 200 MB. Exit code 1 if either is missed.
//
//   npm run bench                      # after the event-loop bench
//   BENCH_UPLOAD_RUNS=5 npx tsx bench/upload.ts
import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { eq, sql } from 'drizzle-orm';
import { buildApp } from '../server/src/app.ts';
import { loadConfig } from '../server/src/config.ts';
import { migrateDatabase, openDatabase } from '../server/src/db/client.ts';
import { companies, companyMarkets, companyOrganizations, reports } from '../server/src/db/schema.ts';
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
const codeOf = (i: number) => String(1_000_000 + i);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Ready {
  type: 'ready';
  base: string;
  reportUuid: string;
  reporterCookie: string;
  otherCookie: string;
  database: string;
  importMaxMb: number;
}

// ---------------------------------------------------------------------------------------------
// The server (child process): the app, the world, then it answers the bench's few messages.
// ---------------------------------------------------------------------------------------------

async function runServer() {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mss-bench-upload-'));
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', SEED: 'none', JOBS: 'on', WEB_DIST: path.join(dataDir, 'no-web') });
  const database = await openDatabase({ dataDir: config.dataDir });
  await migrateDatabase(database.db);
  const app = await buildApp({ config, database }, { logger: false });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const db = database.db;
  const stop = async () => {
    await app.close().catch(() => {});
    await database.close().catch(() => {});
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on('disconnect', () => void stop());

  // A company reporting in a market with its codes, its reporter, and another user of the organization.
  const org = await createOrganization(db);
  const market = await createMarket(db, org.id);
  const [company] = await db
    .insert(companies)
    .values({ name: unique('Bench company') })
    .returning();
  await db.insert(companyOrganizations).values({ company_id: company!.id, organization_id: org.id });
  await db.insert(companyMarkets).values({ company_id: company!.id, market_id: market.id });
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
  const adminHeaders = { ...XHR, cookie: await signIn(app, admin.email) };
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/periods',
    headers: adminHeaders,
    payload: { market_id: market.id, title: '2026-10', starts_on: '2026-10-01', ends_on: '2026-10-31' },
  });
  await app.inject({ method: 'POST', url: `/api/v1/periods/${created.json().data.uuid}/open`, headers: adminHeaders });
  const [report] = await db.select().from(reports).where(eq(reports.company_id, company!.id));
  if (!report) throw new Error('opening the period created no report');
  const [versionRow] = (await db.execute<{ version: string }>(sql`select version() as version`)).rows as { version: string }[];
  if (!versionRow) throw new Error('select version() returned no row');
  const { version } = versionRow;

  const loop = monitorEventLoopDelay({ resolution: 5 });
  process.on('message', (message: { type: string }) => {
    if (message.type === 'settle') {
      void (async () => {
        for (let i = 0; i < 3; i++) {
          gc();
          await sleep(30);
        }
        loop.reset();
        loop.enable();
        process.send!({ type: 'settled' });
      })();
    } else if (message.type === 'loop') {
      loop.disable();
      process.send!({ type: 'loop', maxMs: loop.max / 1e6 });
    } else if (message.type === 'stop') void stop();
  });
  const ready: Ready = {
    type: 'ready',
    base,
    reportUuid: report.uuid,
    reporterCookie: await signIn(app, reporter.email),
    otherCookie: await signIn(app, other.email),
    database: version.split(' on ')[0]!,
    importMaxMb: config.IMPORT_MAX_MB,
  };
  process.send!(ready);
}

// ---------------------------------------------------------------------------------------------
// Memory of the server process, from /proc: VmRSS, and VmHWM (the peak RSS), which writing 5 to
// /proc/<pid>/clear_refs resets to the current RSS.
// ---------------------------------------------------------------------------------------------

function statusOf(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(match[1]) * 1024;
}
function resetPeak(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}
function sampleRss(pid: number) {
  const kernel = resetPeak(pid);
  let peak = statusOf(pid, 'VmRSS');
  const timer = setInterval(() => {
    peak = Math.max(peak, statusOf(pid, 'VmRSS'));
  }, SAMPLE_MS);
  return {
    stop() {
      clearInterval(timer);
      const now = statusOf(pid, 'VmRSS');
      return { peak: Math.max(peak, now, kernel ? statusOf(pid, 'VmHWM') : 0), now, kernel };
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

function getJson<T>(url: string, cookie: string, agent: http.Agent): Promise<T> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers: { cookie } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve(JSON.parse(body) as T));
      })
      .on('error', reject);
  });
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
 * A valid report workbook of 20 MB: 1,000 rows of the company's codes, and a stored (not
 * compressed) entry of random bytes, as an embedded picture would be. The reader ignores parts it
 * does not need, so the import is quick; what is measured is the upload and the storage of 20 MB.
 */
function largeWorkbook(): Buffer {
  const cell = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
  const rows = Array.from(
    { length: DATA_ROWS },
    (_, i) => `<row r="${i + 2}">${cell(`A${i + 2}`, codeOf(i))}<c r="B${i + 2}"><v>${i + 1}</v></c><c r="C${i + 2}"><v>${(i + 1) * 10}</v></c></row>`,
  );
  const xml = `<row r="1">${cell('A1', 'Code')}${cell('B1', 'Volume')}${cell('C1', 'Value')}</row>${rows.join('')}`;
  const without = buildMiniXlsx({ sheets: [{ name: 'Report', xml }] });
  const name = 'xl/media/image1.bin';
  // A zip entry costs its local header (30 bytes), its central directory record (46) and its name twice.
  const padding = FILE_BYTES - without.length - (30 + 46 + 2 * name.length);
  const book = buildMiniXlsx({ sheets: [{ name: 'Report', xml }], extraEntries: [{ name, data: randomBytes(padding), method: 0 }] });
  if (book.length !== FILE_BYTES) throw new Error(`workbook is ${book.length} bytes, not ${FILE_BYTES}`);
  return book;
}

// ---------------------------------------------------------------------------------------------
// The bench (parent process)
// ---------------------------------------------------------------------------------------------

const fmt = (ms: number) => (Number.isFinite(ms) ? `${ms.toFixed(0)} ms` : '-');
const fmtMb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;

function nextMessage<T extends { type: string }>(child: ChildProcess, type: T['type']): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (message: T) => {
      if (message.type !== type) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(message);
    };
    const onExit = (code: number | null) => reject(new Error(`the server ended (exit code ${code}) before sending '${type}'`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

async function runBench(): Promise<number> {
  const child = fork(process.argv[1]!, [], { env: { ...process.env, BENCH_UPLOAD_SERVER: '1' }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  try {
    const server = await nextMessage<Ready>(child, 'ready');
    const pid = child.pid!;
    const cpus = os.cpus();
    console.log(`Upload benchmark, ${new Date().toISOString()}`);
    console.log(
      `Machine: ${cpus.length} × ${cpus[0]?.model.trim() ?? 'CPU'}, ${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB RAM, load average ${os.loadavg()[0]!.toFixed(1)}, Node ${process.version}`,
    );
    console.log(`Server: the app in a child process, embedded PGlite on disk in a worker thread (${server.database}), IMPORT_MAX_MB=${server.importMaxMb}`);
    const content = largeWorkbook();
    console.log(
      `File: ${content.length.toLocaleString('en-US')} bytes (${DATA_ROWS.toLocaleString('en-US')} rows and a stored picture of random bytes); ${RUNS} uploads\n`,
    );
    const agent = new http.Agent({ keepAlive: true });

    const results = [];
    for (let run = 1; run <= RUNS; run++) {
      child.send({ type: 'settle' });
      await nextMessage(child, 'settled');
      const pings = startPings(server.base, server.otherCookie, agent);
      await sleep(IDLE_MS);
      const rssBefore = statusOf(pid, 'VmRSS');
      const memory = sampleRss(pid);
      const t0 = performance.now();
      const res = await upload(server.base, server.reportUuid, server.reporterCookie, content, agent);
      const t202 = performance.now();
      const rss = memory.stop();
      child.send({ type: 'loop' });
      const { maxMs: loopMaxMs } = await nextMessage<{ type: 'loop'; maxMs: number }>(child, 'loop');
      if (res.status !== 202) throw new Error(`upload refused: ${res.status} ${res.body}`);
      const importUuid = (JSON.parse(res.body) as { data: { uuid: string } }).data.uuid;

      // The import job that follows (for information), until the API shows the import finished.
      const jobMemory = sampleRss(pid);
      let status = 'queued';
      while (status === 'queued' || status === 'processing') {
        if (performance.now() - t202 > JOB_TIMEOUT_MS) throw new Error(`import not done after ${JOB_TIMEOUT_MS} ms`);
        await sleep(50);
        status = (await getJson<{ data: { status: string } }>(`${server.base}/api/v1/imports/${importUuid}`, server.reporterCookie, agent)).data.status;
      }
      const tDone = performance.now();
      const jobRss = jobMemory.stop();
      await pings.stop();
      if (status !== 'done') throw new Error(`import ${status}`);

      const idle = latencies(pings.pings, t0 - IDLE_MS, t0 - 1);
      const during = latencies(pings.pings, t0, t202);
      const job = latencies(pings.pings, t202, tDone, true);
      const result = {
        uploadMs: t202 - t0,
        loopMaxMs,
        idle,
        during,
        job,
        jobMs: tDone - t202,
        rssBefore,
        rssPeak: rss.peak,
        rssAt202: rss.now,
        jobRss,
        kernel: rss.kernel,
      };
      results.push(result);
      console.log(
        `upload ${run}: ${fmt(result.uploadMs)} to 202 | other user during it: ${during.count} requests, max ${fmt(during.max)}, p99 ${fmt(during.p99)}, median ${fmt(during.median)}` +
          `${during.failed ? `, ${during.failed} failed` : ''} (idle: max ${fmt(idle.max)}) | server event loop delay max ${fmt(loopMaxMs)}` +
          ` | RSS ${fmtMb(rssBefore)} → peak ${fmtMb(rss.peak)} (+${fmtMb(rss.peak - rssBefore)}), ${fmtMb(rss.now)} at 202`,
      );
      console.log(
        `          then the import job: ${fmt(result.jobMs)}; other user's requests sent meanwhile: max ${fmt(job.max)}, p99 ${fmt(job.p99)}; RSS peak ${fmtMb(jobRss.peak)}, ${fmtMb(jobRss.now)} when done`,
      );
    }

    const worstLatency = Math.max(...results.map((r) => r.during.max));
    const worstP99 = Math.max(...results.map((r) => r.during.p99));
    const worstGrowth = Math.max(...results.map((r) => r.rssPeak - r.rssBefore));
    const failed = results.reduce((n, r) => n + r.during.failed, 0);
    const latencyMet = worstLatency < TARGET_LATENCY_MS && failed === 0;
    const memoryMet = worstGrowth < TARGET_RSS_MB * MB;
    console.log(`\nPeak RSS: ${results[0]?.kernel ? "the kernel's high-water mark (VmHWM, reset before each upload) and " : ''}samples every ${SAMPLE_MS} ms.`);
    console.log('Targets, worst of the runs:');
    console.log(
      `  ${latencyMet ? 'MET    ' : 'NOT MET'}  other users' requests during the upload under ${TARGET_LATENCY_MS} ms: max ${fmt(worstLatency)} (p99 ${fmt(worstP99)})${failed ? `, ${failed} failed` : ''}`,
    );
    console.log(`  ${memoryMet ? 'MET    ' : 'NOT MET'}  server RSS growth during the upload under ${TARGET_RSS_MB} MB: +${fmtMb(worstGrowth)}`);
    return latencyMet && memoryMet ? 0 : 1;
  } finally {
    if (child.exitCode === null && child.connected) {
      const exited = new Promise((r) => child.once('exit', r));
      child.send({ type: 'stop' });
      await exited;
    }
  }
}

if (process.env.BENCH_UPLOAD_SERVER === '1') {
  await runServer();
} else {
  let exitCode = 1;
  try {
    exitCode = await runBench();
  } catch (error) {
    console.error(error);
  }
  process.exit(exitCode);
}
