import type { FastifyReply, FastifyRequest } from 'fastify';
import { type AbilitySubject, canAny } from '@mss/contracts/abilities';
import type { AbilityName } from '@mss/contracts/enums';
import type { AppContext } from '../context.ts';
import { forbidden, unauthenticated } from '../errors.ts';
import { resolvePrincipal } from './session-auth.ts';

declare module 'fastify' {
  interface FastifyRequest {
    abilitySubject: AbilitySubject | null;
  }
}

/** Signed in (401), with the ability subject loaded for per-market checks: one query or none. */
async function signIn(ctx: AppContext, request: FastifyRequest): Promise<AbilitySubject> {
  const principal = await resolvePrincipal(ctx, request);
  if (!principal) throw unauthenticated();
  request.actor = principal.actor;
  request.abilitySubject = principal.subject;
  return principal.subject;
}

/** preValidation: signed in (401) and holding at least one of the abilities (403). */
export function requireAnyAbility(ctx: AppContext, names: readonly AbilityName[]) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    if (!canAny(await signIn(ctx, request), names)) throw forbidden();
  };
}

/** preValidation hook: signed in (401), with the ability subject loaded for per-market checks. */
export function requireAbilitySubject(ctx: AppContext) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    await signIn(ctx, request);
  };
}

export function abilitySubjectOf(request: FastifyRequest): AbilitySubject {
  if (!request.abilitySubject) throw unauthenticated();
  return request.abilitySubject;
}

/**
 * preValidation: signed in (401) as a super-admin, who belongs to no organization (403).
 * For master data every organization shares (currencies, currency conversions, release notes):
 * an administrator of one organization must not change what another organization relies on.
 */
export function requireSuperAdmin(ctx: AppContext) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    await signIn(ctx, request);
    if (request.actor?.organizationId !== null) throw forbidden();
  };
}
