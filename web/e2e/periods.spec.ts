import { expect, test } from '@playwright/test';
import { AxeBuilder } from '@axe-core/playwright';
import { ReportStatus } from '@mss/contracts/enums';
import { apiAs, row, signIn } from './helpers.ts';
import { VALID_ROWS, importFile, nordlysReport, openPeriodOfSweden, periodTitle, setReportStatus, xlsx } from './reporting-fixtures.ts';

test.describe('periods', () => {
  test("a market administrator creates a period (the server's field errors show), opens it with a report per company, and a title is taken once", async ({
    page,
  }) => {
    const title = periodTitle();
    await signIn(page, 'market-admin@demo.test');
    await page.goto('/period-list');
    await expect(page.getByRole('heading', { name: 'Period list' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Market' })).toHaveValue(/Sweden/);
    const form = page.getByRole('form', { name: 'New period' });
    await form.getByRole('button', { name: 'Create period' }).click();
    // The server's field errors show on the inputs.
    await expect(form.locator('.mantine-InputWrapper-error').first()).toBeVisible();

    await form.getByRole('textbox', { name: 'Period' }).fill(title);
    await form.getByLabel('Starts on').fill('2027-03-01');
    await form.getByLabel('Ends on').fill('2027-03-31');
    await form.getByLabel('Deadline').fill('2027-04-10');
    await form.getByRole('button', { name: 'Create period' }).click();
    const periodRow = row(page, title);
    await expect(periodRow).toContainText('Draft');
    await periodRow.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Open' }).click();
    await expect(periodRow).toContainText('Open');
    // Opening gave the companies of Sweden their reports.
    await expect(periodRow.getByRole('cell').nth(5)).not.toHaveText('0');

    // The same title again is refused on its input.
    await form.getByRole('textbox', { name: 'Period' }).fill(title);
    await form.getByLabel('Starts on').fill('2027-03-01');
    await form.getByLabel('Ends on').fill('2027-03-31');
    await form.getByRole('button', { name: 'Create period' }).click();
    await expect(form.getByText(`This period (${title}) does already exist in this market.`)).toBeVisible();
  });

  test('a market administrator publishes a period, sees that a late approval changed its figures, and publishes it again', async ({ page }) => {
    test.setTimeout(60_000);
    const admin = await apiAs('market-admin@demo.test');
    const reporter = await apiAs('reporter@demo.test');
    const title = periodTitle('PUB');
    // After every other spec's periods (the reports spec needs none before 2024-01), and unpublished at the end.
    const uuid = await openPeriodOfSweden(admin, title, { starts: '2031-05-01', ends: '2031-05-31', deadline: '2031-06-10' });
    const report = await nordlysReport(admin, uuid);
    await importFile(reporter, report, 'nordlys.xlsx', await xlsx(VALID_ROWS));
    await setReportStatus(reporter, report, ReportStatus.WaitingForApproval);

    await signIn(page, 'market-admin@demo.test');
    await page.goto('/period-list');
    const periodRow = row(page, title);
    // Coverage beside the period, and a confirmation that names who is missing.
    await expect(periodRow).toContainText(/0 of \d+ approved/);
    await periodRow.getByRole('button', { name: 'Publish', exact: true }).click();
    const confirm = page.getByRole('dialog');
    await expect(confirm).toContainText(new RegExp(`Only 0 of \\d+ reports of the period ${title} of Sweden are approved`));
    await expect(confirm.getByTestId('publish-missing')).toContainText('Waiting for approval (1): Nordlys Trading AB');
    // What viewers would see, decided before confirming: nothing approved yet; and what publishing
    // again would hide once the missing reports arrive (simulated with their companies' latest ones).
    await expect(confirm.getByTestId('publication-preview')).toContainText('No approved report holds figures yet: viewers would see none.');
    await expect(confirm.getByTestId('preview-later')).toContainText(
      /Publishing again once the missing reports are approved would hide \d+ of \d+ cells \(simulated with the latest approved reports? of \d+ missing compan(y|ies)\)\./,
    );
    // The dialog meets WCAG 2.1 AA (axe-core).
    const axe = await new AxeBuilder({ page }).include('[role=dialog]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    await confirm.getByRole('button', { name: 'Publish anyway' }).click();
    await expect(periodRow.getByRole('button', { name: 'Unpublish' })).toBeVisible();
    await expect(periodRow).not.toContainText('Figures changed since publication');

    // Nordlys's report is approved after publishing: viewers still see what was published.
    await setReportStatus(admin, report, ReportStatus.Approved);
    await page.reload();
    await expect(periodRow).toContainText('Figures changed since publication');
    await periodRow.getByRole('button', { name: 'Publish again' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText('changed since they were published');
    await expect(dialog.getByTestId('publication-preview')).toContainText(/Viewers will see 0 of the period’s (\d+) cells; \1 are hidden as confidential\./);
    // The other companies' reports are still missing: what publishing again after them would hide.
    await expect(dialog.getByTestId('preview-later')).toContainText('simulated with the latest approved reports of 4 missing companies');
    await dialog.getByRole('button', { name: 'Publish again' }).click();
    await expect(periodRow).not.toContainText('Figures changed since publication');
    await expect(periodRow.getByRole('button', { name: 'Publish again' })).toHaveCount(0);
    // One company's figures: every cell is confidential, and says so.
    await expect(periodRow).toContainText(/\d+ confidential cells hidden/);
    const period = await (await admin.get(`/api/v1/periods/${uuid}`)).json();
    expect(period.data.publication).toMatchObject({ number: 2, changed: false });
    expect(period.data.publication.hidden_cells).toBe(period.data.publication.primary_cells);

    await admin.post(`/api/v1/periods/${uuid}/unpublish`);
  });

  test('with estimates on, a period published before its reports are in counts an estimate for each missing one, and viewers see its figures marked e', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    const admin = await apiAs('market-admin@demo.test');
    const reporter = await apiAs('reporter@demo.test');
    const superAdmin = await apiAs('super-admin@demo.test');
    const organizations = (await (await superAdmin.get('/api/v1/admin/organizations', { params: { per_page: 100 } })).json()).data as {
      id: number;
      name: string;
    }[];
    const nordic = organizations.find((o) => o.name === 'Nordic Sales Association')!;
    const setting = (value: number) =>
      superAdmin.put(`/api/v1/admin/organizations/${nordic.id}/settings`, { data: { settings: { estimate_missing_reports: value } } });
    const title = periodTitle('EST');
    // After the other specs' periods, and taken back from viewers (and estimates off) at the end.
    const uuid = await openPeriodOfSweden(admin, title, { starts: '2031-07-01', ends: '2031-07-31', deadline: '2031-08-10' });
    try {
      expect((await setting(1)).status()).toBe(200);
      const report = await nordlysReport(admin, uuid);
      await importFile(reporter, report, 'nordlys.xlsx', await xlsx(VALID_ROWS));
      await setReportStatus(reporter, report, ReportStatus.WaitingForApproval);
      await setReportStatus(admin, report, ReportStatus.Approved);

      await signIn(page, 'market-admin@demo.test');
      await page.goto('/period-list');
      const periodRow = row(page, title);
      await periodRow.getByRole('button', { name: 'Publish', exact: true }).click();
      const confirm = page.getByRole('dialog');
      // Nordlys alone would be one company in every cell: with the others estimated, the period has figures.
      await expect(confirm.getByTestId('preview-estimated')).toContainText(/^\d+ missing reports are counted as estimates/);
      const axe = await new AxeBuilder({ page }).include('[role=dialog]').withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
      expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      await confirm.getByRole('button', { name: 'Publish anyway' }).click();
      await expect(periodRow.getByRole('button', { name: 'Unpublish' })).toBeVisible();

      const period = (await (await admin.get(`/api/v1/periods/${uuid}`)).json()).data as { market: { id: number } };
      await page.context().clearCookies();
      await signIn(page, 'viewer@demo.test');
      await page.goto(`/statistics?market=${period.market.id}&period=${uuid}&by=code`);
      const table = page.getByTestId('statistics-table');
      await expect(table.getByTestId('estimated').first()).toBeVisible();
      await expect(page.getByTestId('estimated-note')).toContainText('Estimated: the figure holds estimates for reports not yet in');
      // The total holds the estimates, read out as such.
      await expect(page.getByTestId('statistics-totals').getByText('Estimated').first()).toBeAttached();
    } finally {
      await admin.post(`/api/v1/periods/${uuid}/unpublish`);
      await setting(0);
    }
  });
});
