import { expect, type Page, test } from '@playwright/test';
import { PRODUCT, signIn } from './helpers.ts';

test.describe('navigation and permissions', () => {
  test('a viewer is refused the user list and lands on the 403 page', async ({ page }) => {
    await signIn(page, 'viewer@demo.test');

    await page.goto('/users');

    await expect(page).toHaveURL(/\/403$/);
    await expect(page.getByRole('heading', { name: 'Permission denied' })).toBeVisible();
    await expect(page.getByText('Permission denied. Your user does not have permission to view this resource.')).toBeVisible();
    await expect(page).toHaveTitle(`Permission denied - ${PRODUCT}`);
    await expect(page.getByRole('navigation').getByRole('link', { name: 'Users' })).toHaveCount(0);
  });

  test('an unknown path shows the 404 page', async ({ page }) => {
    await signIn(page, 'reporter@demo.test');

    await page.goto('/no/such/screen');

    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expect(page.getByText('Could not find what you were looking for.')).toBeVisible();
    await expect(page).toHaveTitle(`Page not found - ${PRODUCT}`);
  });

  test('an unknown path shows the 404 page to a visitor who is not signed in', async ({ page }) => {
    await page.goto('/no/such/screen');

    await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go to sign in' })).toBeVisible();
  });

  test('the navbar shows what the role allows, and its entries open their screens', async ({ page }) => {
    await signIn(page, 'super-admin@demo.test');
    const nav = page.getByRole('navigation');
    for (const name of ['Users', 'Markets', 'Organizations', 'Currencies', 'Release notes']) {
      await expect(nav.getByRole('link', { name })).toBeVisible();
    }

    await nav.getByRole('link', { name: 'Markets' }).click();
    await expect(page).toHaveURL(/\/markets$/);
    await expect(page.getByRole('heading', { name: 'Markets' })).toBeVisible();
    await expect(page).toHaveTitle(`Markets - ${PRODUCT}`);
  });

  test('a reporter sees no administration entries except the code list', async ({ page }) => {
    await signIn(page, 'reporter@demo.test');
    const nav = page.getByRole('navigation');

    await expect(nav.getByRole('link', { name: 'Dashboard' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Import history' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Codes' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Users' })).toHaveCount(0);
    await expect(nav.getByRole('link', { name: 'Organizations' })).toHaveCount(0);
  });

  test('at phone width (390 px) the header shows the product name and "Sign out" whole, and the page does not scroll sideways', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, 'market-admin@demo.test');
    for (const element of [page.getByTestId('product-name'), page.getByRole('button', { name: 'Sign out' })]) {
      const box = (await element.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(390);
      // Not cut inside its own box either (an ellipsis or overflow hidden).
      expect(await element.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    // The dashboard's "Overdue" (Sweden 2026-10 is past its deadline in the demo data) is not cut to an ellipsis.
    const overdue = page.getByTestId('dashboard-open-periods').locator('.mantine-Badge-label', { hasText: 'Overdue' }).first();
    await expect(overdue).toBeVisible();
    expect(await overdue.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
  });

  test('at phone width the reporting screens cut no word to an ellipsis and the page does not scroll sideways', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, 'market-admin@demo.test');
    for (const path of ['/', '/period-list', '/reporting-companies/SE', '/history/SE', '/history/import']) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      await expect(page.getByRole('table').first()).toBeVisible();
      expect(await phoneProblems(page), path).toEqual([]);
    }
  });

  test('at phone width statistics and approvals read as cards: no table, nothing wider than the screen, a confidential row said in words', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, 'viewer@demo.test');
    await page.goto('/statistics');
    const cards = page.getByTestId('statistics-card');
    await expect(cards.first()).toBeVisible();
    await expect(page.getByTestId('statistics-table')).toHaveCount(0);
    // Sweden's latest published period has confidential codes: their cards say so, with no figure.
    const withheld = page.locator('[data-testid="statistics-card"][data-confidential]').first();
    await expect(withheld.getByTestId('confidential')).toBeVisible();
    await expect(withheld).toContainText('Withheld so that no company can read another company’s figures.');
    expect(await phoneProblems(page), '/statistics').toEqual([]);

    await page.context().clearCookies();
    await signIn(page, 'cluster-viewer@demo.test');
    await page.goto('/cluster-statistics');
    await expect(page.getByTestId('statistics-card').first()).toBeVisible();
    await expect(page.getByTestId('cluster-table')).toHaveCount(0);
    expect(await phoneProblems(page), '/cluster-statistics').toEqual([]);

    await page.context().clearCookies();
    await signIn(page, 'market-admin@demo.test');
    const periods = await page.evaluate(
      async () => (await (await fetch('/api/v1/periods', { headers: { 'x-requested-with': 'XMLHttpRequest' } })).json()).data,
    );
    type Listed = { uuid: string; title: string; report_count: number; market: { iso_code: string }; coverage: { approved: number; expected: number } };
    // Other specs approve reports of Sweden 2026-10: the counts are read, not assumed.
    const october = (periods as Listed[]).find((p) => p.title === '2026-10' && p.market.iso_code === 'SE')!;
    await page.goto(`/approval-list/${october.uuid}`);
    const approvals = page.getByTestId('approval-card');
    await expect(approvals).toHaveCount(october.report_count);
    await expect(page.getByTestId('approval-coverage')).toContainText(`${october.coverage.approved} of ${october.coverage.expected} approved`);
    // Each status whole on its card (not cut to "Waiting for co…").
    await expect(approvals.locator('.mantine-Badge-label', { hasText: /^Approved$/ })).toHaveCount(october.coverage.approved);
    expect(await phoneProblems(page), '/approval-list').toEqual([]);
    // The status filter leaves the reports of one status.
    await page.getByTestId('approval-status-filter').click();
    await page.getByRole('option', { name: `Approved (${october.coverage.approved})` }).click();
    await expect(approvals).toHaveCount(october.coverage.approved);

    // A report's own page: its rows, preflight and history (each change an entry, not a table) fit too.
    const reports = (await page.evaluate(
      async (uuid) => (await (await fetch(`/api/v1/reports?period_uuid=${uuid}`, { headers: { 'x-requested-with': 'XMLHttpRequest' } })).json()).data,
      october.uuid,
    )) as { uuid: string; status: number }[];
    await page.goto(`/import/${reports.find((r) => r.status === 60)!.uuid}`);
    await expect(page.getByTestId('status-history')).toContainText('Waiting for approval → Approved');
    await expect(page.getByTestId('status-history').getByRole('table')).toHaveCount(0);
    expect(await phoneProblems(page), '/import/:uuid').toEqual([]);
  });

  test('the user guide opens from the navbar', async ({ page }) => {
    await signIn(page, 'cluster-viewer@demo.test');

    await page.getByRole('navigation').getByRole('link', { name: 'User guide' }).click();

    await expect(page).toHaveURL(/\/docs$/);
    await expect(page.getByRole('heading', { name: 'Market Sales Statistics: user guide' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Choosing an organization' })).toBeVisible();
    await expect(page).toHaveTitle(`User guide - ${PRODUCT}`);
  });
});

/** What a phone-width page does wrong: scrolls sideways, or cuts a text to an ellipsis. */
async function phoneProblems(page: Page): Promise<string[]> {
  await page.waitForLoadState('networkidle');
  return page.evaluate(() => {
    const found: string[] = [];
    if (document.documentElement.scrollWidth > window.innerWidth + 1) found.push(`the page is ${document.documentElement.scrollWidth} px wide`);
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('body *'))) {
      if (getComputedStyle(el).textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth + 1 && el.textContent?.trim())
        found.push(`"${el.textContent.trim()}" is cut`);
    }
    return found;
  });
}
