import { sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { abilitiesOfRoles, companyMarketAbilities } from '@mss/contracts/abilities';
import type { User } from '@mss/contracts/users';
import { sessions } from '../db/schema.ts';
import type { AppContext } from '../context.ts';
import { localeOf } from '../i18n.ts';
import type { Principal } from './principal.ts';
import { AppError, invalidToken, unauthenticated } from '../errors.ts';
import type { TokenScope } from '@mss/contracts/auth';
import { hashToken } from './passwords.ts';

export const SESSION_COOKIE = 'mss_session';

/**
 * The credential a request carries. An Authorization header counts as the credential even when
 * it is malformed: a request that sends one is never judged by its cookie instead.
 */
export function credentialOf(request: FastifyRequest): { token: string; kind: 'session' | 'token' } | null {
  const header = request.headers.authorization;
  if (header !== undefined) {
    // The scheme is case-insensitive (RFC 7235): "bearer" works as "Bearer" does.
    const match = /^Bearer +([A-Za-z0-9._~+/-]+=*)$/i.exec(header);
    return match ? { token: match[1]!, kind: 'token' } : null;
  }
  const cookie = request.cookies[SESSION_COOKIE];
  return cookie ? { token: cookie, kind: 'session' } : null;
}

type PrincipalRow = {
  session_id: number;
  two_factor_on: boolean;
  /** The organization's require_two_factor setting as stored ('1': required), or null. */
  require_two_factor: string | null;
  kind: 'session' | 'token';
  scope: TokenScope;
  user_id: number;
  organization_id: number | null;
  last_used_at: Date;
  valid_until: Date;
  user: { id: number; uuid: string; email: string; first_name: string; last_name: string; phone: string | null; locale: string };
  roles: string[];
  organizations: { id: number; uuid: string; name: string }[];
  markets: { id: number; international_name: string; local_name: string; iso_code: string }[];
  company: { id: number; name: string } | null;
  company_markets: {
    id: number;
    market_id: number;
    roles: string[];
    market: { id: number; international_name: string; local_name: string; iso_code: string };
  }[];
};

/**
 * The session (live, not revoked, within its absolute lifetime), its enabled user, and what
 * that user holds in the session's organization: one round trip. Orders match GET /users/me.
 */
async function loadPrincipalRow(ctx: AppContext, tokenHash: string, kind: 'session' | 'token'): Promise<PrincipalRow | undefined> {
  const absoluteSeconds = ctx.config.SESSION_ABSOLUTE_LIFETIME_HOURS * 3600;
  const market = (m: string) =>
    sql.raw(`json_build_object('id', ${m}.id, 'international_name', ${m}.international_name, 'local_name', ${m}.local_name, 'iso_code', ${m}.iso_code)`);
  const result = await ctx.db.execute<PrincipalRow>(sql`
    select s.id as session_id, s.kind, s.scope, s.user_id, s.organization_id, s.last_used_at,
      u.totp_enabled_at is not null as two_factor_on,
      (select os.value from organization_settings os where os.organization_id = s.organization_id and os.key = 'require_two_factor') as require_two_factor,
      case when s.kind = 'session' then least(s.expires_at, s.created_at + make_interval(secs => ${absoluteSeconds})) else s.expires_at end as valid_until,
      json_build_object('id', u.id, 'uuid', u.uuid, 'email', u.email, 'first_name', u.first_name, 'last_name', u.last_name, 'phone', u.phone, 'locale', u.locale) as "user",
      coalesce((select json_agg(r.role order by r.role) from user_roles r where r.user_id = u.id), '[]') as roles,
      coalesce((select json_agg(json_build_object('id', o.id, 'uuid', o.uuid, 'name', o.name) order by o.name)
        from user_organizations uo join organizations o on o.id = uo.organization_id where uo.user_id = u.id), '[]') as organizations,
      coalesce((select json_agg(${market('m')} order by m.international_name)
        from user_markets um join markets m on m.id = um.market_id
        where um.user_id = u.id and (s.organization_id is null or m.organization_id = s.organization_id)), '[]') as markets,
      (select json_build_object('id', c.id, 'name', c.name) from companies c where c.id = u.company_id) as company,
      coalesce((select json_agg(json_build_object('id', cm.id, 'market_id', cm.market_id, 'roles', cm.roles, 'market', ${market('m')}) order by m.international_name)
        from company_markets cm join markets m on m.id = cm.market_id
        where cm.company_id = u.company_id and (s.organization_id is null or m.organization_id = s.organization_id)), '[]') as company_markets
    from sessions s join users u on u.id = s.user_id
    where s.token_hash = ${tokenHash} and s.kind = ${kind} and s.revoked_at is null and u.disabled_at is null
      and s.expires_at > now()
      and (s.kind = 'token' or s.created_at + make_interval(secs => ${absoluteSeconds}) > now())
    limit 1`);
  return result.rows[0];
}

/** The session's organization must still be the user's; a session without one is a super-admin's. */
function membershipHolds(row: PrincipalRow): boolean {
  if (row.organization_id === null) return row.roles.includes('super-admin');
  return !row.roles.includes('super-admin') && row.organizations.some((o) => o.id === row.organization_id);
}

/** The principal as the cache keeps it: everything but the request's language. */
export type SessionPrincipal = Omit<Principal, 'locale'>;

function toPrincipal(row: PrincipalRow): SessionPrincipal {
  const administers = row.organization_id === null ? 'all' : row.roles.includes('admin') ? row.organizations.map((o) => o.id) : [];
  const companyMarkets = row.company_markets.map((cm) => ({
    id: cm.id,
    market_id: cm.market_id,
    market: cm.market,
    abilities: companyMarketAbilities(cm.roles),
    roles: cm.roles.map((name) => ({ name })),
  }));
  const roles = row.roles.map((name) => ({ name }));
  const current = row.organizations.find((o) => o.id === row.organization_id) ?? null;
  const company = row.company ? { ...row.company, markets: companyMarkets } : null;
  const user: User = {
    ...row.user,
    name: `${row.user.first_name} ${row.user.last_name}`.trim(),
    role: roles[0]?.name ?? company?.markets.flatMap((m) => m.roles)[0]?.name ?? null,
    organization: current ? { uuid: current.uuid, name: current.name } : null,
    organizations: row.organizations.map((o) => ({ uuid: o.uuid, name: o.name })),
    markets: row.markets,
    roles,
    company,
  };
  // The organization requires two-factor sign-in of those who see every member's figures, and this one has not set it up.
  const twoFactorSetupRequired = row.require_two_factor === '1' && !row.two_factor_on && row.roles.some((r) => TWO_FACTOR_ROLES.includes(r));
  if (twoFactorSetupRequired) user.two_factor_required = true;
  return {
    twoFactorSetupRequired,
    userId: row.user_id,
    sessionId: row.session_id,
    sessionKind: row.kind,
    tokenScope: row.scope,
    organizationId: row.organization_id,
    administers,
    companyId: row.company?.id ?? null,
    roles: row.roles,
    organizationIds: row.organizations.map((o) => o.id),
    subject: {
      abilities: abilitiesOfRoles(
        row.roles,
        row.markets.map((m) => m.id),
      ),
      companyMarkets: company ? companyMarkets.map(({ market: _, ...cm }) => cm) : [],
    },
    user,
    validUntil: new Date(row.valid_until).getTime(),
    memo: {},
  };
}

/**
 * Finds the live session of an enabled user that the request's cookie or bearer token names,
 * still a member of the session's organization. Answers from the principal cache when it can
 * (cleared by every change: see principal-cache.ts), otherwise in one query.
 */
export async function resolvePrincipal(ctx: AppContext, request: FastifyRequest): Promise<Principal | null> {
  const principal = await findPrincipal(ctx, request);
  // A token limited to uploading goes nowhere else, whichever check of the route asked first.
  if (principal?.tokenScope === 'upload-reports' && !UPLOAD_SCOPE_ROUTES.has(`${request.method} ${request.routeOptions.url ?? ''}`)) {
    throw new AppError('forbidden', 'auth.token_scope');
  }
  // Two-factor sign-in required and not set up: the profile, to set it up, and nothing else.
  if (principal?.twoFactorSetupRequired && !TWO_FACTOR_SETUP_ROUTES.has(`${request.method} ${request.routeOptions.url ?? ''}`)) {
    throw new AppError('forbidden', 'two_factor.setup_required');
  }
  return principal;
}

async function findPrincipal(ctx: AppContext, request: FastifyRequest): Promise<Principal | null> {
  if (request.principal) return request.principal;
  const credential = credentialOf(request);
  if (!credential) return null;
  const tokenHash = hashToken(credential.token);
  const key = `${credential.kind}:${tokenHash}`;
  const cached = ctx.principals.get(key);
  if (cached) return (request.principal = { ...cached, locale: localeOf(request), ip: request.ip });
  const generation = ctx.principals.generation();
  const row = await loadPrincipalRow(ctx, tokenHash, credential.kind);
  if (!row) return null;
  if (!membershipHolds(row)) {
    // Removed from the organization since signing in (or made super-admin): the session is over.
    await revokeSessionById(ctx, row.session_id);
    return null;
  }
  // Note use at most once a minute, to keep reads from turning into writes.
  if (Date.now() - new Date(row.last_used_at).getTime() > 60_000) {
    await ctx.db.execute(sql`update ${sessions} set last_used_at = now() where id = ${row.session_id}`);
  }
  const principal = toPrincipal(row);
  ctx.principals.set(key, principal, generation);
  return (request.principal = { ...principal, locale: localeOf(request), ip: request.ip });
}

async function revokeSessionById(ctx: AppContext, sessionId: number) {
  await ctx.db.execute(sql`update ${sessions} set revoked_at = now() where id = ${sessionId} and revoked_at is null`);
}

/**
 * The 401 of a request that resolved to no one: "Invalid token." when it sent an Authorization
 * header (docs/product.md §8; the header is its credential, so the token is what failed), else "You are not
 * signed in." (no credential, or a session cookie that has ended).
 */
export function notSignedIn(request: FastifyRequest) {
  return request.headers.authorization !== undefined ? invalidToken() : unauthenticated();
}

/** preValidation hook for routes that need a signed-in user, whatever they hold. */
export function requireSignedIn(ctx: AppContext) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    if (!(await resolvePrincipal(ctx, request))) throw notSignedIn(request);
  };
}

