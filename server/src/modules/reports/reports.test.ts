import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createTestApp, createUser, signIn, type TestApp, XHR } from '../../../test/helpers.ts';
import { reportingWorld } from '../../../test/reporting.ts';
import { codeMarkets, codes, companies, companyCodes, organizationSettings, periods, preflights, reportRows, reportRowSets, reports } from '../../db/schema.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const { world, openPeriod, rowsOf, status, storeRows } = reportingWorld(() => t);

describe('the report workflow', () => {
  it('when a report goes through submit, send back and approve, then every change is recorded and an approved report never changes', async () => {
    const w = await world();
    const { report } = await openPeriod(w, '2026-10', '2026-10-01');
    expect(report).toMatchObject({ status: 20, company: { id: w.company.id }, row_count: 0 });

    // An empty report has an Error preflight: submitting is refused.
    const empty = await status(w.reporter, report.uuid, { status: 40 });
    expect(empty.statusCode).toBe(409);
    expect(empty.json().message).toBe('The report cannot be submitted while its preflight has errors.');

    await storeRows(report.uuid, [[w.codes[0]!.id, 10, 1000]]);
    const submitted = await status(w.reporter, report.uuid, { status: 40 });
    expect(submitted.statusCode).toBe(200);
    expect(submitted.json().data).toMatchObject({ status: 40, totals: { volume: '10.0000', value: '1000.0000' }, preflight: { severity: 10 } });
    expect(submitted.json().data.submitted_at).not.toBeNull();

    // The reporter cannot approve; the approver sends back with a comment.
    const selfApprove = await status(w.reporter, report.uuid, { status: 60 });
    expect(selfApprove.statusCode).toBe(403);
    expect(selfApprove.json().message).toBe("You don't have access to change this report.");
    const back = await status(w.admin, report.uuid, { status: 50, comment: 'Code 1002 is missing' });
    expect(back.json().data.status).toBe(50);
    expect((await status(w.reporter, report.uuid, { status: 40 })).json().data.status).toBe(40);
    const approved = await status(w.admin, report.uuid, { status: 60 });
    expect(approved.json().data.status).toBe(60);

    for (const [headers, s] of [
      [w.reporter, 40],
      [w.admin, 50],
      [w.admin, 60],
    ] as const) {
      const res = await status(headers, report.uuid, { status: s });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe('This report has already been approved.');
    }
    const history = approved
      .json()
      .data.history.map((h: { from_status: number | null; to_status: number; comment: string | null }) => [h.from_status, h.to_status, h.comment]);
    expect(history).toEqual([
      [null, 20, null],
      [20, 40, null],
      [40, 50, 'Code 1002 is missing'],
      [50, 40, null],
      [40, 60, null],
    ]);
  });

  it('when a status is not one a user may ask for, then 422 "Invalid status."; a wrong order is 409', async () => {
    const w = await world();
    const { report } = await openPeriod(w, '2026-10', '2026-10-01');
    const invalid = await status(w.reporter, report.uuid, { status: 30 });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().message).toBe('Invalid status.');
    const early = await status(w.admin, report.uuid, { status: 60 });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('Report has invalid status for this action.');
  });

  it('when the period is closed, then status changes are refused', async () => {
    const w = await world();
    const { period, report } = await openPeriod(w, '2026-10', '2026-10-01');
    await storeRows(report.uuid, [[w.codes[0]!.id, 1, 1]]);
    await t.app.inject({ method: 'POST', url: `/api/v1/periods/${period.uuid}/close`, headers: w.admin });
    const res = await status(w.reporter, report.uuid, { status: 40 });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('This period has been closed, please contact your market administrator.');
  });

  it("when another company's reporter looks, then the report is invisible (404) and unlisted", async () => {
    const w = await world();
    const { period, report } = await openPeriod(w, '2026-10', '2026-10-01');
    expect((await t.app.inject({ url: `/api/v1/reports/${report.uuid}`, headers: w.rivalReporter })).statusCode).toBe(404);
    const rivalList = await t.app.inject({ url: `/api/v1/reports?period_uuid=${period.uuid}`, headers: w.rivalReporter });
    expect(rivalList.json().data.map((r: { company: { name: string } }) => r.company.name)).toEqual(['Rival AB']);
  });

  it('when a report is created twice, then 409 "This report already exists."; a company not reporting there is refused', async () => {
    const w = await world();
    const { period } = await openPeriod(w, '2026-10', '2026-10-01');
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/v1/reports',
      headers: w.reporter,
      payload: { company_id: w.company.id, period_uuid: period.uuid },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('This report already exists.');
    const [outsider] = await t.db.insert(companies).values({ name: 'Outsider' }).returning();
    const notThere = await t.app.inject({
      method: 'POST',
      url: '/api/v1/reports',
      headers: w.admin,
      payload: { company_id: outsider!.id, period_uuid: period.uuid },
    });
    expect(notThere.statusCode).toBe(422);
    expect(notThere.json().message).toBe('The period is not available for this company.');
  });

  it('when copying from the previous period, then its rows are taken, and without one the message names the period', async () => {
    const w = await world();
    const first = await openPeriod(w, '2026-09', '2026-09-01');
    const none = await t.app.inject({ method: 'POST', url: `/api/v1/reports/${first.report.uuid}/copy-previous`, headers: w.reporter });
    expect(none.statusCode).toBe(422);
    expect(none.json().message).toBe("There is no report for the period you're trying to copy from (-).");
    await storeRows(first.report.uuid, [
      [w.codes[0]!.id, 10, 100],
      [w.codes[1]!.id, 20, 200],
    ]);
    const second = await openPeriod(w, '2026-10', '2026-10-01');
    const copied = await t.app.inject({ method: 'POST', url: `/api/v1/reports/${second.report.uuid}/copy-previous`, headers: w.reporter });
    expect(copied.statusCode).toBe(200);
    expect(copied.json().data).toMatchObject({ row_count: 2, totals: { volume: '30.0000', value: '300.0000' } });
    expect(copied.json().data).not.toHaveProperty('rows');
    expect((await rowsOf(w.reporter, second.report.uuid)).json().data.map((r: { code: string; volume: string }) => [r.code, r.volume])).toEqual([
      ['1001', '10.0000'],
      ['1002', '20.0000'],
    ]);

    // An invalid file left the report in 11: copying gives it rows again and brings it back to 20.
    await t.db.update(reports).set({ status: 11 }).where(eq(reports.uuid, second.report.uuid));
    const recopied = await t.app.inject({ method: 'POST', url: `/api/v1/reports/${second.report.uuid}/copy-previous`, headers: w.reporter });
    expect(recopied.json().data.status).toBe(20);
    expect(recopied.json().data.row_count).toBe(2);
    expect((await rowsOf(w.reporter, second.report.uuid)).json().meta.total).toBe(2);
    // Copying again replaced the rows: the earlier copy's set is gone, the source report keeps its own.
    const [target] = await t.db.select().from(reports).where(eq(reports.uuid, second.report.uuid));
    const targetSets = await t.db.select({ id: reportRowSets.id }).from(reportRowSets).where(eq(reportRowSets.report_id, target!.id));
    expect(targetSets.map((s) => s.id)).toEqual([target!.row_set_id]);
    const [source] = await t.db.select().from(reports).where(eq(reports.uuid, first.report.uuid));
    expect(source!.row_set_id).not.toBeNull();

    // The preflight compares with the previous report: a missing code warns, a jump informs.
    await storeRows(second.report.uuid, [[w.codes[0]!.id, 15, 100]]);
    const preflight = await t.app.inject({ method: 'POST', url: `/api/v1/reports/${second.report.uuid}/preflight`, headers: w.reporter });
    const result = preflight.json().data;
    expect(result.severity).toBe(30);
    expect(result.results.map((r: { severity: number; message: string }) => [r.severity, r.message])).toEqual([
      [30, 'Code 1002 (Large) was reported in 2026-09 but is missing now.'],
      [20, 'Code 1001 (Small): volume rose by 50 % against 2026-09.'],
    ]);
    // A third period with no report of this company in the previous one names that period.
    const third = await openPeriod(w, '2026-11', '2026-11-01');
    await t.db.delete(reports).where(eq(reports.uuid, second.report.uuid));
    const gap = await t.app.inject({ method: 'POST', url: `/api/v1/reports/${third.report.uuid}/copy-previous`, headers: w.reporter });
    expect(gap.json().message).toBe("There is no report for the period you're trying to copy from (2026-10).");
  });

  it('when copying, then the screen is told what it replaces, and each code is taken as it may be reported today', async () => {
    const w = await world();
    const extra = await t.db
      .insert(codes)
      .values([
        { organization_id: w.org.id, code: '2001', name: 'Value disabled', disabled_status: 10 },
        { organization_id: w.org.id, code: '2002', name: 'Volume disabled', disabled_status: 20 },
        { organization_id: w.org.id, code: '2003', name: 'Inactive now' },
        { organization_id: w.org.id, code: '2004', name: 'Value only, value disabled', disabled_status: 10 },
        { organization_id: w.org.id, code: '2005', name: 'No longer the company’s' },
      ])
      .returning();
    await t.db.insert(codeMarkets).values(extra.map((c) => ({ code_id: c.id, market_id: w.market.id })));
    await t.db.insert(companyCodes).values(extra.filter((c) => c.code !== '2005').map((c) => ({ code_id: c.id, company_id: w.company.id })));
    const first = await openPeriod(w, '2026-09', '2026-09-01');
    const byCode = Object.fromEntries(extra.map((c) => [c.code, c.id]));
    await storeRows(first.report.uuid, [
      [w.codes[0]!.id, 10, 100],
      [byCode['2001']!, 1, 11],
      [byCode['2002']!, 2, 22],
      [byCode['2003']!, 3, 33],
      [byCode['2004']!, null, 44],
      [byCode['2005']!, 5, 55],
    ]);
    // Inactive after the previous period was reported.
    await t.db.update(codes).set({ disabled_status: 30 }).where(eq(codes.id, byCode['2003']!));
    const second = await openPeriod(w, '2026-10', '2026-10-01');
    await storeRows(second.report.uuid, [
      [w.codes[0]!.id, 1, 1],
      [w.codes[1]!.id, 2, 2],
    ]);

    const preview = await t.app.inject({ url: `/api/v1/reports/${second.report.uuid}/copy-previous`, headers: w.reporter });
    expect(preview.json().data).toEqual({ period_title: '2026-09', row_count: 3, left_out: 3 });
    // Only those who may copy ask what a copy would bring.
    expect((await t.app.inject({ url: `/api/v1/reports/${second.report.uuid}/copy-previous`, headers: w.admin })).statusCode).toBe(403);
    const copied = await t.app.inject({ method: 'POST', url: `/api/v1/reports/${second.report.uuid}/copy-previous`, headers: w.reporter });
    expect(copied.json().data.row_count).toBe(3);
    const rows = (await rowsOf(w.reporter, second.report.uuid)).json().data;
    expect(rows.map((r: { code: string; volume: string | null; value: string | null }) => [r.code, r.volume, r.value])).toEqual([
      ['1001', '10.0000', '100.0000'],
      ['2001', '1.0000', null],
      ['2002', null, '22.0000'],
    ]);
    // Without a previous period there is nothing to preview.
    expect((await t.app.inject({ url: `/api/v1/reports/${first.report.uuid}/copy-previous`, headers: w.reporter })).json().data).toBeNull();
  });

  it('when a report is sent back, then its comment is on the report and in lists until it is submitted again', async () => {
    const w = await world();
    const { period, report } = await openPeriod(w, '2026-10', '2026-10-01');
    await storeRows(report.uuid, [[w.codes[0]!.id, 10, 1000]]);
    await status(w.reporter, report.uuid, { status: 40 });
    expect((await status(w.admin, report.uuid, { status: 50, comment: 'Code 1002 is missing' })).json().data.sent_back_comment).toBe('Code 1002 is missing');
    // New rows after the send-back do not hide it.
    await storeRows(report.uuid, [[w.codes[1]!.id, 1, 1]]);
    const list = await t.app.inject({ url: `/api/v1/reports?period_uuid=${period.uuid}`, headers: w.reporter });
    expect(list.json().data[0].sent_back_comment).toBe('Code 1002 is missing');
    expect((await status(w.reporter, report.uuid, { status: 40 })).json().data.sent_back_comment).toBeNull();
  });

  it('when the report history is asked for, then it pages, sorts and searches what the caller may see', async () => {
    const w = await world();
    for (const [title, starts] of [
      ['2026-08', '2026-08-01'],
      ['2026-09', '2026-09-01'],
      ['2026-10', '2026-10-01'],
    ] as const)
      await openPeriod(w, title, starts);
    const history = async (headers: Record<string, string>, query: string) =>
      (await t.app.inject({ url: `/api/v1/report-history?market_id=${w.market.id}${query}`, headers })).json();
    const label = (r: { period: { title: string }; company: { name: string } }) => `${r.period.title} ${r.company.name}`;

    // An approver sees both companies, newest period first; a reporter only their own.
    const all = await history(w.admin, '&per_page=4');
    expect(all.meta).toEqual({ page: 1, per_page: 4, total: 6 });
    expect(all.data.map(label)).toEqual(['2026-10 Acme AB', '2026-10 Rival AB', '2026-09 Acme AB', '2026-09 Rival AB']);
    expect((await history(w.admin, '&per_page=4&page=2')).data.map(label)).toEqual(['2026-08 Acme AB', '2026-08 Rival AB']);
    const own = await history(w.reporter, '');
    expect(own.meta.total).toBe(3);
    expect(own.data.every((r: { company: { id: number } }) => r.company.id === w.company.id)).toBe(true);
    // Sorted by company, searched by period title.
    expect((await history(w.admin, '&sort=company&direction=desc&per_page=1')).data.map(label)).toEqual(['2026-10 Rival AB']);
    expect((await history(w.admin, '&search=2026-09')).data.map(label)).toEqual(['2026-09 Acme AB', '2026-09 Rival AB']);
    expect((await t.app.inject({ url: `/api/v1/report-history?market_id=${w.market.id}&search=ab`, headers: w.admin })).statusCode).toBe(422);
    // Another organization's market answers an empty page.
    const outsider = await t.app.inject({ url: `/api/v1/report-history?market_id=${w.market.id}`, headers: (await world()).admin });
    expect(outsider.json().meta.total).toBe(0);
  });

  it('when filtering by status with a bracket array, then only reports in those statuses are listed', async () => {
    const w = await world();
    const { period, report } = await openPeriod(w, '2026-10', '2026-10-01');
    await storeRows(report.uuid, [[w.codes[0]!.id, 1, 1]]);
    await status(w.reporter, report.uuid, { status: 40 });
    const waiting = await t.app.inject({ url: `/api/v1/reports?period_uuid=${period.uuid}&status[]=40&status[]=50`, headers: w.admin });
    expect(waiting.json().data.map((r: { uuid: string }) => r.uuid)).toEqual([report.uuid]);
  });

  it('when filtering by the period state, then only reports of periods in that state are listed', async () => {
    const w = await world();
    const open = await openPeriod(w, '2026-11', '2026-11-01');
    const list = async (query: string) =>
      (await t.app.inject({ url: `/api/v1/reports?${query}`, headers: w.admin })).json().data.map((r: { uuid: string }) => r.uuid);
    const all = await list(`period_uuid=${open.period.uuid}`);
    expect(all).toContain(open.report.uuid);
    expect(await list(`period_status=open&period_uuid=${open.period.uuid}`)).toEqual(all);
    await t.app.inject({ method: 'POST', url: `/api/v1/periods/${open.period.uuid}/close`, headers: w.admin });
    expect(await list(`period_status=open&period_uuid=${open.period.uuid}`)).toEqual([]);
    expect(await list(`period_status=closed&period_uuid=${open.period.uuid}`)).toContain(open.report.uuid);
    const wrong = await t.app.inject({ url: '/api/v1/reports?period_status=ajar', headers: w.admin });
    expect(wrong.statusCode).toBe(422);
  });
});

