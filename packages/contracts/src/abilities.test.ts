import { describe, expect, it } from 'vitest';
import {
  abilitiesOfRoles,
  type Ability,
  can,
  canAll,
  canAny,
  canInMarket,
  canSomewhere,
  companyMarketAbilities,
  holdsRole,
  marketsOfRole,
  type RoleSubject,
  ROLE_GRANTS,
} from './abilities.ts';
import { PERMISSIONS, ROLES } from './enums.ts';

const cm = (id: number, marketId: number, roles: string[], abilities: string[] = []) => ({
  id,
  market_id: marketId,
  roles: roles.map((name) => ({ name })),
  abilities,
});

const user = (over: Partial<RoleSubject>): RoleSubject => ({ markets: [], roles: [], company: null, ...over });

describe('markets of a role (docs/product.md §6)', () => {
  const base = user({
    markets: [{ id: 1 }, { id: 2 }],
    company: { markets: [cm(10, 3, ['viewer']), cm(11, 4, ['reporter', 'viewer'])] },
  });

  it("when the role is market-admin, then all of the user's markets, held or not", () => {
    expect(marketsOfRole(base, 'market-admin')).toEqual([1, 2]);
  });

  it("when the role is super-admin, then all of the user's markets", () => {
    expect(marketsOfRole(base, 'super-admin')).toEqual([1, 2]);
  });

  it("when another role is held directly, then the user's own markets", () => {
    expect(marketsOfRole({ ...base, roles: [{ name: 'viewer' }] }, 'viewer')).toEqual([1, 2]);
  });

  it('when another role is not held directly, then the company markets carrying it', () => {
    expect(marketsOfRole(base, 'viewer')).toEqual([3, 4]);
    expect(marketsOfRole(base, 'reporter')).toEqual([4]);
  });

  it('when the role is held nowhere, then no markets', () => {
    expect(marketsOfRole(base, 'cluster-admin')).toEqual([]);
    expect(marketsOfRole(user({ markets: [{ id: 1 }] }), 'viewer')).toEqual([]);
  });
});

describe('holding a role', () => {
  it('when held directly, then held', () => {
    expect(holdsRole(user({ roles: [{ name: 'admin' }] }), 'admin')).toBe(true);
  });
  it('when held through any company market, then held', () => {
    expect(holdsRole(user({ company: { markets: [cm(1, 1, []), cm(2, 2, ['company'])] } }), 'company')).toBe(true);
  });
  it('when held neither way, then not held', () => {
    expect(holdsRole(user({ roles: [{ name: 'viewer' }], company: { markets: [cm(1, 1, ['reporter'])] } }), 'admin')).toBe(false);
  });
});

describe('ability check (docs/product.md §6)', () => {
  const global: Ability = { name: 'manage-users', entity_id: null, entity_type: null };
  const inMarket7: Ability = { name: 'approve-reports', entity_id: 7, entity_type: 'market' };

  it('when no abilities are loaded, then denied, even with company markets listing it', () => {
    expect(can({ abilities: null, companyMarkets: [cm(1, 1, [], ['manage-users'])] }, 'manage-users')).toBe(false);
    expect(canInMarket({ abilities: null }, 'approve-reports', 7)).toBe(false);
    expect(canAny({ abilities: null }, ['manage-users'])).toBe(false);
    expect(canSomewhere({ abilities: null }, 'manage-users')).toBe(false);
  });

  it('when any company market lists the ability, then granted', () => {
    expect(can({ abilities: [], companyMarkets: [cm(1, 1, [], ['view-statistics'])] }, 'view-statistics')).toBe(true);
  });

  it('when a global ability has the name and no entity, then granted', () => {
    expect(can({ abilities: [global] }, 'manage-users')).toBe(true);
  });

  it('when only an entity-specific ability has the name, then a check without entity is denied', () => {
    expect(can({ abilities: [inMarket7] }, 'approve-reports')).toBe(false);
  });

  it('when entity-specific, then name, entity id and entity type must all match', () => {
    expect(can({ abilities: [inMarket7] }, 'approve-reports', { id: 7, type: 'market' })).toBe(true);
    expect(can({ abilities: [inMarket7] }, 'approve-reports', { id: 8, type: 'market' })).toBe(false);
    expect(can({ abilities: [inMarket7] }, 'approve-reports', { id: 7, type: 'company' })).toBe(false);
    expect(can({ abilities: [inMarket7] }, 'manage-periods', { id: 7, type: 'market' })).toBe(false);
  });

  it('when the name differs, then denied', () => {
    expect(can({ abilities: [global] }, 'list-users')).toBe(false);
  });

  it("per market: the company market of that market, a global ability or the market's own ability", () => {
    const subject = { abilities: [inMarket7], companyMarkets: [cm(1, 3, [], ['upload-reports'])] };
    expect(canInMarket(subject, 'upload-reports', 3)).toBe(true);
    expect(canInMarket(subject, 'upload-reports', 4)).toBe(false);
    expect(canInMarket(subject, 'approve-reports', 7)).toBe(true);
    expect(canInMarket(subject, 'approve-reports', 8)).toBe(false);
    expect(canInMarket({ abilities: [{ name: 'approve-reports', entity_id: null, entity_type: null }] }, 'approve-reports', 8)).toBe(true);
  });

  it('any of a list: at least one; all of a list: every one', () => {
    const subject = { abilities: [global] };
    expect(canAny(subject, ['list-users', 'manage-users'])).toBe(true);
    expect(canAny(subject, ['list-users', 'view-codes'])).toBe(false);
    expect(canAll(subject, ['manage-users'])).toBe(true);
    expect(canAll(subject, ['manage-users', 'list-users'])).toBe(false);
    expect(canAll(subject, [])).toBe(false);
  });
});

describe('role grants (docs/permissions.md)', () => {
  it('every role grants something, and every permission of docs/product.md §6 is granted by some role', () => {
    for (const role of ROLES) expect(ROLE_GRANTS[role].global.length + ROLE_GRANTS[role].perMarket.length).toBeGreaterThan(0);
    const granted = new Set(ROLES.flatMap((r) => ROLE_GRANTS[r].global));
    for (const p of PERMISSIONS) expect(granted.has(p)).toBe(true);
  });

  it('only the super-admin and administrators manage organizations, and only the super-admin release notes', () => {
    expect(ROLES.filter((r) => ROLE_GRANTS[r].global.includes('manage-organizations'))).toEqual(['admin', 'super-admin']);
    expect(ROLES.filter((r) => ROLE_GRANTS[r].global.includes('manage-releases'))).toEqual(['super-admin']);
  });

  it('direct roles give global abilities once and per-market abilities for each market', () => {
    const abilities = abilitiesOfRoles(['market-admin', 'cluster-admin'], [1, 2]);
    expect(abilities.filter((a) => a.name === 'list-users')).toEqual([{ name: 'list-users', entity_id: null, entity_type: null }]);
    expect(abilities.filter((a) => a.name === 'approve-reports').map((a) => a.entity_id)).toEqual([1, 2]);
  });

  it('company markets list the abilities of the roles they carry', () => {
    expect(companyMarketAbilities(['reporter'])).toEqual(['upload-reports', 'view-codes', 'view-report-history', 'view-statistics']);
    expect(companyMarketAbilities(['unknown'])).toEqual([]);
  });
});
