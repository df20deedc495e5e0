import { eq, isNotNull, sql } from 'drizzle-orm';
import { ReportStatus, type Role } from '@mss/contracts/enums';
import type { Db, Executor, Tx } from '../db/client.ts';
import { STARTUP_LOCK } from './bootstrap.ts';
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
import { publishPeriod } from '../modules/statistics/disclosure/statistics.publications.ts';

export const DEMO_PASSWORD = 'demo-password';

export interface DemoSignIn {
  email: string;
  role: string;
  organizations: string[];
}

export async function isDatabaseEmpty(db: Executor): Promise<boolean> {
  const [row] = await db.select({ n: sql<number>`(select count(*) from users) + (select count(*) from organizations)` }).from(sql`(select 1) as one`);
  return Number(row?.n ?? 0) === 0;
}

/** Loads the demo data into an empty database and returns the demo sign-ins. */
export async function seedDemo(db: Db): Promise<DemoSignIn[]> {
  const signIns = await db.transaction(async (tx) => {
    // Several processes starting at once on an empty database: one loads the demo data.
    await tx.execute(sql`select pg_advisory_xact_lock(${STARTUP_LOCK})`);
    if (!(await isDatabaseEmpty(tx))) return [];
    return seedDemoData(tx);
  });
  if (signIns.length === 0) return []; // another process loaded them
  // The published months as viewers see them: each publication decides its confidential cells.
  const published = await db.select({ id: periods.id }).from(periods).where(isNotNull(periods.published_at)).orderBy(periods.starts_on);
  for (const period of published) await publishPeriod(db, period.id, { actorId: null, mark: false });
  return signIns;
}

type Organization = typeof organizations.$inferSelect;
type Market = typeof markets.$inferSelect;
type Company = typeof companies.$inferSelect;
type Period = typeof periods.$inferSelect;

/** The demo's organizations, currencies and markets. */
interface DemoPlaces {
  nordic: Organization;
  baltic: Organization;
  currency: (iso: string) => number;
  se: Market;
  fi: Market;
  dk: Market;
  no: Market;
  ee: Market;
  nordicMarkets: Market[];
}

/** The demo's companies: three with users, the others reporting so that figures can be shown. */
interface DemoCompanies {
  nordlys: Company;
  fjord: Company;
  sisu: Company;
  gota: Company;
  vasa: Company;
  skane: Company;
  bergen: Company;
  troms: Company;
  lappi: Company;
  karelia: Company;
  pohjola: Company;
  jylland: Company;
  fyn: Company;
  sjaelland: Company;
}

/** The demo's codes, as the companies' codes and reports pick them. */
interface DemoCodes {
  /** Ids of the codes starting with `prefix`. */
  codeIds: (prefix: string) => number[];
  /** Ids of the codes listed. */
  byCode: (...list: string[]) => number[];
}

/** A seed's insert returns a row per value it was given: one missing is a bug, not data. */
function missingRows(table: string): Error {
  return new Error(`The demo's insert into ${table} returned fewer rows than it was given.`);
}

/** Everything of the demo but its publications, in one transaction (the ids follow the order of the inserts). */
async function seedDemoData(tx: Tx): Promise<DemoSignIn[]> {
  const places = await seedPlaces(tx);
  const firms = await seedCompanies(tx, places);
  const codes = await seedCodes(tx, places);
  const ranges = await seedCompanyCodes(tx, firms, codes);
  await seedConversions(tx, places);
  await seedNotices(tx, places);
  const { signIns, signInIds } = await seedPeople(tx, places, firms);
  await seedReporting(tx, { places, firms, codes, ranges, signInIds });
  return signIns;
}

