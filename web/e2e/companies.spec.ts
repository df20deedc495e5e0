import { expect, test } from '@playwright/test';
import { API_HEADERS, PNG, pick, pill, row, save, signInAsAdmin } from './helpers.ts';

test.describe('companies', () => {
  test('a company is created, gets markets with roles, codes, users and a logotype, and is disabled', async ({ page }) => {
    await signInAsAdmin(page);
    // Set-up through the API (same session): a code and a user to assign.
    const code = await page.request.post('/api/v1/admin/codes', {
      headers: API_HEADERS,
      data: { code: '88', name: 'Spare parts', disabled_status: 0, market_ids: [] },
    });
    expect(code.status()).toBe(201);
    const user = await page.request.post('/api/v1/admin/users', {
      headers: API_HEADERS,
      data: {
        email: 'paula@demo.test',
        first_name: 'Paula',
        last_name: 'Parts',
        phone: null,
        locale: 'en-US',
        password: 'paula-password',
        password_confirmation: 'paula-password',
        company_id: null,
        organization_ids: [],
        market_ids: [],
        roles: ['reporter'],
        disabled: false,
      },
    });
    expect(user.status()).toBe(201);

    await page.goto('/companies');
    // The demo's companies by name: Bergen, Fjord, Fyn, Göta, Jylland, Karelia, Lappi, Nordlys, …
    await expect(page.getByRole('row').nth(1)).toContainText('Bergen Traktor AS');
    await expect(page.getByRole('row').nth(2)).toContainText('Fjord Equipment AS');
    await expect(page.getByRole('row').nth(3)).toContainText('Fyn Landbrug A/S');
    await expect(page.getByRole('row').nth(5)).toContainText('Jylland Maskiner A/S');
    await page.getByRole('link', { name: 'Add' }).click();
    await page.getByRole('textbox', { name: 'Name' }).fill('Aurora Parts AB');
    await save(page);
    // Straight to the new company's edit screen.
    await expect(page).toHaveURL(/\/companies\/\d+$/);
    await expect(page.getByRole('heading', { name: 'Edit company' })).toBeVisible();

    await pick(page, 'Markets', 'Sweden (SE)');
    await pick(page, 'Roles in Sweden', 'Reporter');
    await pick(page, 'Codes', /Spare parts/);
    await pick(page, 'Users', /Paula Parts/);
    await page.locator('input[type="file"]').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
    await expect(page.getByText('Logotype uploaded.')).toBeVisible();
    await save(page);
    await expect(page).toHaveURL(/\/companies$/);
    await expect(row(page, 'Aurora Parts AB')).toContainText('SE');
    await expect(row(page, 'Aurora Parts AB')).toContainText('Enabled');

    await row(page, 'Aurora Parts AB').getByRole('link', { name: 'Edit' }).click();
    await expect(pill(page, 'Reporter')).toBeVisible();
    await expect(pill(page, 'Spare parts')).toBeVisible();
    const users = page.getByRole('table', { name: 'Users' });
    await expect(users).toContainText('Paula Parts');
    await expect(users).toContainText('paula@demo.test');
    await expect(users).toContainText('Reporter');
    await expect(page.getByTestId('logotype')).toBeVisible();

    await page.getByLabel('Disabled from').fill('2020-01-01');
    await save(page);
    await expect(page).toHaveURL(/\/companies$/);
    await expect(row(page, 'Aurora Parts AB')).toContainText('Disabled Jan 1, 2020');
  });
});
