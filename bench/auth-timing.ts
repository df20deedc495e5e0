// Probe: does the answer time of sign-in, token and password-reset requests tell whether an
// e-mail has an account (a finding of the security probe)?
//
// Boots the real app on 127.0.0.1 (port 0, real HTTP, embedded PGlite in memory) and takes, for
// each of POST /auth/login, /auth/token and /auth/forgot-password, 20 samples with e-mails that
// have an account (wrong password) and 20 with e-mails that have none, interleaved so that a
// slow moment of the machine hits both sets alike. The requests are the ones an attacker would
// send. Each sample comes from its own client address (X-Forwarded-For with TRUST_PROXY), so
// that login throttling (5 failures per e-mail and address a minute) stays on and never answers
// 429 instead of doing the work; each known-address reset request uses its own user, so that
// every one takes the full path (a second request within a minute sends nothing new).
//
// Passes when no threshold separates the two sets: their ranges overlap (the slowest of the
// faster set is slower than the fastest of the slower set) and the medians are within 1.5x.
//
//   npm run bench:auth
import { createTestApp, createUser, unique, XHR } from '../server/test/helpers.ts';
import { passwordResetWork } from '../server/src/modules/auth/auth.service.ts';

const SAMPLES = 20;
const WARM_UP = 3;
const MAX_MEDIAN_RATIO = 1.5;

const t = await createTestApp({ TRUST_PROXY: 'true' });
await t.app.listen({ host: '127.0.0.1', port: 0 });
const address = t.app.server.address();
if (!address || typeof address !== 'object') throw new Error('no address');
const base = `http://127.0.0.1:${address.port}/api/v1`;

let addressCounter = 0;
const nextClient = () => {
  addressCounter++;
  return `10.${(addressCounter >> 16) & 255}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
};

async function timed(path: string, body: Record<string, unknown>): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { ...XHR, 'content-type': 'application/json', 'x-forwarded-for': nextClient() },
    body: JSON.stringify(body),
  });
  await res.arrayBuffer();
  const ms = performance.now() - started;
  // Each sample alone, as a careful prober spacing its requests would measure it: a reset mail
  // still being sent must not slow the next sample down (it would blur the two sets together).
  await passwordResetWork();
  return { ms, status: res.status };
}

const knownUsers = await Promise.all(Array.from({ length: SAMPLES + WARM_UP }, () => createUser(t.db, { roles: ['viewer'] })));
const unknownEmail = () => `${unique('nobody')}@example.test`;

interface Probe {
  label: string;
  path: string;
  body: (email: string) => Record<string, unknown>;
  expected: number;
}
const probes: Probe[] = [
  { label: 'POST /auth/login', path: '/auth/login', body: (email) => ({ email, password: 'wrong-password' }), expected: 422 },
  { label: 'POST /auth/token', path: '/auth/token', body: (email) => ({ email, password: 'wrong-password', device_name: 'probe' }), expected: 422 },
  { label: 'POST /auth/forgot-password', path: '/auth/forgot-password', body: (email) => ({ email }), expected: 200 },
];

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const fmt = (ms: number) => ms.toFixed(1).padStart(6);

let allOk = true;
for (const probe of probes) {
  const known: number[] = [];
  const unknown: number[] = [];
  for (let i = 0; i < SAMPLES + WARM_UP; i++) {
    const a = await timed(probe.path, probe.body(knownUsers[i]!.email));
    const b = await timed(probe.path, probe.body(unknownEmail()));
    if (a.status !== probe.expected || b.status !== probe.expected) {
      throw new Error(`${probe.label}: expected ${probe.expected}, got ${a.status} (known) and ${b.status} (unknown)`);
    }
    if (i < WARM_UP) continue;
    known.push(a.ms);
    unknown.push(b.ms);
  }
  const [fast, slow] = median(known) <= median(unknown) ? [known, unknown] : [unknown, known];
  const overlap = Math.max(...fast) > Math.min(...slow);
  const ratio = median(slow) / median(fast);
  const ok = overlap && ratio <= MAX_MEDIAN_RATIO;
  allOk &&= ok;
  console.log(
    `${probe.label.padEnd(28)} known: min ${fmt(Math.min(...known))} median ${fmt(median(known))} max ${fmt(Math.max(...known))} ms | ` +
      `unknown: min ${fmt(Math.min(...unknown))} median ${fmt(median(unknown))} max ${fmt(Math.max(...unknown))} ms | ` +
      `ranges ${overlap ? 'overlap' : 'SEPARATE'}, medians ${ratio.toFixed(2)}x ${ok ? 'ok' : 'TELLS'}`,
  );
}

await t.close();
console.log(`\nTarget: no threshold separates accounts from non-accounts (${SAMPLES} samples each): ${allOk ? 'met' : 'NOT met'}`);
process.exit(allOk ? 0 : 1);
