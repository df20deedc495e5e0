import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ReportStatus } from '@mss/contracts/enums';
import type { ReportSummary } from '@mss/contracts/reports';
import type { ImportDetail } from '@mss/contracts/imports';
import { setSession } from '../../api/session.ts';
import { AppProviders } from '../../app/providers.tsx';
import { fakeApi, makeUser, marketAbility } from '../../test/fake-api.ts';
import { IMPORT_POLL_MS } from './api/imports.ts';
import { ImportStatusPanel } from './import-screen.tsx';
import { importDetail, market } from './import-fixtures.ts';
import { ReportStatusActions } from '../reports/index.ts';
import { invalidCodeError } from '../../test/report-fixtures.ts';

const detail = (status: ImportDetail['status'], errors: ImportDetail['errors'] = []) => importDetail(status, errors);

function summary(status: number, preflightSeverity: number | null = 10): ReportSummary {
  return {
    uuid: 'rep-1',
    status,
    company: { id: 1, name: 'Nordlys Trading AB' },
    market,
    period: { uuid: 'per-1', title: '2026-11', status: 'open', deadline: null, published: false },
    submitted_at: null,
    approved_at: null,
    row_count: 0,
    preflight_severity: preflightSeverity,
    sent_back_comment: null,
    updated_at: '2026-11-21T06:00:00Z',
  };
}

describe('the import status panel', () => {
  it('when an import runs, then it is polled until it ends, the errors are shown and the screen is told once', async () => {
    const answers = [detail('queued'), detail('processing'), detail('invalid', [invalidCodeError(3, '9999')])];
    const api = fakeApi().on('GET', 'imports/imp-1', () => ({
      body: {
        data: answers.shift() ?? detail('invalid', [invalidCodeError(3, '9999')]),
      },
    }));
    const onEnded = vi.fn();

    render(
      <AppProviders>
        <ImportStatusPanel importUuid="imp-1" fresh onEnded={onEnded} />
      </AppProviders>,
    );

    expect(await screen.findByText('The file is waiting to be processed…')).toBeTruthy();
    expect(await screen.findByText('The file has errors', {}, { timeout: 4 * IMPORT_POLL_MS })).toBeTruthy();
    // The file-level message (docs/product.md §8) comes before the row errors.
    const message = screen.getByTestId('import-message');
    expect(message.textContent).toBe('The file report.xlsx could not be uploaded due to containing invalid data.');
    expect(message.compareDocumentPosition(screen.getByTestId('import-errors')) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(screen.getByText('Invalid code on row 3.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Download the error list' }).getAttribute('href')).toBe('/api/v1/imports/imp-1/errors');
    expect(screen.getByRole('link', { name: 'Download your file with the errors marked' }).getAttribute('href')).toBe('/api/v1/imports/imp-1/marked');
    expect(onEnded).toHaveBeenCalledTimes(1);
    const polls = api.callsTo('GET', 'imports/imp-1').length;
    expect(polls).toBe(3);

    // Once it ended, polling stops.
    await new Promise((resolve) => setTimeout(resolve, IMPORT_POLL_MS * 1.5));
    expect(api.callsTo('GET', 'imports/imp-1').length).toBe(polls);
  });

  it('when a file has more errors than the screen lists, then the first 100 are shown with the count, the note where the sheet stops, and the download', async () => {
    const errors = Array.from({ length: 100 }, (_, i) => invalidCodeError(i + 2, `X-${i}`));
    const note = 'The file has 60,000 errors; this list stops after the first 50,000, at row 50001. Fix them and import the file again to see the rest.';
    fakeApi().on('GET', 'imports/imp-1', {
      body: { data: { ...detail('invalid', errors), error_count: 60_000, errors_listed: 50_000, errors_truncated: true, errors_note: note } },
    });
    render(
      <AppProviders>
        <ImportStatusPanel importUuid="imp-1" onEnded={() => {}} />
      </AppProviders>,
    );
    expect(await screen.findByText('The first 100 of 60,000 errors are shown here; the error sheet lists the first 50,000.')).toBeTruthy();
    expect(screen.getByText(note)).toBeTruthy();
    // A header row and the 100 errors: not a page 40,000 pixels tall.
    expect(screen.getByTestId('import-errors').querySelectorAll('tbody tr')).toHaveLength(100);
    expect(screen.getByRole('link', { name: 'Download the error list' })).toBeTruthy();
  });

  it('when every error is in the sheet, then the screen says the sheet lists all of them', async () => {
    const errors = [invalidCodeError(2, 'X')];
    fakeApi().on('GET', 'imports/imp-1', {
      body: { data: { ...detail('invalid', errors), error_count: 20_000, errors_listed: 20_000, errors_truncated: true } },
    });
    render(
      <AppProviders>
        <ImportStatusPanel importUuid="imp-1" onEnded={() => {}} />
      </AppProviders>,
    );
    expect(await screen.findByText('The first 1 of 20,000 errors are shown here; the error sheet lists all of them.')).toBeTruthy();
  });

  it('when a just-uploaded import has ended by the first answer, then the screen is still told', async () => {
    fakeApi().on('GET', 'imports/imp-1', { body: { data: { ...detail('done'), row_count: 14 } } });
    const onEnded = vi.fn();

    render(
      <AppProviders>
        <ImportStatusPanel importUuid="imp-1" fresh onEnded={onEnded} />
      </AppProviders>,
    );

    expect(await screen.findByText('The file was imported')).toBeTruthy();
    await waitFor(() => expect(onEnded).toHaveBeenCalledTimes(1));
  });
});

