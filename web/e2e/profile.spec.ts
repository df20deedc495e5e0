import { expect, test } from '@playwright/test';
import { DEMO_PASSWORD, signIn, signInAsAdmin } from './helpers.ts';

test.describe('your own account', () => {
  test('a viewer changes their name and password on the profile screen; the header follows and the new password signs in', async ({ page }) => {
    await signIn(page, 'viewer@demo.test');
    await page.getByRole('navigation').getByRole('link', { name: 'Your profile' }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByTestId('profile-email')).toContainText('viewer@demo.test');

    const firstName = page.getByRole('textbox', { name: 'First name' });
    await expect(firstName).toHaveValue('Vera');
    await firstName.fill('Veronika');
    await page.getByRole('button', { name: 'Save details' }).click();
    await expect(page.getByRole('banner').getByTestId('user-name')).toHaveText('Veronika Viewer');

    // The current password is checked by the server, and its message shows on its field.
    await page.getByLabel('Current password').fill('not-my-password');
    await page.getByLabel(/^New password\W*$/).fill('a-new-demo-password');
    await page.getByLabel('New password again').fill('a-new-demo-password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('The password is invalid or the user does not have a password.')).toBeVisible();
    await page.getByLabel('Current password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('Your password was changed. Your other sessions have ended.')).toBeVisible();
    await expect(page.getByLabel('Current password')).toHaveValue('');

    // Signed in elsewhere with the new password; then everything is put back for the other specs.
    await page.context().clearCookies();
    await signIn(page, 'viewer@demo.test', 'a-new-demo-password');
    await page.goto('/profile');
    await page.getByRole('textbox', { name: 'First name' }).fill('Vera');
    await page.getByRole('button', { name: 'Save details' }).click();
    await expect(page.getByRole('banner').getByTestId('user-name')).toHaveText('Vera Viewer');
    await page.getByLabel('Current password').fill('a-new-demo-password');
    await page.getByLabel(/^New password\W*$/).fill(DEMO_PASSWORD);
    await page.getByLabel('New password again').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('Your password was changed. Your other sessions have ended.')).toBeVisible();
  });

  test('an administrator of two organizations switches organization from the user menu without signing out', async ({ page }) => {
    await signInAsAdmin(page, 'Nordic Sales Association');
    const banner = page.getByRole('banner');
    await expect(banner.getByTestId('organization-name')).toHaveText('Nordic Sales Association');
    await banner.getByRole('button', { name: /Your settings/ }).click();
    await page.getByRole('button', { name: 'Switch to Baltic Sales Association' }).click();
    await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
    await expect(banner.getByTestId('organization-name')).toHaveText('Baltic Sales Association');
    await expect(page.getByTestId('dashboard-organization')).toContainText('Baltic Sales Association');
    // The markets are the new organization's.
    await page.goto('/markets');
    await expect(page.getByRole('row').filter({ hasText: 'Estonia' })).toHaveCount(1);
    await expect(page.getByRole('row').filter({ hasText: 'Sweden' })).toHaveCount(0);
  });

  test('a reporter makes an integration token limited to uploading, sends rows with it, and revokes it', async ({ page, request }) => {
    await signIn(page, 'reporter@demo.test');
    await page.goto('/profile');
    const name = `ERP ${Date.now()}`;
    await page.getByRole('textbox', { name: 'Device or system name' }).fill(name);
    await page.getByRole('button', { name: 'Create token' }).click();
    const token = (await page.getByTestId('token-value').textContent())!.trim();
    const listed = page.getByTestId('tokens').getByRole('row').filter({ hasText: name });
    await expect(listed).toContainText('Uploading reports only');

    // The token works for what it may do, and not beyond.
    const bearer = { Authorization: `Bearer ${token}` };
    expect((await request.get('/api/v1/reports?per_page=1', { headers: bearer })).status()).toBe(200);
    expect((await request.get('/api/v1/statistics/choices', { headers: bearer })).status()).toBe(403);

    await listed.getByRole('button', { name: `Revoke ${name}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await expect(page.getByTestId('tokens').getByRole('row').filter({ hasText: name })).toHaveCount(0);
    expect((await request.get('/api/v1/reports?per_page=1', { headers: bearer })).status()).toBe(401);
  });
});
