import { type AbilityName, type Permission, PERMISSIONS, type Role, type WorkflowAbility } from './enums.ts';

/** An ability as served by GET /users/me/abilities: entity_id and entity_type are null for global ones. */
export interface Ability {
  name: string;
  entity_id: number | null;
  entity_type: string | null;
}

export interface CompanyMarketLike {
  id: number;
  market_id: number;
  abilities: string[];
  roles: { name: string }[];
}

/** The parts of a user that the rules of docs/product.md §6 read. */
export interface RoleSubject {
  markets: { id: number }[];
  roles: { name: string }[];
  company?: { markets: CompanyMarketLike[] } | null;
}

// ---------------------------------------------------------------------------------------------
// Which role grants which abilities (docs/permissions.md explains the choices).
// `global` abilities have no entity; `perMarket` abilities are granted once per market of the
// role (entity_type "market"), and are also what a company market carrying the role lists.
// ---------------------------------------------------------------------------------------------

const ALL_PERMISSIONS: readonly Permission[] = PERMISSIONS;

const ORGANIZATION_WORKFLOW: WorkflowAbility[] = [
  'approve-reports',
  'approve-cluster-reports',
  'manage-periods',
  'view-statistics',
  'view-cluster-statistics',
  'view-report-history',
  'send-communications',
];

export const ROLE_GRANTS: Record<Role, { global: AbilityName[]; perMarket: AbilityName[] }> = {
  'super-admin': { global: [...ALL_PERMISSIONS, ...ORGANIZATION_WORKFLOW], perMarket: [] },
  admin: {
    // manage-organizations: their own organization only (settings, information modals); creating
    // and deleting organizations, and release notes, are the super-admin's.
    global: [...ALL_PERMISSIONS.filter((p) => p !== 'manage-releases'), ...ORGANIZATION_WORKFLOW],
    perMarket: [],
  },
  'market-admin': {
    global: ['list-users', 'view-markets', 'view-codes'],
    perMarket: ['approve-reports', 'manage-periods', 'view-statistics', 'view-report-history', 'send-communications'],
  },
  'cluster-admin': {
    global: ['list-users', 'view-markets', 'view-codes', 'approve-cluster-reports', 'view-cluster-statistics'],
    // Periods across the cluster's markets (for the cluster period list).
    perMarket: ['approve-reports', 'manage-periods', 'view-statistics', 'view-report-history'],
  },
  reporter: { global: ['view-codes'], perMarket: ['upload-reports', 'view-report-history', 'view-statistics'] },
  viewer: { global: [], perMarket: ['view-statistics'] },
  'cluster-viewer': { global: ['view-cluster-statistics'], perMarket: ['view-statistics'] },
  'just-stats': { global: [], perMarket: ['view-statistics'] },
  company: { global: [], perMarket: ['view-company-reports', 'view-report-history'] },
};

/** Abilities a company market lists for the roles it carries. */
export function companyMarketAbilities(roles: readonly string[]): string[] {
  const names = new Set<string>();
  for (const role of roles) {
    const grant = ROLE_GRANTS[role as Role];
    if (!grant) continue;
    for (const name of [...grant.global, ...grant.perMarket]) names.add(name);
  }
  return [...names].sort();
}

/**
 * The abilities of a user's direct roles over the user's own markets. Company-market abilities
 * are not repeated here: the check reads them from the company markets.
 */
export function abilitiesOfRoles(roles: readonly string[], marketIds: readonly number[]): Ability[] {
  const seen = new Set<string>();
  const out: Ability[] = [];
  const add = (name: string, entityId: number | null) => {
    const key = `${name}|${entityId ?? ''}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push({ name, entity_id: entityId, entity_type: entityId === null ? null : 'market' });
  };
  for (const role of roles) {
    const grant = ROLE_GRANTS[role as Role];
    if (!grant) continue;
    for (const name of grant.global) add(name, null);
    for (const name of grant.perMarket) for (const id of marketIds) add(name, id);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// docs/product.md §6 "Markets of a role" and "Ability check".
// ---------------------------------------------------------------------------------------------

/** A role is held directly or through any company market. */
export function holdsRole(user: RoleSubject, role: string): boolean {
  return holdsRoleDirectly(user, role) || (user.company?.markets ?? []).some((m) => m.roles.some((r) => r.name === role));
}

export function holdsRoleDirectly(user: RoleSubject, role: string): boolean {
  return user.roles.some((r) => r.name === role);
}

/**
 * market-admin and super-admin see all of the user's markets. Other roles: the user's own
 * markets when the role is held directly, otherwise the company markets carrying the role.
 */
export function marketsOfRole(user: RoleSubject, role: string): number[] {
  if (role === 'market-admin' || role === 'super-admin') return user.markets.map((m) => m.id);
  if (holdsRoleDirectly(user, role)) return user.markets.map((m) => m.id);
  return (user.company?.markets ?? []).filter((m) => m.roles.some((r) => r.name === role)).map((m) => m.market_id);
}

export interface AbilityEntity {
  id: number;
  type: string;
}

export interface AbilitySubject {
  /** null: abilities not loaded (or their fetch failed), so every check is denied. */
  abilities: Ability[] | null;
  companyMarkets?: CompanyMarketLike[] | null;
}

/**
 * No abilities loaded means denied. Granted if any company market lists the ability. Otherwise a
 * global ability matches by name with no entity; an entity-specific one must match name, entity
 * id and entity type.
 */
export function can(subject: AbilitySubject, name: AbilityName, entity?: AbilityEntity | null): boolean {
  if (!subject.abilities) return false;
  if ((subject.companyMarkets ?? []).some((m) => m.abilities.includes(name))) return true;
  if (!entity) return subject.abilities.some((a) => a.name === name && a.entity_id === null && a.entity_type === null);
  return subject.abilities.some((a) => a.name === name && a.entity_id === entity.id && a.entity_type === entity.type);
}

/**
 * Per-market check: a company market of that market listing the ability, a global ability, or
 * the ability granted for that market.
 */
export function canInMarket(subject: AbilitySubject, name: AbilityName, marketId: number): boolean {
  if (!subject.abilities) return false;
  if ((subject.companyMarkets ?? []).some((m) => m.market_id === marketId && m.abilities.includes(name))) return true;
  return can({ abilities: subject.abilities }, name) || can({ abilities: subject.abilities }, name, { id: marketId, type: 'market' });
}

export function canAny(subject: AbilitySubject, names: readonly AbilityName[], entity?: AbilityEntity | null): boolean {
  return names.some((n) => can(subject, n, entity));
}

export function canAll(subject: AbilitySubject, names: readonly AbilityName[], entity?: AbilityEntity | null): boolean {
  return names.length > 0 && names.every((n) => can(subject, n, entity));
}

/** Whether the user has the ability anywhere: globally, for some market, or through a company market. */
export function canSomewhere(subject: AbilitySubject, name: AbilityName): boolean {
  if (!subject.abilities) return false;
  if ((subject.companyMarkets ?? []).some((m) => m.abilities.includes(name))) return true;
  return subject.abilities.some((a) => a.name === name);
}