describe('running the preflight (a user who only follows the reports once could write one)', () => {
  it('when a company user who may only view the reports runs the preflight, then 403 and nothing is written; reading it still works', async () => {
    const w = await world();
    const { report } = await openPeriod(w, '2026-10', '2026-10-01');
    const followerUser = await createUser(t.db, { roles: ['company'], organizationIds: [w.org.id], marketIds: [w.market.id], companyId: w.company.id });
    const follower = { ...XHR, cookie: await signIn(t.app, followerUser.email) };
    const [stored] = await t.db.select({ id: reports.id }).from(reports).where(eq(reports.uuid, report.uuid));
    const count = async () => (await t.db.select().from(preflights).where(eq(preflights.report_id, stored!.id))).length;
    const before = await count();

    const run = await t.app.inject({ method: 'POST', url: `/api/v1/reports/${report.uuid}/preflight`, headers: follower });
    expect(run.statusCode).toBe(403);
    expect(run.json()).toEqual({ message: "You don't have access to change this report." });
    expect(await count()).toBe(before);
    expect((await t.app.inject({ url: `/api/v1/reports/${report.uuid}/preflight`, headers: follower })).statusCode).toBe(200);

    // The company's reporter and the market's approver may run it.
    for (const headers of [w.reporter, w.admin]) {
      expect((await t.app.inject({ method: 'POST', url: `/api/v1/reports/${report.uuid}/preflight`, headers })).statusCode).toBe(200);
    }
    expect(await count()).toBe(before + 2);
  });
});

