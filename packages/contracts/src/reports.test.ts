import { describe, expect, it } from 'vitest';
import { ReportStatus } from './enums.ts';
import { canUploadInStatus, nextReportStatus, type ReportEvent } from './reports.ts';

const ALL = Object.values(ReportStatus);
const S = ReportStatus;

// The whole table of DESIGN §5: every (status, event) pair not listed here must be refused.
const ALLOWED: [number, ReportEvent, number, number?][] = [
  [S.Ongoing, 'upload', S.ProcessingFile],
  [S.InvalidFile, 'upload', S.ProcessingFile],
  [S.WaitingForCompletion, 'upload', S.ProcessingFile],
  [S.ProcessingFile, 'file_invalid', S.InvalidFile],
  [S.ProcessingFile, 'file_valid', S.ProcessingData],
  [S.ProcessingData, 'rows_stored', S.Ongoing, S.Ongoing],
  [S.ProcessingData, 'rows_stored', S.Ongoing, S.InvalidFile],
  [S.ProcessingData, 'rows_stored', S.WaitingForCompletion, S.WaitingForCompletion],
  [S.Ongoing, 'submit', S.WaitingForApproval],
  [S.WaitingForCompletion, 'submit', S.WaitingForApproval],
  [S.WaitingForApproval, 'send_back', S.WaitingForCompletion],
  [S.WaitingForApproval, 'approve', S.Approved],
];
const EVENTS: ReportEvent[] = ['upload', 'file_invalid', 'file_valid', 'rows_stored', 'submit', 'send_back', 'approve'];

describe('report status machine', () => {
  it.each(ALLOWED)('from %i, %s goes to %i', (from, event, to, before) => {
    expect(nextReportStatus(from, event, before)).toBe(to);
  });

  it('refuses every other transition', () => {
    for (const from of ALL) {
      for (const event of EVENTS) {
        if (ALLOWED.some(([f, e]) => f === from && e === event)) continue;
        expect(nextReportStatus(from, event), `${from} ${event}`).toBeNull();
      }
    }
  });

  it('never leaves Approved', () => {
    for (const event of EVENTS) expect(nextReportStatus(S.Approved, event)).toBeNull();
  });

  it('allows uploads only in Ongoing, Invalid file and Waiting for completion', () => {
    expect(ALL.filter(canUploadInStatus).sort()).toEqual([S.InvalidFile, S.Ongoing, S.WaitingForCompletion].sort());
  });
});
