import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asc, eq } from 'drizzle-orm';
import { ReportStatus as S } from '@mss/contracts/enums';
import type { ReportEvent } from '@mss/contracts/reports';
import { createCompany, createMarket, createOrganization, createTestApp, createUser, type TestApp, unique } from '../../../test/helpers.ts';
import { periods, reports, reportStatusChanges } from '../../db/schema.ts';
import { applyReportEvent } from './reports.workflow.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** An open period of a new market with one reporting company, a person, and the company's report (20). */
async function world() {
  const org = await createOrganization(t.db);
  const market = await createMarket(t.db, org.id);
  const company = await createCompany(t.db, [{ marketId: market.id, roles: ['reporter'] }]);
  const user = await createUser(t.db);
  const [period] = await t.db
    .insert(periods)
    .values({ market_id: market.id, title: unique('P'), starts_on: '2026-10-01', ends_on: '2026-10-31', status: 'open' })
    .returning();
  const [created] = await applyReportEvent(t.db, { event: 'create', create: { periodId: period!.id, companyIds: [company.id] }, actor: user.id });
  const reportId = created!.reportId;
  const setPeriod = (status: 'open' | 'closed') => t.db.update(periods).set({ status }).where(eq(periods.id, period!.id));
  return { period: period!, company, user, reportId, setPeriod };
}

const stateOf = async (reportId: number) => (await t.db.select().from(reports).where(eq(reports.id, reportId)))[0]!;
const historyOf = async (reportId: number) =>
  (await t.db.select().from(reportStatusChanges).where(eq(reportStatusChanges.report_id, reportId)).orderBy(asc(reportStatusChanges.id))).map((h) => [
    h.user_id === null ? 'job' : 'person',
    h.from_status,
    h.to_status,
    h.comment,
  ]);