/** The organizations, currencies and markets, and the Nordic cluster. */
async function seedPlaces(tx: Tx): Promise<DemoPlaces> {
  const [nordic, baltic] = await tx
    .insert(organizations)
    .values([
      { name: 'Nordic Sales Association', mail_description: 'Nordic Sales Association statistics' },
      { name: 'Baltic Sales Association', mail_description: 'Baltic Sales Association statistics' },
    ])
    .returning();
  if (!nordic || !baltic) throw missingRows('organizations');
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
      { organization_id: nordic.id, international_name: 'Sweden', local_name: 'Sverige', iso_code: 'SE', currency_id: currency('SEK') },
      { organization_id: nordic.id, international_name: 'Finland', local_name: 'Suomi', iso_code: 'FI', currency_id: currency('EUR') },
      { organization_id: nordic.id, international_name: 'Denmark', local_name: 'Danmark', iso_code: 'DK', currency_id: currency('DKK') },
      { organization_id: nordic.id, international_name: 'Norway', local_name: 'Norge', iso_code: 'NO', currency_id: currency('NOK') },
      { organization_id: baltic.id, international_name: 'Estonia', local_name: 'Eesti', iso_code: 'EE', currency_id: currency('EUR') },
    ])
    .returning();
  if (!se || !fi || !dk || !no || !ee) throw missingRows('markets');
  const nordicMarkets = [se, fi, dk, no];
  const [nordicCluster] = await tx.insert(clusters).values({ organization_id: nordic.id, name: 'Nordic' }).returning();
  await tx.insert(clusterMarkets).values(nordicMarkets.map((m) => ({ cluster_id: nordicCluster!.id, market_id: m.id })));
  return { nordic, baltic, currency, se, fi, dk, no, ee, nordicMarkets };
}

/** The companies, their organization and the markets where they report. */
async function seedCompanies(tx: Tx, { nordic, se, fi, dk, no }: DemoPlaces): Promise<DemoCompanies> {
  const [nordlys, fjord, sisu] = await tx
    .insert(companies)
    .values([{ name: 'Nordlys Trading AB' }, { name: 'Fjord Equipment AS' }, { name: 'Sisu Machines Oy' }])
    .returning();
  if (!nordlys || !fjord || !sisu) throw missingRows('companies');
  // Companies without users of their own: they report so that the markets' statistics have
  // enough contributors to show (docs/architecture.md §8 confidentiality needs three or more per figure).
  const [gota, vasa, skane, bergen, troms] = await tx
    .insert(companies)
    .values([{ name: 'Göta Maskin AB' }, { name: 'Vasa Agri AB' }, { name: 'Skåne Lantbruk AB' }, { name: 'Bergen Traktor AS' }, { name: 'Troms Maskin AS' }])
    .returning();
  if (!gota || !vasa || !skane || !bergen || !troms) throw missingRows('companies');
  // Finland and Denmark report since 2025-09: a year and a month, so their latest published period
  // compares with last year's (viewers of Finland, just-stats of Denmark, the company user).
  const [lappi, karelia, pohjola, jylland, fyn, sjaelland] = await tx
    .insert(companies)
    .values([
      { name: 'Lappi Kone Oy' },
      { name: 'Karelia Agri Oy' },
      { name: 'Pohjola Traktori Oy' },
      { name: 'Jylland Maskiner A/S' },
      { name: 'Fyn Landbrug A/S' },
      { name: 'Sjælland Entreprenør A/S' },
    ])
    .returning();
  if (!lappi || !karelia || !pohjola || !jylland || !fyn || !sjaelland) throw missingRows('companies');
  await tx.insert(companyOrganizations).values(
    [nordlys, fjord, sisu, gota, vasa, skane, bergen, troms, lappi, karelia, pohjola, jylland, fyn, sjaelland].map((c) => ({
      company_id: c.id,
      organization_id: nordic.id,
    })),
  );
  // Company markets: where a company reports. Sisu's carry roles, so that its users act through them.
  await tx
    .insert(companyMarkets)
    .values([
      { company_id: nordlys.id, market_id: se.id },
      { company_id: nordlys.id, market_id: no.id },
      { company_id: fjord.id, market_id: no.id },
      { company_id: fjord.id, market_id: dk.id },
      { company_id: sisu.id, market_id: fi.id, roles: ['company', 'reporter'] },
      { company_id: sisu.id, market_id: se.id, roles: ['company'] },
      { company_id: gota.id, market_id: se.id },
      { company_id: vasa.id, market_id: se.id },
      { company_id: skane.id, market_id: se.id },
      { company_id: bergen.id, market_id: no.id },
      { company_id: troms.id, market_id: no.id },
      ...[lappi, karelia, pohjola].map((c) => ({ company_id: c.id, market_id: fi.id })),
      ...[jylland, fyn, sjaelland].map((c) => ({ company_id: c.id, market_id: dk.id })),
    ]);
  return { nordlys, fjord, sisu, gota, vasa, skane, bergen, troms, lappi, karelia, pohjola, jylland, fyn, sjaelland };
}

