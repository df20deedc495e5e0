import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { ReportStatus } from '@mss/contracts/enums';
import type { CopyPreview, Report } from '@mss/contracts/reports';
import type { ImportDetail } from '@mss/contracts/imports';
import { setSession } from '../../api/session.ts';
import { AppProviders } from '../../app/providers.tsx';
import { fakeApi, makeUser, marketAbility } from '../../test/fake-api.ts';
import { IMPORT_POLL_MS } from './api/imports.ts';
import { ImportScreen } from './import-screen.tsx';
import { importDetail, market } from './import-fixtures.ts';
import { invalidCodeError } from '../../test/report-fixtures.ts';

function report(status: number, rowCount: number, totals: Report['totals']): Report {
  return {
    uuid: 'rep-1',
    status,
    company: { id: 1, name: 'Nordlys Trading AB' },
    market,
    period: { uuid: 'per-1', title: '2026-11', status: 'open', deadline: null, published: false },
    submitted_at: null,
    approved_at: null,
    row_count: rowCount,
    preflight_severity: null,
    sent_back_comment: null,
    updated_at: '2026-11-21T06:00:00Z',
    totals,
    preflight: null,
    history: [],
    current_import: { uuid: 'imp-1', status: 'processing' },
  };
}

const importOf = (status: ImportDetail['status']) => importDetail(status, [], status === 'done' ? 1 : null);

describe('the data import screen while a file is processed', () => {
  it('when the import runs, then only the import is polled, and the report and its rows are fetched once more when it ends', async () => {
    const imports = [importOf('processing'), importOf('processing')];
    let ended = false;
    const api = fakeApi()
      .withEnumerations()
      .on('GET', 'reports/rep-1', () => ({
        body: {
          data: ended
            ? report(ReportStatus.Ongoing, 1, { volume: '5.0000', value: '7.5000' })
            : report(ReportStatus.ProcessingFile, 0, { volume: '0.0000', value: '0.0000' }),
        },
      }))
      .on('GET', 'reports/rep-1/rows', () => ({
        body: { data: [{ code_id: 1, code: '1001', name: 'Tractors', volume: '5.0000', value: '7.5000' }], meta: { page: 1, per_page: 100, total: 1 } },
      }))
      .on('GET', 'imports', { body: { data: [importOf('processing')], meta: { page: 1, per_page: 10, total: 1 } } })
      .on('GET', 'imports/imp-1', () => {
        const next = imports.shift();
        if (next) return { body: { data: next } };
        ended = true;
        return { body: { data: importOf('done') } };
      });
    setSession({ user: makeUser({ role: 'reporter' }), abilities: [marketAbility('upload-reports', 1)] });
    const router = createMemoryRouter([{ path: '/import/:uuid', element: <ImportScreen params={{ uuid: 'rep-1' }} title="Data import" /> }], {
      initialEntries: ['/import/rep-1'],
    });
    render(
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>,
    );

    expect(await screen.findByText('The report has no rows yet.')).toBeTruthy();
    expect(await screen.findByText('The file was imported', {}, { timeout: 5 * IMPORT_POLL_MS })).toBeTruthy();
    // Once done: the report (its totals) and its rows, fetched again once.
    expect(await screen.findByText('Tractors')).toBeTruthy();
    // Three polls, then once more with the imports (invalidated with the report when it ended).
    expect(api.callsTo('GET', 'imports/imp-1')).toHaveLength(4);
    expect(api.callsTo('GET', 'reports/rep-1')).toHaveLength(2);
    expect(api.callsTo('GET', 'reports/rep-1/rows')).toHaveLength(1);
    expect(screen.getByText('7.5', { selector: 'tfoot td' })).toBeTruthy();

    // Nothing is polled any more.
    await new Promise((resolve) => setTimeout(resolve, IMPORT_POLL_MS * 1.5));
    expect(api.callsTo('GET', 'imports/imp-1')).toHaveLength(4);
    expect(api.callsTo('GET', 'reports/rep-1')).toHaveLength(2);
  }, 15_000);
});

describe('the data import screen of a report with a past', () => {
  const renderScreen = (data: Report, imports: unknown[] = [], preview: CopyPreview = null) => {
    const api = fakeApi()
      .withEnumerations()
      .on('GET', 'reports/rep-1', { body: { data } })
      .on('GET', 'reports/rep-1/copy-previous', { body: { data: preview } })
      .on('GET', 'reports/rep-1/rows', { body: { data: [], meta: { page: 1, per_page: 100, total: 0 } } })
      .on('GET', 'imports', { body: { data: imports, meta: { page: 1, per_page: 10, total: imports.length } } })
      .on('POST', 'reports/rep-1/copy-previous', { body: { data } });
    setSession({ user: makeUser({ role: 'reporter' }), abilities: [marketAbility('upload-reports', 1)] });
    const router = createMemoryRouter([{ path: '/import/:uuid', element: <ImportScreen params={{ uuid: 'rep-1' }} title="Data import" /> }], {
      initialEntries: ['/import/rep-1'],
    });
    render(
      <AppProviders>
        <RouterProvider router={router} />
      </AppProviders>,
    );
    return api;
  };

  it('when copying from the previous period, then it first says what it replaces and what it leaves out; cancelled, nothing is copied', async () => {
    const api = renderScreen({ ...report(ReportStatus.Ongoing, 2, { volume: '3.0000', value: '3.0000' }), current_import: null }, [], {
      period_title: '2026-10',
      row_count: 14,
      left_out: 1,
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Copy from previous period' }));
    const dialog = await screen.findByRole('dialog');
    expect(
      within(dialog).getByText(
        "This replaces the report's 2 rows with the 14 rows of 2026-10. 1 row is left out: its code is inactive, no longer yours in this market, or takes no figure in its column now.",
      ),
    ).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('POST', 'reports/rep-1/copy-previous')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Copy from previous period' }));
    fireEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Copy from previous period' }));
    await waitFor(() => expect(api.callsTo('POST', 'reports/rep-1/copy-previous')).toHaveLength(1));
  });

  it("when the report was sent back and its rows copied after an invalid import, then the comment is on top, no import result shows, and the import is in the report's list", async () => {
    renderScreen(
      {
        ...report(ReportStatus.WaitingForCompletion, 1, { volume: '1.0000', value: '1.0000' }),
        sent_back_comment: 'Code 1002 is missing',
        current_import: null,
      },
      [
        {
          ...importDetail('invalid', [invalidCodeError(2, 'X')]),
          error_count: 1,
        },
      ],
    );
    expect((await screen.findByTestId('sent-back-comment')).textContent).toContain('Code 1002 is missing');
    const list = await screen.findByTestId('report-imports');
    expect(within(list).getByText('report.xlsx')).toBeTruthy();
    expect(within(list).getByText('The file has errors')).toBeTruthy();
    expect(screen.queryByTestId('import-status')).toBeNull();
    expect(screen.queryByText('Invalid code on row 2.')).toBeNull();
  });
});
