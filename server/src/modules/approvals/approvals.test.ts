import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { reportingWorld } from '../../../test/reporting.ts';
import { companies } from '../../db/schema.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const { world, openPeriod, status, storeRows } = reportingWorld(() => t);

const approvalList = (headers: Record<string, string>, periodUuid: string) => t.app.inject({ url: `/api/v1/periods/${periodUuid}/approval-list`, headers });

describe("a period's approval list", () => {
  it('when the market administrator opens it, then every reporting company is listed by name; a reporter is refused (403)', async () => {
    const w = await world();
    const { period } = await openPeriod(w, '2026-10', '2026-10-01');
    const list = await approvalList(w.admin, period.uuid);
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((r: { company: { name: string } }) => r.company.name)).toEqual(['Acme AB', 'Rival AB']);
    const refused = await approvalList(w.reporter, period.uuid);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Permission denied. Your user does not have permission to view this resource.');
  });

  it('when a company is disabled, then its report leaves the list (docs/product.md §3 Company disabled_at)', async () => {
    const w = await world();
    const { period } = await openPeriod(w, '2026-10', '2026-10-01');
    await t.db
      .update(companies)
      .set({ disabled_at: new Date(Date.now() - 1000) })
      .where(eq(companies.id, w.rival.id));
    const list = await approvalList(w.admin, period.uuid);
    expect(list.json().data.map((r: { company: { name: string } }) => r.company.name)).toEqual(['Acme AB']);
  });

  it('when the period does not exist, then 404', async () => {
    const w = await world();
    expect((await approvalList(w.admin, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
  });
});

describe('approving in bulk', () => {
  it('when one report may be approved and another may not, then each is judged on its own, with the refusal in the request language', async () => {
    const w = await world();
    const { period, report } = await openPeriod(w, '2026-10', '2026-10-01');
    await storeRows(report.uuid, [[w.codes[0]!.id, 1, 1]]);
    await status(w.reporter, report.uuid, { status: 40 });
    const rivalReport = (await t.app.inject({ url: `/api/v1/reports?period_uuid=${period.uuid}`, headers: w.rivalReporter })).json().data[0];
    const bulk = await t.app.inject({
      method: 'POST',
      url: '/api/v1/reports/bulk-status',
      headers: w.admin,
      payload: { uuids: [report.uuid, rivalReport.uuid], status: 60 },
    });
    expect(bulk.json().data).toEqual({ changed: [report.uuid], refused: [{ uuid: rivalReport.uuid, message: 'Report has invalid status for this action.' }] });
    const shown = (await t.app.inject({ url: `/api/v1/reports/${report.uuid}`, headers: w.admin })).json().data;
    expect(shown.status).toBe(60);
  });

  it('when a reporter tries to approve in bulk, then nothing changes and each report says why', async () => {
    const w = await world();
    const { report } = await openPeriod(w, '2026-10', '2026-10-01');
    await storeRows(report.uuid, [[w.codes[0]!.id, 1, 1]]);
    await status(w.reporter, report.uuid, { status: 40 });
    const bulk = await t.app.inject({ method: 'POST', url: '/api/v1/reports/bulk-status', headers: w.reporter, payload: { uuids: [report.uuid], status: 60 } });
    expect(bulk.json().data.changed).toEqual([]);
    expect(bulk.json().data.refused).toHaveLength(1);
    expect((await t.app.inject({ url: `/api/v1/reports/${report.uuid}`, headers: w.admin })).json().data.status).toBe(40);
  });
});