/** The code sections, codes and code groups, all in the Nordic markets. */
async function seedCodes(tx: Tx, { nordic, nordicMarkets }: DemoPlaces): Promise<DemoCodes> {
  // Codes: numeric ranges make the sections; groups cut across them.
  const sectionRows = await tx
    .insert(codeSections)
    .values([
      { organization_id: nordic.id, name: 'Tractors', start: 1000, length: 100 },
      { organization_id: nordic.id, name: 'Harvesters', start: 1100, length: 100 },
      { organization_id: nordic.id, name: 'Construction machines', start: 2000, length: 100 },
      { organization_id: nordic.id, name: 'Spare parts', start: 3000, length: 100 },
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
    .values(codeSpecs.map(([code, name, disabled_status]) => ({ organization_id: nordic.id, code, name, disabled_status })))
    .returning();
  await tx.insert(codeMarkets).values(codeRows.flatMap((c) => nordicMarkets.map((m) => ({ code_id: c.id, market_id: m.id }))));
  const codeIds = (prefix: string) => codeRows.filter((c) => c.code.startsWith(prefix)).map((c) => c.id);
  const byCode = (...list: string[]) => codeRows.filter((c) => list.includes(c.code)).map((c) => c.id);
  const groupRows = await tx
    .insert(codeGroups)
    .values([
      { organization_id: nordic.id, title: 'Agriculture' },
      { organization_id: nordic.id, title: 'Electric machines' },
      { organization_id: nordic.id, title: 'Earth moving' },
      { organization_id: nordic.id, title: 'Aftermarket' },
    ])
    .returning();
  const groupCodes: [number, number[]][] = [
    [groupRows[0]!.id, [...codeIds('10'), ...codeIds('11')]],
    [groupRows[1]!.id, byCode('1006', '2007', '3006')],
    [groupRows[2]!.id, byCode('2001', '2002', '2003', '2004', '2005', '2006', '2007')],
    [groupRows[3]!.id, codeIds('30')],
  ];
  await tx.insert(codeGroupCodes).values(groupCodes.flatMap(([groupId, ids]) => ids.map((code_id) => ({ code_group_id: groupId, code_id }))));
  return { codeIds, byCode };
}

/** The code ranges that leave out a code only one company sells in Sweden. */
interface DemoRanges {
  earthMovingButSmall: number[];
  partsButBatteries: number[];
}

/** The codes of each company, and the two ranges that leave out a code sold by one company alone. */
async function seedCompanyCodes(tx: Tx, firms: DemoCompanies, { codeIds, byCode }: DemoCodes): Promise<DemoRanges> {
  const { nordlys, fjord, sisu, gota, vasa, skane, bergen, troms, lappi, karelia, pohjola, jylland, fyn, sjaelland } = firms;
  // What each company reports. At least three companies share each section, so the markets' totals
  // can be published; in Sweden Göta alone sells small excavators (2001) and Nordlys alone
  // batteries (3006), whose figures stay confidential.
  const earthMovingButSmall = codeIds('20').filter((id) => id !== byCode('2001')[0]);
  const partsButBatteries = codeIds('30').filter((id) => id !== byCode('3006')[0]);
  await tx
    .insert(companyCodes)
    .values([
      ...[...codeIds('10'), ...codeIds('30')].map((code_id) => ({ company_id: nordlys.id, code_id })),
      ...codeIds('20').map((code_id) => ({ company_id: fjord.id, code_id })),
      ...[...codeIds('11'), ...codeIds('10'), ...earthMovingButSmall].map((code_id) => ({ company_id: sisu.id, code_id })),
      ...[...codeIds('10'), ...codeIds('20')].map((code_id) => ({ company_id: gota.id, code_id })),
      ...[...codeIds('10'), ...codeIds('11'), ...earthMovingButSmall, ...partsButBatteries].map((code_id) => ({ company_id: vasa.id, code_id })),
      ...[...codeIds('10'), ...codeIds('11'), ...partsButBatteries].map((code_id) => ({ company_id: skane.id, code_id })),
      ...[...codeIds('10'), ...codeIds('20'), ...codeIds('30')].map((code_id) => ({ company_id: bergen.id, code_id })),
      ...[...codeIds('10'), ...codeIds('20'), ...codeIds('30')].map((code_id) => ({ company_id: troms.id, code_id })),
      ...[...codeIds('10'), ...codeIds('11'), ...codeIds('30')].map((code_id) => ({ company_id: lappi.id, code_id })),
      ...[...codeIds('10'), ...codeIds('11'), ...earthMovingButSmall, ...partsButBatteries].map((code_id) => ({ company_id: karelia.id, code_id })),
      ...[...codeIds('10'), ...codeIds('20'), ...codeIds('30')].map((code_id) => ({ company_id: pohjola.id, code_id })),
      ...[...codeIds('10'), ...codeIds('11'), ...codeIds('20'), ...codeIds('30')].map((code_id) => ({ company_id: jylland.id, code_id })),
      ...[...codeIds('10'), ...codeIds('11'), ...codeIds('30')].map((code_id) => ({ company_id: fyn.id, code_id })),
      ...[...codeIds('10'), ...codeIds('11'), ...codeIds('20'), ...partsButBatteries].map((code_id) => ({ company_id: sjaelland.id, code_id })),
    ]);
  return { earthMovingButSmall, partsButBatteries };
}

/** The conversion rates between the currencies. */
async function seedConversions(tx: Tx, { currency }: DemoPlaces): Promise<void> {
  // Conversions between the four currencies and EUR (rate: multiply to convert), from 2025 on, so
  // that every demo period (2025-01 onwards) converts at the rate valid at its end.
  const rates: [string, string, string, string, string][] = [
    ['SEK', 'EUR', '0.0866', '0.0870', '0.0874'],
    ['DKK', 'EUR', '0.1339', '0.1340', '0.1341'],
    ['NOK', 'EUR', '0.0845', '0.0850', '0.0858'],
    ['EUR', 'SEK', '11.5500', '11.4900', '11.4400'],
    ['EUR', 'DKK', '7.4610', '7.4600', '7.4580'],
    ['EUR', 'NOK', '11.8300', '11.7600', '11.6500'],
  ];
  await tx.insert(currencyConversions).values(
    rates.flatMap(([from, to, earlier, january, july]) => [
      { from_currency_id: currency(from), to_currency_id: currency(to), rate: earlier, valid_from: '2025-01-01' },
      { from_currency_id: currency(from), to_currency_id: currency(to), rate: january, valid_from: '2026-01-01' },
      { from_currency_id: currency(from), to_currency_id: currency(to), rate: july, valid_from: '2026-07-01' },
    ]),
  );
}

/** The release notes and the information modal shown after signing in. */
async function seedNotices(tx: Tx, { nordic }: DemoPlaces): Promise<void> {
  await tx.insert(releases).values({
    version: '1.0.0',
    release_date: '2026-11-01',
    title: 'Welcome to the new statistics service',
    notes:
      'Sign in with your e-mail address, choose your organization if you belong to several, and find your screens in the menu. ' +
      'Administrators now manage markets, companies, codes and users here.',
  });
  await tx.insert(informationModals).values({
    organization_id: nordic.id,
    // The demo's open period is 2026-10, due on 10 November 2026.
    title: 'October figures are due',
    body: 'The October reports were due on 10 November. If yours is not submitted yet, please upload and submit it now. Contact your market administrator if a code is missing.',
    active: true,
  });
}

/** One user per role (and a company user), with their sign-ins and, by e-mail, their ids. */
async function seedPeople(
  tx: Tx,
  { nordic, baltic, se, fi, dk, no, ee, nordicMarkets }: DemoPlaces,
  { nordlys, sisu }: DemoCompanies,
): Promise<{ signIns: DemoSignIn[]; signInIds: Map<string, number> }> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const people: { role: Role | null; first: string; last: string; orgs: number[]; markets: number[]; company?: number; email?: string }[] = [
    { role: 'super-admin', first: 'Sam', last: 'Super', orgs: [], markets: [] },
    { role: 'admin', first: 'Ada', last: 'Admin', orgs: [nordic.id, baltic.id], markets: [...nordicMarkets.map((m) => m.id), ee.id] },
    { role: 'reporter', first: 'Rita', last: 'Reporter', orgs: [nordic.id], markets: [se.id, no.id], company: nordlys.id },
    { role: 'cluster-admin', first: 'Clara', last: 'Cluster', orgs: [nordic.id], markets: nordicMarkets.map((m) => m.id) },
    { role: 'market-admin', first: 'Magnus', last: 'Market', orgs: [nordic.id], markets: [se.id] },
    { role: 'viewer', first: 'Vera', last: 'Viewer', orgs: [nordic.id], markets: [se.id, fi.id] },
    { role: 'cluster-viewer', first: 'Cecilia', last: 'Clusterview', orgs: [nordic.id], markets: nordicMarkets.map((m) => m.id) },
    { role: 'just-stats', first: 'Jonas', last: 'Stats', orgs: [nordic.id], markets: [dk.id] },
    { role: null, email: 'company@demo.test', first: 'Kari', last: 'Company', orgs: [nordic.id], markets: [], company: sisu.id },
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
      organizations: person.orgs.map((id) => (id === nordic.id ? nordic.name : baltic.name)),
    });
  }
  return { signIns, signInIds };
}