describe('the report status buttons', () => {
  const renderFor = (status: number, abilities: ReturnType<typeof marketAbility>[], severity: number | null = 10) => {
    fakeApi().withEnumerations();
    setSession({ user: makeUser({ role: 'reporter' }), abilities });
    return render(
      <AppProviders>
        <ReportStatusActions report={summary(status, severity)} />
      </AppProviders>,
    );
  };

  it('when a reporter sees an ongoing report, then only Submit is offered', () => {
    renderFor(ReportStatus.Ongoing, [marketAbility('upload-reports', 1)]);
    expect(screen.getByRole('button', { name: 'Submit' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
  });

  it('when the preflight has errors or there are no rows, then Submit is not offered and the screen says why', () => {
    renderFor(ReportStatus.Ongoing, [marketAbility('upload-reports', 1)], 40);
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
    expect(screen.getByTestId('submit-blocked').textContent).toBe(
      'The report cannot be submitted while its preflight has errors: correct them (see the preflight below), then submit.',
    );
  });

  it('when the report has no rows (no preflight yet), then Submit is not offered and the screen says why', () => {
    renderFor(ReportStatus.Ongoing, [marketAbility('upload-reports', 1)], null);
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
    expect(screen.getByTestId('submit-blocked').textContent).toBe('The report has no rows yet: upload a file or copy the previous period, then submit.');
  });

  it('when an approver sees a report waiting for approval, then Approve and Send back are offered', () => {
    renderFor(ReportStatus.WaitingForApproval, [marketAbility('approve-reports', 1)]);
    expect(screen.getByRole('button', { name: 'Approve' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Send back' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
  });

  it('when the report is approved, then the reporter is offered nothing and the approver only to undo it', () => {
    const reporter = renderFor(ReportStatus.Approved, [marketAbility('upload-reports', 1)]);
    expect(reporter.container.querySelectorAll('button')).toHaveLength(0);
    reporter.unmount();
    const { container } = renderFor(ReportStatus.Approved, [marketAbility('approve-reports', 1), marketAbility('upload-reports', 1)]);
    expect([...container.querySelectorAll('button')].map((b) => b.textContent)).toEqual(['Undo approval']);
  });

  it('when a submitted report is looked at by its reporter, then withdrawing it is offered, and the dialog says what it does', async () => {
    renderFor(ReportStatus.WaitingForApproval, [marketAbility('upload-reports', 1)]);
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw submission' }));
    expect((await screen.findByTestId('status-change-explained')).textContent).toMatch(/^The report comes back to you to correct/);
    expect(screen.getByRole('textbox', { name: 'Reason (optional)' })).toBeTruthy();
  });

  it('when an approval in a published period is to be undone, then the dialog says the period is published again, and its button too', async () => {
    fakeApi().withEnumerations();
    setSession({ user: makeUser({ role: 'market-admin' }), abilities: [marketAbility('approve-reports', 1)] });
    const report = summary(ReportStatus.Approved, 10);
    render(
      <AppProviders>
        <ReportStatusActions report={{ ...report, period: { ...report.period, published: true } }} />
      </AppProviders>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Undo approval' }));
    expect((await screen.findByTestId('status-change-explained')).textContent).toMatch(
      /^The period 2026-11 is published\. Undoing the approval publishes it again/,
    );
    expect(screen.getByRole('button', { name: 'Undo approval and publish again' })).toBeTruthy();
  });
});
