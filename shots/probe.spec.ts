import { test } from '@playwright/test';
import { signIn } from '../web/e2e/helpers.ts';

test('company user opens report history from the dashboard', async ({ page }) => {
  const bad: string[] = [];
  page.on('response', (r) => { if (r.status() >= 400) bad.push(`${r.status()} ${r.request().method()} ${r.url()}`); });
  await signIn(page, 'company@demo.test');
  await page.getByText('Sweden · SE').first().click();
  await page.waitForTimeout(3000);
  console.log('URL', page.url());
  console.log('BAD', bad.join('\n'));
  console.log('TOASTS', JSON.stringify(await page.locator('.mantine-Notification-root').allInnerTexts()));
  await page.screenshot({ path: 'company-history.png', fullPage: true });
});
