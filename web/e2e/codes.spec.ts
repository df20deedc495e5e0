import { expect, test } from '@playwright/test';
import { pick, pill, row, save, signInAsAdmin } from './helpers.ts';

test.describe('codes', () => {
  test('a code is created with a section and a group, and seen in the code lists', async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto('/code_sections/add');
    await page.getByRole('textbox', { name: 'Name' }).fill('Engines');
    await page.getByRole('textbox', { name: 'Start' }).fill('10');
    await page.getByRole('textbox', { name: 'Length' }).fill('10');
    await pick(page, 'Markets', 'Sweden (SE)');
    await save(page);
    await expect(page).toHaveURL(/\/code_sections$/);
    await expect(row(page, 'Engines')).toContainText('Nordic Sales Association');
    await row(page, 'Engines').getByRole('link', { name: 'Edit' }).click();
    await expect(pill(page, 'Sweden (SE)')).toBeVisible();

    await page.goto('/codes/add');
    await page.getByRole('textbox', { name: 'Code' }).fill('15');
    await page.getByRole('textbox', { name: 'Name' }).fill('Diesel engines');
    await pick(page, 'Disabled status', 'Value disabled');
    await pick(page, 'Markets', 'Sweden (SE)');
    await save(page);
    await expect(page).toHaveURL(/\/codes$/);

    await page.goto('/code_groups/add');
    await page.getByRole('textbox', { name: 'Title' }).fill('Heavy machinery');
    await pick(page, 'Codes', /Diesel engines/);
    await save(page);
    await expect(page).toHaveURL(/\/code_groups$/);
    await expect(row(page, 'Heavy machinery')).toContainText('Nordic Sales Association');

    await page.goto('/codes');
    await page.getByRole('searchbox', { name: 'Search' }).fill('Diesel');
    const code = row(page, 'Diesel engines');
    await expect(code).toContainText('15');
    await expect(code).toContainText('Value disabled');
    await expect(code).toContainText('Engines');
    await expect(code).toContainText('Heavy machinery');
    await expect(code).toContainText('SE');

    await page.goto('/codes/manage');
    await expect(page.getByRole('columnheader')).toHaveText([/^Name/, /^Code/, 'Actions']);
    await expect(row(page, 'Diesel engines')).toContainText('15');
  });
});
