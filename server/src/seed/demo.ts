import { eq, sql } from 'drizzle-orm';
import { ReportStatus, type Role } from '@mss/contracts/enums';
import type { Db } from '../db/client.ts';
import {
  clusterMarkets,
  clusters,
  codeGroupCodes,
  codeGroups,
  codeMarkets,
  codes,
  codeSectionMarkets,
  codeSections,
  companies,
  companyCodes,
  companyMarkets,
  companyOrganizations,
  currencies,
  currencyConversions,
  informationModals,
  markets,
  organizations,
  periods,
  releases,
  reportRows,
  reportRowSets,
  reports,
  reportStatusChanges,
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

    // Codes: numeric ranges make the sections; groups cut across them.
    const sectionRows = await tx
      .insert(codeSections)
      .values([
        { organization_id: nordic!.id, name: 'Tractors', start: 1000, length: 100 },
        { organization_id: nordic!.id, name: 'Harvesters', start: 1100, length: 100 },
        { organization_id: nordic!.id, name: 'Construction machines', start: 2000, length: 100 },
        { organization_id: nordic!.id, name: 'Spare parts', start: 3000, length: 100 },
      ])
      .returning();
    await tx.insert(codeSectionMarkets).values(sectionRows.flatMap((section) => nordicMarkets.map((m) => ({ code_section_id: section.id, market_id: m.id }))));
    const codeSpecs: [string, string, number][] = [
      ['1001', 'Tractors below 50 hp', 0],
      ['1002', 'Tractors 50–99 hp', 0],
      ['1003', 'Tractors 100–149 hp', 0],
      ['1004', 'Tractors 150–199 hp', 0],
      ['1005', 'Tractors 200 hp and above', 0],
      ['1006', 'Electric tractors', 0],
      ['1007', 'Compact tractors', 0],
      ['1008', 'Tractors, used (trade-in)', 10],
      ['1101', 'Combine harvesters', 0],
      ['1102', 'Forage harvesters', 0],
      ['1103', 'Potato harvesters', 0],
      ['1104', 'Sugar beet harvesters', 20],
      ['1105', 'Harvester headers', 0],
      ['1106', 'Balers', 0],
      ['1107', 'Mowers', 0],
      ['2001', 'Excavators below 6 t', 0],
      ['2002', 'Excavators 6–20 t', 0],
      ['2003', 'Excavators above 20 t', 0],
      ['2004', 'Wheel loaders', 0],
      ['2005', 'Backhoe loaders', 0],
      ['2006', 'Dumpers', 0],
      ['2007', 'Electric excavators', 0],
      ['2008', 'Compactors', 0],
      ['2009', 'Telehandlers', 30],
      ['3001', 'Engine parts', 0],
      ['3002', 'Hydraulic parts', 0],
      ['3003', 'Tyres and tracks', 0],
      ['3004', 'Filters and lubricants', 0],
      ['3005', 'Cabin and electronics', 0],
      ['3006', 'Batteries and chargers', 0],
    ];
    const codeRows = await tx
      .insert(codes)
      .values(codeSpecs.map(([code, name, disabled_status]) => ({ organization_id: nordic!.id, code, name, disabled_status })))
      .returning();
    await tx.insert(codeMarkets).values(codeRows.flatMap((c) => nordicMarkets.map((m) => ({ code_id: c.id, market_id: m.id }))));
    const codeIds = (prefix: string) => codeRows.filter((c) => c.code.startsWith(prefix)).map((c) => c.id);
    const byCode = (...list: string[]) => codeRows.filter((c) => list.includes(c.code)).map((c) => c.id);
    const groupRows = await tx
      .insert(codeGroups)
      .values([
        { organization_id: nordic!.id, title: 'Agriculture' },
        { organization_id: nordic!.id, title: 'Electric machines' },
        { organization_id: nordic!.id, title: 'Earth moving' },
        { organization_id: nordic!.id, title: 'Aftermarket' },
      ])
      .returning();
    const groupCodes: [number, number[]][] = [
      [groupRows[0]!.id, [...codeIds('10'), ...codeIds('11')]],
      [groupRows[1]!.id, byCode('1006', '2007', '3006')],
      [groupRows[2]!.id, byCode('2001', '2002', '2003', '2004', '2005', '2006', '2007')],
      [groupRows[3]!.id, codeIds('30')],
    ];
    await tx.insert(codeGroupCodes).values(groupCodes.flatMap(([groupId, ids]) => ids.map((code_id) => ({ code_group_id: groupId, code_id }))));
    // What each company reports.
    await tx
      .insert(companyCodes)
      .values([
        ...[...codeIds('10'), ...codeIds('30')].map((code_id) => ({ company_id: nordlys!.id, code_id })),
        ...codeIds('20').map((code_id) => ({ company_id: fjord!.id, code_id })),
        ...[...codeIds('11'), ...codeIds('10')].map((code_id) => ({ company_id: sisu!.id, code_id })),
      ]);

    // Conversions between the four currencies and EUR (rate: multiply to convert).
    const rates: [string, string, string, string][] = [
      ['SEK', 'EUR', '0.0870', '0.0874'],
      ['DKK', 'EUR', '0.1340', '0.1341'],
      ['NOK', 'EUR', '0.0850', '0.0858'],
      ['EUR', 'SEK', '11.4900', '11.4400'],
      ['EUR', 'DKK', '7.4600', '7.4580'],
      ['EUR', 'NOK', '11.7600', '11.6500'],
    ];
    await tx.insert(currencyConversions).values(
      rates.flatMap(([from, to, january, july]) => [
        { from_currency_id: currency(from), to_currency_id: currency(to), rate: january, valid_from: '2026-01-01' },
        { from_currency_id: currency(from), to_currency_id: currency(to), rate: july, valid_from: '2026-07-01' },
      ]),
    );

    await tx.insert(releases).values({
      version: '1.0.0',
      release_date: '2026-11-01',
      title: 'Welcome to the new statistics service',
      notes:
        'Sign in with your e-mail address, choose your organization if you belong to several, and find your screens in the menu. ' +
        'Administrators now manage markets, companies, codes and users here.',
    });
    await tx.insert(informationModals).values({
      organization_id: nordic!.id,
      title: 'Reporting for November is open',
      body: 'Please upload your November figures by 10 December. Contact your market administrator if a code is missing.',
      active: true,
    });

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
    const signInIds = new Map<string, number>();
    for (const person of people) {
      const email = person.email ?? `${person.role}@demo.test`;
      const [user] = await tx
        .insert(users)
        .values({ email, first_name: person.first, last_name: person.last, password_hash: passwordHash, company_id: person.company ?? null })
        .returning();
      if (person.role) await tx.insert(userRoles).values({ user_id: user!.id, role: person.role });
      if (person.orgs.length) await tx.insert(userOrganizations).values(person.orgs.map((id) => ({ user_id: user!.id, organization_id: id })));
      if (person.markets.length) await tx.insert(userMarkets).values(person.markets.map((id) => ({ user_id: user!.id, market_id: id })));
      signInIds.set(email, user!.id);
      signIns.push({
        email,
        role: person.role ?? 'company (through its company markets)',
        organizations: person.orgs.map((id) => (id === nordic!.id ? nordic!.name : baltic!.name)),
      });
    }

    // Reporting: September closed, approved and published; October open with Ongoing reports.
    const reportingMarkets = [se!, no!];
    const reportingCompanies: Record<number, { id: number; codeIds: number[] }[]> = {
      [se!.id]: [
        { id: nordlys!.id, codeIds: [...codeIds('10'), ...codeIds('30')] },
        { id: sisu!.id, codeIds: [...codeIds('11'), ...codeIds('10')] },
      ],
      [no!.id]: [
        { id: nordlys!.id, codeIds: [...codeIds('10'), ...codeIds('30')] },
        { id: fjord!.id, codeIds: codeIds('20') },
      ],
    };
    const admin = signInIds.get('admin@demo.test')!;
    const submitters: Record<number, number | undefined> = {
      [nordlys!.id]: signInIds.get('reporter@demo.test'),
      [sisu!.id]: signInIds.get('company@demo.test'),
    };
    for (const market of reportingMarkets) {
      const [september, october] = await tx
        .insert(periods)
        .values([
          {
            market_id: market.id,
            title: '2026-09',
            starts_on: '2026-09-01',
            ends_on: '2026-09-30',
            deadline: '2026-10-10',
            status: 'closed',
            opened_at: new Date('2026-09-01T06:00:00Z'),
            closed_at: new Date('2026-10-15T06:00:00Z'),
            published_at: new Date('2026-10-16T06:00:00Z'),
          },
          {
            market_id: market.id,
            title: '2026-10',
            starts_on: '2026-10-01',
            ends_on: '2026-10-31',
            deadline: '2026-11-10',
            status: 'open',
            opened_at: new Date('2026-10-01T06:00:00Z'),
          },
        ])
        .returning();
      // The one place besides reports.workflow.ts that writes report statuses and history: the
      // demo's past is back-dated (and September is approved in a closed period, which the
      // workflow rightly refuses), so it is written as it would have been recorded.
      for (const company of reportingCompanies[market.id]!) {
        const [approved] = await tx
          .insert(reports)
          .values({
            period_id: september!.id,
            company_id: company.id,
            status: ReportStatus.Approved,
            submitted_at: new Date('2026-10-08T09:00:00Z'),
            approved_at: new Date('2026-10-12T09:00:00Z'),
          })
          .returning();
        // Deterministic, plausible figures: volumes in tens, values in local currency.
        const [rowSet] = await tx.insert(reportRowSets).values({ report_id: approved!.id }).returning();
        await tx.insert(reportRows).values(
          company.codeIds.map((code_id, i) => {
            const volume = ((code_id * 37 + company.id * 11 + market.id * 5) % 90) + 10;
            return { row_set_id: rowSet!.id, code_id, volume: String(volume), value: String(volume * (1200 + ((i * 97) % 800)) * 10) };
          }),
        );
        await tx.update(reports).set({ row_set_id: rowSet!.id }).where(eq(reports.id, approved!.id));
        await tx.insert(reportStatusChanges).values([
          { report_id: approved!.id, user_id: admin, from_status: null, to_status: ReportStatus.Ongoing, created_at: new Date('2026-09-01T06:00:00Z') },
          {
            report_id: approved!.id,
            user_id: submitters[company.id] ?? null,
            from_status: ReportStatus.Ongoing,
            to_status: ReportStatus.WaitingForApproval,
            created_at: new Date('2026-10-08T09:00:00Z'),
          },
          {
            report_id: approved!.id,
            user_id: admin,
            from_status: ReportStatus.WaitingForApproval,
            to_status: ReportStatus.Approved,
            created_at: new Date('2026-10-12T09:00:00Z'),
          },
        ]);
        const [ongoing] = await tx.insert(reports).values({ period_id: october!.id, company_id: company.id, status: ReportStatus.Ongoing }).returning();
        await tx
          .insert(reportStatusChanges)
          .values({ report_id: ongoing!.id, user_id: admin, from_status: null, to_status: ReportStatus.Ongoing, created_at: new Date('2026-10-01T06:00:00Z') });
      }
    }
    return signIns;
  });
}
