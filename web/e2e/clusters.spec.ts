import { expect, test } from '@playwright/test';
import { pick, row, save, signIn, signInAsAdmin } from './helpers.ts';

test.describe('clusters', () => {
  test('a super-admin names the organization of a new record; an administrator is not asked', async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto('/clusters/add');
    await expect(page.getByRole('textbox', { name: 'Name' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Organization' })).toHaveCount(0);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, 'super-admin@demo.test');
    await page.goto('/clusters/add');
    await page.getByRole('textbox', { name: 'Name' }).fill('Baltics');
    await pick(page, 'Organization', 'Baltic Sales Association');
    // The markets offered are the chosen organization's.
    await page.getByRole('combobox', { name: 'Markets' }).click();
    await expect(page.getByRole('option', { name: 'Estonia (EE)' })).toBeVisible();
    await expect(page.getByRole('option', { name: 'Sweden (SE)' })).toHaveCount(0);
    await page.getByRole('option', { name: 'Estonia (EE)' }).click();
    await page.keyboard.press('Escape');
    await save(page);
    await expect(page).toHaveURL(/\/clusters$/);
    await expect(row(page, 'Baltics')).toContainText('Baltic Sales Association');
    await expect(row(page, 'Baltics')).toContainText('EE');

    // The organization filter of the list narrows it to one organization.
    await pick(page, 'Organization', 'Nordic Sales Association');
    await expect(row(page, 'Baltics')).toHaveCount(0);
    await expect(row(page, 'Nordic')).toHaveCount(1);
  });
});
