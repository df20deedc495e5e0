import { expect, test } from '@playwright/test';
import { deleteRow, pick, row, save, signIn, signInAsAdmin } from './helpers.ts';

test.describe('currency conversions', () => {
  test('a user without the permission is sent to /403', async ({ page }) => {
    await signIn(page, 'reporter@demo.test');

    await page.goto('/currency-conversions');

    await expect(page).toHaveURL(/\/403$/);
    await expect(page.getByRole('heading', { name: 'Permission denied' })).toBeVisible();
  });

  test("an organization's administrator sees currency conversions read-only: they are shared by every organization", async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto('/currency-conversions');
    await expect(page.getByText('Shared by every organization: only a super-administrator changes these.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Add' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Edit' })).toHaveCount(0);
  });

  test('a currency conversion is created, edited, seen in its list, and a used currency cannot be deleted', async ({ page }) => {
    await signIn(page, 'super-admin@demo.test');

    await page.goto('/currency-conversions');
    await expect(page.getByRole('heading', { name: 'Currency conversions' })).toBeVisible();
    await page.getByRole('link', { name: 'Add' }).click();
    await expect(page).toHaveURL(/\/currency-conversions\/add$/);
    await save(page);
    // The server's field errors show on the inputs.
    await expect(page.getByText(/from currency/i).and(page.locator('.mantine-InputWrapper-error'))).toBeVisible();

    await pick(page, 'From currency', /^SEK/);
    await pick(page, 'To currency', /^EUR/);
    await page.getByRole('textbox', { name: 'Rate' }).fill('0.087');
    await page.getByLabel('Valid from').fill('2026-03-15');
    await save(page);

    await expect(page).toHaveURL(/\/currency-conversions$/);
    const created = row(page, 'Mar 15, 2026');
    await expect(created).toContainText('SEK');
    await expect(created).toContainText('EUR');
    await expect(created).toContainText('0.087');

    await created.getByRole('link', { name: 'Edit' }).click();
    await expect(page.getByRole('heading', { name: 'Edit currency conversion' })).toBeVisible();
    await page.getByRole('textbox', { name: 'Rate' }).fill('0.09');
    await save(page);
    await expect(page).toHaveURL(/\/currency-conversions$/);
    await expect(row(page, 'Mar 15, 2026')).toContainText('0.09');

    // SEK is used by the conversion (and a market): the server refuses, the error modal says why.
    await page.goto('/currencies');
    await page.getByRole('searchbox', { name: 'Search' }).fill('SEK');
    await expect(page.getByRole('row')).toHaveCount(2);
    await deleteRow(page, 'Swedish krona');
    await expect(page.getByRole('dialog')).toContainText('still in use and cannot be deleted.');
  });
});
