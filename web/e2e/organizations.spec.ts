import { expect, test } from '@playwright/test';
import { row, save, signInAsAdmin } from './helpers.ts';

test.describe('organizations', () => {
  test("an administrator edits their organization's settings and mail description", async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto('/organizations');
    await expect(row(page, 'Nordic Sales Association')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Add' })).toHaveCount(0);
    // Creating organizations is the super-admin's: the screen is not offered, not even by its address.
    await page.goto('/organizations/add');
    await expect(page).toHaveURL(/\/403$/);
    await page.goto('/organizations');
    await row(page, 'Nordic Sales Association').getByRole('link', { name: 'Edit' }).click();

    // Settings: the server validates them.
    const settings = page.getByRole('form', { name: 'Settings' });
    await settings.getByRole('textbox', { name: 'Reminder days' }).fill('-3');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await expect(settings).toContainText('Reminder days cannot be less than 0.');
    await settings.getByRole('textbox', { name: 'Reminder days' }).fill('7');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByText('Settings saved.')).toBeVisible();

    await page.getByRole('textbox', { name: 'Mail description' }).fill('Nordic statistics, monthly');
    await save(page);
    await expect(page).toHaveURL(/\/organizations$/);
    await expect(row(page, 'Nordic Sales Association')).toContainText('Nordic statistics, monthly');

    await row(page, 'Nordic Sales Association').getByRole('link', { name: 'Edit' }).click();
    await expect(page.getByRole('textbox', { name: 'Reminder days' })).toHaveValue('7');
  });
});
