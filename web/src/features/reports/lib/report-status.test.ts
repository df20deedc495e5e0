import { describe, expect, it } from 'vitest';
import type { Ability } from '@mss/contracts/abilities';
import { ReportStatus } from '@mss/contracts/enums';
import { reportActions, statusFor } from './report-status.ts';

const market = (name: string, id = 1): Ability => ({ name, entity_id: id, entity_type: 'market' });
const reporter = { abilities: [market('upload-reports')] };
const approver = { abilities: [market('approve-reports')] };
const report = (status: number, periodStatus = 'open', marketId = 1) => ({ status, market: { id: marketId }, period: { status: periodStatus } });
const offered = (actions: ReturnType<typeof reportActions>) =>
  Object.entries(actions)
    .filter(([, on]) => on)
    .map(([name]) => name);

describe('the report actions the status machine allows', () => {
  it.each([
    [ReportStatus.Ongoing, ['upload', 'submit']],
    [ReportStatus.InvalidFile, ['upload']],
    [ReportStatus.WaitingForCompletion, ['upload', 'submit']],
    [ReportStatus.ProcessingFile, []],
    [ReportStatus.ProcessingData, []],
    [ReportStatus.WaitingForApproval, ['withdraw']],
    [ReportStatus.Approved, []],
  ])('when a reporter looks at a report in status %i, then %j is offered', (status, expected) => {
    expect(offered(reportActions(report(status), reporter))).toEqual(expected);
  });

  it.each([
    [ReportStatus.WaitingForApproval, ['sendBack', 'approve']],
    [ReportStatus.Ongoing, []],
    [ReportStatus.WaitingForCompletion, []],
    [ReportStatus.Approved, ['unapprove']],
  ])('when an approver looks at a report in status %i, then %j is offered', (status, expected) => {
    expect(offered(reportActions(report(status), approver))).toEqual(expected);
  });

  it('when the period is closed, then nothing is offered to anyone', () => {
    expect(offered(reportActions(report(ReportStatus.Ongoing, 'closed'), reporter))).toEqual([]);
    expect(offered(reportActions(report(ReportStatus.WaitingForApproval, 'closed'), approver))).toEqual([]);
    expect(offered(reportActions(report(ReportStatus.WaitingForApproval, 'closed'), reporter))).toEqual([]);
    expect(offered(reportActions(report(ReportStatus.Approved, 'closed'), approver))).toEqual([]);
  });

  it('when the ability is held for another market only, then nothing is offered', () => {
    expect(offered(reportActions(report(ReportStatus.Ongoing, 'open', 2), reporter))).toEqual([]);
    expect(offered(reportActions(report(ReportStatus.WaitingForApproval, 'open', 2), approver))).toEqual([]);
  });

  it('when the abilities are not loaded, then nothing is offered', () => {
    expect(offered(reportActions(report(ReportStatus.Ongoing), { abilities: null }))).toEqual([]);
  });

  it('when an action is asked for, then the status sent is the one the server maps to it', () => {
    expect(statusFor('submit')).toBe(ReportStatus.WaitingForApproval);
    expect(statusFor('send_back')).toBe(ReportStatus.WaitingForCompletion);
    expect(statusFor('approve')).toBe(ReportStatus.Approved);
  });
});
