import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

// scrypt from Node's crypto: memory-hard, no native add-on to build.
const N = 16384;
const r = 8;
const p = 1;
const KEY_LENGTH = 64;

function scryptAsync(password: string, salt: Buffer, n: number, rr: number, pp: number): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password, salt, KEY_LENGTH, { N: n, r: rr, p: pp, maxmem: 64 * 1024 * 1024 }, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, N, r, p);
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

// Verified against when there is no stored hash (unknown user, user without a password), so
// that the answer takes as long as for a real account and its time tells nothing.
// Made once, on first use, with the current cost, so it costs what a real hash does.
let dummyHash: Promise<string> | null = null;
function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString('base64')).catch((error: unknown) => {
    dummyHash = null;
    throw error;
  });
  return dummyHash;
}

/**
 * Whether the password matches the stored hash. Without a usable hash it still derives a key
 * (against a dummy hash) and answers false: always the same work, whatever the account.
 */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const real = parseHash(stored);
  const target = real ?? parseHash(await dummyPasswordHash())!;
  const key = await scryptAsync(password, target.salt, target.n, target.r, target.p);
  return real !== null && key.length === target.hash.length && timingSafeEqual(key, target.hash);
}

function parseHash(stored: string | null): { n: number; r: number; p: number; salt: Buffer; hash: Buffer } | null {
  if (!stored) return null;
  const [scheme, n, rr, pp, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return null;
  return { n: Number(n), r: Number(rr), p: Number(pp), salt: Buffer.from(salt, 'base64'), hash: Buffer.from(hash, 'base64') };
}

/** A random token for a cookie, bearer token or reset link; only `hashToken(token)` is stored. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
