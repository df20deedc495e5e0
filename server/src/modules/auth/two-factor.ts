import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db, Executor } from '../../db/client.ts';
import { userRecoveryCodes, users } from '../../db/schema.ts';
import { AppError, validationError } from '../../errors.ts';
import { hashRecoveryCode, looksLikeRecoveryCode, newRecoveryCodes, newTotpSecret, otpauthUri, verifyTotp } from '../../auth/totp.ts';
import { actorOf, audit, type AuditActor } from '../../audit/audit.ts';
import type { Principal } from '../../auth/principal.ts';

/*
 * Two-factor sign-in (docs/decisions.md "Two-factor sign-in"): a TOTP secret confirmed with a code,
 * ten one-time recovery codes, and the code asked after the password at sign-in, token issue and
 * password reset.
 */

/** A second factor that passed: a TOTP step, or a recovery code (by its hash). Used up only when a session is made. */
export type SecondFactor = { kind: 'totp'; step: number } | { kind: 'recovery'; hash: string };

export interface TwoFactorUser {
  id: number;
  totp_secret: string | null;
  totp_enabled_at: Date | null;
  totp_last_step: number | null;
}

export const hasTwoFactor = (user: TwoFactorUser) => user.totp_enabled_at !== null && user.totp_secret !== null;

/** The factor `code` is for the user (a current TOTP code, or an unused recovery code), or null. */
export async function checkSecondFactor(db: Executor, user: TwoFactorUser, code: string): Promise<SecondFactor | null> {
  const step = user.totp_secret ? verifyTotp(user.totp_secret, code, user.totp_last_step) : null;
  if (step !== null) return { kind: 'totp', step };
  if (!looksLikeRecoveryCode(code)) return null;
  const hash = hashRecoveryCode(code);
  const [unused] = await db
    .select({ id: userRecoveryCodes.id })
    .from(userRecoveryCodes)
    .where(and(eq(userRecoveryCodes.user_id, user.id), eq(userRecoveryCodes.code_hash, hash), isNull(userRecoveryCodes.used_at)));
  return unused ? { kind: 'recovery', hash } : null;
}

/**
 * Uses the factor up, once: a TOTP step only if no later one was used (two requests with the same
 * code: one wins), a recovery code only if still unused. False when another request was first.
 */
export async function consumeSecondFactor(db: Executor, userId: number, factor: SecondFactor): Promise<boolean> {
  if (factor.kind === 'totp') {
    const { rowCount } = await db.execute(
      sql`update ${users} set totp_last_step = ${factor.step} where id = ${userId} and (totp_last_step is null or totp_last_step < ${factor.step})`,
    );
    return (rowCount ?? 0) > 0;
  }
  const used = await db
    .update(userRecoveryCodes)
    .set({ used_at: sql`now()` })
    .where(and(eq(userRecoveryCodes.user_id, userId), eq(userRecoveryCodes.code_hash, factor.hash), isNull(userRecoveryCodes.used_at)))
    .returning({ id: userRecoveryCodes.id });
  return used.length > 0;
}

const loadUser = async (db: Db, userId: number) => {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw new AppError('not_found', 'auth.user_not_found');
  return user;
};

/** The profile's view: on or off, since when, and how many recovery codes are left. */
export async function twoFactorStatus(db: Db, userId: number) {
  const user = await loadUser(db, userId);
  const [left] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(userRecoveryCodes)
    .where(and(eq(userRecoveryCodes.user_id, userId), isNull(userRecoveryCodes.used_at)));
  return { enabled: hasTwoFactor(user), enabled_at: user.totp_enabled_at?.toISOString() ?? null, recovery_codes_left: hasTwoFactor(user) ? left!.n : 0 };
}

/** Step 1 of turning it on: a new secret, kept as pending until a code confirms it. */
export async function startTwoFactorSetup(db: Db, principal: Principal): Promise<{ secret: string; otpauth_uri: string }> {
  const user = await loadUser(db, principal.userId);
  if (hasTwoFactor(user)) throw new AppError('conflict', 'two_factor.already_on');
  const secret = newTotpSecret();
  await db.update(users).set({ totp_pending_secret: secret }).where(eq(users.id, user.id));
  return { secret, otpauth_uri: otpauthUri(secret, user.email) };
}

/** Step 2: a code from the app confirms the secret; on, with ten new recovery codes (shown once). */
export async function enableTwoFactor(db: Db, principal: Principal, code: string): Promise<{ recovery_codes: string[] }> {
  const user = await loadUser(db, principal.userId);
  if (hasTwoFactor(user)) throw new AppError('conflict', 'two_factor.already_on');
  if (!user.totp_pending_secret) throw new AppError('conflict', 'two_factor.no_setup');
  const step = verifyTotp(user.totp_pending_secret, code, null);
  if (step === null) throw validationError('code', 'auth.two_factor_invalid');
  const codes = newRecoveryCodes();
  await db.transaction(async (tx) => {
    const on = await tx
      .update(users)
      .set({ totp_secret: user.totp_pending_secret, totp_enabled_at: sql`now()`, totp_last_step: step, totp_pending_secret: null })
      .where(and(eq(users.id, user.id), isNull(users.totp_enabled_at), eq(users.totp_pending_secret, user.totp_pending_secret!)))
      .returning({ id: users.id });
    if (on.length === 0) throw new AppError('conflict', 'two_factor.already_on');
    await tx.delete(userRecoveryCodes).where(eq(userRecoveryCodes.user_id, user.id));
    await tx.insert(userRecoveryCodes).values(codes.map((c) => ({ user_id: user.id, code_hash: hashRecoveryCode(c) })));
    await audit(tx, { action: 'auth.two_factor_enabled', actor: actorOf(principal), record: { type: 'user', id: user.id } });
  });
  return { recovery_codes: codes };
}

/** Off: the user's own choice (the caller checked the password and a code), or a super-administrator's reset for a lost device. */
export async function disableTwoFactor(db: Db, userId: number, by: AuditActor, reason: 'own' | 'reset', organizationId?: number | null): Promise<void> {
  await db.transaction(async (tx) => {
    const off = await tx
      .update(users)
      .set({ totp_secret: null, totp_enabled_at: null, totp_last_step: null, totp_pending_secret: null })
      .where(and(eq(users.id, userId), sql`${users.totp_enabled_at} is not null`))
      .returning({ id: users.id });
    if (off.length === 0) throw new AppError('conflict', 'two_factor.not_on');
    await tx.delete(userRecoveryCodes).where(eq(userRecoveryCodes.user_id, userId));
    await audit(tx, {
      action: reason === 'own' ? 'auth.two_factor_disabled' : 'auth.two_factor_reset',
      actor: by,
      organizationId,
      record: { type: 'user', id: userId },
    });
  });
}
