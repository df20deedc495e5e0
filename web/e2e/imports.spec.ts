import { expect, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { apiAs, row, signIn } from './helpers.ts';
import { NORDLYS, VALID_ROWS, openPeriodOfSweden, openReportLink, periodTitle, upload, xlsx } from './reporting-fixtures.ts';

test.describe('imports', () => {
  test('the reporter opens a new report from the dashboard, uploads a file with errors, then the corrected one; the import history lists both', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    const title = periodTitle();
    await openPeriodOfSweden(await apiAs('market-admin@demo.test'), title, { starts: '2027-04-01', ends: '2027-04-30', deadline: '2027-05-10' });

    // The reporter finds the new report on the dashboard and opens its import screen.
    await signIn(page, 'reporter@demo.test');
    await openReportLink(page, title).click();
    await expect(page.getByRole('heading', { name: 'Data import' })).toBeVisible();
    const header = page.getByTestId('report-header');
    await expect(header).toContainText(NORDLYS);
    await expect(header).toContainText(title);
    await expect(header).toContainText('Ongoing');
    await expect(header).toContainText('May 10, 2027');

    // A file with errors: every error is listed with its spreadsheet row.
    await upload(
      page,
      'with-errors.xlsx',
      await xlsx([
        ['1001', 5, 100],
        ['9999', 1, 1],
        ['1002', 'abc', 10],
      ]),
    );
    const status = page.getByTestId('import-status');
    await expect(status).toContainText('The file has errors', { timeout: 20_000 });
    const errors = page.getByTestId('import-errors');
    await expect(errors.getByRole('row').filter({ hasText: '9999' })).toContainText('3');
    await expect(errors.getByRole('row').filter({ hasText: /^4/ })).toBeVisible();
    // Beside the spec's message: the column (no header row: the template's name) and the cell as read.
    const abc = errors.getByRole('row').filter({ hasText: 'Column B contains invalid characters on row 4.' });
    await expect(abc.getByRole('cell').nth(2)).toHaveText('Volume (B)');
    await expect(abc.getByRole('cell').nth(3)).toHaveText('abc');
    await expect(status.getByRole('link', { name: 'Download the error list' })).toHaveAttribute('href', /\/api\/v1\/imports\/.+\/errors$/);
    // Their own file back with the faulty cells marked: a fill and the error as a comment.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      status.getByRole('link', { name: 'Download your file with the errors marked' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('with-errors (errors marked).xlsx');
    const marked = new ExcelJS.Workbook();
    await marked.xlsx.readFile(await download.path());
    const cell = marked.worksheets[0]!.getCell('B4');
    expect(cell.value).toBe('abc');
    expect(JSON.stringify(cell.note)).toContain('Column B contains invalid characters on row 4.');
    expect(cell.fill).toMatchObject({ type: 'pattern', fgColor: { argb: 'FFFFC7CE' } });
    await expect(header).toContainText('Invalid file');

    // The corrected file: rows and totals, then the preflight.
    await upload(page, 'corrected.xlsx', await xlsx(VALID_ROWS));
    await expect(status).toContainText('The file was imported', { timeout: 20_000 });
    const rows = page.getByTestId('report-rows');
    await expect(rows.getByRole('row').filter({ hasText: '1001' })).toContainText('Tractors below 50 hp');
    await expect(rows.getByRole('row').filter({ hasText: 'Totals' })).toBeVisible();
    await expect(header).toContainText('Ongoing');
    await expect(page.getByTestId('preflight').first()).toBeVisible();

    // The import history lists both files of this period.
    await page.goto('/history/import');
    const ofThisPeriod = row(page, title);
    await expect(ofThisPeriod.filter({ hasText: 'corrected.xlsx' })).toContainText('The file was imported');
    await expect(ofThisPeriod.filter({ hasText: 'with-errors.xlsx' })).toContainText('The file has errors');
  });

  test('the reporter downloads the template as CSV, fills it in as a system would (";" and decimal commas) and imports it; a CSV with errors lists them', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    const title = periodTitle('CSV');
    await openPeriodOfSweden(await apiAs('market-admin@demo.test'), title, { starts: '2027-05-01', ends: '2027-05-31', deadline: '2027-06-10' });
    await signIn(page, 'reporter@demo.test');
    await openReportLink(page, title).click();
    await expect(page.getByRole('heading', { name: 'Data import' })).toBeVisible();
    await expect(page.getByText('CSV: UTF-8, fields separated by ";" or ",", a decimal comma or point.')).toBeVisible();

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Template as CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const template = (await import('node:fs')).readFileSync(await download.path(), 'utf8');
    const lines = template.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe('Code,Volume,Value,Name,Note');
    // The first two codes filled in, written the way a Swedish system writes them.
    const [first, second] = [lines[1]!.split(',')[0]!, lines[2]!.split(',')[0]!];
    const csv = `Code;Volume;Value\r\n${first};12,5;1.234,75\r\n${second};-2;0,5\r\n`;

    await upload(page, 'errors.csv', Buffer.from(`Code;Volume;Value\r\n${first};12,5 st;1\r\n`), 'text/csv');
    const status = page.getByTestId('import-status');
    await expect(status).toContainText('The file has errors', { timeout: 20_000 });
    const bad = page.getByTestId('import-errors').getByRole('row').filter({ hasText: 'Column B contains invalid characters on row 2.' });
    await expect(bad.getByRole('cell').nth(3)).toHaveText('12,5 st');

    await upload(page, 'from-erp.csv', Buffer.from(csv), 'text/csv');
    await expect(status).toContainText('The file was imported', { timeout: 20_000 });
    const rows = page.getByTestId('report-rows');
    await expect(rows.getByRole('row').filter({ hasText: first })).toContainText('1,234.75');
    await expect(rows.getByRole('row').filter({ hasText: second })).toContainText('-2');
  });
});
