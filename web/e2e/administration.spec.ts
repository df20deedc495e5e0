import { type Page, expect, test } from '@playwright/test';
import { dismissNotices, noticeTitled, pick, signIn, signInAsAdmin } from './helpers.ts';

/** A 1×1 png. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

/** The row of a list table that contains `text`. */
const row = (page: Page, text: string | RegExp) => page.getByRole('row').filter({ hasText: text });

/** A chosen value of a MultiSelect. */
const pill = (page: Page, text: string) => page.locator('.mantine-Pill-label', { hasText: text });

async function save(page: Page) {
  await page.getByRole('button', { name: 'Save', exact: true }).click();
}

/** Deletes through the row's Delete button and the confirm modal. */
async function deleteRow(page: Page, text: string | RegExp) {
  await row(page, text).getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
}

test.describe('administration', () => {
  test('a user without the permission is sent to /403', async ({ page }) => {
    await signIn(page, 'reporter@demo.test');

    await page.goto('/currency-conversions');

    await expect(page).toHaveURL(/\/403$/);
    await expect(page.getByRole('heading', { name: 'Permission denied' })).toBeVisible();
  });

  test("an organization's administrator sees currency conversions read-only: they are shared by every organization", async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto('/currency-conversions');
    await expect(page.getByText('Shared by every organization: only a super-administrator changes these.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Add' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Edit' })).toHaveCount(0);
  });

  test('a currency conversion is created, edited, seen in its list, and a used currency cannot be deleted', async ({ page }) => {
    await signIn(page, 'super-admin@demo.test');

    await page.goto('/currency-conversions');
    await expect(page.getByRole('heading', { name: 'Currency conversions' })).toBeVisible();
    await page.getByRole('link', { name: 'Add' }).click();
    await expect(page).toHaveURL(/\/currency-conversions\/add$/);
    await save(page);
    // The server's field errors show on the inputs.
    await expect(page.getByText(/from currency/i).and(page.locator('.mantine-InputWrapper-error'))).toBeVisible();

    await pick(page, 'From currency', /^SEK/);
    await pick(page, 'To currency', /^EUR/);
    await page.getByRole('textbox', { name: 'Rate' }).fill('0.087');
    await page.getByLabel('Valid from').fill('2026-03-15');
    await save(page);

    await expect(page).toHaveURL(/\/currency-conversions$/);
    const created = row(page, '2026-03-15');
    await expect(created).toContainText('SEK');
    await expect(created).toContainText('EUR');
    await expect(created).toContainText('0.087');

    await created.getByRole('link', { name: 'Edit' }).click();
    await expect(page.getByRole('heading', { name: 'Edit currency conversion' })).toBeVisible();
    await page.getByRole('textbox', { name: 'Rate' }).fill('0.09');
    await save(page);
    await expect(page).toHaveURL(/\/currency-conversions$/);
    await expect(row(page, '2026-03-15')).toContainText('0.09');

    // SEK is used by the conversion (and a market): the server refuses, the error modal says why.
    await page.goto('/currencies');
    await page.getByRole('searchbox', { name: 'Search' }).fill('SEK');
    await expect(page.getByRole('row')).toHaveCount(2);
    await deleteRow(page, 'Swedish krona');
    await expect(page.getByRole('dialog')).toContainText('still in use and cannot be deleted.');
  });

  test('a release note is created, seen in its list, shown once after sign-in, and deleted', async ({ page }) => {
    await signIn(page, 'super-admin@demo.test');
    await page.goto('/releases/add');
    await page.getByRole('textbox', { name: 'Version' }).fill('9.9.0');
    await page.getByLabel('Release date').fill('2026-11-20');
    await page.getByRole('textbox', { name: 'Title' }).fill('Administration screens');
    await page.getByRole('textbox', { name: 'Notes' }).fill('Lists, forms and more.');
    await save(page);
    await expect(page).toHaveURL(/\/releases$/);
    await expect(row(page, '9.9.0')).toContainText('2026-11-20');
    await expect(row(page, '9.9.0')).toContainText('0');

    // Another user sees it on the dashboard once.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, 'viewer@demo.test', undefined, { keepNotices: true });
    const notes = await noticeTitled(page, 'What is new in 9.9.0');
    await expect(notes).toContainText('Lists, forms and more.');
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

  test("an administrator edits their organization's settings and adds an information modal that users see once", async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto('/organizations');
    await expect(row(page, 'Nordic Sales Association')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Add' })).toHaveCount(0);
    await row(page, 'Nordic Sales Association').getByRole('link', { name: 'Edit' }).click();

    // Settings: the server validates them.
    const settings = page.getByRole('form', { name: 'Settings' });
    await settings.getByRole('textbox', { name: 'Reminder days' }).fill('-3');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await expect(settings).toContainText('cannot be less than 0');
    await settings.getByRole('textbox', { name: 'Reminder days' }).fill('7');
    await settings.getByRole('button', { name: 'Save settings' }).click();
    await expect(page.getByText('Settings saved.')).toBeVisible();

    await page.getByRole('textbox', { name: 'Mail description' }).fill('Nordic statistics, monthly');
    await save(page);
    await expect(page).toHaveURL(/\/organizations$/);
    await expect(row(page, 'Nordic Sales Association')).toContainText('Nordic statistics, monthly');

    await row(page, 'Nordic Sales Association').getByRole('link', { name: 'Edit' }).click();
    await expect(page.getByRole('textbox', { name: 'Reminder days' })).toHaveValue('7');
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
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
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

  test('a market is created with a logotype, edited, viewed, searched and put in a cluster', async ({ page }) => {
    await signInAsAdmin(page);
    await page.goto('/markets');
    await page.getByRole('link', { name: 'Add' }).click();
    await page.getByRole('textbox', { name: 'International name' }).fill('Iceland');
    await page.getByRole('textbox', { name: 'Local name' }).fill('Island');
    await page.getByRole('textbox', { name: 'ISO code' }).fill('se');
    await pick(page, 'Currency', /^EUR/);
    await save(page);
    // SE is taken in the organization: the server's message shows on the ISO code input.
    await expect(page).toHaveURL(/\/markets\/add$/);
    await expect(page.getByRole('textbox', { name: 'ISO code' })).toHaveAttribute('aria-invalid', 'true');
    await page.getByRole('textbox', { name: 'ISO code' }).fill('is');
    await save(page);
    await expect(page).toHaveURL(/\/markets$/);

    // The search goes to the server from 3 characters and matches the international name.
    await page.getByRole('searchbox', { name: 'Search' }).fill('icel');
    await expect(page.getByRole('row')).toHaveCount(2);
    await expect(row(page, 'Iceland')).toContainText('IS');
    await expect(row(page, 'Iceland')).toContainText('EUR');

    await row(page, 'Iceland').getByRole('link', { name: 'Edit' }).click();
    await page.getByRole('textbox', { name: 'Local name' }).fill('Ísland');
    await page.locator('input[type="file"]').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from(PNG, 'base64') });
    await expect(page.getByText('Logotype uploaded.')).toBeVisible();
    await expect(page.getByTestId('logotype')).toBeVisible();
    await save(page);
    await expect(page).toHaveURL(/\/markets$/);

    await page.getByRole('searchbox', { name: 'Search' }).fill('Iceland');
    await row(page, 'Iceland').getByRole('link', { name: 'View' }).click();
    await expect(page).toHaveURL(/\/markets\/view\/\d+$/);
    await expect(page.getByRole('table', { name: 'Market' })).toContainText('Ísland');
    await expect(page.getByRole('img', { name: 'Logotype' })).toBeVisible();

    // The cluster's edit screen loads its markets and takes the new one.
    await page.goto('/clusters');
    await row(page, 'Nordic').getByRole('link', { name: 'Edit' }).click();
    await expect(pill(page, 'Sweden (SE)')).toBeVisible();
    await pick(page, 'Markets', 'Iceland (IS)');
    await save(page);
    await expect(page).toHaveURL(/\/clusters$/);
    await expect(row(page, 'Nordic')).toContainText('IS');
    await expect(row(page, 'Nordic')).toContainText('SE');
  });

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

  test('a company is created, gets markets with roles, codes, users and a logotype, and is disabled', async ({ page }) => {
    await signInAsAdmin(page);
    // Set-up through the API (same session): a code and a user to assign.
    const headers = { 'X-Requested-With': 'XMLHttpRequest' };
    const code = await page.request.post('/api/v1/admin/codes', { headers, data: { code: '88', name: 'Spare parts', market_ids: [] } });
    expect(code.status()).toBe(201);
    const user = await page.request.post('/api/v1/admin/users', {
      headers,
      data: {
        email: 'paula@demo.test',
        first_name: 'Paula',
        last_name: 'Parts',
        password: 'paula-password',
        password_confirmation: 'paula-password',
        roles: ['reporter'],
      },
    });
    expect(user.status()).toBe(201);

    await page.goto('/companies');
    await expect(page.getByRole('row').nth(1)).toContainText('Fjord Equipment AS');
    await expect(page.getByRole('row').nth(3)).toContainText('Sisu Machines Oy');
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
    await page.locator('input[type="file"]').setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from(PNG, 'base64') });
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
    await expect(row(page, 'Aurora Parts AB')).toContainText('Disabled 2020-01-01');
  });

  test('a user is created with roles, edited, listed, and viewed read-only by a market administrator', async ({ page }) => {
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
