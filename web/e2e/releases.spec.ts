import { expect, test } from '@playwright/test';
import { deleteRow, dismissNotices, noticeTitled, row, save, signIn } from './helpers.ts';

test.describe('releases', () => {
  test('a release note is created, seen in its list, shown once after sign-in, and deleted', async ({ page }) => {
    // Three sign-ins and a release note shown once: more than the default 30 s on a busy machine.
    test.setTimeout(60_000);
    await signIn(page, 'super-admin@demo.test');
    await page.goto('/releases/add');
    await page.getByRole('textbox', { name: 'Version' }).fill('9.9.0');
    await page.getByLabel('Release date').fill('2026-11-20');
    await page.getByRole('textbox', { name: 'Title' }).fill('Administration screens');
    await page.getByRole('textbox', { name: 'Notes' }).fill('Lists, **forms** and more.');
    await save(page);
    await expect(page).toHaveURL(/\/releases$/);
    await expect(row(page, '9.9.0')).toContainText('Nov 20, 2026');
    await expect(row(page, '9.9.0')).toContainText('0');

    // Another user sees it on the dashboard once.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, 'viewer@demo.test', undefined, { keepNotices: true });
    const notes = await noticeTitled(page, 'What is new in 9.9.0');
    // The notes' markdown is rendered: the words without their asterisks, the bold as bold.
    await expect(notes).toContainText('Lists, forms and more.');
    await expect(notes.locator('strong', { hasText: 'forms' })).toBeVisible();
    await notes.getByRole('button', { name: 'Got it' }).click();
    await expect(page.getByRole('dialog', { name: 'What is new in 9.9.0' })).toHaveCount(0);
    await dismissNotices(page);
    await page.reload();
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(0);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, 'super-admin@demo.test');
    await page.goto('/releases');
    await expect(row(page, '9.9.0')).toContainText('2');
    await deleteRow(page, '9.9.0');
    await expect(row(page, '9.9.0')).toHaveCount(0);
  });
});
