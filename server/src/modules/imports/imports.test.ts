import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, ne, sql } from 'drizzle-orm';
import { createMarket, createOrganization, createTestApp, createUser, signIn, signInAs, type TestApp, XHR } from '../../../test/helpers.ts';
import { createUploadableReport } from '../../../test/uploads.ts';
import {
  codeMarkets,
  codes,
  companies,
  companyCodes,
  companyMarkets,
  companyOrganizations,
  files,
  importErrors,
  imports,
  markets,
  periods,
  preflights,
  reportRows,
  reportRowSets,
  reports,
} from '../../db/schema.ts';
import { writeXlsx, type XlsxCellInput } from '../../lib/xlsx-writer/index.ts';
import { openXlsx } from '../../lib/xlsx/index.ts';
import { IMPORT_LEASE_SECONDS, IMPORT_MAX_ATTEMPTS, processImport } from './imports.jobs.ts';
import { openWorkbook } from '../../../test/workbook.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ JOBS: 'on' });
});
afterAll(async () => {
  await t?.close();
});

/** A report's rows, through GET /reports/{uuid}/rows (the report itself carries only their count and totals). */
const rowsOf = async (w: { report: { uuid: string }; reporter: Record<string, string> }, query = '?per_page=100') =>
  (await t.app.inject({ url: `/api/v1/reports/${w.report.uuid}/rows${query}`, headers: w.reporter })).json().data;

async function xlsx(rows: XlsxCellInput[][]): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const out = new PassThrough();
  out.on('data', (c: Buffer) => chunks.push(c));
  await writeXlsx(out, rows);
  return Buffer.concat(chunks);
}

function multipart(name: string, content: Buffer) {
  const boundary = '----mss-import';
  return {
    payload: Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
      content,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]),
    'content-type': `multipart/form-data; boundary=${boundary}`,
  };
}

async function world() {
  const org = await createOrganization(t.db);
  const market = await createMarket(t.db, org.id, 'Sweden');
  const [company] = await t.db.insert(companies).values({ name: 'Acme AB' }).returning();
  await t.db.insert(companyOrganizations).values({ company_id: company!.id, organization_id: org.id });
  await t.db.insert(companyMarkets).values({ company_id: company!.id, market_id: market.id });
  const codeRows = await t.db
    .insert(codes)
    .values([
      { organization_id: org.id, code: '1001', name: 'Small' },
      { organization_id: org.id, code: '1002', name: 'Large' },
      { organization_id: org.id, code: '1003', name: 'Retired', disabled_status: 30 },
      { organization_id: org.id, code: '1004', name: 'Not for Acme' },
    ])
    .returning();
  await t.db.insert(codeMarkets).values(codeRows.map((c) => ({ code_id: c.id, market_id: market.id })));
  await t.db.insert(companyCodes).values(codeRows.filter((c) => c.code !== '1004').map((c) => ({ company_id: company!.id, code_id: c.id })));
  const reporterUser = await createUser(t.db, { roles: ['reporter'], organizationIds: [org.id], marketIds: [market.id], companyId: company!.id });
  const reporter = { ...XHR, cookie: await signIn(t.app, reporterUser.email) };
  const admin = await signInAs(t, ['market-admin'], { organizationId: org.id, marketIds: [market.id] });
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/v1/periods',
    headers: admin.headers,
    payload: { market_id: market.id, title: '2026-10', starts_on: '2026-10-01', ends_on: '2026-10-31' },
  });
  await t.app.inject({ method: 'POST', url: `/api/v1/periods/${created.json().data.uuid}/open`, headers: admin.headers });
  const [report] = await t.db.select().from(reports).where(eq(reports.company_id, company!.id));
  return { reporter, admin: admin.headers, report: report! };
}

async function upload(headers: Record<string, string>, reportUuid: string, name: string, content: Buffer) {
  const { payload, ...type } = multipart(name, content);
  return t.app.inject({ method: 'POST', url: `/api/v1/reports/${reportUuid}/file`, headers: { ...headers, ...type }, payload });
}