describe("a report's rows", () => {
  async function bigReport() {
    const w = await world();
    const { report } = await openPeriod(w, '2026-10', '2026-10-01');
    // 1001 Small, 1002 Large (from the world), then 2000..2029 "Item n", one "Electric tractors".
    const more = await t.db
      .insert(codes)
      .values(Array.from({ length: 30 }, (_, i) => ({ organization_id: w.org.id, code: String(2000 + i), name: i === 7 ? 'Electric tractors' : `Item ${i}` })))
      .returning();
    const all = [...w.codes, ...more];
    await storeRows(
      report.uuid,
      all.map((c, i) => [c.id, i, i === 0 ? null : 1]),
    );
    // One exact figure beyond a float's reach.
    const [stored] = await t.db.select({ row_set_id: reports.row_set_id }).from(reports).where(eq(reports.uuid, report.uuid));
    await t.db
      .update(reportRows)
      .set({ value: '123456789012345.6789' })
      .where(and(eq(reportRows.row_set_id, stored!.row_set_id!), eq(reportRows.code_id, w.codes[1]!.id)));
    return { w, report };
  }

  it('when a report is read, then it carries its row count and SQL totals, not its rows', async () => {
    const { w, report } = await bigReport();
    const res = await t.app.inject({ url: `/api/v1/reports/${report.uuid}`, headers: w.reporter });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ uuid: report.uuid, row_count: 32, totals: { volume: '496.0000', value: '123456789012375.6789' } });
    expect(res.json().data).not.toHaveProperty('rows');
  });

  it('when rows are paged, then a page comes by code with the meta of every row and exact decimal strings', async () => {
    const { w, report } = await bigReport();
    const first = await rowsOf(w.reporter, report.uuid, '?per_page=10');
    expect(first.statusCode).toBe(200);
    expect(first.json().meta).toEqual({ page: 1, per_page: 10, total: 32 });
    expect(first.json().data).toHaveLength(10);
    expect(first.json().data[0]).toEqual({
      code_id: w.codes[0]!.id,
      code: '1001',
      name: 'Small',
      volume: '0.0000',
      value: null,
      // No earlier period in this market: nothing to compare with.
      volume_previous: null,
      value_previous: null,
      volume_previous_change_pct: null,
      value_previous_change_pct: null,
      volume_last_year: null,
      value_last_year: null,
      volume_last_year_change_pct: null,
      value_last_year_change_pct: null,
      deviates: false,
      volume_deviates: false,
      value_deviates: false,
    });
    expect(first.json().data[1]).toMatchObject({ code: '1002', volume: '1.0000', value: '123456789012345.6789' });

    const last = await rowsOf(w.reporter, report.uuid, '?per_page=10&page=4');
    expect(last.json().data.map((r: { code: string }) => r.code)).toEqual(['2028', '2029']);
    expect(last.json().meta).toEqual({ page: 4, per_page: 10, total: 32 });

    const byName = await rowsOf(w.reporter, report.uuid, '?sort=name&direction=desc&per_page=2');
    expect(byName.json().data.map((r: { name: string }) => r.name)).toEqual(['Small', 'Large']);
    expect((await rowsOf(w.reporter, report.uuid, '?sort=volume&direction=desc&per_page=1')).json().data[0].code).toBe('2029');
    const unknownSort = await rowsOf(w.reporter, report.uuid, '?sort=company');
    expect(unknownSort.statusCode).toBe(422);
  });

  it('when searching, then code or name match in any case, and fewer than 3 characters are refused', async () => {
    const { w, report } = await bigReport();
    const byName = await rowsOf(w.reporter, report.uuid, '?search=ELECTRIC');
    expect(byName.json().data.map((r: { code: string }) => r.code)).toEqual(['2007']);
    expect(byName.json().meta).toEqual({ page: 1, per_page: 25, total: 1 });
    const byCode = await rowsOf(w.reporter, report.uuid, '?search=100');
    expect(byCode.json().data.map((r: { code: string }) => r.code)).toEqual(['1001', '1002']);
    expect(byCode.json().meta.total).toBe(2);
    // A LIKE wildcard is a character like any other.
    expect((await rowsOf(w.reporter, report.uuid, '?search=10%25')).json().meta.total).toBe(0);

    const short = await rowsOf(w.reporter, report.uuid, '?search=10');
    expect(short.statusCode).toBe(422);
    expect(short.json()).toEqual({
      message: 'The search must be longer than 2 characters.',
      errors: { search: ['The search must be longer than 2 characters.'] },
    });
  });

  it("when another company's reporter asks for the rows, then 404, as for the report; the market's approver reads them", async () => {
    const { w, report } = await bigReport();
    const hidden = await rowsOf(w.rivalReporter, report.uuid);
    expect(hidden.statusCode).toBe(404);
    expect((await rowsOf(w.rivalReporter, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await rowsOf(w.admin, report.uuid)).json().meta.total).toBe(32);
  });

  it('when a report has no rows, then an empty page', async () => {
    const w = await world();
    const { report } = await openPeriod(w, '2026-10', '2026-10-01');
    const res = await rowsOf(w.reporter, report.uuid);
    expect(res.json()).toEqual({
      data: [],
      meta: { page: 1, per_page: 25, total: 0 },
      comparison: { previous: null, last_year: null, deviation_percentage: '20' },
    });
  });
});

