import { expect, test } from '@playwright/test';
import { apiAs, expectErrorModal, signIn } from './helpers.ts';
import { ReportStatus } from '@mss/contracts/enums';
import { VALID_ROWS, importFile, nordlysReport, openPeriodOfSweden, openReportLink, periodTitle, setReportStatus, xlsx } from './reporting-fixtures.ts';

test.describe('reports', () => {
  test('the reporter submits an imported report, which then waits for approval and cannot be submitted again', async ({ page }) => {
    const title = periodTitle();
    const periodUuid = await openPeriodOfSweden(await apiAs('market-admin@demo.test'), title, {
      starts: '2027-05-01',
      ends: '2027-05-31',
      deadline: '2027-06-10',
    });
    const reporterApi = await apiAs('reporter@demo.test');
    const reportUuid = await nordlysReport(reporterApi, periodUuid);
    await importFile(reporterApi, reportUuid, 'corrected.xlsx', await xlsx(VALID_ROWS));

    await signIn(page, 'reporter@demo.test');
    await page.goto(`/import/${reportUuid}`);
    const header = page.getByTestId('report-header');
    await expect(header).toContainText(title);
    await expect(header).toContainText('Ongoing');
    await expect(page.getByTestId('preflight').first()).toBeVisible();

    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Submit' }).click();
    await expect(header).toContainText('Waiting for approval');
    await expect(page.getByRole('button', { name: 'Submit', exact: true })).toHaveCount(0);
  });

  test('a report without a previous period: nothing to copy, and an empty report cannot be submitted', async ({ page }) => {
    const title = periodTitle('E2E first');
    // Before every other period of Sweden (the demo's start in 2025-01; no spec makes an earlier one): there is nothing to copy from.
    await openPeriodOfSweden(await apiAs('market-admin@demo.test'), title, { starts: '2024-01-01', ends: '2024-01-31', deadline: '2024-02-10' });

    await signIn(page, 'reporter@demo.test');
    await openReportLink(page, title).click();
    const header = page.getByTestId('report-header');
    await expect(header).toContainText('Ongoing');

    await page.getByRole('button', { name: 'Copy from previous period' }).click();
    await expectErrorModal(page, "There is no report for the period you're trying to copy from (-).");

    // The empty report cannot be submitted: no Submit, and the screen says why.
    await expect(page.getByRole('button', { name: 'Submit', exact: true })).toHaveCount(0);
    await expect(page.getByTestId('submit-blocked')).toHaveText('The report has no rows yet: upload a file or copy the previous period, then submit.');
    await page.getByRole('button', { name: 'Run again' }).click();
    await expect(page.getByTestId('preflight').first()).toContainText('The report is empty.');
    await expect(page.getByTestId('submit-blocked')).toHaveText(
      'The report cannot be submitted while its preflight has errors: correct them (see the preflight below), then submit.',
    );
    await expect(header).toContainText('Ongoing');
  });

  test('a report sent back shows the comment on the dashboard and on top of the report; copying asks first and leaves the old import as history', async ({
    page,
  }) => {
    const admin = await apiAs('market-admin@demo.test');
    const reporterApi = await apiAs('reporter@demo.test');
    const earlier = periodTitle('E2E earlier');
    const later = periodTitle('E2E later');
    const earlierReport = await nordlysReport(
      reporterApi,
      await openPeriodOfSweden(admin, earlier, { starts: '2029-03-01', ends: '2029-03-31', deadline: '2029-04-10' }),
    );
    await importFile(reporterApi, earlierReport, 'march.xlsx', await xlsx(VALID_ROWS));
    const report = await nordlysReport(
      reporterApi,
      await openPeriodOfSweden(admin, later, { starts: '2029-04-01', ends: '2029-04-30', deadline: '2029-05-10' }),
    );
    await importFile(
      reporterApi,
      report,
      'two-rows.xlsx',
      await xlsx([
        ['1001', 1, 1],
        ['1002', 2, 2],
      ]),
    );
    await setReportStatus(reporterApi, report, ReportStatus.WaitingForApproval);
    await setReportStatus(admin, report, ReportStatus.WaitingForCompletion, 'Codes 1003 to 3006 are missing: please send the whole month.');

    await signIn(page, 'reporter@demo.test');
    const open = page.getByTestId('dashboard-open-reports');
    await expect(open.getByRole('row').filter({ hasText: later })).toContainText('Sent back: Codes 1003 to 3006 are missing: please send the whole month.');
    await openReportLink(page, later).click();
    await expect(page.getByTestId('sent-back-comment')).toContainText('Codes 1003 to 3006 are missing: please send the whole month.');
    await expect(page.getByTestId('import-status')).toContainText('The file was imported');

    // Copying says what it replaces; cancelled, nothing changes.
    await page.getByRole('button', { name: 'Copy from previous period' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(`This replaces the report's 2 rows with the 14 rows of ${earlier}.`);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByTestId('report-rows').getByRole('row').filter({ hasText: '1002' })).toHaveCount(1);
    await expect(page.getByTestId('report-rows').getByRole('row').filter({ hasText: '3006' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Copy from previous period' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Copy from previous period' }).click();
    await expect(page.getByText('The rows of the previous period were copied.')).toBeVisible();
    await expect(page.getByTestId('report-rows').getByRole('row').filter({ hasText: '3006' })).toHaveCount(1);
    // The import no longer describes the report: its result is gone from the top, its file stays in the list.
    await expect(page.getByTestId('import-status')).toHaveCount(0);
    await expect(page.getByTestId('report-imports')).toContainText('two-rows.xlsx');
    await page.reload();
    await expect(page.getByTestId('report-imports')).toContainText('two-rows.xlsx');
    await expect(page.getByTestId('import-status')).toHaveCount(0);
  });

  test("a company's user opens their report history from the dashboard and from the navbar, without a permission error", async ({ page }) => {
    await signIn(page, 'company@demo.test');
    await page.getByRole('link', { name: 'Sweden · SE' }).click();
    // One name for the screen: the company's user knows it as "My reports" in the menu, and as its title.
    await expect(page.getByRole('heading', { name: 'My reports' })).toBeVisible();
    await expect(page.getByRole('table', { name: 'My reports' })).toBeVisible();
    await expect(page).toHaveTitle(/^My reports - /);
    await page.goto('/');
    await page.getByRole('link', { name: 'My reports' }).first().click();
    await expect(page).toHaveURL(/\/history$/);
    await expect(page.getByRole('table', { name: 'My reports' })).toBeVisible();
    await expect(page.getByText('Permission denied', { exact: false })).toHaveCount(0);
  });
});
