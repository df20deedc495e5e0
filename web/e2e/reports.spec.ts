import { expect, test } from '@playwright/test';
import { apiAs, expectErrorModal, signIn } from './helpers.ts';
import { VALID_ROWS, importFile, nordlysReport, openPeriodOfSweden, openReportLink, periodTitle, xlsx } from './reporting-fixtures.ts';

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

    // Submitting the empty report: the preflight has an Error, so the server refuses.
    await page.getByRole('button', { name: 'Submit', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Submit' }).click();
    await expectErrorModal(page, 'The report cannot be submitted while its preflight has errors.');
    await expect(header).toContainText('Ongoing');
    await expect(page.getByTestId('preflight').first()).toContainText('The report is empty.');
  });
});
