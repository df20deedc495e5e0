import { expect, test } from '@playwright/test';
import { PNG, pick, pill, row, save, signInAsAdmin } from './helpers.ts';

test.describe('markets', () => {
  test('a market is created with a logotype, edited, viewed, searched and put in a cluster', async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto('/markets');
    await page.getByRole('link', { name: 'Add' }).click();
    await page.getByRole('textbox', { name: 'International name' }).fill('Iceland');
    await page.getByRole('textbox', { name: 'Local name' }).fill('Island');
    await page.getByRole('textbox', { name: 'ISO code' }).fill('se');
    await pick(page, 'Currency', /^EUR/);
    await save(page);
    // SE is taken in the organization: the server's message shows on the ISO code input.
    await expect(page).toHaveURL(/\/markets\/add$/);
    await expect(page.getByRole('textbox', { name: 'ISO code' })).toHaveAttribute('aria-invalid', 'true');
    await page.getByRole('textbox', { name: 'ISO code' }).fill('is');
    await save(page);
    await expect(page).toHaveURL(/\/markets$/);

    // The search goes to the server from 3 characters and matches the international name.
    await page.getByRole('searchbox', { name: 'Search' }).fill('icel');
    await expect(page.getByRole('row')).toHaveCount(2);
    await expect(row(page, 'Iceland')).toContainText('IS');
    await expect(row(page, 'Iceland')).toContainText('EUR');

    await row(page, 'Iceland').getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('textbox', { name: 'Local name' }).fill('Ísland');
    await page.locator('input[type="file"]').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    await expect(page.getByText('Logotype uploaded.')).toBeVisible();
    await expect(page.getByTestId('logotype')).toBeVisible();
    await save(page);
    await expect(page).toHaveURL(/\/markets$/);

    await page.getByRole('searchbox', { name: 'Search' }).fill('Iceland');
    await row(page, 'Iceland').getByRole('link', { name: 'View' }).click();
    await expect(page).toHaveURL(/\/markets\/view\/\d+$/);
    await expect(page.getByRole('table', { name: 'Market' })).toContainText('Ísland');
    await expect(page.getByRole('img', { name: 'Logotype' })).toBeVisible();

    // The cluster's edit screen loads its markets and takes the new one.
    await page.goto('/clusters');
    await row(page, 'Nordic').getByRole('link', { name: 'Edit' }).click();
    await expect(pill(page, 'Sweden (SE)')).toBeVisible();
    await pick(page, 'Markets', 'Iceland (IS)');
    await save(page);
    await expect(page).toHaveURL(/\/clusters$/);
    await expect(row(page, 'Nordic')).toContainText('IS');
    await expect(row(page, 'Nordic')).toContainText('SE');
  });
});