/** Waits for the background job to finish the import (the real queue, polling the API). */
async function settled(headers: Record<string, string>, importUuid: string) {
  for (let i = 0; i < 200; i++) {
    const res = await t.app.inject({ url: `/api/v1/imports/${importUuid}`, headers });
    const data = res.json().data;
    if (['invalid', 'done', 'failed'].includes(data.status)) return data;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('import did not finish');
}

/** The report's row sets and which of them is current: superseded and abandoned sets are deleted. */
async function rowSetsOf(reportId: number) {
  const sets = await t.db.select({ id: reportRowSets.id }).from(reportRowSets).where(eq(reportRowSets.report_id, reportId));
  const [report] = await t.db.select({ current: reports.row_set_id }).from(reports).where(eq(reports.id, reportId));
  return { sets: sets.map((s) => s.id), current: report!.current };
}

describe('importing a report file', () => {
  it('when an invalid file is uploaded, then 202 at once, the report goes to 11 with every row error, and accepted rows stay', async () => {
    const w = await world();
    const good = await upload(
      w.reporter,
      w.report.uuid,
      'good.xlsx',
      await xlsx([
        ['Code', 'Volume', 'Value'],
        ['1001', 5, 500],
      ]),
    );
    expect(good.statusCode).toBe(202);
    expect((await settled(w.reporter, good.json().data.uuid)).status).toBe('done');

    const bad = await upload(
      w.reporter,
      w.report.uuid,
      'bad.xlsx',
      await xlsx([
        ['Code', 'Volume', 'Value'],
        ['9999', 1, 1],
        ['1004', 1, 1],
        ['1003', 1, 1],
        ['1001', 'abc', 1],
        ['1002', 1, '12x'],
        ['1002', 2, 2],
      ]),
    );
    expect(bad.statusCode).toBe(202);
    const result = await settled(w.reporter, bad.json().data.uuid);
    expect(result.status).toBe('invalid');
    // The file-level message of docs/product.md §8 above the row errors; a file that went in has none.
    expect(result.message).toBe('The file bad.xlsx could not be uploaded due to containing invalid data.');
    expect((await settled(w.reporter, good.json().data.uuid)).message).toBeNull();
    expect(result.errors.map((e: { message: string }) => e.message)).toEqual([
      'Invalid code on row 2.',
      'The code is not available to you (row 3).',
      'The code 1003 is inactive (row 4).',
      'Column B contains invalid characters on row 5.',
      'Column C contains invalid characters on row 6.',
      'Report has duplicate codes on row 7 for code 1002.',
    ]);
    const report = (await t.app.inject({ url: `/api/v1/reports/${w.report.uuid}`, headers: w.reporter })).json().data;
    expect(report.status).toBe(11);
    // The earlier, valid file's rows are still there.
    expect((await rowsOf(w)).map((r: { code: string; volume: string }) => [r.code, r.volume])).toEqual([['1001', '5.0000']]);
    // The invalid file's rows, written while it was read, are gone; only the accepted set is left.
    const { sets, current } = await rowSetsOf(w.report.id);
    expect(current).not.toBeNull();
    expect(sets).toEqual([current]);

    const sheet = await t.app.inject({ url: `/api/v1/imports/${bad.json().data.uuid}/errors`, headers: w.reporter });
    expect(sheet.headers['content-type']).toContain('spreadsheetml');
    const original = await t.app.inject({ url: `/api/v1/imports/${bad.json().data.uuid}/file`, headers: w.reporter });
    expect(original.rawPayload.length).toBeGreaterThan(100);

    // The reporter's own file back, each faulty cell filled and commented with its error (column A when the error names no column).
    const marked = await t.app.inject({ url: `/api/v1/imports/${bad.json().data.uuid}/marked`, headers: w.reporter });
    expect(marked.statusCode).toBe(200);
    expect(marked.headers['content-disposition']).toContain('bad (errors marked).xlsx');
    const book = await openWorkbook(marked.rawPayload);
    const sheetOf = book.worksheets[0]!;
    const note = (ref: string) => {
      const n = sheetOf.getCell(ref).note;
      return typeof n === 'string' || n === undefined ? n : (n.texts ?? []).map((r) => r.text).join('');
    };
    expect(note('A2')).toBe('Invalid code on row 2.');
    expect(note('B5')).toBe('Column B contains invalid characters on row 5.');
    expect(note('C6')).toBe('Column C contains invalid characters on row 6.');
    expect(note('A7')).toBe('Report has duplicate codes on row 7 for code 1002.');
    expect(note('B2')).toBeUndefined();
    expect(sheetOf.getCell('B5').fill).toMatchObject({ type: 'pattern', fgColor: { argb: 'FFFFC7CE' } });
    expect(sheetOf.getCell('B5').value).toBe('abc');
    // Scoped like the import: the market's approver may have it, another organization's administrator may not.
    expect((await t.app.inject({ url: `/api/v1/imports/${bad.json().data.uuid}/marked`, headers: w.admin })).statusCode).toBe(200);
    const stranger = await signInAs(t, ['admin'], { organizationId: (await createOrganization(t.db)).id });
    expect((await t.app.inject({ url: `/api/v1/imports/${bad.json().data.uuid}/marked`, headers: stranger.headers })).statusCode).toBe(404);
    // A file that went in has nothing to mark.
    expect((await t.app.inject({ url: `/api/v1/imports/${good.json().data.uuid}/marked`, headers: w.reporter })).statusCode).toBe(404);

    // The import history pages, sorts and searches like every list; newest first by default.
    const list = async (query: string) => (await t.app.inject({ url: `/api/v1/imports?report_uuid=${w.report.uuid}${query}`, headers: w.reporter })).json();
    const first = await list('&per_page=1');
    expect(first.meta).toEqual({ page: 1, per_page: 1, total: 2 });
    expect(first.data.map((i: { file_name: string }) => i.file_name)).toEqual(['bad.xlsx']);
    expect((await list('&per_page=1&page=2')).data.map((i: { file_name: string }) => i.file_name)).toEqual(['good.xlsx']);
    expect((await list('&sort=file_name&direction=desc')).data.map((i: { file_name: string }) => i.file_name)).toEqual(['good.xlsx', 'bad.xlsx']);
    expect((await list('&sort=error_count&direction=asc')).data.map((i: { file_name: string }) => i.file_name)).toEqual(['good.xlsx', 'bad.xlsx']);
    expect((await list('&search=good')).data.map((i: { file_name: string }) => i.file_name)).toEqual(['good.xlsx']);
    expect((await list('&sort=secret')).message).toBeDefined();
  });

  it("when a copy replaces the rows after an invalid import, then that import's errors no longer describe the report; a new import does", async () => {
    const w = await world();
    const bad = await upload(w.reporter, w.report.uuid, 'bad.xlsx', await xlsx([['9999', 1, 1]]));
    await settled(w.reporter, bad.json().data.uuid);
    const reportOf = async () => (await t.app.inject({ url: `/api/v1/reports/${w.report.uuid}`, headers: w.reporter })).json().data;
    expect((await reportOf()).current_import).toEqual({ uuid: bad.json().data.uuid, status: 'invalid' });

    // The previous period's report, with one row, and the copy from it.
    const [period] = await t.db
      .select({ market_id: markets.id })
      .from(markets)
      .innerJoin(periods, eq(periods.market_id, markets.id))
      .where(eq(periods.id, w.report.period_id));
    const earlier = await t.app.inject({
      method: 'POST',
      url: '/api/v1/periods',
      headers: w.admin,
      payload: { market_id: period!.market_id, title: '2026-09', starts_on: '2026-09-01', ends_on: '2026-09-30' },
    });
    await t.app.inject({ method: 'POST', url: `/api/v1/periods/${earlier.json().data.uuid}/open`, headers: w.admin });
    const [previous] = await t.db
      .select()
      .from(reports)
      .where(and(eq(reports.company_id, w.report.company_id), ne(reports.id, w.report.id)));
    const [set] = await t.db.insert(reportRowSets).values({ report_id: previous!.id }).returning();
    const [code] = await t.db
      .select({ id: codes.id })
      .from(codes)
      .innerJoin(codeMarkets, eq(codeMarkets.code_id, codes.id))
      .where(and(eq(codes.code, '1001'), eq(codeMarkets.market_id, period!.market_id)));
    await t.db.insert(reportRows).values({ row_set_id: set!.id, code_id: code!.id, volume: '1', value: '2' });
    await t.db.update(reports).set({ row_set_id: set!.id }).where(eq(reports.id, previous!.id));
    const copied = await t.app.inject({ method: 'POST', url: `/api/v1/reports/${w.report.uuid}/copy-previous`, headers: w.reporter });
    expect(copied.json().data).toMatchObject({ status: 20, row_count: 1, current_import: null });
    // The import itself stays in the history.
    const history = (await t.app.inject({ url: `/api/v1/imports?report_uuid=${w.report.uuid}`, headers: w.reporter })).json().data;
    expect(history.map((i: { status: string }) => i.status)).toEqual(['invalid']);

    const good = await upload(w.reporter, w.report.uuid, 'good.xlsx', await xlsx([['1001', 5, 500]]));
    await settled(w.reporter, good.json().data.uuid);
    expect((await reportOf()).current_import).toEqual({ uuid: good.json().data.uuid, status: 'done' });
  });

  it('when every row of a 20,000-row file is wrong, then it says 20,000 errors, shows the first 100 and the error sheet holds all 20,000', async () => {
    const w = await world();
    const rows: XlsxCellInput[][] = [['Code', 'Volume', 'Value'], ...Array.from({ length: 20_000 }, (_, i) => [`X-${i}`, 1, 1])];
    const res = await upload(w.reporter, w.report.uuid, 'all-wrong.xlsx', await xlsx(rows));
    const detail = await settled(w.reporter, res.json().data.uuid);
    expect(detail).toMatchObject({ status: 'invalid', error_count: 20_000, errors_listed: 20_000, errors_truncated: true, errors_note: null });
    expect(detail.errors).toHaveLength(100);
    expect(detail.errors[0].message).toBe('Invalid code on row 2.');
    expect(detail.errors[99].message).toBe('Invalid code on row 101.');
    // The history's list does not carry the errors.
    const list = (await t.app.inject({ url: `/api/v1/imports?report_uuid=${w.report.uuid}`, headers: w.reporter })).json().data;
    expect(list[0]).toMatchObject({ error_count: 20_000 });
    expect(list[0].errors).toBeUndefined();

    const sheet = await t.app.inject({ url: `/api/v1/imports/${detail.uuid}/errors`, headers: w.reporter });
    const fs = await import('node:fs/promises');
    const os = await import('node:os');
    const path = await import('node:path');
    const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'errs-')), 'e.xlsx');
    await fs.writeFile(file, sheet.rawPayload);
    const book = await openXlsx(file);
    const lines: string[] = [];
    for await (const row of book.rows()) if (row.row > 1) lines.push(row.cells.map((c) => (c && 'value' in c ? String(c.value) : '')).join('|'));
    book.close();
    expect(lines).toHaveLength(20_000);
    expect(lines[0]).toBe('2|X-0|Code (A)|X-0|Invalid code on row 2.');
    expect(lines.at(-1)).toBe('20001|X-19999|Code (A)|X-19999|Invalid code on row 20001.');
  });

  it('when a valid file follows, then the rows are replaced, the report is back to 20 with a preflight, and the reporter can submit', async () => {
    const w = await world();
    const res = await upload(
      w.reporter,
      w.report.uuid,
      'r.xlsx',
      await xlsx([
        ['1001', '1 234', '12,5'],
        ['1002', 3, 300],
      ]),
    );
    const done = await settled(w.reporter, res.json().data.uuid);
    expect(done).toMatchObject({ status: 'done', row_count: 2, error_count: 0 });
    const report = (await t.app.inject({ url: `/api/v1/reports/${w.report.uuid}`, headers: w.reporter })).json().data;
    expect(report).toMatchObject({ status: 20, totals: { volume: '1237.0000', value: '312.5000' }, preflight: { severity: 10 } });
    expect(report.history.map((h: { from_status: number; to_status: number }) => `${h.from_status}>${h.to_status}`)).toEqual([
      'null>20',
      '20>10',
      '10>30',
      '30>20',
    ]);
    expect(
      (await t.app.inject({ method: 'POST', url: `/api/v1/reports/${w.report.uuid}/status`, headers: w.reporter, payload: { status: 40 } })).json().data.status,
    ).toBe(40);
    // Waiting for approval: no uploads.
    const refused = await upload(w.reporter, w.report.uuid, 'late.xlsx', await xlsx([['1001', 1, 1]]));
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe('Report file cannot be uploaded due to the report status.');
    // Sent back (50): an upload returns to 50, not 20.
    await t.app.inject({ method: 'POST', url: `/api/v1/reports/${w.report.uuid}/status`, headers: w.admin, payload: { status: 50, comment: 'fix' } });
    const before = await rowSetsOf(w.report.id);
    const again = await upload(w.reporter, w.report.uuid, 'fix.xlsx', await xlsx([['1001', 1, 1]]));
    await settled(w.reporter, again.json().data.uuid);
    const after = (await t.app.inject({ url: `/api/v1/reports/${w.report.uuid}`, headers: w.reporter })).json().data;
    expect(after.status).toBe(50);
    expect((await rowsOf(w)).map((r: { code: string; volume: string }) => [r.code, r.volume])).toEqual([['1001', '1.0000']]);
    // The replaced rows went with their set.
    const { sets, current } = await rowSetsOf(w.report.id);
    expect(current).not.toBe(before.current);
    expect(sets).toEqual([current]);
  });

  it('when the first file of a report holds a negative figure, then its preflight names it; a file without one has none', async () => {
    const w = await world();
    const first = await upload(
      w.reporter,
      w.report.uuid,
      'r.xlsx',
      await xlsx([
        ['1001', -3.5, 10],
        ['1002', 3, 300],
      ]),
    );
    expect(await settled(w.reporter, first.json().data.uuid)).toMatchObject({ status: 'done' });
    const report = (await t.app.inject({ url: `/api/v1/reports/${w.report.uuid}`, headers: w.reporter })).json().data;
    expect(report.preflight.results.map((r: { message: string }) => r.message)).toEqual([
      'Code 1001 (Small) has a negative volume (-3.5). Is it a return or a correction? Check it before you submit.',
    ]);
    const second = await upload(
      w.reporter,
      w.report.uuid,
      'r.xlsx',
      await xlsx([
        ['1001', 3.5, 10],
        ['1002', 3, 300],
      ]),
    );
    expect(await settled(w.reporter, second.json().data.uuid)).toMatchObject({ status: 'done' });
    const after = (await t.app.inject({ url: `/api/v1/reports/${w.report.uuid}`, headers: w.reporter })).json().data;
    expect(after.preflight.results.map((r: { key: string }) => r.key)).toEqual(['preflight.ok']);
  });

  it('when an import shows done, then its preflight is already there (the import screen stops polling at done)', async () => {
    const w = await world();
    const res = await upload(w.reporter, w.report.uuid, 'r.xlsx', await xlsx([['1001', 1, 1]]));
    const [item] = await t.db.select({ id: imports.id }).from(imports).where(eq(imports.uuid, res.json().data.uuid));
    // Poll as fast as the database answers, so that a gap between the two would be seen.
    for (let i = 0; i < 20_000; i++) {
      // One statement, so both are read from the same moment.
      const [row] = await t.db
        .select({ status: imports.status, preflights: sql<number>`(select count(*)::int from ${preflights} where ${preflights.report_id} = ${w.report.id})` })
        .from(imports)
        .where(eq(imports.id, item!.id));
      if (row!.status === 'done') {
        expect(row!.preflights).toBeGreaterThan(0);
        return;
      }
    }
    throw new Error('import did not finish');
  });

  it('when row errors are stored, then as message keys with parameters; the API renders them in the request language', async () => {
    const w = await world();
    const res = await upload(w.reporter, w.report.uuid, 'bad.xlsx', await xlsx([['9999', 1, 1]]));
    await settled(w.reporter, res.json().data.uuid);
    const stored = await t.db
      .select({
        position: importErrors.position,
        row: importErrors.row,
        code: importErrors.code,
        key: importErrors.key,
        params: importErrors.params,
        message: importErrors.message,
      })
      .from(importErrors)
      .innerJoin(imports, eq(imports.id, importErrors.import_id))
      .where(eq(imports.uuid, res.json().data.uuid));
    expect(stored).toEqual([{ position: 0, row: 1, code: '9999', key: 'import.invalid_code', params: { row: 1 }, message: null }]);
    // Rendered when served, in the request's language. The file has no header row: its column A is
    // named as the template names it.
    const served = await t.app.inject({ url: `/api/v1/imports/${res.json().data.uuid}`, headers: { ...w.reporter, 'accept-language': 'sv-SE' } });
    expect(served.json().data.errors).toEqual([
      {
        row: 1,
        code: '9999',
        key: 'import.invalid_code',
        params: { row: 1 },
        message: 'Ogiltig kod på rad 1.',
        column: { letter: 'A', name: 'Kod', cell: '9999' },
      },
    ]);
  });

  it('when the file is neither xlsx nor CSV text, then the import is invalid with the catalogue message', async () => {
    const w = await world();
    const res = await upload(w.reporter, w.report.uuid, 'report.xlsx', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00]));
    const done = await settled(w.reporter, res.json().data.uuid);
    expect(done.message).toBe('The file report.xlsx could not be uploaded due to containing invalid data.');
    expect(done.errors.map((e: { message: string }) => e.message)).toEqual([
      "Invalid file. Please make sure the file you're trying to import is an xlsx-file.",
    ]);
  });

  it('when a CSV is uploaded (";" and decimal commas, CRLF, a byte-order mark), then its rows are stored exactly as an xlsx’s would be', async () => {
    const w = await world();
    const csv = '\uFEFFCode;Volume;Value;Name\r\n1001;1.234,5;"0,0001";Small\r\n1002;-3;12345678901234,1234;"Large; really"\r\n';
    const res = await upload(w.reporter, w.report.uuid, 'from our ERP.csv', Buffer.from(csv));
    expect(res.statusCode).toBe(202);
    const done = await settled(w.reporter, res.json().data.uuid);
    expect(done).toMatchObject({ status: 'done', row_count: 2, file_name: 'from our ERP.csv' });
    expect((await rowsOf(w)).map((r: { code: string; volume: string; value: string }) => [r.code, r.volume, r.value])).toEqual([
      ['1001', '1234.5000', '0.0001'],
      ['1002', '-3.0000', '12345678901234.1234'],
    ]);
  });

  it('when a CSV has row errors, then the same list, error sheet and a marked xlsx of its rows as for an xlsx', async () => {
    const w = await world();
    const csv = 'Code,Volume,Value\n1001,"12,5 st",1\n\n1004,1,1\n1002,2,"1,234.5"\n';
    const res = await upload(w.reporter, w.report.uuid, 'report.csv', Buffer.from(csv));
    const done = await settled(w.reporter, res.json().data.uuid);
    expect(done.status).toBe('invalid');
    expect(done.errors.map((e: { row: number; message: string; column: { cell: string } | null }) => [e.row, e.message, e.column?.cell])).toEqual([
      [2, 'Column B contains invalid characters on row 2.', '12,5 st'],
      [4, 'The code is not available to you (row 4).', '1004'],
    ]);
    const sheet = await t.app.inject({ url: `/api/v1/imports/${done.uuid}/errors`, headers: w.reporter });
    expect(sheet.statusCode).toBe(200);
    expect(sheet.headers['content-disposition']).toContain('errors report.xlsx');
    const marked = await t.app.inject({ url: `/api/v1/imports/${done.uuid}/marked`, headers: w.reporter });
    expect(marked.statusCode).toBe(200);
    expect(marked.headers['content-disposition']).toContain('report (errors marked).xlsx');
    const book = await openWorkbook(marked.rawPayload);
    const ws = book.worksheets[0]!;
    // Each record at its own row (the blank record 3 stays blank), the faulty cells marked.
    expect([2, 3, 4, 5].map((r) => ws.getRow(r).getCell(1).text)).toEqual(['1001', '', '1004', '1002']);
    expect(ws.getCell('B2').text).toBe('12,5 st');
    expect(ws.getCell('C5').value).toBe(1234.5);
    expect(String(ws.getCell('B2').note && JSON.stringify(ws.getCell('B2').note))).toContain('Column B contains invalid characters on row 2.');
    expect(String(ws.getCell('A4').note && JSON.stringify(ws.getCell('A4').note))).toContain('The code is not available to you (row 4).');
    expect(ws.getCell('A2').note).toBeUndefined();
  });

  it('when an approver or another company uploads, then it is refused', async () => {
    const w = await world();
    const res = await upload(w.admin, w.report.uuid, 'r.xlsx', await xlsx([['1001', 1, 1]]));
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe("You don't have access to change this report.");
  });

  it('when processing was interrupted after the rows step began, then running the job again finishes it', async () => {
    const w = await world();
    const res = await upload(w.reporter, w.report.uuid, 'r.xlsx', await xlsx([['1001', 7, 70]]));
    await settled(w.reporter, res.json().data.uuid);
    // Simulate a crash in the middle of a later import: report left in 30, import in processing.
    const [item] = await t.db.select().from(imports).where(eq(imports.uuid, res.json().data.uuid));
    await t.db.update(imports).set({ status: 'processing', heartbeat_at: null }).where(eq(imports.id, item!.id));
    await t.db.update(reports).set({ status: 30 }).where(eq(reports.id, w.report.id));
    // ... with part of its rows written into a set of their own.
    const [code] = await t.db.select().from(codes).where(eq(codes.code, '1002')).limit(1);
    const [halfWritten] = await t.db.insert(reportRowSets).values({ report_id: w.report.id }).returning();
    await t.db.insert(reportRows).values({ row_set_id: halfWritten!.id, code_id: code!.id, volume: '999', value: null });
    await processImport(t.db, t.app.log, item!.id);
    const report = (await t.app.inject({ url: `/api/v1/reports/${w.report.uuid}`, headers: w.reporter })).json().data;
    expect(report.status).toBe(20);
    expect((await rowsOf(w)).map((r: { volume: string }) => r.volume)).toEqual(['7.0000']);
    const { sets, current } = await rowSetsOf(w.report.id);
    expect(sets).toEqual([current]);
    expect(sets).not.toContain(halfWritten!.id);
  });

  it('when another run holds the import with a live lease, then a second run waits for the lease to end and takes it over', async () => {
    const w = await world();
    const res = await upload(w.reporter, w.report.uuid, 'r.xlsx', await xlsx([['1001', 7, 70]]));
    await settled(w.reporter, res.json().data.uuid);
    const [item] = await t.db.select().from(imports).where(eq(imports.uuid, res.json().data.uuid));
    // A run in another process renewed its lease 2 s before the end and then died.
    await t.db
      .update(imports)
      .set({ status: 'processing', attempts: 1, worker: 'elsewhere:1', heartbeat_at: sql`now() - ${`${IMPORT_LEASE_SECONDS - 2} seconds`}::interval` })
      .where(eq(imports.id, item!.id));
    await t.db.update(reports).set({ status: 10 }).where(eq(reports.id, w.report.id));
    const started = Date.now();
    await processImport(t.db, t.app.log, item!.id);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1500);
    const [after] = await t.db.select().from(imports).where(eq(imports.id, item!.id));
    expect(after).toMatchObject({ status: 'done', attempts: 2, row_count: 1 });
    expect(after!.worker).not.toBe('elsewhere:1');
    expect((await rowsOf(w)).map((r: { volume: string }) => r.volume)).toEqual(['7.0000']);
  });

  it('when a run fails, then the queue may run it again; after the last attempt the import fails and the report leaves Processing with its rows', async () => {
    const w = await world();
    const res = await upload(w.reporter, w.report.uuid, 'r.xlsx', await xlsx([['1001', 5, 50]]));
    await settled(w.reporter, res.json().data.uuid);
    const before = await rowSetsOf(w.report.id);
    // The database refuses the code lookup (and any row write) of this run.
    const failing = new Proxy(t.db, {
      get(target, prop) {
        if (prop === 'execute') return () => Promise.reject(new Error('database gone'));
        const value = Reflect.get(target, prop);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const [item] = await t.db.select().from(imports).where(eq(imports.uuid, res.json().data.uuid));
    const stuck = async (attempts: number) => {
      await t.db.update(imports).set({ status: 'processing', attempts, heartbeat_at: null }).where(eq(imports.id, item!.id));
      await t.db.update(reports).set({ status: 10 }).where(eq(reports.id, w.report.id));
    };

    await stuck(0);
    await expect(processImport(failing, t.app.log, item!.id)).rejects.toThrow('database gone');
    expect((await t.db.select().from(reports).where(eq(reports.id, w.report.id)))[0]!.status).toBe(10);

    await stuck(IMPORT_MAX_ATTEMPTS - 1);
    await processImport(failing, t.app.log, item!.id);
    const failed = await settled(w.reporter, res.json().data.uuid);
    expect(failed.status).toBe('failed');
    expect(failed.errors.map((e: { message: string }) => e.message)).toEqual([
      'The file could not be processed. Upload it again; if this happens again, contact your administrator.',
    ]);
    const report = (await t.app.inject({ url: `/api/v1/reports/${w.report.uuid}`, headers: w.reporter })).json().data;
    expect(report.status).toBe(11);
    expect((await rowsOf(w)).map((r: { code: string; volume: string }) => [r.code, r.volume])).toEqual([['1001', '5.0000']]);
    expect(await rowSetsOf(w.report.id)).toEqual(before);

    // The last run fails after the rows were switched (the preflight cannot be stored): the import stays done.
    await stuck(IMPORT_MAX_ATTEMPTS - 1);
    const { preflights } = await import('../../db/schema.ts');
    const noPreflight = new Proxy(t.db, {
      get(target, prop) {
        const value = Reflect.get(target, prop);
        if (prop === 'insert')
          return (table: unknown) =>
            table === preflights ? { values: () => ({ returning: () => Promise.reject(new Error('disk full')) }) } : target.insert(table as typeof preflights); // the proxy passes every other table on unchanged
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    await processImport(noPreflight, t.app.log, item!.id);
    expect((await t.db.select().from(imports).where(eq(imports.id, item!.id)))[0]!.status).toBe('done');
    expect((await t.db.select().from(reports).where(eq(reports.id, w.report.id)))[0]!.status).toBe(20);

    // A run beyond the last (the process ended during every earlier one) gives up at once.
    await stuck(IMPORT_MAX_ATTEMPTS);
    await processImport(t.db, t.app.log, item!.id);
    expect((await t.db.select().from(imports).where(eq(imports.id, item!.id)))[0]!.status).toBe('failed');
    expect((await t.db.select().from(reports).where(eq(reports.id, w.report.id)))[0]!.status).toBe(11);
  });

  it('when the template is downloaded, then it lists the codes available to the company and reads back', async () => {
    const w = await world();
    const res = await t.app.inject({ url: `/api/v1/reports/${w.report.uuid}/template`, headers: w.reporter });
    expect(res.statusCode).toBe(200);
    const fs = await import('node:fs/promises');
    const os = await import('node:os');
    const path = await import('node:path');
    const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'tpl-')), 't.xlsx');
    await fs.writeFile(file, res.rawPayload);
    const book = await openXlsx(file);
    const codesInFile: string[] = [];
    for await (const row of book.rows()) {
      const cell = row.cells[0];
      if (row.row > 1 && cell?.kind === 'string') codesInFile.push(cell.value);
    }
    book.close();
    // 1003 is inactive (30) and 1004 not the company's: neither is offered.
    expect(codesInFile).toEqual(['1001', '1002']);
  });

  it('when the template is downloaded as CSV, then the same columns and codes, and filled in it imports', async () => {
    const w = await world();
    const res = await t.app.inject({ url: `/api/v1/reports/${w.report.uuid}/template?format=csv`, headers: w.reporter });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toContain('.csv');
    // The reader's language is en-US: "," and a decimal point.
    expect(res.body).toBe('\uFEFFCode,Volume,Value,Name,Note\r\n1001,,,Small,\r\n1002,,,Large,\r\n');
    const filled = res.body.replace('1001,,,', '1001,12.5,3,').replace('1002,,,', '1002,-1,"1,000.25",');
    const done = await settled(w.reporter, (await upload(w.reporter, w.report.uuid, 'template.csv', Buffer.from(filled))).json().data.uuid);
    expect(done).toMatchObject({ status: 'done', row_count: 2 });
    expect((await t.app.inject({ url: `/api/v1/reports/${w.report.uuid}/template?format=ods`, headers: w.reporter })).statusCode).toBe(422);
  });
});

describe('upload size limit', () => {
  let small: TestApp;
  beforeAll(async () => {
    small = await createTestApp({ IMPORT_MAX_MB: '0.01' });
  });
  afterAll(async () => {
    await small?.close();
  });

  it('when the file is larger than IMPORT_MAX_MB, then 422 naming the limit, and nothing is stored', async () => {
    const { report, headers } = await createUploadableReport(small);
    const { payload, ...type } = multipart('big.xlsx', Buffer.alloc(20 * 1024, 1));
    const res = await small.app.inject({ method: 'POST', url: `/api/v1/reports/${report.uuid}/file`, headers: { ...headers, ...type }, payload });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.file).toEqual(['The file is too large (at most 0.01 MB).']);
    expect(await small.db.select().from(imports)).toEqual([]);
    expect(await small.db.select({ id: files.id }).from(files)).toEqual([]);
  });
});

