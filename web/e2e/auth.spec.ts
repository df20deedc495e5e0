import { expect, test } from '@playwright/test';
import { PRODUCT, signIn, submitLogin } from './helpers.ts';

test.describe('signing in and out', () => {
  test('a reporter signs in and sees the dashboard', async ({ page }) => {
    await page.goto('/login');
    await expect(page).toHaveTitle(`Sign in - ${PRODUCT}`);

    await submitLogin(page, 'reporter@demo.test');

    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
    await expect(page).toHaveTitle(`Dashboard - ${PRODUCT}`);
    const header = page.getByRole('banner');
    await expect(header.getByText(PRODUCT)).toBeVisible();
    await expect(header.getByTestId('user-name')).not.toBeEmpty();
    await expect(header.getByRole('button', { name: 'Sign out' })).toBeVisible();
  });

  test('a wrong password shows the server message and keeps the user on the sign-in screen', async ({ page }) => {
    await page.goto('/login');
    await submitLogin(page, 'reporter@demo.test', 'not-the-password');

    await expect(page.getByRole('alert')).toContainText('These credentials do not match our records.');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('an administrator of two organizations chooses one and works in it', async ({ page }) => {
    await page.goto('/login');
    await submitLogin(page, 'admin@demo.test');

    // No session yet: the organization must be chosen first.
    const organization = page.getByRole('combobox', { name: 'Organization' });
    await expect(organization).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
    await organization.click();
    await expect(page.getByRole('option', { name: 'Nordic Sales Association' })).toBeVisible();
    await page.getByRole('option', { name: 'Baltic Sales Association' }).click();
    await page.getByRole('button', { name: 'Sign in' }).click();

    await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
    await expect(page.getByRole('banner').getByTestId('organization-name')).toHaveText('Baltic Sales Association');
    await expect(page.getByTestId('dashboard-organization')).toContainText('Baltic Sales Association');
  });

  test('signing out returns to /login, and a protected route then redirects to /login', async ({ page }) => {
    await signIn(page, 'reporter@demo.test');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { name: 'Sign in to your account' })).toBeVisible();

    await page.goto('/docs');
    await expect(page).toHaveURL(/\/login\?redirect=%2Fdocs$/);
    await expect(page.getByRole('heading', { name: 'Sign in to your account' })).toBeVisible();

    // Signing in again goes where the user was heading.
    await submitLogin(page, 'reporter@demo.test');
    await expect(page).toHaveURL(/\/docs$/);
  });

  test('signing out in one tab signs out the other tabs', async ({ context }) => {
    const first = await context.newPage();
    await signIn(first, 'viewer@demo.test');
    const second = await context.newPage();
    await second.goto('/');
    await expect(second.getByRole('heading', { name: /^Welcome, / })).toBeVisible();

    await first.getByRole('button', { name: 'Sign out' }).click();

    await expect(second).toHaveURL(/\/login$/);
    await expect(second.getByRole('heading', { name: 'Sign in to your account' })).toBeVisible();
  });
});
