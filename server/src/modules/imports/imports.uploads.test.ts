import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createMarket, createOrganization, createTestApp, createUser, signIn, type TestApp, XHR } from '../../../test/helpers.ts';
import { httpUpload, injectUpload, streamedUpload } from '../../../test/uploads.ts';
import { companies, companyMarkets, companyOrganizations, files, imports, periods, reports } from '../../db/schema.ts';

// The default limit (IMPORT_MAX_MB=20), as users get it.
let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await t?.close();
});

const MiB = 1024 * 1024;
const LIMIT = 20 * MiB;
const TOO_LARGE = 'The file is too large (at most 20 MB).';

/** A reporter and their company's report in an open period, in status 20 (an upload is allowed). */
async function uploadableReport() {
  const org = await createOrganization(t.db);
  const market = await createMarket(t.db, org.id);
  const [company] = await t.db.insert(companies).values({ name: 'Acme AB' }).returning();
  await t.db.insert(companyOrganizations).values({ company_id: company!.id, organization_id: org.id });
  await t.db.insert(companyMarkets).values({ company_id: company!.id, market_id: market.id });
  const user = await createUser(t.db, { roles: ['reporter'], organizationIds: [org.id], marketIds: [market.id], companyId: company!.id });
  const [period] = await t.db.insert(periods).values({ market_id: market.id, title: '2026-10', starts_on: '2026-10-01', ends_on: '2026-10-31', status: 'open' }).returning();
  const [report] = await t.db.insert(reports).values({ period_id: period!.id, company_id: company!.id }).returning();
  return { report: report!, headers: { ...XHR, cookie: await signIn(t.app, user.email) } };
}

describe('the report file size limit', () => {
  it('when files over the limit are sent 20 times, in pieces of every kind, then each is refused as too large and nothing is stored', async () => {
    const { report, headers } = await uploadableReport();
    const url = `/api/v1/reports/${report.uuid}/file`;
    // Sizes just over the limit, twice it and 100 MB; pieces that end exactly at the limit (the
    // parser then cuts the file at a piece boundary, which once went unnoticed: 202 with the first
    // 20 MiB stored), odd pieces that do not, and one piece per megabyte.
    const tries: { via: 'inject' | 'http'; size: number; piece: number }[] = [];
    for (const size of [LIMIT + 1, LIMIT + 64 * 1024, 2 * LIMIT, 100 * MiB]) {
      for (const piece of [64 * 1024, 65_000, MiB]) tries.push({ via: tries.length % 2 === 0 ? 'inject' : 'http', size, piece });
    }
    for (const piece of [64 * 1024, 16 * 1024]) for (const size of [LIMIT + 1, 2 * LIMIT, 100 * MiB]) tries.push({ via: 'http', size, piece });
    tries.push({ via: 'inject', size: LIMIT + 1, piece: 16 * 1024 }, { via: 'inject', size: 2 * LIMIT, piece: 16 * 1024 });
    expect(tries).toHaveLength(20);

    const answers: string[] = [];
    for (const { via, size, piece } of tries) {
      const body = streamedUpload(size, { piece, name: 'big.xlsx' });
      const res = via === 'inject' ? await injectUpload(t.app, 'POST', url, headers, body) : await httpUpload(base, 'POST', url, headers, body);
      answers.push(`${via} ${size} in ${piece}: ${res.status} ${res.status === 422 ? (res.json().errors?.file ?? []).join() : JSON.stringify(res.json())}`);
    }
    expect(answers).toEqual(tries.map(({ via, size, piece }) => `${via} ${size} in ${piece}: 422 ${TOO_LARGE}`));
    expect(await t.db.select().from(imports).where(eq(imports.report_id, report.id))).toEqual([]);
    expect(await t.db.select({ id: files.id }).from(files)).toEqual([]);
    const [after] = await t.db.select({ status: reports.status }).from(reports).where(eq(reports.id, report.id));
    expect(after!.status).toBe(20);
  }, 120_000);

  it('when a file is exactly the limit, then it is accepted whole', async () => {
    const { report, headers } = await uploadableReport();
    const res = await injectUpload(t.app, 'POST', `/api/v1/reports/${report.uuid}/file`, headers, streamedUpload(LIMIT, { piece: 64 * 1024 }));
    expect(res.status).toBe(202);
    const [item] = await t.db.select({ file_id: imports.file_id }).from(imports).where(eq(imports.report_id, report.id));
    const [file] = await t.db.select({ size: files.size }).from(files).where(eq(files.id, item!.file_id));
    expect(file!.size).toBe(LIMIT);
  });
});
