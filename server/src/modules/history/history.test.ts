import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import {
  createMarket,
  createOrganization,
  createTestApp,
  createUser,
  insertMemberCompany,
  insertReport,
  signIn,
  type TestApp,
  testConfig,
  XHR,
} from '../../../test/helpers.ts';
import { buildApp } from '../../app.ts';
import { auditEntries, codeMarkets, codes, companyCodes, historyImportRows, historyImports, periods, reportStatusChanges, reports } from '../../db/schema.ts';
import { openWorkbook } from '../../../test/workbook.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ JOBS: 'on' });
});
afterAll(async () => {
  await t?.close();
});

function multipart(name: string, content: Buffer | string) {
  const boundary = '----mss-history';
  return {
    payload: Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/csv\r\n\r\n`),
      Buffer.from(content),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    'content-type': `multipart/form-data; boundary=${boundary}`,
  };
}

/**
 * An association: two markets (A and B), three companies (Acme and Bolt in A, Acme in B), codes
 * 10 (both figures), 20 (value not reported), 30 (inactive), 40 (not Bolt's); an administrator
 * of both markets, one of market A only, and a reporter.
 */
async function world() {
  const org = await createOrganization(t.db);
  const a = await createMarket(t.db, org.id, 'Alpha');
  const b = await createMarket(t.db, org.id, 'Beta');
  const acme = await insertMemberCompany(t.db, org.id, a.id, `Acme ${a.iso_code}`);
  await t.db.execute(sql`insert into company_markets (company_id, market_id, roles) values (${acme}, ${b.id}, ${'{reporter}'}::text[])`);
  const bolt = await insertMemberCompany(t.db, org.id, a.id, `Bolt ${a.iso_code}`);
  const codeRows = await t.db
    .insert(codes)
    .values([
      { organization_id: org.id, code: '10', name: 'Ten' },
      { organization_id: org.id, code: '20', name: 'Twenty', disabled_status: 10 },
      { organization_id: org.id, code: '30', name: 'Thirty', disabled_status: 30 },
      { organization_id: org.id, code: '40', name: 'Forty' },
    ])
    .returning();
  const code = Object.fromEntries(codeRows.map((c) => [c.code, c.id]));
  await t.db.insert(codeMarkets).values(codeRows.flatMap((c) => [a.id, b.id].map((market_id) => ({ code_id: c.id, market_id }))));
  await t.db
    .insert(companyCodes)
    .values([
      ...codeRows.map((c) => ({ company_id: acme, code_id: c.id })),
      ...codeRows.filter((c) => c.code !== '40').map((c) => ({ company_id: bolt, code_id: c.id })),
    ]);
  const admin = await createUser(t.db, { roles: ['market-admin'], organizationIds: [org.id], marketIds: [a.id, b.id] });
  const adminA = await createUser(t.db, { roles: ['market-admin'], organizationIds: [org.id], marketIds: [a.id] });
  const reporter = await createUser(t.db, { roles: ['reporter'], organizationIds: [org.id], marketIds: [a.id], companyId: acme });
  const headers = async (email: string) => ({ ...XHR, cookie: await signIn(t.app, email) });
  return {
    org,
    a,
    b,
    acme,
    bolt,
    code,
    admin: await headers(admin.email),
    adminA: await headers(adminA.email),
    reporter: await headers(reporter.email),
  };
}

type World = Awaited<ReturnType<typeof world>>;

async function upload(headers: Record<string, string>, name: string, content: string | Buffer) {
  const { payload, ...type } = multipart(name, content);
  return t.app.inject({ method: 'POST', url: '/api/v1/history-imports', headers: { ...headers, ...type }, payload });
}

/** Waits for the running step to end (the real queue, polling the API). */
async function settled(headers: Record<string, string>, uuid: string) {
  for (let i = 0; i < 300; i++) {
    const data = (await t.app.inject({ url: `/api/v1/history-imports/${uuid}`, headers })).json().data;
    if (!['queued', 'checking', 'importing', 'publishing'].includes(data.status)) return data;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('history import step did not end');
}

async function step(w: World, uuid: string, action: 'import' | 'publish' | 'cancel', headers = w.admin) {
  return t.app.inject({ method: 'POST', url: `/api/v1/history-imports/${uuid}/${action}`, headers });
}

/** Two years of one market: Acme and Bolt, codes 10 and 20, in a ';' file with decimal commas. */
const history = (w: World, volume = '12,5') =>
  [
    'Market;Period;Company;Code;Volume;Value',
    `${w.a.iso_code};2024-01;Acme ${w.a.iso_code};10;${volume};100`,
    `${w.a.iso_code};2024-01;${w.bolt};10;3;40`,
    `${w.a.iso_code};2024-01;Acme ${w.a.iso_code};20;7;`,
    `${w.a.iso_code};2025-01;Acme ${w.a.iso_code};10;13;110`,
    `${w.a.iso_code};2025-01;Bolt ${w.a.iso_code};10;-1;-5`,
    `${w.b.iso_code};2025-01;Acme ${w.a.iso_code};10;1;2`,
  ].join('\r\n');

const rowsOf = async (periodId: number) =>
  (
    await t.db.execute<{ company_id: number; code: string; volume: string | null; value: string | null; status: number }>(sql`
      select r.company_id, c.code, rr.volume::text, rr.value::text, r.status from reports r
      join report_rows rr on rr.row_set_id = r.row_set_id join codes c on c.id = rr.code_id
      where r.period_id = ${periodId} order by r.company_id, c.code`)
  ).rows;

const periodOf = async (marketId: number, start: string) =>
  (
    await t.db
      .select()
      .from(periods)
      .where(sql`${periods.market_id} = ${marketId} and ${periods.starts_on} = ${start}`)
  )[0];

describe('history import', () => {
  it('when a file is checked, then nothing changes and the plan says what the import would write', async () => {
    const w = await world();
    const res = await upload(w.admin, 'history.csv', history(w));
    expect(res.statusCode).toBe(202);
    const checked = await settled(w.admin, res.json().data.uuid);
    expect(checked).toMatchObject({ status: 'checked', data_rows: 6, row_count: 6, error_count: 0, errors: [] });
    expect(
      checked.plan.periods.map((p: { market: string; period: string; exists: boolean; rows: number; companies: number }) => [
        p.market,
        p.period,
        p.exists,
        p.rows,
        p.companies,
      ]),
    ).toEqual([
      [w.a.iso_code, '2024-01', false, 3, 2],
      [w.a.iso_code, '2025-01', false, 2, 2],
      [w.b.iso_code, '2025-01', false, 1, 1],
    ]);
    expect(await periodOf(w.a.id, '2024-01-01')).toBeUndefined();
  });

  it('when the file has problems, then every one is listed with its row, column and cell as read, and nothing changes', async () => {
    const w = await world();
    const A = w.a.iso_code;
    const file = [
      'market,period,company,code,volume,value,comment',
      `${A},2024-01,Acme ${A},10,1,2,fine`,
      `XX,2024-01,Acme ${A},10,1,2,unknown market`,
      `${A},2024-13,Acme ${A},10,1,2,bad month`,
      `${A},2024-02,Nobody,10,1,2,unknown company`,
      `${w.b.iso_code},2024-02,Bolt ${A},10,1,2,Bolt is not in B`,
      `${A},2024-02,Bolt ${A},40,1,2,not Bolt's code`,
      `${A},2024-02,Acme ${A},30,1,2,inactive`,
      `${A},2024-02,Acme ${A},20,1,2,value not reported`,
      `${A},2024-02,Acme ${A},10,"12,5 st",2,bad number`,
      `${A},2024-01,${w.acme},10,5,6,repeats row 2`,
    ].join('\n');
    const checked = await settled(w.admin, (await upload(w.admin, 'bad.csv', file)).json().data.uuid);
    expect(checked.status).toBe('invalid');
    expect(
      checked.errors.map((e: { row: number; message: string; column: { letter: string; name: string; cell: string } | null }) => [
        e.row,
        e.message,
        e.column && `${e.column.name} (${e.column.letter}): ${e.column.cell}`,
      ]),
    ).toEqual([
      [3, 'Unknown market on row 3.', 'market (A): XX'],
      [4, 'Invalid period on row 4: write it as YYYY-MM (2016-01).', 'period (B): 2024-13'],
      [5, 'Unknown company on row 5.', 'company (C): Nobody'],
      [6, `The company Bolt ${A} does not report in ${w.b.iso_code} (row 6).`, `company (C): Bolt ${A}`],
      [7, 'The code 40 is not available to the company in the market (row 7).', 'code (D): 40'],
      [8, 'The code 30 is inactive (row 8).', 'code (D): 30'],
      [9, 'Column F must be empty for code 20, its value is not reported (row 9).', 'value (F): 2'],
      [10, 'Column E contains invalid characters on row 10.', 'volume (E): 12,5 st'],
      [11, 'Row 11 repeats the market, period, company and code of row 2.', null],
    ]);
    // The error list as an xlsx.
    const sheet = await t.app.inject({ url: `/api/v1/history-imports/${checked.uuid}/errors`, headers: w.admin });
    expect(sheet.headers['content-disposition']).toContain('errors bad.xlsx');
    const book = await openWorkbook(sheet.rawPayload);
    expect(book.worksheets[0]!.getRow(2).values).toEqual([undefined, 3, 'market (A)', 'XX', 'Unknown market on row 3.']);
    // Nothing to import.
    expect((await step(w, checked.uuid, 'import')).statusCode).toBe(409);
    expect(await periodOf(w.a.id, '2024-01-01')).toBeUndefined();
  });

  it('when imported and published, then periods exist with approved reports holding exactly the file’s rows, and the statistics show them', async () => {
    const w = await world();
    const { uuid } = (await upload(w.admin, 'history.csv', history(w))).json().data;
    await settled(w.admin, uuid);
    expect((await step(w, uuid, 'import')).statusCode).toBe(200);
    const imported = await settled(w.admin, uuid);
    expect(imported).toMatchObject({ status: 'imported', result: { periods_created: 3, reports_created: 5, reports_replaced: 0, reports_unchanged: 0 } });
    expect(imported.progress).toMatchObject({ rows_read: 6, rows_done: 6, periods_done: 3, periods_total: 3 });
    const jan24 = (await periodOf(w.a.id, '2024-01-01'))!;
    expect(jan24).toMatchObject({ title: '2024-01', ends_on: '2024-01-31', status: 'closed', published_at: null });
    expect(await rowsOf(jan24.id)).toEqual([
      { company_id: w.acme, code: '10', volume: '12.5000', value: '100.0000', status: 60 },
      { company_id: w.acme, code: '20', volume: '7.0000', value: null, status: 60 },
      { company_id: w.bolt, code: '10', volume: '3.0000', value: '40.0000', status: 60 },
    ]);
    // The report's history says where it came from and who ran it.
    const [acmeReport] = await t.db
      .select()
      .from(reports)
      .where(sql`${reports.period_id} = ${jan24.id} and ${reports.company_id} = ${w.acme}`);
    const changes = await t.db.select().from(reportStatusChanges).where(eq(reportStatusChanges.report_id, acmeReport!.id));
    expect(changes).toMatchObject([{ from_status: null, to_status: 60, comment: 'From the history import of history.csv.' }]);
    expect(changes[0]!.user_id).not.toBeNull();
    // And the audit trail: the change by the same administrator, in the market's organization.
    const trail = await t.db.select().from(auditEntries).where(eq(auditEntries.record_id, acmeReport!.uuid));
    expect(trail).toMatchObject([
      { action: 'report.status_changed', user_id: changes[0]!.user_id, organization_id: w.org.id, before: { status: null }, after: { status: 60 } },
    ]);
    expect(trail[0]!.details).toMatchObject({ event: 'history_import', company_id: w.acme });
    // The staged rows are gone.
    expect(
      await t.db
        .select()
        .from(historyImportRows)
        .where(sql`true`),
    ).toEqual([]);

    expect((await step(w, uuid, 'publish')).statusCode).toBe(200);
    const published = await settled(w.admin, uuid);
    expect(published).toMatchObject({ status: 'published', result: { periods_published: 3 } });
    expect((await periodOf(w.a.id, '2024-01-01'))!.published_at).not.toBeNull();
    const publications = await t.db.select().from(auditEntries).where(eq(auditEntries.record_id, jan24.uuid));
    expect(publications).toMatchObject([
      { action: 'period.published', user_id: changes[0]!.user_id, organization_id: w.org.id, details: { history_import: uuid } },
    ]);
    // The statistics of the published period: Acme 12.5 + 7 and Bolt 3 in volume.
    const stats = await t.app.inject({ url: `/api/v1/statistics/market?period_uuid=${jan24.uuid}&by=company`, headers: w.admin });
    expect(stats.statusCode).toBe(200);
    expect(stats.json().data.totals).toMatchObject({ volume: '22.5000', value: '140.0000' });
  });

  it('when the same file is imported again, then nothing changes; a corrected file replaces exactly the reports it holds', async () => {
    const w = await world();
    const first = (await upload(w.admin, 'history.csv', history(w))).json().data.uuid;
    await settled(w.admin, first);
    await step(w, first, 'import');
    await settled(w.admin, first);
    const jan24 = (await periodOf(w.a.id, '2024-01-01'))!;
    const before = await t.db.select().from(reports).where(eq(reports.period_id, jan24.id));
    const changesBefore = await t.db
      .select()
      .from(reportStatusChanges)
      .where(sql`${reportStatusChanges.report_id} in (select id from reports where period_id = ${jan24.id})`);

    const again = (await upload(w.admin, 'history.csv', history(w))).json().data.uuid;
    expect((await settled(w.admin, again)).plan.periods[0]).toMatchObject({ exists: true, reports_existing: 2 });
    await step(w, again, 'import');
    expect(await settled(w.admin, again)).toMatchObject({
      status: 'imported',
      result: { periods_created: 0, reports_created: 0, reports_replaced: 0, reports_unchanged: 5, period_ids: [] },
    });
    expect(await t.db.select().from(reports).where(eq(reports.period_id, jan24.id))).toEqual(before);
    expect(
      await t.db
        .select()
        .from(reportStatusChanges)
        .where(sql`${reportStatusChanges.report_id} in (select id from reports where period_id = ${jan24.id})`),
    ).toEqual(changesBefore);

    // Acme's January 2024 volume corrected: only that report changes.
    const corrected = (await upload(w.admin, 'corrected.csv', history(w, '12,75'))).json().data.uuid;
    await settled(w.admin, corrected);
    await step(w, corrected, 'import');
    expect(await settled(w.admin, corrected)).toMatchObject({ result: { reports_replaced: 1, reports_unchanged: 4, period_ids: [jan24.id] } });
    expect((await rowsOf(jan24.id))[0]).toMatchObject({ company_id: w.acme, code: '10', volume: '12.7500' });
    const after = await t.db.select().from(reports).where(eq(reports.period_id, jan24.id));
    expect(after.find((r) => r.company_id === w.bolt)).toEqual(before.find((r) => r.company_id === w.bolt));
    expect(after.find((r) => r.company_id === w.acme)!.row_set_id).not.toBe(before.find((r) => r.company_id === w.acme)!.row_set_id);
  });

  it('when a file’s months are interleaved, then the import stages them and writes the same reports as from a file in order', async () => {
    const w = await world();
    // The same rows as history(w), January 2024 split by a row of January 2025.
    const lines = history(w).split('\r\n');
    const interleaved = [lines[0], lines[1], lines[4], lines[2], lines[3], lines[5], lines[6]].join('\n');
    const uuid = (await upload(w.admin, 'interleaved.csv', interleaved)).json().data.uuid;
    expect(await settled(w.admin, uuid)).toMatchObject({ status: 'checked' });
    const [checked] = await t.db.select().from(historyImports).where(eq(historyImports.uuid, uuid));
    expect(checked!.direct_digest).toBeNull();
    await step(w, uuid, 'import');
    expect(await settled(w.admin, uuid)).toMatchObject({ status: 'imported', result: { periods_created: 3, reports_created: 5 } });
    const jan24 = (await periodOf(w.a.id, '2024-01-01'))!;
    expect(await rowsOf(jan24.id)).toEqual([
      { company_id: w.acme, code: '10', volume: '12.5000', value: '100.0000', status: 60 },
      { company_id: w.acme, code: '20', volume: '7.0000', value: null, status: 60 },
      { company_id: w.bolt, code: '10', volume: '3.0000', value: '40.0000', status: 60 },
    ]);
    // A file in order writes each period as it is read: the same reports.
    const w2 = await world();
    const ordered = (await upload(w2.admin, 'history.csv', history(w2))).json().data.uuid;
    await settled(w2.admin, ordered);
    const [direct] = await t.db.select().from(historyImports).where(eq(historyImports.uuid, ordered));
    expect(direct!.direct_digest).toMatch(/^[0-9a-f]{64}$/);
    await step(w2, ordered, 'import');
    expect(await settled(w2.admin, ordered)).toMatchObject({ status: 'imported', result: { periods_created: 3, reports_created: 5 } });
    const rows2 = await rowsOf((await periodOf(w2.a.id, '2024-01-01'))!.id);
    expect(rows2.map(({ company_id, ...r }) => ({ ...r, acme: company_id === w2.acme }))).toEqual(
      (await rowsOf(jan24.id)).map(({ company_id, ...r }) => ({ ...r, acme: company_id === w.acme })),
    );
  });

  it('when the organization changed between the dry run and the import, then the import checks the whole file again before writing anything', async () => {
    const w = await world();
    // More rows of market A than the reader hands over at once (5,000), then one of market B.
    const extra = await t.db
      .insert(codes)
      .values(Array.from({ length: 250 }, (_, i) => ({ organization_id: w.org.id, code: String(1000 + i), name: `Code ${1000 + i}` })))
      .returning();
    await t.db.insert(codeMarkets).values(extra.map((c) => ({ code_id: c.id, market_id: w.a.id })));
    await t.db.insert(companyCodes).values(extra.flatMap((c) => [w.acme, w.bolt].map((company_id) => ({ company_id, code_id: c.id }))));
    const A = w.a.iso_code;
    const lines = ['Market;Period;Company;Code;Volume;Value'];
    for (let m = 1; m <= 11; m++)
      for (const company of [w.acme, w.bolt]) for (const c of extra) lines.push(`${A};2023-${String(m).padStart(2, '0')};${company};${c.code};1;2`);
    lines.push(`${w.b.iso_code};2025-01;${w.acme};10;1;2`);
    const uuid = (await upload(w.admin, 'history.csv', lines.join('\n'))).json().data.uuid;
    expect(await settled(w.admin, uuid)).toMatchObject({ status: 'checked' });
    // Acme no longer reports in market B: the file's last row is refused now, after 5,500 rows of
    // market A (written as they were read, were the dry run's answer taken as it was).
    await t.db.execute(sql`delete from company_markets where company_id = ${w.acme} and market_id = ${w.b.id}`);
    await step(w, uuid, 'import');
    const ended = await settled(w.admin, uuid);
    expect(ended.status).toBe('invalid');
    expect(ended.errors.map((e: { row: number; key: string }) => [e.row, e.key])).toEqual([[lines.length, 'history.company_not_in_market']]);
    expect((await t.db.execute(sql`select 1 from periods where market_id = ${w.a.id}`)).rows).toEqual([]);
  });

  it('when a period of the file exists with a report in progress, then the dry run counts it and the import approves it with the file’s rows', async () => {
    const w = await world();
    const [period] = await t.db
      .insert(periods)
      .values({ market_id: w.a.id, title: 'January 2024', starts_on: '2024-01-01', ends_on: '2024-01-31', status: 'open' })
      .returning();
    const ongoing = await insertReport(t.db, {
      periodId: period!.id,
      companyId: w.acme,
      status: 20,
      rows: [{ codeId: w.code['10']!, volume: '999', value: '999' }],
    });
    const { uuid } = (await upload(w.admin, 'history.csv', history(w))).json().data;
    const checked = await settled(w.admin, uuid);
    expect(checked.plan.periods[0]).toMatchObject({ period: '2024-01', exists: true, companies: 2, reports_existing: 1 });
    await step(w, uuid, 'import');
    expect(await settled(w.admin, uuid)).toMatchObject({ result: { periods_created: 2, reports_created: 4, reports_replaced: 1 } });
    expect((await rowsOf(period!.id)).filter((r) => r.company_id === w.acme)).toEqual([
      { company_id: w.acme, code: '10', volume: '12.5000', value: '100.0000', status: 60 },
      { company_id: w.acme, code: '20', volume: '7.0000', value: null, status: 60 },
    ]);
    const changes = await t.db.select().from(reportStatusChanges).where(eq(reportStatusChanges.report_id, ongoing.id));
    expect(changes.at(-1)).toMatchObject({ from_status: 20, to_status: 60, comment: 'From the history import of history.csv.' });
    // The period keeps its own title and status.
    expect((await periodOf(w.a.id, '2024-01-01'))!).toMatchObject({ title: 'January 2024', status: 'open' });
  });

  it('when someone else asks (a reporter, another organization, an administrator of only one of the file’s markets), then refused', async () => {
    const w = await world();
    expect((await upload(w.reporter, 'history.csv', history(w))).statusCode).toBe(403);
    const other = await world();
    const { uuid } = (await upload(w.admin, 'history.csv', history(w))).json().data;
    await settled(w.admin, uuid);
    expect((await t.app.inject({ url: `/api/v1/history-imports/${uuid}`, headers: other.admin })).statusCode).toBe(404);
    expect((await step(other, uuid, 'import', other.admin)).statusCode).toBe(404);
    // Market A's administrator sees the organization's imports but may not import a file naming market B.
    expect((await step(w, uuid, 'import', w.adminA)).statusCode).toBe(403);
    // And their own check of such a file says which rows are not theirs.
    const theirs = await settled(w.adminA, (await upload(w.adminA, 'history.csv', history(w))).json().data.uuid);
    expect(theirs.errors.map((e: { message: string }) => e.message)).toEqual([`You do not administer the market ${w.b.iso_code} (row 7).`]);
  });

  it('when the import is cancelled, then it stops between periods: each period is whole or untouched', async () => {
    const w = await world();
    const A = w.a.iso_code;
    // 36 months of both companies.
    const lines = ['Market;Period;Company;Code;Volume;Value'];
    for (let m = 0; m < 36; m++) {
      const month = `${2020 + Math.floor(m / 12)}-${String((m % 12) + 1).padStart(2, '0')}`;
      lines.push(`${A};${month};${w.acme};10;${m};${m * 10}`, `${A};${month};${w.bolt};10;1;1`);
    }
    const { uuid } = (await upload(w.admin, 'long.csv', lines.join('\n'))).json().data;
    await settled(w.admin, uuid);
    await step(w, uuid, 'import');
    // Asked at once: the import may have written some periods, never half of one.
    await step(w, uuid, 'cancel');
    const ended = await settled(w.admin, uuid);
    expect(['cancelled', 'imported']).toContain(ended.status);
    const counts = (
      await t.db.execute<{ n: number }>(sql`
        select count(r.id)::int as n from periods p left join reports r on r.period_id = p.id where p.market_id = ${w.a.id} group by p.id`)
    ).rows.map((r) => r.n);
    expect(counts.every((n) => n === 2)).toBe(true);
    if (ended.status === 'cancelled') expect(counts.length).toBeLessThan(36);
    // Importing again completes it.
    await step(w, uuid, 'import');
    expect(await settled(w.admin, uuid)).toMatchObject({ status: 'imported' });
    expect((await t.db.execute(sql`select 1 from periods where market_id = ${w.a.id}`)).rows).toHaveLength(36);
  });

  it('when the process running an import dies, then a process started afterwards takes the import up and finishes it', async () => {
    const w = await world();
    const { uuid } = (await upload(w.admin, 'history.csv', history(w))).json().data;
    await settled(w.admin, uuid);
    // As a process leaves it when it dies mid-import: importing, a few rows staged, its lease long gone.
    await t.db.execute(
      sql`update history_imports set status = 'importing', imported_by = user_id, heartbeat_at = now() - interval '1 hour' where uuid = ${uuid}`,
    );
    const jobs = await buildApp({ config: testConfig(t.dataDir, { JOBS: 'on' }), database: t.database }, { logger: false });
    try {
      await jobs.ready();
      await expect.poll(async () => (await settled(w.admin, uuid)).status, { timeout: 60_000, interval: 200 }).toBe('imported');
    } finally {
      await jobs.close();
    }
    expect(await rowsOf((await periodOf(w.a.id, '2024-01-01'))!.id)).toHaveLength(3);
  });
});