/** What the reporting rounds of the demo are made of. */
interface DemoWorld {
  places: DemoPlaces;
  firms: DemoCompanies;
  codes: DemoCodes;
  ranges: DemoRanges;
  signInIds: ReadonlyMap<string, number>;
}

/** Who of a company sent its reports in, and who opened and approved them. */
interface DemoReporters {
  firms: DemoCompanies;
  se: Market;
  admin: number;
  submitters: Record<number, number | undefined>;
}

/** The periods of the reporting markets, each with its companies' reports. */
async function seedReporting(tx: Tx, { places, firms, codes: { codeIds }, ranges, signInIds }: DemoWorld): Promise<void> {
  const { se, no, fi, dk } = places;
  const { nordlys, fjord, sisu, gota, vasa, skane, bergen, troms, lappi, karelia, pohjola, jylland, fyn, sjaelland } = firms;
  const { earthMovingButSmall, partsButBatteries } = ranges;
  // Reporting: in Sweden and Norway 2025-01 to 2026-09 closed, approved and published (two years,
  // so that statistics compare with last year and year to date), in Finland and Denmark from
  // 2025-09; 2026-10 open everywhere. In October Nordlys and Sisu (who have
  // users) still have Ongoing reports; in Sweden two other companies are approved and one waits
  // for approval, so an approver sees provisional figures.
  const reportingMarkets = [se, no, fi, dk];
  const reportingCompanies: Record<number, { id: number; codeIds: number[] }[]> = {
    [se.id]: [
      { id: nordlys.id, codeIds: [...codeIds('10'), ...codeIds('30')] },
      { id: sisu.id, codeIds: [...codeIds('11'), ...codeIds('10'), ...earthMovingButSmall] },
      { id: gota.id, codeIds: [...codeIds('10'), ...codeIds('20')] },
      { id: vasa.id, codeIds: [...codeIds('10'), ...codeIds('11'), ...earthMovingButSmall, ...partsButBatteries] },
      { id: skane.id, codeIds: [...codeIds('10'), ...codeIds('11'), ...partsButBatteries] },
    ],
    [no.id]: [
      { id: nordlys.id, codeIds: [...codeIds('10'), ...codeIds('30')] },
      { id: fjord.id, codeIds: codeIds('20') },
      { id: bergen.id, codeIds: [...codeIds('10'), ...codeIds('20'), ...codeIds('30')] },
      { id: troms.id, codeIds: [...codeIds('10'), ...codeIds('20'), ...codeIds('30')] },
    ],
    [fi.id]: [
      { id: sisu.id, codeIds: [...codeIds('11'), ...codeIds('10'), ...earthMovingButSmall] },
      { id: lappi.id, codeIds: [...codeIds('10'), ...codeIds('11'), ...codeIds('30')] },
      { id: karelia.id, codeIds: [...codeIds('10'), ...codeIds('11'), ...earthMovingButSmall, ...partsButBatteries] },
      { id: pohjola.id, codeIds: [...codeIds('10'), ...codeIds('20'), ...codeIds('30')] },
    ],
    [dk.id]: [
      { id: fjord.id, codeIds: codeIds('20') },
      { id: jylland.id, codeIds: [...codeIds('10'), ...codeIds('11'), ...codeIds('20'), ...codeIds('30')] },
      { id: fyn.id, codeIds: [...codeIds('10'), ...codeIds('11'), ...codeIds('30')] },
      { id: sjaelland.id, codeIds: [...codeIds('10'), ...codeIds('11'), ...codeIds('20'), ...partsButBatteries] },
    ],
  };
  const admin = signInIds.get('admin@demo.test')!;
  const submitters: Record<number, number | undefined> = {
    [nordlys.id]: signInIds.get('reporter@demo.test'),
    [sisu.id]: signInIds.get('company@demo.test'),
  };
  const reporters: DemoReporters = { firms, se, admin, submitters };
  for (const market of reportingMarkets) {
    const months = demoMonths(market.id === fi.id || market.id === dk.id ? '2025-09' : '2025-01', '2026-10');
    const periodRows = await tx
      .insert(periods)
      .values(
        months.map((m) => {
          const open = m.title === '2026-10';
          return {
            market_id: market.id,
            title: m.title,
            starts_on: m.starts_on,
            ends_on: m.ends_on,
            deadline: m.deadline,
            status: open ? ('open' as const) : ('closed' as const),
            opened_at: new Date(`${m.starts_on}T06:00:00Z`),
            closed_at: open ? null : new Date(`${m.closed_on}T06:00:00Z`),
            published_at: open ? null : new Date(`${m.published_on}T06:00:00Z`),
          };
        }),
      )
      .returning();
    // The one place besides reports.workflow.ts that writes report statuses and history: the
    // demo's past is back-dated (and its reports are approved in closed periods, which the
    // workflow rightly refuses), so it is written as it would have been recorded.
    for (const [index, period] of periodRows.entries()) {
      const month = months[index]!;
      for (const company of reportingCompanies[market.id]!) await seedReport(tx, reporters, market, period, month, company);
    }
  }
}

