import { sql } from 'drizzle-orm';
import type { Role } from '@mss/contracts/enums';
import type { Db } from '../db/client.ts';
import {
  clusterMarkets,
  clusters,
  companies,
  companyMarkets,
  companyOrganizations,
  currencies,
  markets,
  organizations,
  userMarkets,
  userOrganizations,
  userRoles,
  users,
} from '../db/schema.ts';
import { hashPassword } from '../auth/passwords.ts';

export const DEMO_PASSWORD = 'demo-password';

export interface DemoSignIn {
  email: string;
  role: string;
  organizations: string[];
}

export async function isDatabaseEmpty(db: Db): Promise<boolean> {
  const [row] = await db.select({ n: sql<number>`(select count(*) from users) + (select count(*) from organizations)` }).from(sql`(select 1) as one`);
  return Number(row?.n ?? 0) === 0;
}

/** Loads the demo data (issue 2) into an empty database and returns the demo sign-ins. */
export async function seedDemo(db: Db): Promise<DemoSignIn[]> {
  return db.transaction(async (tx) => {
    const [nordic, baltic] = await tx
      .insert(organizations)
      .values([
        { name: 'Nordic Sales Association', mail_description: 'Nordic Sales Association statistics' },
        { name: 'Baltic Sales Association', mail_description: 'Baltic Sales Association statistics' },
      ])
      .returning();
    const currencyRows = await tx
      .insert(currencies)
      .values([
        { iso_code: 'SEK', name: 'Swedish krona' },
        { iso_code: 'EUR', name: 'Euro' },
        { iso_code: 'DKK', name: 'Danish krone' },
        { iso_code: 'NOK', name: 'Norwegian krone' },
      ])
      .returning();
    const currency = (iso: string) => currencyRows.find((c) => c.iso_code === iso)!.id;
    const [se, fi, dk, no, ee] = await tx
      .insert(markets)
      .values([
        { organization_id: nordic!.id, international_name: 'Sweden', local_name: 'Sverige', iso_code: 'SE', currency_id: currency('SEK') },
        { organization_id: nordic!.id, international_name: 'Finland', local_name: 'Suomi', iso_code: 'FI', currency_id: currency('EUR') },
        { organization_id: nordic!.id, international_name: 'Denmark', local_name: 'Danmark', iso_code: 'DK', currency_id: currency('DKK') },
        { organization_id: nordic!.id, international_name: 'Norway', local_name: 'Norge', iso_code: 'NO', currency_id: currency('NOK') },
        { organization_id: baltic!.id, international_name: 'Estonia', local_name: 'Eesti', iso_code: 'EE', currency_id: currency('EUR') },
      ])
      .returning();
    const nordicMarkets = [se!, fi!, dk!, no!];
    const [nordicCluster] = await tx.insert(clusters).values({ organization_id: nordic!.id, name: 'Nordic' }).returning();
    await tx.insert(clusterMarkets).values(nordicMarkets.map((m) => ({ cluster_id: nordicCluster!.id, market_id: m.id })));

    const [nordlys, fjord, sisu] = await tx
      .insert(companies)
      .values([{ name: 'Nordlys Trading AB' }, { name: 'Fjord Equipment AS' }, { name: 'Sisu Machines Oy' }])
      .returning();
    await tx.insert(companyOrganizations).values([nordlys!, fjord!, sisu!].map((c) => ({ company_id: c.id, organization_id: nordic!.id })));
    // Company markets: where a company reports. Sisu's carry roles, so that its users act through them.
    await tx.insert(companyMarkets).values([
      { company_id: nordlys!.id, market_id: se!.id },
      { company_id: nordlys!.id, market_id: no!.id },
      { company_id: fjord!.id, market_id: no!.id },
      { company_id: fjord!.id, market_id: dk!.id },
      { company_id: sisu!.id, market_id: fi!.id, roles: ['company', 'reporter'] },
      { company_id: sisu!.id, market_id: se!.id, roles: ['company'] },
    ]);

    const passwordHash = await hashPassword(DEMO_PASSWORD);
    const people: { role: Role | null; first: string; last: string; orgs: number[]; markets: number[]; company?: number; email?: string }[] = [
      { role: 'super-admin', first: 'Sam', last: 'Super', orgs: [], markets: [] },
      { role: 'admin', first: 'Ada', last: 'Admin', orgs: [nordic!.id, baltic!.id], markets: [...nordicMarkets.map((m) => m.id), ee!.id] },
      { role: 'reporter', first: 'Rita', last: 'Reporter', orgs: [nordic!.id], markets: [se!.id, no!.id], company: nordlys!.id },
      { role: 'cluster-admin', first: 'Clara', last: 'Cluster', orgs: [nordic!.id], markets: nordicMarkets.map((m) => m.id) },
      { role: 'market-admin', first: 'Magnus', last: 'Market', orgs: [nordic!.id], markets: [se!.id] },
      { role: 'viewer', first: 'Vera', last: 'Viewer', orgs: [nordic!.id], markets: [se!.id, fi!.id] },
      { role: 'cluster-viewer', first: 'Cecilia', last: 'Clusterview', orgs: [nordic!.id], markets: nordicMarkets.map((m) => m.id) },
      { role: 'just-stats', first: 'Jonas', last: 'Stats', orgs: [nordic!.id], markets: [dk!.id] },
      { role: null, email: 'company@demo.test', first: 'Kari', last: 'Company', orgs: [nordic!.id], markets: [], company: sisu!.id },
    ];
    const signIns: DemoSignIn[] = [];
    for (const person of people) {
      const email = person.email ?? `${person.role}@demo.test`;
      const [user] = await tx
        .insert(users)
        .values({ email, first_name: person.first, last_name: person.last, password_hash: passwordHash, company_id: person.company ?? null })
        .returning();
      if (person.role) await tx.insert(userRoles).values({ user_id: user!.id, role: person.role });
      if (person.orgs.length) await tx.insert(userOrganizations).values(person.orgs.map((id) => ({ user_id: user!.id, organization_id: id })));
      if (person.markets.length) await tx.insert(userMarkets).values(person.markets.map((id) => ({ user_id: user!.id, market_id: id })));
      signIns.push({
        email,
        role: person.role ?? 'company (through its company markets)',
        organizations: person.orgs.map((id) => (id === nordic!.id ? nordic!.name : baltic!.name)),
      });
    }
    return signIns;
  });
}
