import type { FastifyReply, FastifyRequest } from 'fastify';
import { type AbilitySubject, canAny } from '@mss/contracts/abilities';
import type { AbilityName } from '@mss/contracts/enums';
import type { Actor, AppContext } from '../context.ts';
import { forbidden, unauthenticated } from '../errors.ts';
import { findCompanyMarketAbilities, findCurrentAbilities } from '../modules/users/users.service.ts';
import { resolveActor } from './session-auth.ts';

declare module 'fastify' {
  interface FastifyRequest {
    abilitySubject: AbilitySubject | null;
  }
}

/**
 * The same subject the web app checks: the user's abilities and company markets (as GET
 * /users/me and /users/me/abilities serve them), loaded for every request in three queries.
 */
export async function loadAbilitySubject(ctx: AppContext, actor: Actor): Promise<AbilitySubject> {
  const [abilities, companyMarkets] = await Promise.all([findCurrentAbilities(ctx.db, actor), findCompanyMarketAbilities(ctx.db, actor)]);
  return { abilities, companyMarkets };
}

/** preValidation: signed in (401) and holding at least one of the abilities (403). */
export function requireAnyAbility(ctx: AppContext, names: readonly AbilityName[]) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    request.actor = await resolveActor(ctx, request);
    if (!request.actor) throw unauthenticated();
    request.abilitySubject = await loadAbilitySubject(ctx, request.actor);
    if (!canAny(request.abilitySubject, names)) throw forbidden();
  };
}

/** preValidation hook: signed in (401), with the ability subject loaded for per-market checks. */
export function requireAbilitySubject(ctx: AppContext) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    request.actor = await resolveActor(ctx, request);
    if (!request.actor) throw unauthenticated();
    request.abilitySubject = await loadAbilitySubject(ctx, request.actor);
  };
}

export function abilitySubjectOf(request: FastifyRequest): AbilitySubject {
  if (!request.abilitySubject) throw unauthenticated();
  return request.abilitySubject;
}
