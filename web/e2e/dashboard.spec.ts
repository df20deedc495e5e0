import { expect, test } from '@playwright/test';
import { signedInPage } from './helpers.ts';

test.describe('dashboard', () => {
  test('the dashboard shows the approver each open period with its deadline and progress, and the reporter overdue reports', async ({ browser }) => {
    // Demo data: Sweden 2026-10 is open, its deadline (2026-11-10) has passed; of its five reports
    // two are approved, one waits for approval and two (Nordlys's, Sisu's) are ongoing. No spec changes them.
    const admin = await signedInPage(browser, 'market-admin@demo.test');
    const periods = admin.getByTestId('dashboard-open-periods');
    const october = periods.getByRole('row').filter({ hasText: 'Sweden · 2026-10' });
    await expect(october).toContainText('3 of 5 submitted · 2 approved');
    await expect(october).toContainText('Overdue');
    await october.getByRole('link', { name: 'Sweden · 2026-10' }).click();
    await expect(admin.getByRole('heading', { name: 'Approval list' })).toBeVisible();

    const reporter = await signedInPage(browser, 'reporter@demo.test');
    const open = reporter.getByTestId('dashboard-open-reports').getByRole('row').filter({ hasText: 'Nordlys Trading AB · SE · 2026-10' });
    await expect(open).toContainText('Overdue');
  });
});
