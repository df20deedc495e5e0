import { describe, expect, it } from 'vitest';
import { abilitiesOfRoles } from '@mss/contracts/abilities';
import type { Principal } from './principal.ts';
import {
  administersAll,
  administersSessionOrganization,
  assertInOrganization,
  authorize,
  grantedMarkets,
  inOrganization,
  mayForCompany,
  mayIn,
  mayInAll,
  maySomewhere,
} from './policy.ts';

/** A principal as session-auth.ts resolves one: what the policy reads of it. */
function principal(over: {
  organizationId: number | null;
  roles?: string[];
  marketRoles?: Record<string, number[]>;
  companyId?: number | null;
  administers?: Principal['administers'];
}): Principal {
  const abilities = [
    ...abilitiesOfRoles(over.roles ?? [], []),
    ...Object.entries(over.marketRoles ?? {}).flatMap(([role, markets]) => abilitiesOfRoles([role], markets).filter((a) => a.entity_id !== null)),
  ];
  return {
    organizationId: over.organizationId,
    companyId: over.companyId ?? null,
    administers: over.administers ?? [],
    subject: { abilities, companyMarkets: [] },
  } as unknown as Principal;
}

describe('the access policy', () => {
  it('keeps each caller inside their organization: another organization’s record is not found; a super-admin crosses them', () => {
    const admin = principal({ organizationId: 1, roles: ['admin'], administers: [1] });
    expect(inOrganization(admin, 1)).toBe(true);
    expect(inOrganization(admin, 2)).toBe(false);
    expect(() => assertInOrganization(admin, 2)).toThrow(expect.objectContaining({ code: 'not_found' }));
    expect(() => assertInOrganization(admin, null)).toThrow(expect.objectContaining({ code: 'not_found' }));
    const superAdmin = principal({ organizationId: null, roles: ['super-admin'], administers: 'all' });
    expect(inOrganization(superAdmin, 2)).toBe(true);
    // What belongs to no organization (an audit entry of an unknown e-mail's sign-in) is the super-admin's only.
    expect(inOrganization(superAdmin, null)).toBe(true);
    expect(inOrganization(admin, null)).toBe(false);
    expect(administersAll(admin, [1])).toBe(true);
    expect(administersAll(admin, [1, 2])).toBe(false);
    expect(administersSessionOrganization(admin)).toBe(true);
    expect(administersSessionOrganization(principal({ organizationId: 1, roles: ['viewer'] }))).toBe(false);
  });

  it('grants a market role in its markets only, and a company’s records only to that company’s own users', () => {
    const marketAdmin = principal({ organizationId: 1, marketRoles: { 'market-admin': [10] } });
    expect(mayIn(marketAdmin, 'approve-reports', 10)).toBe(true);
    expect(mayIn(marketAdmin, 'approve-reports', 11)).toBe(false);
    expect(mayIn(marketAdmin, ['view-statistics', 'approve-reports'], 10)).toBe(true);
    expect(mayInAll(marketAdmin, 'approve-reports', [10, 11])).toBe(false);
    expect(mayInAll(marketAdmin, 'approve-reports', [])).toBe(false);
    expect(maySomewhere(marketAdmin, 'approve-reports')).toBe(true);
    expect(grantedMarkets(marketAdmin, 'approve-reports')).toEqual([10]);
    expect(grantedMarkets(principal({ organizationId: 1, roles: ['admin'] }), 'approve-reports')).toBe('all');

    const reporter = principal({ organizationId: 1, marketRoles: { reporter: [10] }, companyId: 5 });
    expect(mayForCompany(reporter, 'upload-reports', 10, 5)).toBe(true);
    expect(mayForCompany(reporter, 'upload-reports', 10, 6)).toBe(false);
    expect(mayForCompany(reporter, 'upload-reports', 11, 5)).toBe(false);
  });

  it('refuses with the reason asked for, or the general one', () => {
    expect(() => authorize(true)).not.toThrow();
    expect(() => authorize(false, 'period.no_access')).toThrow(expect.objectContaining({ code: 'forbidden', messageKey: 'period.no_access' }));
    expect(() => authorize(false)).toThrow(expect.objectContaining({ code: 'forbidden' }));
  });
});
