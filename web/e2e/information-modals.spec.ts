import { expect, test } from '@playwright/test';
import { dismissNotices, noticeTitled, row, save, signIn, signInAsAdmin } from './helpers.ts';

test.describe('information modals', () => {
  test('an administrator adds an information modal to their organization that users see once', async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto('/organizations');
    await row(page, 'Nordic Sales Association').getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('link', { name: 'Add information modal' }).click();
    await expect(page).toHaveURL(/\/information-modals\/\d+\/add$/);
    await page.getByRole('textbox', { name: 'Title' }).fill('Maintenance on Friday');
    await page.getByRole('textbox', { name: 'Text' }).fill('The service is down 18–20.');
    await save(page);
    await expect(page).toHaveURL(/\/organizations\/\d+$/);
    const organizationUrl = page.url();
    await expect(page.getByRole('link', { name: 'Maintenance on Friday' })).toBeVisible();

    // A user of the organization sees it once.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, 'viewer@demo.test', undefined, { keepNotices: true });
    const modal = await noticeTitled(page, 'Maintenance on Friday');
    await expect(modal).toContainText('The service is down 18–20.');
    await modal.getByRole('button', { name: 'Close' }).last().click();
    await expect(page.getByRole('dialog', { name: 'Maintenance on Friday' })).toHaveCount(0);
    await dismissNotices(page);
    await page.reload();
    await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
    // Once the dashboard knows both lists it says no notice is left: none opened.
    await expect(page.getByTestId('notices-done')).toBeAttached();
    await expect(page.getByRole('dialog')).toHaveCount(0);

    // Removed again, so that it does not meet the other specs' users.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signInAsAdmin(page);
    await page.goto(organizationUrl);
    await page.getByRole('link', { name: 'Maintenance on Friday' }).click();
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await expect(page).toHaveURL(/\/organizations\/\d+$/);
    await expect(page.getByRole('link', { name: 'Maintenance on Friday' })).toHaveCount(0);
  });
});