/** A company's report of a period, with its rows once submitted and its status history. */
async function seedReport(
  tx: Tx,
  { firms: { fjord, skane }, se, admin, submitters }: DemoReporters,
  market: Market,
  period: Period,
  month: DemoMonth,
  company: { id: number; codeIds: number[] },
): Promise<void> {
  const hasUsers = submitters[company.id] !== undefined || company.id === fjord.id;
  const status =
    period.status === 'closed'
      ? ReportStatus.Approved
      : hasUsers || market.id !== se.id
        ? ReportStatus.Ongoing
        : company.id === skane.id
          ? ReportStatus.WaitingForApproval
          : ReportStatus.Approved;
  const submitted = status === ReportStatus.Approved || status === ReportStatus.WaitingForApproval;
  const [report] = await tx
    .insert(reports)
    .values({
      period_id: period.id,
      company_id: company.id,
      status,
      submitted_at: submitted ? new Date(`${month.submitted_on}T09:00:00Z`) : null,
      approved_at: status === ReportStatus.Approved ? new Date(`${month.approved_on}T09:00:00Z`) : null,
    })
    .returning();
  const history: (typeof reportStatusChanges.$inferInsert)[] = [
    { report_id: report!.id, user_id: admin, from_status: null, to_status: ReportStatus.Ongoing, created_at: new Date(`${month.starts_on}T06:00:00Z`) },
  ];
  if (submitted) {
    history.push({
      report_id: report!.id,
      user_id: submitters[company.id] ?? null,
      from_status: ReportStatus.Ongoing,
      to_status: ReportStatus.WaitingForApproval,
      created_at: new Date(`${month.submitted_on}T09:00:00Z`),
    });
    const [rowSet] = await tx.insert(reportRowSets).values({ report_id: report!.id }).returning();
    await tx
      .insert(reportRows)
      .values(company.codeIds.map((code_id, i) => ({ row_set_id: rowSet!.id, ...demoFigures(code_id, i, company.id, market.id, month) })));
    await tx.update(reports).set({ row_set_id: rowSet!.id }).where(eq(reports.id, report!.id));
  }
  if (status === ReportStatus.Approved)
    history.push({
      report_id: report!.id,
      user_id: admin,
      from_status: ReportStatus.WaitingForApproval,
      to_status: ReportStatus.Approved,
      created_at: new Date(`${month.approved_on}T09:00:00Z`),
    });
  await tx.insert(reportStatusChanges).values(history);
}

