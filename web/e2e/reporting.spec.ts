import { type Browser, type Page, expect, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { signIn } from './helpers.ts';

/** An xlsx with a header row and the given rows (Code, Volume, Value), written with ExcelJS. */
async function xlsx(rows: (string | number | null)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Report');
  sheet.addRow(['Code', 'Volume', 'Value']);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Nordlys's codes in Sweden: 1001–1008 (1008: value disabled) and 3001–3006. */
const VALID_ROWS: (string | number | null)[][] = [
  ...['1001', '1002', '1003', '1004', '1005', '1006', '1007'].map((code, i) => [code, 10 + i, 1000 * (i + 1)]),
  ['1008', 3, null],
  ...['3001', '3002', '3003', '3004', '3005', '3006'].map((code, i) => [code, 5 + i, 500 * (i + 1)]),
];

const row = (page: Page, text: string | RegExp) => page.getByRole('row').filter({ hasText: text });

async function signedInPage(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, email);
  return page;
}

/** On the market administrator's period list (Sweden): creates a period and opens it. */
async function createAndOpenPeriod(admin: Page, title: string, dates: { starts: string; ends: string; deadline: string }) {
  const form = admin.getByRole('form', { name: 'New period' });
  await form.getByRole('textbox', { name: 'Period' }).fill(title);
  await form.getByLabel('Starts on').fill(dates.starts);
  await form.getByLabel('Ends on').fill(dates.ends);
  await form.getByLabel('Deadline').fill(dates.deadline);
  await form.getByRole('button', { name: 'Create period' }).click();
  const periodRow = row(admin, title);
  await expect(periodRow).toContainText('Draft');
  await periodRow.getByRole('button', { name: 'Open', exact: true }).click();
  await admin.getByRole('dialog').getByRole('button', { name: 'Open' }).click();
  await expect(periodRow).toContainText('Open');
  return periodRow;
}

/** An error modal with this message; closed with OK. */
async function expectErrorModal(page: Page, message: string) {
  const modal = page.getByRole('dialog').filter({ hasText: message });
  await expect(modal).toBeVisible();
  await modal.getByRole('button', { name: 'OK' }).click();
  await expect(modal).toHaveCount(0);
}

async function upload(page: Page, name: string, content: Buffer) {
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name, mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: content });
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
}