/**
 * What a token limited to uploading (`upload-reports`) may call: its user, the reports it may see
 * and their rows and templates, sending rows or a file, and the imports (and signing itself out).
 * Anything else (submitting, statistics, administration) answers 403 "This token may only upload
 * its company's reports.", checked where every route finds who asks (`resolvePrincipal`). The
 * routes still check their own rights: the token is never more than its user.
 */
const UPLOAD_SCOPE_ROUTES = new Set(
  [
    'POST /auth/logout',
    'GET /users/me',
    'GET /reports',
    'GET /reports/:uuid',
    'GET /reports/:uuid/rows',
    'GET /reports/:uuid/template',
    'PUT /reports/:uuid/rows',
    'POST /reports/:uuid/file',
    'GET /imports',
    'GET /imports/:uuid',
    'GET /imports/:uuid/errors',
    'GET /imports/:uuid/marked',
    'GET /imports/:uuid/file',
  ].map((route) => route.replace(' /', ' /api/v1/')),
);

/** The roles an organization's two-factor requirement applies to: those who read every member's figures. */
const TWO_FACTOR_ROLES = ['admin', 'market-admin', 'cluster-admin'];

/**
 * What a session may call while its organization requires two-factor sign-in of its user and it is
 * not set up (docs/decisions.md "Two-factor sign-in"): the user and the profile, setting it up,
 * and signing out. Everything else answers 403 "Your organization requires two-factor sign-in:
 * turn it on on your profile first.".
 */
const TWO_FACTOR_SETUP_ROUTES = new Set(
  [
    'POST /auth/logout',
    'POST /auth/refresh',
    'POST /auth/organization',
    'GET /users/me',
    'PUT /users/me',
    'GET /users/me/abilities',
    'PUT /users/me/password',
    'GET /users/me/two-factor',
    'POST /users/me/two-factor/setup',
    'POST /users/me/two-factor/enable',
    'GET /users/me/tokens',
    'GET /users/me/notifications',
    'PUT /users/me/notifications',
    'GET /releases/unread',
    'GET /information-modals/active',
  ].map((route) => route.replace(' /', ' /api/v1/')),
);