interface DemoMonth {
  title: string;
  starts_on: string;
  ends_on: string;
  deadline: string;
  submitted_on: string;
  approved_on: string;
  closed_on: string;
  published_on: string;
  year: number;
  month: number;
}

/** Monthly periods from `first` to `last` ("YYYY-MM"), with the dates of their reporting round. */
function demoMonths(first: string, last: string): DemoMonth[] {
  const out: DemoMonth[] = [];
  const day = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d)).toISOString().slice(0, 10);
  for (let [y, m] = first.split('-').map(Number) as [number, number]; `${y}-${String(m).padStart(2, '0')}` <= last; m === 12 ? ((y += 1), (m = 1)) : (m += 1)) {
    out.push({
      title: `${y}-${String(m).padStart(2, '0')}`,
      starts_on: day(y, m, 1),
      ends_on: day(y, m + 1, 0),
      deadline: day(y, m + 1, 10),
      submitted_on: day(y, m + 1, 8),
      approved_on: day(y, m + 1, 12),
      closed_on: day(y, m + 1, 15),
      published_on: day(y, m + 1, 16),
      year: y,
      month: m,
    });
  }
  return out;
}

/** Share of an average month's sales, in percent: spring and autumn peaks, a quiet winter. */
const SEASON = [70, 75, 95, 120, 130, 125, 100, 90, 110, 105, 85, 80];

/**
 * Deterministic, plausible figures for a code of a company: volumes in units, values in the
 * market's currency (integers and cents: exact as text), with a season and some growth in 2026.
 */
function demoFigures(codeId: number, index: number, companyId: number, marketId: number, month: DemoMonth): { code_id: number; volume: string; value: string } {
  const base = ((codeId * 37 + companyId * 11 + marketId * 5) % 90) + 10;
  const growth = month.year >= 2026 ? 100 + ((codeId + companyId) % 15) : 100;
  const volume = Math.max(1, Math.floor((base * SEASON[month.month - 1]! * growth) / 10_000));
  const price = (1200 + ((index * 97) % 800)) * 10;
  const cents = volume * price * (month.year >= 2026 ? 103 : 100);
  return { code_id: codeId, volume: String(volume), value: `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}` };
}