test.describe('reporting workflow', () => {
  test('a period is opened, the reporter fixes an invalid file and submits, the market admin sends back, then approves', async ({ browser }) => {
    test.setTimeout(90_000);
    const title = `E2E ${Date.now()}`;

    // The market administrator creates a period for Sweden and opens it.
    const admin = await signedInPage(browser, 'market-admin@demo.test');
    await admin.goto('/period-list');
    await expect(admin.getByRole('heading', { name: 'Period list' })).toBeVisible();
    await expect(admin.getByRole('combobox', { name: 'Market' })).toHaveValue(/Sweden/);
    const form = admin.getByRole('form', { name: 'New period' });
    await form.getByRole('button', { name: 'Create period' }).click();
    // The server's field errors show on the inputs.
    await expect(form.locator('.mantine-InputWrapper-error').first()).toBeVisible();
    const periodRow = await createAndOpenPeriod(admin, title, { starts: '2027-03-01', ends: '2027-03-31', deadline: '2027-04-10' });
    await expect(periodRow.getByRole('cell').nth(5)).not.toHaveText('0');
    // The same title again is refused on its input.
    await form.getByRole('textbox', { name: 'Period' }).fill(title);
    await form.getByLabel('Starts on').fill('2027-03-01');
    await form.getByLabel('Ends on').fill('2027-03-31');
    await form.getByRole('button', { name: 'Create period' }).click();
    await expect(form.getByText(`This period (${title}) does already exist in this market.`)).toBeVisible();

    // The reporter finds the new report on the dashboard and opens its import screen.
    const reporter = await signedInPage(browser, 'reporter@demo.test');
    const openReports = reporter.getByTestId('dashboard-open-reports');
    await openReports.getByRole('link', { name: new RegExp(`Nordlys Trading AB · SE · ${title}`) }).click();
    await expect(reporter.getByRole('heading', { name: 'Data import' })).toBeVisible();
    const header = reporter.getByTestId('report-header');
    await expect(header).toContainText('Nordlys Trading AB');
    await expect(header).toContainText(title);
    await expect(header).toContainText('Ongoing');
    await expect(header).toContainText('2027-04-10');

    // A file with errors: every error is listed with its spreadsheet row.
    await upload(
      reporter,
      'with-errors.xlsx',
      await xlsx([
        ['1001', 5, 100],
        ['9999', 1, 1],
        ['1002', 'abc', 10],
      ]),
    );
    const status = reporter.getByTestId('import-status');
    await expect(status).toContainText('The file has errors', { timeout: 20_000 });
    const errors = reporter.getByTestId('import-errors');
    await expect(errors.getByRole('row').filter({ hasText: '9999' })).toContainText('3');
    await expect(errors.getByRole('row').filter({ hasText: /^4/ })).toBeVisible();
    await expect(status.getByRole('link', { name: 'Download the error list' })).toHaveAttribute('href', /\/api\/v1\/imports\/.+\/errors$/);
    await expect(header).toContainText('Invalid file');

    // The corrected file: rows and totals, then the preflight.
    await upload(reporter, 'corrected.xlsx', await xlsx(VALID_ROWS));
    await expect(status).toContainText('The file was imported', { timeout: 20_000 });
    const rows = reporter.getByTestId('report-rows');
    await expect(rows.getByRole('row').filter({ hasText: '1001' })).toContainText('Tractors below 50 hp');
    await expect(rows.getByRole('row').filter({ hasText: 'Totals' })).toBeVisible();
    await expect(header).toContainText('Ongoing');
    await expect(reporter.getByTestId('preflight').first()).toBeVisible();

    await reporter.getByRole('button', { name: 'Submit', exact: true }).click();
    await reporter.getByRole('dialog').getByRole('button', { name: 'Submit' }).click();
    await expect(header).toContainText('Waiting for approval');
    await expect(reporter.getByRole('button', { name: 'Submit', exact: true })).toHaveCount(0);
    const reportUrl = reporter.url();

    // The market administrator sends it back with a comment from the approval list.
    await admin.reload();
    await row(admin, title).getByRole('link', { name: 'Approval list' }).click();
    await expect(admin.getByRole('heading', { name: 'Approval list' })).toBeVisible();
    const nordlys = row(admin, 'Nordlys Trading AB');
    await expect(nordlys).toContainText('Waiting for approval');
    await expect(nordlys).toContainText(String(VALID_ROWS.length));
    await nordlys.getByRole('button', { name: 'Open' }).click();
    const drawer = admin.getByRole('dialog', { name: 'Nordlys Trading AB' });
    await expect(drawer.getByTestId('report-rows')).toContainText('1001');
    await drawer.getByRole('button', { name: 'Send back' }).click();
    const sendBack = admin.getByRole('dialog', { name: /Send the report of Nordlys/ });
    await sendBack.getByRole('button', { name: 'Send back' }).click();
    await expect(sendBack.getByText('Please write a comment.')).toBeVisible();
    await sendBack.getByRole('textbox', { name: 'Comment' }).fill('Please check code 1003.');
    await sendBack.getByRole('button', { name: 'Send back' }).click();
    await expect(drawer.getByTestId('report-status').first()).toHaveText('Waiting for completion');
    await admin.keyboard.press('Escape');

    // The reporter sees the comment and submits again.
    await reporter.reload();
    await expect(header).toContainText('Waiting for completion');
    await expect(reporter.getByTestId('status-history')).toContainText('Please check code 1003.');
    await reporter.getByRole('button', { name: 'Submit', exact: true }).click();
    await reporter.getByRole('dialog').getByRole('button', { name: 'Submit' }).click();
    await expect(header).toContainText('Waiting for approval');

    // The market administrator approves it with the bulk action.
    await admin.reload();
    await expect(nordlys).toContainText('Waiting for approval');
    await admin.getByRole('checkbox', { name: 'Select the report of Nordlys Trading AB' }).check();
    await admin.getByRole('button', { name: /^Approve selected/ }).click();
    await admin.getByRole('dialog').getByRole('button', { name: 'Approve selected' }).click();
    await expect(nordlys).toContainText('Approved');
    await expect(admin.getByRole('checkbox', { name: 'Select the report of Nordlys Trading AB' })).toBeDisabled();

    // The reporter sees the report approved; nothing can change any more.
    await reporter.goto(reportUrl);
    await expect(reporter.getByTestId('report-header')).toContainText('Approved');
    await expect(reporter.getByRole('button', { name: 'Upload', exact: true })).toHaveCount(0);
    await expect(reporter.getByTestId('status-history')).toContainText('Waiting for approval → Approved');

    // The import history lists both files.
    await reporter.goto('/history/import');
    await expect(row(reporter, 'corrected.xlsx').first()).toContainText('The file was imported');
    await expect(row(reporter, 'with-errors.xlsx').first()).toContainText('The file has errors');
  });

  test('a report without a previous period: nothing to copy, and an empty report cannot be submitted', async ({ browser }) => {
    test.setTimeout(60_000);
    const title = `E2E first ${Date.now()}`;
    const admin = await signedInPage(browser, 'market-admin@demo.test');
    await admin.goto('/period-list');
    // Before every other period of Sweden: there is nothing to copy from.
    await createAndOpenPeriod(admin, title, { starts: '2025-01-01', ends: '2025-01-31', deadline: '2025-02-10' });

    const reporter = await signedInPage(browser, 'reporter@demo.test');
    await reporter
      .getByTestId('dashboard-open-reports')
      .getByRole('link', { name: new RegExp(`Nordlys Trading AB · SE · ${title}`) })
      .click();
    const header = reporter.getByTestId('report-header');
    await expect(header).toContainText('Ongoing');

    await reporter.getByRole('button', { name: 'Copy from previous period' }).click();
    await expectErrorModal(reporter, "There is no report for the period you're trying to copy from (-).");

    // Submitting the empty report: the preflight has an Error, so the server refuses.
    await reporter.getByRole('button', { name: 'Submit', exact: true }).click();
    await reporter.getByRole('dialog').getByRole('button', { name: 'Submit' }).click();
    await expectErrorModal(reporter, 'The report cannot be submitted while its preflight has errors.');
    await expect(header).toContainText('Ongoing');
    await expect(reporter.getByTestId('preflight').first()).toContainText('The report is empty.');
  });

  test('the dashboard shows the approver each open period with its deadline and progress, and the reporter overdue reports', async ({ browser }) => {
    // Demo data: Sweden 2026-10 is open with two ongoing reports and its deadline (2026-11-10) has passed.
    const admin = await signedInPage(browser, 'market-admin@demo.test');
    const periods = admin.getByTestId('dashboard-open-periods');
    const october = periods.getByRole('row').filter({ hasText: 'Sweden · 2026-10' });
    await expect(october).toContainText('0 of 2 submitted · 0 approved');
    await expect(october).toContainText('Overdue');
    await october.getByRole('link', { name: 'Sweden · 2026-10' }).click();
    await expect(admin.getByRole('heading', { name: 'Approval list' })).toBeVisible();

    const reporter = await signedInPage(browser, 'reporter@demo.test');
    const open = reporter.getByTestId('dashboard-open-reports').getByRole('row').filter({ hasText: 'Nordlys Trading AB · SE · 2026-10' });
    await expect(open).toContainText('Overdue');
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
});
