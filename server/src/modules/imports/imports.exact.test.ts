import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createReportWithCodes, createTestApp, unique, type TestApp } from '../../../test/helpers.ts';
import { multipart } from '../../../test/world.ts';
import { reportRows, reports } from '../../db/schema.ts';
import { writeXlsx, type XlsxCellInput } from '../../lib/xlsx-writer/index.ts';

// Exact numbers (docs/decisions.md "Exact figures"): figures travel as decimal text from the file to
// the database and back, and the database sums them; character for character, on PGlite and on a
// PostgreSQL server.

let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await createTestApp({ JOBS: 'on' });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mss-exact-'));
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A report's rows, through GET /reports/{uuid}/rows (the report itself carries only their count and totals). */
const rowsOf = async (w: { report: { uuid: string }; reporter: Record<string, string> }, query = '?per_page=100') =>
  (await t.app.inject({ url: `/api/v1/reports/${w.report.uuid}/rows${query}`, headers: w.reporter })).json().data;

const N = 100_000;
const codeOf = (i: number) => String(1_000_000 + i);

const world = (n: number) => createReportWithCodes(t, n);

async function importRows(w: Awaited<ReturnType<typeof world>>, rows: XlsxCellInput[][]) {
  const file = path.join(dir, `${unique('exact')}.xlsx`);
  await writeXlsx(file, [['Code', 'Volume', 'Value'], ...rows]);
  const body = multipart('exact.xlsx', fs.readFileSync(file));
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/reports/${w.report.uuid}/file`,
    headers: { ...w.reporter, ...body.headers },
    payload: body.payload,
  });
  expect(res.statusCode).toBe(202);
  for (let i = 0; i < 600; i++) {
    const status = (await t.app.inject({ url: `/api/v1/imports/${res.json().data.uuid}`, headers: w.reporter })).json().data.status;
    if (status === 'done') return;
    if (status !== 'queued' && status !== 'processing') throw new Error(`import ${status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('import did not finish');
}

describe('exact figures from the file to the totals', () => {
  it('when 0.1, 0.2 and 123456789012345.6789 are imported, then they are stored and summed exactly', async () => {
    const w = await world(4);
    await importRows(w, [
      [codeOf(1), '0.1', '123 456 789 012 345,6789'],
      [codeOf(2), '0.2', '-0,0001'],
      [codeOf(3), 0.1 + 0.2, '1234567890123456.1234'],
    ]);
    const stored = await t.db
      .select({ volume: reportRows.volume, value: reportRows.value })
      .from(reportRows)
      .innerJoin(reports, eq(reports.row_set_id, reportRows.row_set_id))
      .where(eq(reports.id, w.report.id))
      .orderBy(reportRows.code_id);
    expect(stored).toEqual([
      { volume: '0.1000', value: '123456789012345.6789' },
      { volume: '0.2000', value: '-0.0001' },
      { volume: '0.3000', value: '1234567890123456.1234' },
    ]);
    const report = (await t.app.inject({ url: `/api/v1/reports/${w.report.uuid}`, headers: w.reporter })).json().data;
    expect((await rowsOf(w)).map((r: { volume: string; value: string }) => [r.volume, r.value])).toEqual(stored.map((r) => [r.volume, r.value]));
    expect(report.totals).toEqual({ volume: '0.6000', value: '1358024679135801.8022' });
  });

  it('when 100,000 rows of 1234.567x are imported, then the total is exact to the last decimal', async () => {
    const w = await world(N);
    // 1234.5670, 1234.5671, … 1234.5679, again and again; B as numbers, C as text.
    const rows: XlsxCellInput[][] = [];
    for (let i = 1; i <= N; i++) rows.push([codeOf(i), Number(`1234.567${i % 10}`), `1234.567${i % 10}`]);
    await importRows(w, rows);
    // The expected total, counted in ten-thousandths with integers: 100,000 × 12345670 + 10,000 × (0 + … + 9).
    const units = BigInt(N) * 12_345_670n + BigInt(N / 10) * 45n;
    const expected = `${units / 10_000n}.${String(units % 10_000n).padStart(4, '0')}`;
    expect(expected).toBe('123456745.0000');
    const report = (await t.app.inject({ url: `/api/v1/reports/${w.report.uuid}`, headers: w.reporter })).json().data;
    expect(report.totals).toEqual({ volume: expected, value: expected });
    expect((await rowsOf(w, '?per_page=1&page=8'))[0]).toMatchObject({ volume: '1234.5678', value: '1234.5678' });
    // What a JavaScript sum of the same figures gives: the reason totals are summed in SQL.
    expect(String(rows.reduce((sum, r) => sum + (r[1] as number), 0))).not.toBe('123456745');
  }, 120_000);
});
