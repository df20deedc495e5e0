import { expect, test } from '@playwright/test';
import { PRODUCT, dismissNotices, newestMailTo, submitLogin } from './helpers.ts';

// just-stats@demo.test is used by no other spec: its password changes here.
const EMAIL = 'just-stats@demo.test';
const NEW_PASSWORD = 'a-brand-new-password';

test('a user resets a forgotten password through the e-mailed link and signs in with the new one', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expect(page).toHaveTitle(`Forgot password - ${PRODUCT}`);

  await page.getByRole('textbox', { name: 'E-mail' }).fill(EMAIL);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByTestId('forgot-password-sent')).toHaveText('We have e-mailed your password reset link!');

  const mail = await newestMailTo(EMAIL);
  const link = mail.match(/http:\/\/localhost:3100\/reset-password\/[^\s"'<>]+/)?.[0];
  expect(link, 'the e-mail contains the reset link').toBeTruthy();
  const url = new URL(link!);
  expect(url.searchParams.get('email')).toBe(EMAIL);

  await page.goto(url.pathname + url.search);
  await expect(page).toHaveTitle(`Reset password - ${PRODUCT}`);
  await expect(page.getByRole('textbox', { name: 'E-mail' })).toHaveValue(EMAIL);

  // The rules are checked before anything is sent.
  await page.getByRole('textbox', { name: 'New password', exact: true }).fill('short');
  await page.getByRole('textbox', { name: 'Confirm new password' }).fill('different');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByText('The password must be 8 characters long or more.')).toBeVisible();
  await expect(page.getByText('Passwords are not matching.')).toBeVisible();

  await page.getByRole('textbox', { name: 'New password', exact: true }).fill(NEW_PASSWORD);
  await page.getByRole('textbox', { name: 'Confirm new password' }).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Reset password' }).click();

  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByTestId('login-notice')).toHaveText('Your password has been reset!');

  // The old password no longer works; the new one does.
  await submitLogin(page, EMAIL, 'demo-password');
  await expect(page.getByRole('alert')).toContainText('These credentials do not match our records.');
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  await dismissNotices(page);

  // The link is spent.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.goto(url.pathname + url.search);
  await page.getByRole('textbox', { name: 'New password', exact: true }).fill('yet-another-password');
  await page.getByRole('textbox', { name: 'Confirm new password' }).fill('yet-another-password');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByText('This password reset token is invalid.')).toBeVisible();
});
