import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AbilityName } from '@mss/contracts/enums';
import type { AppContext } from '../context.ts';
import { forbidden } from '../errors.ts';
import { mayAny, maySomewhere } from './policy.ts';
import type { Principal } from './principal.ts';
import { notSignedIn, resolvePrincipal } from './session-auth.ts';

/** Signed in (401): the request's principal, from one query or none. */
async function signIn(ctx: AppContext, request: FastifyRequest): Promise<Principal> {
  const principal = await resolvePrincipal(ctx, request);
  if (!principal) throw notSignedIn(request);
  return principal;
}

/** preValidation: signed in (401) and holding at least one of the abilities (403). */
export function requireAnyAbility(ctx: AppContext, names: readonly AbilityName[]) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    if (!mayAny(await signIn(ctx, request), names)) throw forbidden();
  };
}

/** preValidation: signed in (401) and holding the ability somewhere: globally, for a market or through a company market (403). */
export function requireSomewhere(ctx: AppContext, name: AbilityName) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    if (!maySomewhere(await signIn(ctx, request), name)) throw forbidden();
  };
}

/**
 * preValidation: signed in (401) as a super-admin, who belongs to no organization (403).
 * For master data every organization shares (currencies, currency conversions, release notes):
 * an administrator of one organization must not change what another organization relies on.
 */
export function requireSuperAdmin(ctx: AppContext) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    if ((await signIn(ctx, request)).organizationId !== null) throw forbidden();
  };
}
