import { expect, test } from '@playwright/test';
import { signIn } from './helpers.ts';

/*
 * The history import, as an administrator of Sweden uses it: a file with errors, the corrected
 * file's dry run, the import with its progress, then publishing. It writes one month between the
 * reports spec's 2024-01 (which must stay Sweden's first period) and the demo's 2025-01, outside
 * the demo trends' 24 months; the figures differ on every run, so that a second run on the same
 * database replaces the reports and has a period to publish again.
 */
test.describe('history import', () => {
  test('the market administrator checks a history file, sees its errors, imports the corrected one and publishes its periods', async ({ page }) => {
    test.setTimeout(120_000);
    const month = `2024-0${2 + (Math.floor(Date.now() / 1000) % 3)}`;
    const run = Math.floor(Date.now() / 1000) % 100_000;
    const good = [
      'Market;Period;Company;Code;Volume;Value',
      `SE;${month};Göta Maskin AB;1001;${run},5;1.234,5`,
      `SE;${month};Göta Maskin AB;1002;3;400`,
      `SE;${month};Vasa Agri AB;1001;7;900`,
    ];
    const bad = [...good, `SW;${month};Göta Maskin AB;1001;1;1`, `SE;${month};Göta Maskin AB;1002;2 st;400`, `SE;${month};Vasa Agri AB;1001;8;900`];

    await signIn(page, 'market-admin@demo.test');
    await page.getByRole('navigation').getByRole('link', { name: 'History import' }).click();
    await expect(page.getByRole('heading', { name: 'History import', exact: true })).toBeVisible();
    const status = page.getByTestId('history-status');

    await page.locator('input[type="file"]').setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(bad.join('\r\n')) });
    await page.getByRole('button', { name: 'Check the file' }).click();
    await expect(status).toContainText('The file has errors', { timeout: 30_000 });
    const errors = page.getByTestId('history-errors');
    await expect(errors.getByRole('row').filter({ hasText: 'Unknown market on row 5.' })).toContainText('SW');
    await expect(errors.getByRole('row').filter({ hasText: 'Column E contains invalid characters on row 6.' })).toContainText('2 st');
    await expect(errors.getByRole('row').filter({ hasText: 'Row 7 repeats the market, period, company and code of row 4.' })).toBeVisible();

    await page.locator('input[type="file"]').setInputFiles({ name: 'good.csv', mimeType: 'text/csv', buffer: Buffer.from(good.join('\r\n')) });
    await page.getByRole('button', { name: 'Check the file' }).click();
    await expect(status).toContainText('The file is ready to import', { timeout: 30_000 });
    // New on a fresh database; on a second run the month is there with its 2 reports.
    await expect(page.getByTestId('history-plan-summary')).toContainText(/^3 rows in 1 periods of 1 market\(s\): [01] periods to create and 2 reports/);
    await expect(page.getByTestId('history-plan').getByRole('row').filter({ hasText: month })).toContainText(/New|Exists \(2 reports\)/);

    await status.getByRole('button', { name: 'Import' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Import' }).click();
    await expect(status).toContainText('Imported', { timeout: 60_000 });
    await expect(page.getByTestId('history-result')).toHaveText(
      /^(1 periods created; 2 reports created, 0 replaced and 0 unchanged|0 periods created; 0 reports created, 1 replaced and 1 unchanged)\.$/,
    );

    await status.getByRole('button', { name: 'Publish 1 periods' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Publish' }).click();
    await expect(status).toContainText('Published', { timeout: 60_000 });
    await expect(page.getByTestId('history-result')).toContainText('1 periods published.');
    // The list of history imports follows.
    await expect(page.getByTestId('history-list')).toContainText('good.csv');
  });
});
