import { expect, test } from '@playwright/test';
import { pick, row, save, signIn, signInAsAdmin } from './helpers.ts';

test.describe('users', () => {
  test('a user is created with roles, edited, listed, and viewed read-only by a market administrator', async ({ page }) => {
    // Two sign-ins and a dozen screens: 24 s on a quiet machine, over 30 s on a busy one.
    test.setTimeout(90_000);
    await signInAsAdmin(page);
    await page.goto('/users');
    await page.getByRole('link', { name: 'Add' }).click();
    await page.getByRole('textbox', { name: 'First name' }).fill('Petra');
    await page.getByRole('textbox', { name: 'Last name' }).fill('Planner');
    await page.getByRole('textbox', { name: 'E-mail' }).fill('reporter@demo.test');
    await page.getByLabel(/^Password/).fill('short');
    await page.getByLabel(/^Confirm password/).fill('short');
    await save(page);
    await expect(page.getByText('The password must be 8 characters long or more.')).toBeVisible();

    await page.getByLabel(/^Password/).fill('petra-password');
    await page.getByLabel(/^Confirm password/).fill('petra-password');
    await save(page);
    // The server's answer shows on the e-mail input.
    await expect(page.getByRole('textbox', { name: 'E-mail' })).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('The email address is already in use by another account.')).toBeVisible();

    await page.getByRole('textbox', { name: 'E-mail' }).fill('petra@demo.test');
    await pick(page, 'Markets', 'Sweden (SE)');
    await pick(page, 'Company', 'Nordlys Trading AB');
    await page.getByRole('checkbox', { name: 'Market administrator' }).check();
    await page.getByRole('checkbox', { name: 'Statistics viewer', exact: true }).check();
    await save(page);
    await expect(page).toHaveURL(/\/users$/);

    await page.getByRole('searchbox', { name: 'Search' }).fill('petra');
    const petra = row(page, 'Petra Planner');
    await expect(petra).toContainText('petra@demo.test');
    await expect(petra).toContainText('Market administrator, Statistics viewer');
    await expect(petra).toContainText('Nordlys Trading AB');

    await petra.getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('textbox', { name: 'Phone' }).fill('+46 70 123 45 67');
    await page.getByRole('checkbox', { name: 'Statistics viewer', exact: true }).uncheck();
    await save(page);
    await expect(page).toHaveURL(/\/users$/);
    await page.getByRole('searchbox', { name: 'Search' }).fill('petra');
    await expect(row(page, 'Petra Planner')).toContainText('Market administrator');
    await expect(row(page, 'Petra Planner')).not.toContainText('Statistics viewer');

    // A market administrator lists and views users, but may not add them.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, 'market-admin@demo.test');
    await page.goto('/users');
    await expect(page.getByRole('link', { name: 'Add' })).toHaveCount(0);
    await page.getByRole('searchbox', { name: 'Search' }).fill('petra');
    await expect(row(page, 'Petra Planner').getByRole('link', { name: 'Edit' })).toHaveCount(0);
    await row(page, 'Petra Planner').getByRole('link', { name: 'View' }).click();
    await expect(page).toHaveURL(/\/users\/view\/\d+$/);
    const view = page.getByRole('table', { name: 'User' });
    await expect(view).toContainText('+46 70 123 45 67');
    await expect(view).toContainText('Market administrator');
    await page.goto('/users/add');
    await expect(page).toHaveURL(/\/403$/);

    // The new user signs in.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, 'petra@demo.test', 'petra-password');
    await expect(page.getByRole('heading', { name: 'Welcome, Petra' })).toBeVisible();
  });
});
