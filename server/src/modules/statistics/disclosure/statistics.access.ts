import { sql } from 'drizzle-orm';
import type { AbilityName } from '@mss/contracts/enums';
import { ORGANIZATION_SETTINGS } from '@mss/contracts/admin';
import { normalizeDecimal } from '@mss/contracts/decimal';
import type { Executor } from '../../../db/client.ts';
import { forbidden } from '../../../errors.ts';
import type { Principal } from '../../../auth/principal.ts';
import { mayIn, maySomewhere } from '../../../auth/policy.ts';

/*
 * Who sees what (docs/architecture.md §8), in the caller's organization (another organization's period, market,
 * cluster or company: 404), and the confidentiality settings of an organization.
 */

/** How the caller sees one market's statistics. */
export interface MarketAccess {
  /** super-admin, admin, market-admin, cluster-admin of the market: every period, everything. */
  approver: boolean;
  /** reporter or company user of a company reporting in the market: own figures and share. */
  member: boolean;
  /** Sees the market's statistics at all. */
  sees: boolean;
}

const COMPANY_ABILITIES: readonly AbilityName[] = ['upload-reports', 'view-company-reports'];

export function accessIn(principal: Principal, marketId: number, companyId: number | null): MarketAccess {
  const approver = mayIn(principal, 'approve-reports', marketId);
  const member = !approver && companyId !== null && mayIn(principal, COMPANY_ABILITIES, marketId);
  return { approver, member, sees: approver || member || mayIn(principal, 'view-statistics', marketId) };
}

/** Refuses a market the caller does not see: a company user gets the spec's company message. */
export function refuseMarket(principal: Principal, companyId: number | null): never {
  if (companyId !== null && maySomewhere(principal, COMPANY_ABILITIES)) throw forbidden('period.not_for_company');
  throw forbidden('statistics.no_access');
}

export interface Settings {
  minContributors: number;
  /** The dominance threshold as the exact decimal it is stored as: compared in SQL, never as a float. */
  dominancePercentage: string;
  /** The protection a confidential cell keeps against anyone who holds every published figure, in percent (exact decimal text). */
  protectionPercentage: string;
}

export async function settingsOf(db: Executor, organizationId: number): Promise<Settings> {
  const rows = await db.execute<{ key: string; value: string }>(
    sql`select key, value from organization_settings where organization_id = ${organizationId}
      and key in ('min_contributors', 'dominance_percentage', 'protection_percentage')`,
  );
  const stored = (key: string) => normalizeDecimal(rows.rows.find((r) => r.key === key)?.value ?? '');
  const contributors = stored('min_contributors');
  return {
    minContributors: contributors !== null && /^\d+$/.test(contributors) ? Number(contributors) : ORGANIZATION_SETTINGS.min_contributors.default,
    dominancePercentage: stored('dominance_percentage') ?? String(ORGANIZATION_SETTINGS.dominance_percentage.default),
    protectionPercentage: stored('protection_percentage') ?? String(ORGANIZATION_SETTINGS.protection_percentage.default),
  };
}

export const confidentialityOf = (settings: Settings, applied: boolean) => ({
  min_contributors: settings.minContributors,
  // The contract sends settings as numbers, as the settings screen edits them.
  dominance_percentage: Number(settings.dominancePercentage),
  protection_percentage: Number(settings.protectionPercentage),
  applied,
});