describe('what changed, for the approver (rows beside the previous period and last year)', () => {
  type Row = Record<string, unknown> & { code: string };
  /**
   * Acme reports 2025-10 (last year), 2026-09 (previous) and 2026-10 (now); Rival reports other
   * figures for the same codes in 2026-09 and 2026-10, which must never show in Acme's rows.
   */
  async function history() {
    const w = await world();
    const more = await t.db
      .insert(codes)
      .values([
        { organization_id: w.org.id, code: '1003', name: 'Half up' },
        { organization_id: w.org.id, code: '1004', name: 'Half down' },
        { organization_id: w.org.id, code: '1005', name: 'Gone' },
        { organization_id: w.org.id, code: '1006', name: 'New' },
      ])
      .returning();
    const [small, large] = [w.codes[0]!, w.codes[1]!];
    const [up, down, gone, fresh] = [more[0]!, more[1]!, more[2]!, more[3]!];
    const lastYear = await openPeriod(w, '2025-10', '2025-10-01');
    const previous = await openPeriod(w, '2026-09', '2026-09-01');
    const now = await openPeriod(w, '2026-10', '2026-10-01');
    await storeRows(lastYear.report.uuid, [[small.id, 50, 400]]);
    await storeRows(previous.report.uuid, [
      [small.id, 100, 1000],
      [large.id, 0, null],
      [up.id, 200, 200],
      [down.id, -200, 10],
      [gone.id, 5, 5],
    ]);
    await storeRows(now.report.uuid, [
      [small.id, 8, 1100],
      [large.id, 7, 3],
      [up.id, 224.9, 200],
      [down.id, -175.1, 10],
      [fresh.id, 1, 1],
    ]);
    // Rival's reports of the same periods, with figures that would change every answer above.
    const rivalReports = await t.db.select({ uuid: reports.uuid, period_id: reports.period_id }).from(reports).where(eq(reports.company_id, w.rival.id));
    for (const r of rivalReports)
      await storeRows(r.uuid, [
        [small.id, 999999, 999999],
        [fresh.id, 777777, 777777],
      ]);
    return { w, lastYear, previous, now, rivalReports };
  }
  const byCode = (rows: Row[]) => Object.fromEntries(rows.map((r) => [r.code, r]));

  it("when an approver reads the rows, then each carries the same company's previous and last-year figures and the changes, exact to the character", async () => {
    const { w, lastYear, previous, now } = await history();
    const res = await rowsOf(w.admin, now.report.uuid);
    expect(res.statusCode).toBe(200);
    const rows = byCode(res.json().data);
    // previous 100.0000 → now 8.0000 is −92.0 %; a year earlier 50 → 8 is −84.0 %.
    expect(rows['1001']).toEqual({
      code_id: w.codes[0]!.id,
      code: '1001',
      name: 'Small',
      volume: '8.0000',
      value: '1100.0000',
      volume_previous: '100.0000',
      value_previous: '1000.0000',
      volume_previous_change_pct: '-92.0',
      value_previous_change_pct: '10.0',
      volume_last_year: '50.0000',
      value_last_year: '400.0000',
      volume_last_year_change_pct: '-84.0',
      value_last_year_change_pct: '175.0',
      // The volume's −92 % passes the 20 % setting; the value's +10 % does not.
      deviates: true,
      volume_deviates: true,
      value_deviates: false,
    });
    // A base of 0 or a missing figure: no change, and no deviation.
    expect(rows['1002']).toMatchObject({ volume_previous: '0.0000', volume_previous_change_pct: null, value_previous: null, value_previous_change_pct: null });
    expect(rows['1002']).toMatchObject({ volume_last_year: null, volume_last_year_change_pct: null, deviates: false });
    // Rounded half-up, once, at the end: 200 → 224.9 is +12.45 %, shown 12.5; against a negative
    // base the sign says the direction: −200 → −175.1 rose by 12.45 % of |−200|.
    expect(rows['1003']).toMatchObject({ volume_previous_change_pct: '12.5', value_previous_change_pct: '0.0', deviates: false });
    expect(rows['1004']).toMatchObject({ volume_previous: '-200.0000', volume_previous_change_pct: '12.5', deviates: false });
    // A code new in this period has nothing to compare with.
    expect(rows['1006']).toMatchObject({ volume_previous: null, volume_previous_change_pct: null, volume_last_year: null, deviates: false });
    expect(res.json().comparison).toEqual({
      previous: { period: { uuid: previous.period.uuid, title: '2026-09' }, report: { uuid: previous.report.uuid, status: 20 } },
      last_year: { period: { uuid: lastYear.period.uuid, title: '2025-10' }, report: { uuid: lastYear.report.uuid, status: 20 } },
      deviation_percentage: '20',
    });
    // 1005, reported in 2026-09 and missing now, is not a row: the preflight names it.
    expect(rows['1005']).toBeUndefined();
    expect(res.json().meta).toEqual({ page: 1, per_page: 25, total: 5 });
    // The reporter of the company reads the same answer.
    expect((await rowsOf(w.reporter, now.report.uuid)).json()).toEqual(res.json());
  });

  it('when another company reported the same codes, then its figures never appear, and its reporter still gets 404', async () => {
    const { w, now, rivalReports } = await history();
    const text = (await rowsOf(w.admin, now.report.uuid)).body;
    expect(text).not.toContain('999999');
    expect(text).not.toContain('777777');
    expect((await rowsOf(w.rivalReporter, now.report.uuid)).statusCode).toBe(404);
    // Rival's own rows are compared with Rival's own previous report only.
    const [rivalNow] = await t.db
      .select({ uuid: reports.uuid })
      .from(reports)
      .innerJoin(periods, eq(periods.id, reports.period_id))
      .where(and(eq(reports.company_id, w.rival.id), eq(periods.title, '2026-10'), eq(periods.market_id, w.market.id)));
    expect(rivalReports).toHaveLength(3);
    const rival = byCode((await rowsOf(w.admin, rivalNow!.uuid)).json().data);
    expect(rival['1001']).toMatchObject({
      volume: '999999.0000',
      volume_previous: '999999.0000',
      volume_previous_change_pct: '0.0',
      volume_last_year: '999999.0000',
    });
    expect(Object.keys(rival)).toEqual(['1001', '1006']);
  });

  it("when the organization's deviation setting changes, then the flag and the deviating filter follow it", async () => {
    const { w, now } = await history();
    const flagged = async () =>
      (await rowsOf(w.admin, now.report.uuid))
        .json()
        .data.filter((r: Row) => r.deviates)
        .map((r: Row) => r.code);
    expect(await flagged()).toEqual(['1001']);
    const only = await rowsOf(w.admin, now.report.uuid, '?deviating=1');
    expect(only.json().data.map((r: Row) => r.code)).toEqual(['1001']);
    expect(only.json().meta).toEqual({ page: 1, per_page: 25, total: 1 });

    // 12.45 % is more than 12 %: 1003 and 1004 deviate too; it is not more than 12.45 %.
    await t.db.insert(organizationSettings).values({ organization_id: w.org.id, key: 'deviation_percentage', value: '12' });
    expect(await flagged()).toEqual(['1001', '1003', '1004']);
    await t.db.update(organizationSettings).set({ value: '12.45' }).where(eq(organizationSettings.organization_id, w.org.id));
    expect(await flagged()).toEqual(['1001']);
    await t.db.update(organizationSettings).set({ value: '95' }).where(eq(organizationSettings.organization_id, w.org.id));
    expect(await flagged()).toEqual([]);
    const none = await rowsOf(w.admin, now.report.uuid, '?deviating=1');
    expect(none.json()).toMatchObject({ data: [], meta: { total: 0 }, comparison: { deviation_percentage: '95' } });
  });

  it('when sorted by the change, then the largest first, rows without a change last, and pages, search and filter still work', async () => {
    const { w, now } = await history();
    const codesOf = async (query: string) => (await rowsOf(w.admin, now.report.uuid, query)).json().data.map((r: Row) => r.code);
    // |change| of volume: 1001 92 %, 1003 and 1004 12.45 % (then by code_id), 1002 (base 0) and 1006 (new) without.
    expect(await codesOf('?sort=volume_change&direction=desc')).toEqual(['1001', '1003', '1004', '1002', '1006']);
    expect(await codesOf('?sort=volume_change&direction=asc')).toEqual(['1003', '1004', '1001', '1002', '1006']);
    expect(await codesOf('?sort=volume_change&direction=desc&per_page=2&page=2')).toEqual(['1004', '1002']);
    expect(await codesOf('?sort=value_change&direction=desc&per_page=1')).toEqual(['1001']);
    expect(await codesOf('?search=half&sort=volume_change&direction=desc')).toEqual(['1003', '1004']);
    const searched = await rowsOf(w.admin, now.report.uuid, '?search=half&deviating=1');
    expect(searched.json()).toMatchObject({ data: [], meta: { total: 0 } });
    expect((await rowsOf(w.admin, now.report.uuid, '?deviating=yes')).statusCode).toBe(422);
  });

  it('when the market has no earlier period, or the company no report in it, then the comparison says so and the rows carry no earlier figures', async () => {
    const w = await world();
    const { report } = await openPeriod(w, '2026-10', '2026-10-01');
    await storeRows(report.uuid, [[w.codes[0]!.id, 1, 1]]);
    const alone = await rowsOf(w.admin, report.uuid);
    expect(alone.json().comparison).toEqual({ previous: null, last_year: null, deviation_percentage: '20' });
    // A later period: the previous one exists; the company's report in it has no rows; no period a year earlier.
    const next = await openPeriod(w, '2026-11', '2026-11-01');
    await storeRows(next.report.uuid, [[w.codes[0]!.id, 2, 2]]);
    const res = await rowsOf(w.admin, next.report.uuid);
    expect(res.json().comparison).toMatchObject({ previous: { period: { title: '2026-10' }, report: { uuid: report.uuid, status: 20 } }, last_year: null });
    expect(res.json().data[0]).toMatchObject({ volume: '2.0000', volume_previous: '1.0000', volume_previous_change_pct: '100.0', deviates: true });
  });
});
