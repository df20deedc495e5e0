import { type Page, expect, test } from '@playwright/test';
import { ReportStatus } from '@mss/contracts/enums';
import { apiAs, row, signIn, signedInPage } from './helpers.ts';
import { NORDLYS, VALID_ROWS, importFile, nordlysReport, openPeriodOfSweden, periodTitle, setReportStatus, xlsx } from './reporting-fixtures.ts';

/** From the market administrator's period list (Sweden) to the approval list of the period `title`. */
async function openApprovalList(admin: Page, title: string) {
  await admin.goto('/period-list');
  await row(admin, title).getByRole('link', { name: 'Approval list' }).click();
  await expect(admin.getByRole('heading', { name: 'Approval list' })).toBeVisible();
}

test.describe('approvals', () => {
  test('the market administrator sends a submitted report back with a comment; the reporter sees it and submits again', async ({ browser }) => {
    test.setTimeout(60_000);
    const title = periodTitle();
    const periodUuid = await openPeriodOfSweden(await apiAs('market-admin@demo.test'), title, {
      starts: '2027-06-01',
      ends: '2027-06-30',
      deadline: '2027-07-10',
    });
    const reporterApi = await apiAs('reporter@demo.test');
    const reportUuid = await nordlysReport(reporterApi, periodUuid);
    await importFile(reporterApi, reportUuid, 'corrected.xlsx', await xlsx(VALID_ROWS));
    await setReportStatus(reporterApi, reportUuid, ReportStatus.WaitingForApproval);

    // The market administrator sends it back with a comment from the approval list.
    const admin = await signedInPage(browser, 'market-admin@demo.test');
    await openApprovalList(admin, title);
    const nordlys = row(admin, NORDLYS);
    await expect(nordlys).toContainText('Waiting for approval');
    await expect(nordlys).toContainText(String(VALID_ROWS.length));
    await nordlys.getByRole('button', { name: 'Open' }).click();
    const drawer = admin.getByRole('dialog', { name: NORDLYS });
    await expect(drawer.getByTestId('report-rows')).toContainText('1001');
    // What changed: the rows stand beside the company's earlier periods, the headers name this one.
    await expect(drawer.getByTestId('report-rows').getByRole('columnheader', { name: title, exact: true })).toHaveCount(2);
    await expect(drawer.getByTestId('rows-comparison')).toContainText("Compared with the same company's");
    await expect(drawer.getByRole('switch', { name: 'Only deviating rows' })).toBeVisible();
    await drawer.getByRole('button', { name: 'Send back' }).click();
    const sendBack = admin.getByRole('dialog', { name: /Send the report of Nordlys/ });
    await sendBack.getByRole('button', { name: 'Send back' }).click();
    await expect(sendBack.getByText('Please write a comment.')).toBeVisible();
    await sendBack.getByRole('textbox', { name: 'Comment' }).fill('Please check code 1003.');
    await sendBack.getByRole('button', { name: 'Send back' }).click();
    await expect(drawer.getByTestId('report-status').first()).toHaveText('Waiting for completion');
    await admin.keyboard.press('Escape');

    // The reporter sees the comment and submits again.
    const reporter = await signedInPage(browser, 'reporter@demo.test');
    await reporter.goto(`/import/${reportUuid}`);
    const header = reporter.getByTestId('report-header');
    await expect(header).toContainText('Waiting for completion');
    await expect(reporter.getByTestId('status-history')).toContainText('Please check code 1003.');
    await expect(reporter.getByTestId('sent-back-comment')).toContainText('Please check code 1003.');
    await reporter.getByRole('button', { name: 'Submit', exact: true }).click();
    await reporter.getByRole('dialog').getByRole('button', { name: 'Submit' }).click();
    await expect(header).toContainText('Waiting for approval');

    // The approval list shows it waiting again; the comment has left the top of the report.
    await expect(reporter.getByTestId('sent-back-comment')).toHaveCount(0);
    await admin.reload();
    await expect(nordlys).toContainText('Waiting for approval');

    // A period that is not there (unknown, or another organization's): a plain 404, not its uuid.
    const stranger = '00000000-0000-4000-8000-000000000000';
    await admin.goto(`/approval-list/${stranger}`);
    await expect(admin.getByTestId('not-found')).toContainText('Could not find what you were looking for.');
    await expect(admin.getByText(stranger)).toHaveCount(0);
  });

  test('the market administrator approves a resubmitted report with the bulk action; the reporter sees it approved and can change nothing', async ({
    browser,
  }) => {
    test.setTimeout(60_000);
    const title = periodTitle();
    const adminApi = await apiAs('market-admin@demo.test');
    const periodUuid = await openPeriodOfSweden(adminApi, title, { starts: '2027-07-01', ends: '2027-07-31', deadline: '2027-08-10' });
    // Submitted, sent back and submitted again, as in the journey before it.
    const reporterApi = await apiAs('reporter@demo.test');
    const reportUuid = await nordlysReport(reporterApi, periodUuid);
    await importFile(reporterApi, reportUuid, 'corrected.xlsx', await xlsx(VALID_ROWS));
    await setReportStatus(reporterApi, reportUuid, ReportStatus.WaitingForApproval);
    await setReportStatus(adminApi, reportUuid, ReportStatus.WaitingForCompletion, 'Please check code 1003.');
    await setReportStatus(reporterApi, reportUuid, ReportStatus.WaitingForApproval);

    const admin = await signedInPage(browser, 'market-admin@demo.test');
    await openApprovalList(admin, title);
    const nordlys = row(admin, NORDLYS);
    await expect(nordlys).toContainText('Waiting for approval');
    await admin.getByRole('checkbox', { name: `Select the report of ${NORDLYS}` }).check();
    await admin.getByRole('button', { name: /^Approve selected/ }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Approve selected' }).click();
    await expect(nordlys).toContainText('Approved');
    await expect(admin.getByRole('checkbox', { name: `Select the report of ${NORDLYS}` })).toBeDisabled();

    // The reporter sees the report approved; nothing can change any more.
    const reporter = await signedInPage(browser, 'reporter@demo.test');
    await reporter.goto(`/import/${reportUuid}`);
    await expect(reporter.getByTestId('report-header')).toContainText('Approved');
    await expect(reporter.getByRole('button', { name: 'Upload', exact: true })).toHaveCount(0);
    await expect(reporter.getByTestId('status-history')).toContainText('Waiting for approval → Approved');
  });

  test('the cluster period list shows the market of each period and opens the cluster approval', async ({ page }) => {
    await signIn(page, 'cluster-admin@demo.test');
    await page.goto('/cluster-period-list');
    await expect(page.getByRole('heading', { name: 'Cluster period list' })).toBeVisible();
    await expect(row(page, 'Norway').first()).toBeVisible();
    await row(page, 'Norway').first().getByRole('link', { name: 'Approval list' }).click();
    await expect(page).toHaveURL(/\/cluster-approval\/[0-9a-f-]+$/);
    await expect(page.getByRole('heading', { name: 'Cluster approval' })).toBeVisible();
    await expect(row(page, 'Fjord Equipment AS')).toContainText('NO');
  });

  test('the cluster period list filters by market, status and overdue reports, pages, and keeps it all in the URL; Reporting companies shows any period, filtered', async ({
    page,
  }) => {
    await signIn(page, 'cluster-admin@demo.test');
    await page.goto('/cluster-period-list');
    const showing = page.getByTestId('list-showing');
    await expect(showing).toHaveText(/^1–24 of \d+$/);
    const total = Number((await showing.textContent())!.split(' of ')[1]);
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect(showing).toHaveText(`25–48 of ${total}`);
    await expect(page).toHaveURL(/page=2/);

    // Overdue: open, past the deadline, not every report approved; each row says so.
    const filters = page.getByTestId('period-filters');
    await filters.getByRole('combobox', { name: 'Reports' }).click();
    await page.getByRole('option', { name: /^Overdue \(\d+\)$/ }).click();
    await expect(page).toHaveURL(/reports=overdue/);
    await expect(page).not.toHaveURL(/page=/);
    const rows = page.getByRole('table', { name: 'Period list' }).locator('tbody tr');
    await expect(rows.first()).toContainText('Overdue');
    for (const r of await rows.all()) {
      await expect(r).toContainText('Overdue');
      await expect(r).toContainText('Open');
    }
    // One market: every row is Norway's; a reload keeps the filters.
    await filters.getByRole('combobox', { name: 'Market' }).click();
    await page.getByRole('option', { name: /^Norway \(\d+\)$/ }).click();
    await page.reload();
    await expect(filters.getByRole('combobox', { name: 'Market' })).toHaveValue(/^Norway/);
    await expect(filters.getByRole('combobox', { name: 'Reports' })).toHaveValue(/^Overdue/);
    for (const r of await rows.all()) await expect(r).toContainText('Norway');

    // Reporting companies: an earlier period, then only its approved reports.
    await page.goto('/reporting-companies/SE');
    const period = page.getByTestId('reporting-companies-period');
    await expect(period).toHaveValue(/ · Open$/);
    await period.click();
    await page.getByRole('option', { name: '2026-08 · Closed' }).click();
    await expect(page).toHaveURL(/period=[0-9a-f-]+/);
    const companies = page.getByRole('table', { name: 'Reporting companies' }).locator('tbody tr');
    await expect(companies.first()).toContainText('Approved');
    await page.getByTestId('reporting-companies-status').click();
    await page.getByRole('option', { name: /^Approved \(\d+\)$/ }).click();
    await expect(page).toHaveURL(/status=60/);
    for (const r of await companies.all()) await expect(r).toContainText('Approved');
  });

  test('the completeness overview: the range sums what its rows hold, the state filter and the market keep in the URL, a row opens its companies, the csv holds the rows shown', async ({
    page,
  }) => {
    await signIn(page, 'cluster-admin@demo.test');
    await page.goto('/completeness?from=2026-01&to=2026-12');
    await expect(page.getByTestId('completeness-summary')).toHaveText(/^\d+ periods, 2026-01 to 2026-12$/);
    // The sums on screen are those of the answer's rows (one range, every market of the cluster).
    const answer = (
      await (await page.request.get('/api/v1/completeness?from=2026-01&to=2026-12', { headers: { 'X-Requested-With': 'XMLHttpRequest' } })).json()
    ).data as { rows: { expected: number; missing: number; overdue: boolean }[]; totals: { expected: number; missing: number } };
    expect(answer.totals.expected).toBe(answer.rows.reduce((n, r) => n + r.expected, 0));
    expect(answer.totals.missing).toBe(answer.rows.reduce((n, r) => n + r.missing, 0));
    await expect(page.getByText('Expected', { exact: true }).first().locator('xpath=..')).toContainText(String(answer.totals.expected));

    // Overdue only: every row says so; the filter and a market survive a reload.
    const filters = page.getByTestId('completeness-filters');
    await filters.getByRole('combobox', { name: 'Show' }).click();
    const overdue = answer.rows.filter((r) => r.overdue).length;
    await page.getByRole('option', { name: `Overdue (${overdue})` }).click();
    await expect(page).toHaveURL(/status=overdue/);
    const rows = page.getByTestId('completeness-table').locator('tbody tr');
    await expect(rows).toHaveCount(overdue);
    for (const r of await rows.all()) await expect(r).toContainText('Overdue');
    await filters.getByRole('combobox', { name: 'Market' }).click();
    await page.getByRole('option', { name: 'Sweden' }).click();
    await expect(page).toHaveURL(/market=\d+/);
    await page.reload();
    await expect(filters.getByRole('combobox', { name: 'Show' })).toHaveValue(/^Overdue \(\d+\)$/);
    await expect(filters.getByRole('combobox', { name: 'Market' })).toHaveValue('Sweden');
    for (const r of await rows.all()) await expect(r).toContainText('Sweden');

    // The csv holds the rows on screen, in the same order.
    const csv = await (await page.request.get((await page.getByTestId('completeness-csv').getAttribute('href')) ?? '')).text();
    const records = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    const header = records.indexOf('Market,Period,Period status,Published,Deadline,Expected,Submitted,Waiting for approval,Approved,Missing,Overdue');
    expect(header).toBeGreaterThan(0);
    expect(records.slice(header + 1).map((r) => r.split(',').slice(0, 2).join(' '))).toEqual(
      await rows.evaluateAll((trs) =>
        trs.map((tr) => `${(tr as HTMLTableRowElement).cells[1]!.textContent} ${(tr as HTMLTableRowElement).cells[0]!.textContent}`),
      ),
    );

    // A row opens its period's companies.
    const first = rows.first();
    const title = (await first.locator('td').first().textContent())!;
    await first.getByRole('link', { name: title }).click();
    await expect(page).toHaveURL(/\/reporting-companies\/SE\/\d+\?period=[0-9a-f-]+$/);
    await expect(page.getByTestId('reporting-companies-period')).toHaveValue(new RegExp(`^${title} · Open$`));
  });

  test('an approval refreshes the statistics already open in the browser: back on them, the coverage and figures count the report at once', async ({
    browser,
  }) => {
    test.setTimeout(60_000);
    const title = periodTitle('REF');
    const adminApi = await apiAs('market-admin@demo.test');
    // Unpublished throughout: an approver's provisional view.
    const periodUuid = await openPeriodOfSweden(adminApi, title, { starts: '2031-09-01', ends: '2031-09-30', deadline: '2031-10-10' });
    const reporterApi = await apiAs('reporter@demo.test');
    const reportUuid = await nordlysReport(reporterApi, periodUuid);
    await importFile(reporterApi, reportUuid, 'nordlys.xlsx', await xlsx(VALID_ROWS));
    await setReportStatus(reporterApi, reportUuid, ReportStatus.WaitingForApproval);
    const period = (await (await adminApi.get(`/api/v1/periods/${periodUuid}`)).json()).data as { market: { id: number } };

    const admin = await signedInPage(browser, 'market-admin@demo.test');
    await admin.goto(`/statistics?market=${period.market.id}&period=${periodUuid}&by=code`);
    const coverage = admin.getByTestId('coverage');
    await expect(coverage).toHaveText(/^0 of \d+ approved$/);
    const expected = (await coverage.textContent())!.replace(/^0 of/, '1 of');
    // To the approval list and back within the app (no reload: the answer above stays in its cache).
    await admin.getByRole('link', { name: 'Period list' }).click();
    await row(admin, title).getByRole('link', { name: 'Approval list' }).click();
    await admin.getByRole('checkbox', { name: `Select the report of ${NORDLYS}` }).check();
    await admin.getByRole('button', { name: /^Approve selected/ }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Approve selected' }).click();
    await expect(row(admin, NORDLYS)).toContainText('Approved');
    await admin.goBack();
    await admin.goBack();
    await expect(admin).toHaveURL(/\/statistics\?/);
    await expect(coverage).toHaveText(expected);
  });

  test('the reporter withdraws a submission to correct it; the market administrator undoes an approval in a published period, which publishes it again', async ({
    browser,
  }) => {
    test.setTimeout(90_000);
    const title = periodTitle();
    const adminApi = await apiAs('market-admin@demo.test');
    const periodUuid = await openPeriodOfSweden(adminApi, title, { starts: '2032-03-01', ends: '2032-03-31', deadline: '2032-04-10' });
    const reporterApi = await apiAs('reporter@demo.test');
    const reportUuid = await nordlysReport(reporterApi, periodUuid);
    await importFile(reporterApi, reportUuid, 'march.xlsx', await xlsx(VALID_ROWS));
    await setReportStatus(reporterApi, reportUuid, ReportStatus.WaitingForApproval);

    // The reporter takes it back, with a reason: Ongoing again, the reason in the history.
    const reporter = await signedInPage(browser, 'reporter@demo.test');
    await reporter.goto(`/import/${reportUuid}`);
    const header = reporter.getByTestId('report-header');
    await expect(header).toContainText('Waiting for approval');
    await reporter.getByRole('button', { name: 'Withdraw submission' }).click();
    const withdraw = reporter.getByRole('dialog', { name: /Withdraw the submission of Nordlys/ });
    await expect(withdraw).toContainText('The report comes back to you to correct');
    await withdraw.getByRole('textbox', { name: 'Reason (optional)' }).fill('Wrong month in column B.');
    await withdraw.getByRole('button', { name: 'Withdraw submission' }).click();
    await expect(header).toContainText('Ongoing');
    await expect(reporter.getByTestId('status-history')).toContainText('Wrong month in column B.');
    await expect(reporter.getByRole('button', { name: 'Withdraw submission' })).toHaveCount(0);

    // Submitted again, approved and the period published.
    await setReportStatus(reporterApi, reportUuid, ReportStatus.WaitingForApproval);
    await setReportStatus(adminApi, reportUuid, ReportStatus.Approved);
    // Published (and unpublished at the end, as the periods spec does: viewers' latest published
    // period must stay the demo's for the statistics spec).
    expect((await adminApi.post(`/api/v1/periods/${periodUuid}/publish`)).status()).toBe(200);

    // The approver undoes the approval: the dialog says the period is published again.
    const admin = await signedInPage(browser, 'market-admin@demo.test');
    await openApprovalList(admin, title);
    await row(admin, NORDLYS).getByRole('button', { name: 'Open' }).click();
    const drawer = admin.getByRole('dialog', { name: NORDLYS });
    await drawer.getByRole('button', { name: 'Undo approval' }).click();
    const undo = admin.getByRole('dialog', { name: /Undo the approval of Nordlys/ });
    await expect(undo).toContainText(`The period ${title} is published. Undoing the approval publishes it again without this report`);
    await undo.getByRole('textbox', { name: 'Reason (optional)' }).fill('Approved by mistake.');
    await undo.getByRole('button', { name: 'Undo approval and publish again' }).click();
    await expect(drawer.getByTestId('report-status').first()).toHaveText('Waiting for approval');
    // Published again, without the report: the second publication counts no approved report.
    const period = (await (await adminApi.get(`/api/v1/periods/${periodUuid}`)).json()).data;
    expect(period.publication).toMatchObject({ number: 2, changed: false });
    // Unpublished again: viewers' latest published period stays the demo's for the other specs.
    expect((await adminApi.post(`/api/v1/periods/${periodUuid}/unpublish`)).status()).toBe(200);
  });
});
