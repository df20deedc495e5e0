import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hashRecoveryCode, newRecoveryCodes, newTotpSecret, otpauthUri, totpCode, verifyTotp } from './totp.ts';

// RFC 6238 Appendix B: the seed "12345678901234567890" (SHA-1; 32 and 64 bytes for SHA-256 and SHA-512), 8 digits.
const seed = (length: number) => Buffer.from('1234567890'.repeat(7).slice(0, length));
const VECTORS: [number, string, string, string][] = [
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
];

describe('TOTP (RFC 6238)', () => {
  it("when the RFC's test vectors are computed, then every code matches for SHA-1, SHA-256 and SHA-512", () => {
    for (const [time, sha1, sha256, sha512] of VECTORS) {
      const step = Math.floor(time / 30);
      expect(totpCode(seed(20), step, 8, 'sha1'), `${time} sha1`).toBe(sha1);
      expect(totpCode(seed(32), step, 8, 'sha256'), `${time} sha256`).toBe(sha256);
      expect(totpCode(seed(64), step, 8, 'sha512'), `${time} sha512`).toBe(sha512);
    }
  });

  it('when base32 goes there and back, then the bytes are the same (RFC 4648 vectors too)', () => {
    expect(base32Encode(Buffer.from('foobar'))).toBe('MZXW6YTBOI');
    expect(base32Decode('MZXW6YTBOI').toString()).toBe('foobar');
    expect(base32Decode('mzxw 6ytb-oi').toString()).toBe('foobar');
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Encode(base32Decode(secret))).toBe(secret);
  });

  it('when a code is checked, then its own step and the one either side pass once each, an older or reused one and anything else fail', () => {
    const secret = base32Encode(seed(20));
    const now = 1_111_111_111_000;
    const step = Math.floor(now / 30_000);
    const code = (s: number) => totpCode(seed(20), s);
    expect(verifyTotp(secret, code(step), null, now)).toBe(step);
    expect(verifyTotp(secret, code(step - 1), null, now)).toBe(step - 1);
    expect(verifyTotp(secret, code(step + 1), null, now)).toBe(step + 1);
    expect(verifyTotp(secret, code(step - 2), null, now)).toBeNull();
    expect(verifyTotp(secret, code(step + 2), null, now)).toBeNull();
    // Used: the same step, or one before it, is refused.
    expect(verifyTotp(secret, code(step), step, now)).toBeNull();
    expect(verifyTotp(secret, code(step - 1), step, now)).toBeNull();
    expect(verifyTotp(secret, `${code(step).slice(0, 3)} ${code(step).slice(3)}`, null, now)).toBe(step);
    for (const bad of ['', '12345', '1234567', 'abcdef', '12345a']) expect(verifyTotp(secret, bad, null, now)).toBeNull();
  });

  it('when recovery codes are made, then there are ten different ones, and their hash ignores case, spaces and the hyphen', () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const c of codes) expect(c).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}$/);
    expect(hashRecoveryCode(' ABCD-EFGH ')).toBe(hashRecoveryCode('abcd-efgh'));
    expect(hashRecoveryCode('abcdefgh')).toBe(hashRecoveryCode('abcd-efgh'));
    expect(hashRecoveryCode('abcd-efgh')).not.toBe(hashRecoveryCode('abcd-efgj'));
  });

  it('when the address for an authenticator app is made, then it names the product, the account and the secret', () => {
    expect(otpauthUri('MZXW6YTBOI', 'ada@demo.test')).toBe(
      'otpauth://totp/Market%20Sales%20Statistics:ada%40demo.test?secret=MZXW6YTBOI&issuer=Market+Sales+Statistics&algorithm=SHA1&digits=6&period=30',
    );
  });
});
