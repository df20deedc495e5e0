import type { IntegrationToken, TokenScope } from '@mss/contracts/auth';
import { and, asc, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { DEVICE_NAME_PATTERN, LOGIN_DECAY_SECONDS, LOGIN_MAX_ATTEMPTS, MIN_PASSWORD_LENGTH, PASSWORD_RESET_LIFETIME_HOURS } from '@mss/contracts/auth';
import type { MessageKey } from '@mss/contracts/messages';
import type { AppContext } from '../../context.ts';
import { loginAttempts, organizations, passwordResets, sessions, userOrganizations, userRoles, users } from '../../db/schema.ts';
import { AppError, validationError } from '../../errors.ts';
import { hashPassword, hashToken, newToken, verifyPassword } from '../../auth/passwords.ts';
import { backgroundWorkDone, runInBackground } from '../../lib/background.ts';
import { isUuid } from '../../lib/uuid.ts';
import { actorOf, audit, type AuditActor } from '../../audit/audit.ts';
import type { Principal } from '../../auth/principal.ts';
import { checkSecondFactor, consumeSecondFactor, disableTwoFactor, hasTwoFactor, type SecondFactor } from './two-factor.ts';

// A pragmatic e-mail shape check: one @, no spaces, a dot in the domain.
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export interface Credentials {
  email: string;
  password: string;
  organization?: string | null;
  /** The second factor, for a user with two-factor sign-in on. */
  code?: string | null;
  ip: string;
}

export type SignInResult =
  | { kind: 'enter-code' }
  | { kind: 'choose-organization'; organizations: { uuid: string; name: string }[] }
  | { kind: 'signed-in'; userId: number; organizationId: number | null };

/** Seconds until another attempt is allowed, or 0 when the e-mail and address may try now. */
async function throttledFor(ctx: AppContext, email: string, ip: string): Promise<number> {
  // Seconds are computed by the database, so that every API instance reads the same clock.
  const recent = await ctx.db
    .select({
      remaining: sql<string>`extract(epoch from ${loginAttempts.attempted_at} + make_interval(secs => ${LOGIN_DECAY_SECONDS}) - now())`,
    })
    .from(loginAttempts)
    .where(
      and(eq(loginAttempts.email, email), eq(loginAttempts.ip, ip), gt(loginAttempts.attempted_at, sql`now() - make_interval(secs => ${LOGIN_DECAY_SECONDS})`)),
    )
    .orderBy(desc(loginAttempts.attempted_at))
    .limit(LOGIN_MAX_ATTEMPTS);
  if (recent.length < LOGIN_MAX_ATTEMPTS) return 0;
  // Blocked until the oldest of the last N failures leaves the window.
  return Math.max(1, Math.ceil(Number(recent[recent.length - 1]!.remaining)));
}

/** A failed sign-in, in the audit trail: the e-mail given, from where, and why (never the password). */
async function auditFailure(ctx: AppContext, email: string, ip: string, reason: string, user?: { id: number } | null): Promise<void> {
  await audit(ctx.db, { action: 'auth.sign_in_failed', actor: { userId: user?.id ?? null, email, organizationId: null, ip }, details: { reason } });
}

async function recordFailure(ctx: AppContext, email: string, ip: string, reason: string): Promise<void> {
  await auditFailure(ctx, email, ip, reason);
  await ctx.db.insert(loginAttempts).values({ email, ip });
  // Keep the table small: anything older than the window no longer counts.
  await ctx.db.delete(loginAttempts).where(lt(loginAttempts.attempted_at, sql`now() - interval '1 day'`));
}

/**
 * Checks credentials the same way for a browser sign-in and an integration token: throttling,
 * e-mail shape, user and password, disabled account, organizations.
 */
export async function checkCredentials(ctx: AppContext, input: Credentials, wrong: MessageKey = 'auth.failed'): Promise<SignInResult> {
  const email = normalizeEmail(input.email);
  const wait = await throttledFor(ctx, email, input.ip);
  if (wait > 0) {
    await auditFailure(ctx, email, input.ip, 'throttled');
    throw new AppError('throttled', 'auth.throttle', { seconds: wait }, undefined, { 'Retry-After': String(wait) });
  }
  if (!EMAIL_PATTERN.test(email)) {
    await recordFailure(ctx, email, input.ip, 'invalid_email');
    throw validationError('email', 'auth.invalid_email');
  }
  const [user] = await ctx.db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.email})`, email))
    .limit(1);
  // Unknown user and wrong password answer alike, in words and in time (the password is checked
  // against a dummy hash when there is no user), so nobody can probe which e-mails exist.
  const passwordMatches = await verifyPassword(input.password, user?.password_hash ?? null);
  if (!user || !passwordMatches) {
    // One reason for both, as the answer: the trail does not tell which e-mails have an account either.
    await recordFailure(ctx, email, input.ip, 'wrong_credentials');
    throw validationError('email', wrong);
  }
  if (user.disabled_at) {
    await ctx.db.delete(loginAttempts).where(and(eq(loginAttempts.email, email), eq(loginAttempts.ip, input.ip)));
    await auditFailure(ctx, email, input.ip, 'disabled', user);
    throw new AppError('forbidden', 'auth.user_disabled');
  }
  // Two-factor sign-in: the code after the password. The password alone does not clear the
  // throttle, and a wrong code counts towards it like a wrong password.
  let factor: SecondFactor | null = null;
  if (hasTwoFactor(user)) {
    const code = input.code?.trim();
    if (!code) return { kind: 'enter-code' };
    factor = await checkSecondFactor(ctx.db, user, code);
    if (!factor) {
      await recordFailure(ctx, email, input.ip, 'wrong_code');
      throw validationError('code', 'auth.two_factor_invalid');
    }
  }
  await ctx.db.delete(loginAttempts).where(and(eq(loginAttempts.email, email), eq(loginAttempts.ip, input.ip)));
  /** Signed in: the second factor is used up now (a code once; of two requests with it, one). */
  const signedIn = async (organizationId: number | null): Promise<SignInResult> => {
    if (factor && !(await consumeSecondFactor(ctx.db, user.id, factor))) {
      await recordFailure(ctx, email, input.ip, 'wrong_code');
      throw validationError('code', 'auth.two_factor_invalid');
    }
    return { kind: 'signed-in', userId: user.id, organizationId };
  };

  const isSuperAdmin =
    (
      await ctx.db
        .select()
        .from(userRoles)
        .where(and(eq(userRoles.user_id, user.id), eq(userRoles.role, 'super-admin')))
    ).length > 0;
  // A super-admin belongs to no organization (docs/product.md §5) and acts across all of them.
  if (isSuperAdmin) return signedIn(null);

  const memberships = await ctx.db
    .select({ id: organizations.id, uuid: organizations.uuid, name: organizations.name })
    .from(userOrganizations)
    .innerJoin(organizations, eq(organizations.id, userOrganizations.organization_id))
    .where(eq(userOrganizations.user_id, user.id))
    .orderBy(asc(organizations.name));
  if (memberships.length === 0) throw new AppError('forbidden', 'auth.no_organization');
  if (input.organization) {
    const chosen = memberships.find((m) => m.uuid === input.organization);
    if (!chosen) throw validationError('organization', 'auth.organization_not_member');
    return signedIn(chosen.id);
  }
  if (memberships.length === 1) return signedIn(memberships[0]!.id);
  return { kind: 'choose-organization', organizations: memberships.map(({ uuid, name }) => ({ uuid, name })) };
}

export interface NewSession {
  token: string;
  expiresIn: number;
}

export async function createSession(
  ctx: AppContext,
  input: {
    userId: number;
    organizationId: number | null;
    kind: 'session' | 'token';
    deviceName?: string;
    scope?: TokenScope;
    ip: string;
    userAgent?: string;
    /** Who made it, when not the new session itself (a token made on the profile by a browser session). */
    by?: AuditActor;
  },
): Promise<NewSession> {
  const token = newToken();
  // A browser session never outlives its absolute lifetime, however the two settings are set.
  const expiresIn =
    input.kind === 'session'
      ? Math.min(ctx.config.SESSION_LIFETIME_SECONDS, Math.floor(ctx.config.SESSION_ABSOLUTE_LIFETIME_HOURS * 3600))
      : ctx.config.TOKEN_LIFETIME_DAYS * 86400;
  const [session] = await ctx.db
    .insert(sessions)
    .values({
      token_hash: hashToken(token),
      kind: input.kind,
      user_id: input.userId,
      organization_id: input.organizationId,
      device_name: input.deviceName ?? null,
      scope: input.scope ?? 'all',
      ip: input.ip,
      user_agent: input.userAgent?.slice(0, 500) ?? null,
      expires_at: sql`now() + make_interval(secs => ${expiresIn})`,
    })
    .returning({ id: sessions.id });
  const [user] = await ctx.db.select({ email: users.email }).from(users).where(eq(users.id, input.userId));
  await audit(ctx.db, {
    action: input.kind === 'session' ? 'auth.sign_in' : 'auth.token_issued',
    actor: input.by ?? {
      userId: input.userId,
      email: user?.email,
      organizationId: input.organizationId,
      via: input.kind,
      sessionId: session!.id,
      ip: input.ip,
    },
    record: { type: 'session', id: session!.id },
    details: input.kind === 'token' ? { device_name: input.deviceName ?? null, scope: input.scope ?? 'all' } : undefined,
  });
  return { token, expiresIn };
}

export async function issueToken(ctx: AppContext, input: Credentials & { deviceName?: string; scope?: TokenScope; userAgent?: string }): Promise<NewSession> {
  if (!input.deviceName || !DEVICE_NAME_PATTERN.test(input.deviceName)) {
    throw validationError('device_name', 'auth.device_name_invalid');
  }
  // An integration is told in the spec's words for credentials it provided (docs/product.md §8 "The
  // credentials provided are not valid."); the sign-in form keeps "These credentials do not match
  // our records.". Per door, never per account: unknown e-mail and wrong password still answer alike.
  const result = await checkCredentials(ctx, input, 'auth.invalid_credentials');
  if (result.kind === 'enter-code') throw validationError('code', 'auth.two_factor_required');
  if (result.kind === 'choose-organization') throw validationError('organization', 'auth.organization_required');
  return createSession(ctx, { ...result, kind: 'token', deviceName: input.deviceName, scope: input.scope, ip: input.ip, userAgent: input.userAgent });
}

/**
 * Extends a live session by its lifetime from now, but a browser session never past its absolute
 * end (SESSION_ABSOLUTE_LIFETIME_HOURS after sign-in): near that end the answer's expires_in
 * shrinks, and after it the session is gone (401) and the user signs in again.
 */
export async function refreshSession(ctx: AppContext, sessionId: number): Promise<number> {
  const sessionSeconds = ctx.config.SESSION_LIFETIME_SECONDS;
  const tokenSeconds = ctx.config.TOKEN_LIFETIME_DAYS * 86400;
  const absoluteSeconds = ctx.config.SESSION_ABSOLUTE_LIFETIME_HOURS * 3600;
  const result = await ctx.db.execute<{ expires_in: number }>(sql`
    update ${sessions} set
      expires_at = case when kind = 'token' then now() + make_interval(secs => ${tokenSeconds})
        else least(now() + make_interval(secs => ${sessionSeconds}), created_at + make_interval(secs => ${absoluteSeconds})) end,
      last_used_at = now()
    where id = ${sessionId} and revoked_at is null
    returning greatest(0, floor(extract(epoch from expires_at - now())))::int as expires_in`);
  return result.rows[0]?.expires_in ?? 0;
}

/** The user's live integration tokens, newest first (what the profile lists; never the token). */
export async function listTokens(ctx: AppContext, userId: number): Promise<IntegrationToken[]> {
  const rows = await ctx.db
    .select()
    .from(sessions)
    .where(and(eq(sessions.user_id, userId), eq(sessions.kind, 'token'), isNull(sessions.revoked_at), sql`${sessions.expires_at} > now()`))
    .orderBy(sql`${sessions.id} desc`);
  return rows.map((r) => ({
    id: r.id,
    device_name: r.device_name,
    scope: r.scope as TokenScope,
    created_at: r.created_at.toISOString(),
    last_used_at: r.last_used_at.toISOString(),
    expires_at: r.expires_at.toISOString(),
  }));
}

/** Revokes one of the user's tokens; false when it is not one (another user's, a browser session, revoked). */
export async function revokeToken(ctx: AppContext, by: AuditActor & { userId: number }, id: number): Promise<boolean> {
  const revoked = await ctx.db
    .update(sessions)
    .set({ revoked_at: sql`now()` })
    .where(and(eq(sessions.id, id), eq(sessions.user_id, by.userId), eq(sessions.kind, 'token'), isNull(sessions.revoked_at)))
    .returning({ id: sessions.id, device_name: sessions.device_name });
  if (revoked.length)
    await audit(ctx.db, { action: 'auth.token_revoked', actor: by, record: { type: 'session', id }, details: { device_name: revoked[0]!.device_name } });
  return revoked.length > 0;
}

/** Ends a session or token (signing out, or leaving it for a session in another organization). */
export async function revokeSession(ctx: AppContext, sessionId: number, ip: string | null = null): Promise<void> {
  const [revoked] = await ctx.db
    .update(sessions)
    .set({ revoked_at: sql`now()` })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revoked_at)))
    .returning({ user_id: sessions.user_id, organization_id: sessions.organization_id, kind: sessions.kind });
  if (revoked)
    await audit(ctx.db, {
      action: revoked.kind === 'token' ? 'auth.token_revoked' : 'auth.sign_out',
      actor: { userId: revoked.user_id, organizationId: revoked.organization_id, via: revoked.kind as 'session' | 'token', sessionId, ip },
      record: { type: 'session', id: sessionId },
    });
}

// ---------------------------------------------------------------------------------------------
// Password reset
// ---------------------------------------------------------------------------------------------

export function checkPasswordRules(password: string, confirmation: string): void {
  if (password.length < MIN_PASSWORD_LENGTH) throw validationError('password', 'auth.password_too_short');
  if (password !== confirmation) throw validationError('password_confirmation', 'auth.passwords_not_matching');
}

/**
 * Asks for a reset link. The answer is the same whether or not the address has an account
 * (docs/architecture.md §4 departure), and so is the time it takes: only the e-mail's shape is checked here,
 * the lookup and the mail happen after the answer (`sendPasswordReset`, in the background).
 */
export function requestPasswordReset(ctx: AppContext, input: { email: string; appUrl: string }): void {
  const email = normalizeEmail(input.email);
  if (!EMAIL_PATTERN.test(email)) throw validationError('email', 'auth.invalid_email');
  runInBackground(ctx.log, 'password reset request', () => sendPasswordReset(ctx, { email, appUrl: input.appUrl }));
}

/**
 * Sends a reset link when the address belongs to an enabled user. A second request within a
 * minute sends nothing new. A mail that cannot be sent is logged and its link deleted: nobody
 * waits for an answer any more (docs/decisions.md).
 */
export async function sendPasswordReset(ctx: AppContext, input: { email: string; appUrl: string }): Promise<void> {
  const email = normalizeEmail(input.email);
  const [user] = await ctx.db
    .select({ id: users.id, email: users.email, first_name: users.first_name })
    .from(users)
    .where(and(eq(sql`lower(${users.email})`, email), isNull(users.disabled_at)))
    .limit(1);
  if (!user) return;
  const [recent] = await ctx.db
    .select({ id: passwordResets.id })
    .from(passwordResets)
    .where(and(eq(passwordResets.user_id, user.id), isNull(passwordResets.used_at), gt(passwordResets.created_at, sql`now() - interval '60 seconds'`)))
    .limit(1);
  if (recent) return;

  const token = newToken();
  // A new link replaces any earlier one.
  await ctx.db.delete(passwordResets).where(eq(passwordResets.user_id, user.id));
  await ctx.db.insert(passwordResets).values({
    user_id: user.id,
    token_hash: hashToken(token),
    expires_at: sql`now() + make_interval(hours => ${PASSWORD_RESET_LIFETIME_HOURS})`,
  });
  const link = `${input.appUrl.replace(/\/$/, '')}/reset-password/${token}?email=${encodeURIComponent(user.email)}`;
  try {
    await ctx.mailer.send({
      to: user.email,
      subject: 'Reset your password',
      text: [
        `Hello ${user.first_name || user.email},`,
        '',
        'We received a request to reset the password of your Market Sales Statistics account.',
        'Open this link to choose a new password:',
        '',
        link,
        '',
        `The link can be used once and expires in ${PASSWORD_RESET_LIFETIME_HOURS} hours.`,
        'If you did not ask for this, you can ignore this e-mail.',
      ].join('\n'),
    });
  } catch (error) {
    // "Email could not be sent to this email address." can no longer be the answer: it would
    // come only for addresses that have an account.
    ctx.log.error({ err: error, userId: user.id }, 'password reset mail could not be sent');
    await ctx.db.delete(passwordResets).where(eq(passwordResets.token_hash, hashToken(token)));
  }
}

/** Resolves when the reset mails requested so far have been sent (or have failed and been logged). */
export const passwordResetWork = backgroundWorkDone;

export async function resetPassword(
  ctx: AppContext,
  input: { token: string; email: string; password: string; password_confirmation: string; code?: string | null; ip?: string | null },
): Promise<void> {
  checkPasswordRules(input.password, input.password_confirmation);
  const [reset] = await ctx.db
    .select({
      id: passwordResets.id,
      user_id: passwordResets.user_id,
      expires_at: passwordResets.expires_at,
      used_at: passwordResets.used_at,
      email: users.email,
    })
    .from(passwordResets)
    .innerJoin(users, eq(users.id, passwordResets.user_id))
    .where(eq(passwordResets.token_hash, hashToken(input.token)))
    .limit(1);
  if (!reset || reset.used_at || normalizeEmail(reset.email) !== normalizeEmail(input.email)) {
    throw validationError('token', 'passwords.token');
  }
  if (reset.expires_at.getTime() <= Date.now()) throw validationError('token', 'auth.reset_failed');
  // Two-factor sign-in on: the link alone does not change the password; the code is asked too.
  const [owner] = await ctx.db.select().from(users).where(eq(users.id, reset.user_id));
  let factor: SecondFactor | null = null;
  if (owner && hasTwoFactor(owner)) {
    const code = input.code?.trim();
    if (!code) throw validationError('code', 'auth.two_factor_required');
    const email = normalizeEmail(reset.email);
    const ip = input.ip ?? '';
    await assertNotThrottled(ctx, email, ip);
    factor = await checkSecondFactor(ctx.db, owner, code);
    if (!factor) {
      await recordFailure(ctx, email, ip, 'wrong_code');
      throw validationError('code', 'auth.two_factor_invalid');
    }
  }
  const passwordHash = await hashPassword(input.password);
  await ctx.db.transaction(async (tx) => {
    // Single use: the update only succeeds while the link is unused.
    const used = await tx
      .update(passwordResets)
      .set({ used_at: sql`now()` })
      .where(and(eq(passwordResets.id, reset.id), isNull(passwordResets.used_at)))
      .returning({ id: passwordResets.id });
    if (used.length === 0) throw validationError('token', 'passwords.token');
    if (factor && !(await consumeSecondFactor(tx, reset.user_id, factor))) throw validationError('code', 'auth.two_factor_invalid');
    await tx
      .update(users)
      .set({ password_hash: passwordHash, updated_at: sql`now()` })
      .where(eq(users.id, reset.user_id));
    // Whoever knew the old password is signed out everywhere.
    await tx
      .update(sessions)
      .set({ revoked_at: sql`now()` })
      .where(and(eq(sessions.user_id, reset.user_id), isNull(sessions.revoked_at)));
    await audit(tx, {
      action: 'auth.password_reset',
      actor: { userId: reset.user_id, email: reset.email, organizationId: null, ip: input.ip ?? null },
      record: { type: 'user', id: reset.user_id },
    });
  });
  await ctx.db.delete(loginAttempts).where(eq(loginAttempts.email, normalizeEmail(reset.email)));
}

// ---------------------------------------------------------------------------------------------
// The signed-in user's own account
// ---------------------------------------------------------------------------------------------

/**
 * A user of several organizations works in another one without signing out: a new browser session
 * in that organization, the old one revoked (its cookie stops working at once). An integration's
 * token stays in the organization it was issued for.
 */
export async function switchOrganization(
  ctx: AppContext,
  principal: { userId: number; sessionId: number; sessionKind: 'session' | 'token'; organizationId: number | null },
  input: { organization: string; ip: string; userAgent?: string },
): Promise<NewSession> {
  if (principal.sessionKind !== 'session') throw new AppError('forbidden', 'auth.token_organization');
  const [chosen] = isUuid(input.organization)
    ? await ctx.db
        .select({ id: organizations.id })
        .from(userOrganizations)
        .innerJoin(organizations, eq(organizations.id, userOrganizations.organization_id))
        .where(and(eq(userOrganizations.user_id, principal.userId), eq(organizations.uuid, input.organization)))
    : [];
  if (!chosen) throw validationError('organization', 'auth.organization_not_member');
  // The new session first: if anything fails, the user is still signed in where they were.
  const session = await createSession(ctx, { userId: principal.userId, organizationId: chosen.id, kind: 'session', ip: input.ip, userAgent: input.userAgent });
  await revokeSession(ctx, principal.sessionId, input.ip);
  return session;
}

/** 429 while the account is throttled from this address (too many failures in the window). */
async function assertNotThrottled(ctx: AppContext, email: string, ip: string): Promise<void> {
  const wait = await throttledFor(ctx, email, ip);
  if (wait > 0) throw new AppError('throttled', 'auth.throttle', { seconds: wait }, undefined, { 'Retry-After': String(wait) });
}

/**
 * The signed-in user's own password asked again (to change it, to turn two-factor sign-in off):
 * throttled, and a wrong one counts towards the account's sign-in throttle.
 */
async function confirmOwnPassword(ctx: AppContext, user: { email: string; password_hash: string | null }, password: string, ip: string, field: string) {
  const email = normalizeEmail(user.email);
  await assertNotThrottled(ctx, email, ip);
  if (!(await verifyPassword(password, user.password_hash))) {
    await recordFailure(ctx, email, ip, 'wrong_current_password');
    throw validationError(field, 'auth.invalid_password');
  }
}

/**
 * A user changes their own password: the current one first (wrong guesses count towards the
 * sign-in throttle of the account), then the spec's rules for the new one. Every other session
 * and token of the user ends; the one that changed it stays signed in.
 */
export async function changeOwnPassword(
  ctx: AppContext,
  principal: Principal,
  input: { current_password: string; password: string; password_confirmation: string; ip: string },
): Promise<void> {
  const [user] = await ctx.db.select({ email: users.email, password_hash: users.password_hash }).from(users).where(eq(users.id, principal.userId));
  if (!user) throw new AppError('not_found', 'auth.user_not_found');
  await confirmOwnPassword(ctx, user, input.current_password, input.ip, 'current_password');
  checkPasswordRules(input.password, input.password_confirmation);
  const passwordHash = await hashPassword(input.password);
  await ctx.db.transaction(async (tx) => {
    await tx.update(users).set({ password_hash: passwordHash }).where(eq(users.id, principal.userId));
    await tx
      .update(sessions)
      .set({ revoked_at: sql`now()` })
      .where(and(eq(sessions.user_id, principal.userId), isNull(sessions.revoked_at), sql`${sessions.id} <> ${principal.sessionId}`));
    await audit(tx, { action: 'auth.password_changed', actor: actorOf(principal, input.ip), record: { type: 'user', id: principal.userId } });
  });
}

/**
 * A user turns two-factor sign-in off: the password and a code (or a recovery code) first; wrong
 * ones count towards the sign-in throttle of the account.
 */
export async function disableOwnTwoFactor(ctx: AppContext, principal: Principal, input: { password: string; code: string; ip: string }): Promise<void> {
  const [user] = await ctx.db.select().from(users).where(eq(users.id, principal.userId));
  if (!user) throw new AppError('not_found', 'auth.user_not_found');
  if (!hasTwoFactor(user)) throw new AppError('conflict', 'two_factor.not_on');
  await confirmOwnPassword(ctx, user, input.password, input.ip, 'password');
  const email = normalizeEmail(user.email);
  const factor = await checkSecondFactor(ctx.db, user, input.code);
  if (!factor || !(await consumeSecondFactor(ctx.db, user.id, factor))) {
    await recordFailure(ctx, email, input.ip, 'wrong_code');
    throw validationError('code', 'auth.two_factor_invalid');
  }
  await disableTwoFactor(ctx.db, user.id, actorOf(principal, input.ip), 'own');
}
