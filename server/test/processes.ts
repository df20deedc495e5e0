import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { writeXlsx } from '../src/lib/xlsx-writer/index.ts';

/*
 * Several app processes on one PostgreSQL server behind nginx, for tests and the deadline bench:
 * the app runs as real child processes (server/src/main.ts), nginx runs with the
 * shipped site configuration (deploy/nginx/market-sales-statistics.conf) wrapped in a minimal
 * nginx.conf of its own (temporary paths, no daemon).
 */

export const root = path.resolve(import.meta.dirname, '../..');
export const NGINX_SITE = path.join(root, 'deploy/nginx/market-sales-statistics.conf');
/** The ports the shipped configuration names: the load balancer's and the app processes'. */
export const LB_PORT = 8080;
export const APP_PORTS = [3001, 3002] as const;
export const LB_URL = `http://127.0.0.1:${LB_PORT}`;

export function findNginx(): string | null {
  for (const candidate of [process.env.NGINX_PATH, '/usr/sbin/nginx', '/usr/local/sbin/nginx']) {
    if (candidate && fs.existsSync(candidate)) return candidate;
  }
  const which = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' });
  return which.status === 0 ? which.stdout.trim() : null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Whether something accepts connections on the port. */
export function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function startNginx(): Promise<{ log: () => string; stop: () => Promise<void> }> {
  const nginx = findNginx();
  if (!nginx) throw new Error('nginx is not installed (Debian: apt-get install nginx); set NGINX_PATH to use another');
  if (await portAnswers(LB_PORT)) throw new Error(`port ${LB_PORT} is taken: the shipped nginx configuration listens there`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mss-nginx-'));
  // Workers of an nginx started as root run as nobody: their temporary folders must be theirs too.
  fs.chmodSync(dir, 0o777);
  for (const sub of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) fs.mkdirSync(path.join(dir, sub), { mode: 0o777 });
  const conf = path.join(dir, 'nginx.conf');
  fs.writeFileSync(
    conf,
    `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${NGINX_SITE};
}
`,
  );
  const child = spawn(nginx, ['-c', conf, '-p', dir, '-e', path.join(dir, 'error.log')], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const log = () => `${output}${fs.existsSync(path.join(dir, 'error.log')) ? fs.readFileSync(path.join(dir, 'error.log'), 'utf8') : ''}`;
  for (let i = 0; !(await portAnswers(LB_PORT)); i++) {
    if (child.exitCode !== null || i > 200) throw new Error(`nginx did not start:\n${log()}`);
    await sleep(50);
  }
  return {
    log,
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGQUIT');
        await new Promise((resolve) => child.once('exit', resolve));
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface AppProcess {
  port: number;
  child: ChildProcess;
  /** host:pid, as the process writes it beside the work it claims (INSTANCE_NAME). */
  name: string;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts the app (server/src/main.ts) as a child process on the port; `ready` waits for /readyz. */
export function startApp(port: number, env: Record<string, string>): AppProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'server/src/main.ts')], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'mss-process-')),
      WEB_DIST: path.join(os.tmpdir(), 'mss-process-no-web'),
      SEED: 'none',
      JOBS: 'on',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      TRUST_PROXY: 'true',
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-20_000)));
  child.stderr!.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-20_000)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { port, child, name: `${os.hostname()}:${child.pid}`, url: `http://127.0.0.1:${port}`, output: () => output, exited };
}

/** Waits until the process answers /readyz with 200 (or fails with what it said). */
export async function ready(app: AppProcess, ms = 120_000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    if (app.child.exitCode !== null) throw new Error(`the app on port ${app.port} exited (${app.child.exitCode}):\n${app.output()}`);
    const status = await fetch(`${app.url}/readyz`)
      .then((r) => r.status)
      .catch(() => 0);
    if (status === 200) return;
    if (Date.now() > end) throw new Error(`the app on port ${app.port} was not ready in ${ms} ms:\n${app.output()}`);
    await sleep(100);
  }
}

export const XHR = { 'x-requested-with': 'XMLHttpRequest' };

/** Signs in over HTTP at `base` (a process or the load balancer); the session cookie. */
export async function signInOver(base: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { ...XHR, 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`sign-in of ${email} at ${base}: ${res.status} ${await res.text()}`);
  const cookie = res.headers.getSetCookie().find((c) => c.startsWith('mss_session='));
  if (!cookie) throw new Error(`no session cookie from ${base}`);
  return cookie.split(';')[0]!;
}

/** Polls `done` every `every` ms until it holds, for at most `ms`; `what` names it in the error. */
export async function until(done: () => Promise<boolean> | boolean, what: () => string | Promise<string>, ms = 120_000, every = 100): Promise<void> {
  const end = Date.now() + ms;
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${await what()}`);
    await sleep(every);
  }
}

/** An xlsx file of these rows, in memory. */
export async function xlsx(rows: Iterable<(string | number)[]>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const out = new PassThrough();
  out.on('data', (c: Buffer) => chunks.push(c));
  await writeXlsx(out, rows);
  return Buffer.concat(chunks);
}
