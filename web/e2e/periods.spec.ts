import { expect, test } from '@playwright/test';
import { row, signIn } from './helpers.ts';
import { periodTitle } from './reporting-fixtures.ts';

test.describe('periods', () => {
  test("a market administrator creates a period (the server's field errors show), opens it with a report per company, and a title is taken once", async ({
    page,
  }) => {
    const title = periodTitle();
    await signIn(page, 'market-admin@demo.test');
    await page.goto('/period-list');
    await expect(page.getByRole('heading', { name: 'Period list' })).toBeVisible();
    await expect(page.getByRole('combobox', { name: 'Market' })).toHaveValue(/Sweden/);
    const form = page.getByRole('form', { name: 'New period' });
    await form.getByRole('button', { name: 'Create period' }).click();
    // The server's field errors show on the inputs.
    await expect(form.locator('.mantine-InputWrapper-error').first()).toBeVisible();

    await form.getByRole('textbox', { name: 'Period' }).fill(title);
    await form.getByLabel('Starts on').fill('2027-03-01');
    await form.getByLabel('Ends on').fill('2027-03-31');
    await form.getByLabel('Deadline').fill('2027-04-10');
    await form.getByRole('button', { name: 'Create period' }).click();
    const periodRow = row(page, title);
    await expect(periodRow).toContainText('Draft');
    await periodRow.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Open' }).click();
    await expect(periodRow).toContainText('Open');
    // Opening gave the companies of Sweden their reports.
    await expect(periodRow.getByRole('cell').nth(5)).not.toHaveText('0');

    // The same title again is refused on its input.
    await form.getByRole('textbox', { name: 'Period' }).fill(title);
    await form.getByLabel('Starts on').fill('2027-03-01');
    await form.getByLabel('Ends on').fill('2027-03-31');
    await form.getByRole('button', { name: 'Create period' }).click();
    await expect(form.getByText(`This period (${title}) does already exist in this market.`)).toBeVisible();
  });
});