describe('report rows integrity (statement triggers instead of foreign keys)', () => {
  it('when a row names an unknown code or row set, then the insert fails; deleting a report deletes its row sets and rows; a reported code cannot be deleted', async () => {
    const w = await world();
    const [code] = await t.db.select().from(codes).where(eq(codes.code, '1001')).limit(1);
    const [rowSet] = await t.db.insert(reportRowSets).values({ report_id: w.report.id }).returning();
    await expect(t.db.insert(reportRows).values({ row_set_id: rowSet!.id, code_id: 987654321, volume: '1', value: '1' })).rejects.toMatchObject({
      cause: { code: '23503' },
    });
    await expect(t.db.insert(reportRows).values({ row_set_id: 987654321, code_id: code!.id, volume: '1', value: '1' })).rejects.toMatchObject({
      cause: { code: '23503' },
    });
    // One statement writing into two sets, one of them unknown: each row is checked.
    await expect(
      t.db.insert(reportRows).values([
        { row_set_id: rowSet!.id, code_id: code!.id, volume: '1', value: '1' },
        { row_set_id: 987654321, code_id: code!.id, volume: '1', value: '1' },
      ]),
    ).rejects.toMatchObject({ cause: { code: '23503' } });
    await t.db.insert(reportRows).values({ row_set_id: rowSet!.id, code_id: code!.id, volume: '1', value: '1' });
    await t.db.update(reports).set({ row_set_id: rowSet!.id }).where(eq(reports.id, w.report.id));
    await expect(t.db.delete(codes).where(eq(codes.id, code!.id))).rejects.toMatchObject({ cause: { code: '23503' } });
    await t.db.delete(reports).where(eq(reports.id, w.report.id));
    expect(await t.db.select().from(reportRowSets).where(eq(reportRowSets.report_id, w.report.id))).toEqual([]);
    expect(await t.db.select().from(reportRows).where(eq(reportRows.row_set_id, rowSet!.id))).toEqual([]);
  });

  it('when a row set is deleted, then its rows go with it and the report no longer points at it', async () => {
    const w = await world();
    const [code] = await t.db.select().from(codes).where(eq(codes.code, '1001')).limit(1);
    const [rowSet] = await t.db.insert(reportRowSets).values({ report_id: w.report.id }).returning();
    await t.db.insert(reportRows).values({ row_set_id: rowSet!.id, code_id: code!.id, volume: '1', value: null });
    await t.db.update(reports).set({ row_set_id: rowSet!.id }).where(eq(reports.id, w.report.id));
    await t.db.delete(reportRowSets).where(eq(reportRowSets.id, rowSet!.id));
    expect(await t.db.select().from(reportRows).where(eq(reportRows.row_set_id, rowSet!.id))).toEqual([]);
    const [after] = await t.db.select({ row_set_id: reports.row_set_id }).from(reports).where(eq(reports.id, w.report.id));
    expect(after!.row_set_id).toBeNull();
  });
});
