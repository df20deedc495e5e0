import type { FastifyRequest } from 'fastify';
import type { AbilitySubject } from '@mss/contracts/abilities';
import type { Locale } from '@mss/contracts/enums';
import type { User } from '@mss/contracts/users';
import { AppError } from '../errors.ts';

/**
 * Who calls, resolved once per request (session-auth.ts, in one query or from the principal
 * cache) and passed to every service: the session, the user, the organization chosen at sign-in,
 * what the user holds there, and the language the answer is written in.
 */
export interface Principal {
  userId: number;
  sessionId: number;
  sessionKind: 'session' | 'token';
  /** What the session may do: 'all' (a browser session, a full token) or 'upload-reports' (a limited token, session-auth.ts). */
  tokenScope: 'all' | 'upload-reports';
  /** The organization chosen at sign-in; null for a super-admin, who acts in every organization. */
  organizationId: number | null;
  /**
   * The organizations this user administers: every one for a super-admin; for a holder of the admin
   * role (which acts in every organization of the user) each organization they belong to; none
   * otherwise. What a person or company shared by several organizations is may only be changed by
   * who administers all of them.
   */
  administers: 'all' | readonly number[];
  /** The user's direct roles (global: they act in every organization the user belongs to). */
  roles: readonly string[];
  /** Ids of every organization the user belongs to (not only the session's). */
  organizationIds: readonly number[];
  /** The organization requires two-factor sign-in of this user and it is not set up: only the profile answers. */
  twoFactorSetupRequired: boolean;
  /** The user's company, for reporter and company users; null otherwise. */
  companyId: number | null;
  /** What the permission checks read: abilities per market, and the company's market roles. */
  subject: AbilitySubject;
  /** The user as GET /users/me serves it. */
  user: User;
  /** When the session stops being valid (its expiry, or the absolute end of a browser session). */
  validUntil: number;
  /** The language messages are rendered in: the request's Accept-Language, en-US when absent. */
  locale: Locale;
  /** The address the request came from (the audit trail's "from where"); set per request. */
  ip?: string;
  /**
   * What is looked up once per resolved session and shared by the requests the principal cache
   * answers (each gets a copy of the principal, this object by reference). It lives as long as
   * the cached principal, so every change that clears the cache clears it (principal-cache.ts).
   */
  memo?: { organizationMarketIds?: Promise<number[]> };
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** The principal of a request that passed a sign-in check (401 otherwise). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new AppError('unauthenticated', 'auth.unauthenticated');
  return request.principal;
}