describe('applyReportEvent, the one report workflow', () => {
  it("when a report goes the whole way, then every step is the table's, recorded with who (or the job), from, to and comment", async () => {
    const w = await world();
    const step = (event: Exclude<ReportEvent, 'create'>, extra: { actor?: number | null; before?: number; comment?: string } = {}) =>
      applyReportEvent(t.db, {
        event,
        reportId: w.reportId,
        actor: extra.actor === undefined ? w.user.id : extra.actor,
        before: extra.before,
        comment: extra.comment,
      });

    expect(await step('upload')).toEqual({ reportId: w.reportId, from: S.Ongoing, to: S.ProcessingFile });
    await step('file_valid', { actor: null });
    await step('rows_stored', { actor: null, before: S.Ongoing });
    await step('submit');
    expect((await stateOf(w.reportId)).submitted_at).not.toBeNull();
    await step('send_back', { comment: 'Code 1002 is missing' });
    await step('upload');
    await step('file_valid', { actor: null });
    await step('restart', { actor: null });
    await step('give_up', { actor: null });
    // Copying from the previous period after a failed upload that came from 50: back to 50.
    expect(await step('copy_previous', { before: S.WaitingForCompletion })).toMatchObject({ from: S.InvalidFile, to: S.WaitingForCompletion });
    // Again in 50: nothing changes, nothing is recorded.
    expect(await step('copy_previous')).toMatchObject({ from: S.WaitingForCompletion, to: S.WaitingForCompletion });
    await step('submit');
    await step('approve');
    const report = await stateOf(w.reportId);
    expect(report.status).toBe(S.Approved);
    expect(report.approved_at).not.toBeNull();
    expect(await historyOf(w.reportId)).toEqual([
      ['person', null, 20, null],
      ['person', 20, 10, null],
      ['job', 10, 30, null],
      ['job', 30, 20, null],
      ['person', 20, 40, null],
      ['person', 40, 50, 'Code 1002 is missing'],
      ['person', 50, 10, null],
      ['job', 10, 30, null],
      ['job', 30, 10, null],
      ['job', 10, 11, null],
      ['person', 11, 50, null],
      ['person', 50, 40, null],
      ['person', 40, 60, null],
    ]);
  });

  it('when an event is refused, then nothing is written and the answer follows the order: access, period closed, approved, status', async () => {
    const w = await world();
    const refusal = (event: 'upload' | 'approve' | 'submit' | 'file_invalid', mayAct?: boolean) =>
      applyReportEvent(t.db, { event, reportId: w.reportId, actor: w.user.id, mayAct }).then(
        () => null,
        (error: { code: string; messageKey: string }) => [error.code, error.messageKey],
      );
    // 20: approving is not in the table; a job's event neither.
    expect(await refusal('approve')).toEqual(['conflict', 'report.invalid_status_for_action']);
    expect(await refusal('file_invalid')).toEqual(['conflict', 'report.invalid_status_for_action']);
    // Walk to Approved, then close the period.
    for (const event of ['submit', 'approve'] as const) await applyReportEvent(t.db, { event, reportId: w.reportId, actor: w.user.id });
    expect(await refusal('upload')).toEqual(['conflict', 'report_status.already_approved']);
    await w.setPeriod('closed');
    // An approved report in a closed period: the closed-period message.
    expect(await refusal('approve')).toEqual(['conflict', 'report_status.period_closed']);
    expect(await refusal('upload')).toEqual(['conflict', 'report_status.period_closed']);
    // No access comes first of all.
    expect(await refusal('upload', false)).toEqual(['forbidden', 'report_status.no_access']);
    // Creating it again: the period is closed; once open, it exists.
    const create = () =>
      applyReportEvent(t.db, { event: 'create', create: { periodId: w.period.id, companyIds: [w.company.id] }, actor: null }).then(
        () => null,
        (error: { messageKey: string }) => error.messageKey,
      );
    expect(await create()).toBe('report_status.period_closed');
    await w.setPeriod('open');
    expect(await create()).toBe('report.exists');
    expect(await historyOf(w.reportId)).toEqual([
      ['person', null, 20, null],
      ['person', 20, 40, null],
      ['person', 40, 60, null],
    ]);
  });

  it('when a reporter withdraws a submission, then it goes back to the status it was submitted from, recorded as a withdrawal', async () => {
    const w = await world();
    const step = (event: Exclude<ReportEvent, 'create'>, comment?: string) =>
      applyReportEvent(t.db, { event, reportId: w.reportId, actor: w.user.id, comment });
    await step('submit');
    expect(await step('withdraw', 'Wrong month in column B')).toMatchObject({ from: S.WaitingForApproval, to: S.Ongoing });
    expect((await stateOf(w.reportId)).submitted_at).toBeNull();
    // Sent back, submitted again, withdrawn: back to Waiting for completion, not Ongoing.
    await step('submit');
    await step('send_back', 'Code 1002 is missing');
    await step('submit');
    expect(await step('withdraw')).toMatchObject({ from: S.WaitingForApproval, to: S.WaitingForCompletion });
    const events = await t.db
      .select({ event: reportStatusChanges.event, comment: reportStatusChanges.comment })
      .from(reportStatusChanges)
      .where(eq(reportStatusChanges.report_id, w.reportId))
      .orderBy(asc(reportStatusChanges.id));
    expect(events.map((e) => e.event)).toEqual(['create', 'submit', 'withdraw', 'submit', 'send_back', 'submit', 'withdraw']);
    expect(events[2]!.comment).toBe('Wrong month in column B');
    // Approved: too late to withdraw.
    await step('submit');
    await step('approve');
    await expect(step('withdraw')).rejects.toMatchObject({ messageKey: 'report_status.already_approved' });
  });

  it('when an approver undoes an approval, then the report waits for approval again; not in a closed period, nor in a published one without publishing again', async () => {
    const w = await world();
    const step = (event: Exclude<ReportEvent, 'create'>, extra: { republish?: boolean } = {}) =>
      applyReportEvent(t.db, { event, reportId: w.reportId, actor: w.user.id, ...extra });
    // Not approved: nothing to undo.
    await expect(step('unapprove')).rejects.toMatchObject({ messageKey: 'report.invalid_status_for_action' });
    await step('submit');
    await step('approve');
    expect(await step('unapprove')).toMatchObject({ from: S.Approved, to: S.WaitingForApproval });
    expect((await stateOf(w.reportId)).approved_at).toBeNull();
    await step('approve');
    await w.setPeriod('closed');
    await expect(step('unapprove')).rejects.toMatchObject({ messageKey: 'report_status.period_closed' });
    await w.setPeriod('open');
    await t.db.update(periods).set({ published_at: new Date() }).where(eq(periods.id, w.period.id));
    await expect(step('unapprove')).rejects.toMatchObject({ code: 'conflict', messageKey: 'report.unapprove_needs_republication' });
    expect((await stateOf(w.reportId)).status).toBe(S.Approved);
    expect(await step('unapprove', { republish: true })).toMatchObject({ from: S.Approved, to: S.WaitingForApproval });
    // Waiting for approval again, the reporter may withdraw it: back to where it was last submitted
    // from (50 here, after a send-back), not judged by the undone approval's 60 → 40.
    const v = await world();
    for (const event of ['submit', 'send_back', 'submit', 'approve', 'unapprove'] as const)
      await applyReportEvent(t.db, { event, reportId: v.reportId, actor: v.user.id });
    expect(await applyReportEvent(t.db, { event: 'withdraw', reportId: v.reportId, actor: v.user.id })).toMatchObject({
      from: S.WaitingForApproval,
      to: S.WaitingForCompletion,
    });
  });

  it('when a withdrawal and an approval race, then one wins and the other is judged on the state it left', async () => {
    const w = await world();
    await applyReportEvent(t.db, { event: 'submit', reportId: w.reportId, actor: w.user.id });
    const results = await Promise.allSettled([
      applyReportEvent(t.db, { event: 'withdraw', reportId: w.reportId, actor: w.user.id }),
      applyReportEvent(t.db, { event: 'approve', reportId: w.reportId, actor: w.user.id }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const winner = (await historyOf(w.reportId))[2]![2];
    const loser = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(loser.reason.messageKey).toBe(winner === S.Approved ? 'report_status.already_approved' : 'report.invalid_status_for_action');
    expect((await stateOf(w.reportId)).status).toBe(winner);
  });

  it('when the period closes while a file is processed, then the job still finishes it', async () => {
    const w = await world();
    await applyReportEvent(t.db, { event: 'upload', reportId: w.reportId, actor: w.user.id });
    await w.setPeriod('closed');
    await applyReportEvent(t.db, { event: 'file_invalid', reportId: w.reportId, actor: null });
    expect((await stateOf(w.reportId)).status).toBe(S.InvalidFile);
  });

  it('when two requests move the same report at once, then one wins and the other is judged on the state it left', async () => {
    const w = await world();
    await applyReportEvent(t.db, { event: 'submit', reportId: w.reportId, actor: w.user.id });
    const results = await Promise.allSettled([
      applyReportEvent(t.db, { event: 'approve', reportId: w.reportId, actor: w.user.id }),
      applyReportEvent(t.db, { event: 'send_back', reportId: w.reportId, actor: w.user.id, comment: 'no' }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    const history = await historyOf(w.reportId);
    expect(history).toHaveLength(3);
    const winner = history[2]![2];
    const loser = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(loser.reason.messageKey).toBe(winner === S.Approved ? 'report_status.already_approved' : 'report.invalid_status_for_action');
    expect((await stateOf(w.reportId)).status).toBe(winner);
  });
});

/*
 * The workflow is the only writer of a report's status and of its history. The demo seed writes
 * its fixed, back-dated history directly (seed/demo.ts says why); tests set statuses directly to
 * build their situations.
 */
describe('the only writer of report statuses', () => {
  const SRC = path.resolve(import.meta.dirname, '../..');
  const ALLOWED = ['modules/reports/reports.workflow.ts', 'seed/demo.ts'];
  const WRITES: [string, RegExp][] = [
    ['inserts status history', /\.insert\(\s*reportStatusChanges\s*\)/],
    ['inserts reports (with their status)', /\.insert\(\s*reports\s*\)/],
    ['sets reports.status', /\.update\(\s*reports\s*\)\s*\.set\(((?:(?!\)\s*\.(?:where|returning)\b)[\s\S])*?\bstatus\b)/],
    [
      'writes the tables in SQL',
      /(update\s+"?reports"?\s+set|insert\s+into\s+"?report_status_changes"?|insert\s+into\s+"?reports"?\b|\$\{reports\.status\}\s*=(?!=))/i,
    ],
  ];
  const writesIn = (source: string) => WRITES.filter(([, pattern]) => pattern.test(source)).map(([what]) => what);

  it('finds the writes it looks for (the check can fail)', () => {
    expect(writesIn('await db.update(reports).set({ status: to, updated_at: sql`now()` }).where(eq(reports.id, reportId));')).toEqual(['sets reports.status']);
    expect(writesIn('await tx\n  .update(reports)\n  .set({ status, row_set_id: rowSetId })\n  .where(eq(reports.id, 1));')).toEqual(['sets reports.status']);
    expect(writesIn('await tx.insert(reportStatusChanges).values({ report_id: 1 });')).toEqual(['inserts status history']);
    expect(writesIn('await tx.insert(reports).values({ period_id: 1, company_id: 2, status: 20 });')).toEqual(['inserts reports (with their status)']);
    expect(writesIn('await db.execute(sql`update reports set status = 20`);')).toEqual(['writes the tables in SQL']);
    // Not writes of the status.
    expect(writesIn('await db.update(reports).set({ row_set_id: rowSetId }).where(eq(reports.id, reportId));')).toEqual([]);
    expect(writesIn('db.select().from(reports).where(eq(reports.status, 20));')).toEqual([]);
  });

  it('finds none in the server sources outside reports.workflow.ts', () => {
    const offenders: string[] = [];
    for (const file of fs.readdirSync(SRC, { recursive: true, encoding: 'utf8' })) {
      const relative = file.split(path.sep).join('/');
      if (!relative.endsWith('.ts') || relative.endsWith('.test.ts') || ALLOWED.includes(relative)) continue;
      for (const what of writesIn(fs.readFileSync(path.join(SRC, file), 'utf8'))) offenders.push(`${relative}: ${what}`);
    }
    expect(offenders).toEqual([]);
  });
});
