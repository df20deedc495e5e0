import { AxeBuilder } from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { API_HEADERS, pick, row, signIn, signInAsAdmin } from './helpers.ts';

test.describe('audit trail', () => {
  test('an administrator finds who created and deleted a cluster, narrows the list by kind and person, and downloads it; a market administrator may not open it', async ({
    page,
    browser,
  }) => {
    test.setTimeout(90_000);
    await signInAsAdmin(page);
    // A cluster made and deleted through the API with the browser's own session: two entries.
    const name = `Audited ${Date.now()}`;
    const created = await page.request.post('/api/v1/admin/clusters', { headers: API_HEADERS, data: { name, market_ids: [] } });
    expect(created.status(), await created.text()).toBe(201);
    const id = (await created.json()).data.id as number;
    expect((await page.request.delete(`/api/v1/admin/clusters/${id}`, { headers: API_HEADERS })).status()).toBe(204);

    await page.goto('/audit');
    await expect(page.getByRole('heading', { name: 'Audit trail' })).toBeVisible();
    const table = page.getByRole('table', { name: 'Audit trail' });
    // Newest first: the deletion, then the creation, each with the name it carried.
    const entries = table.getByRole('row').filter({ hasText: name });
    await expect(entries).toHaveCount(2);
    await expect(entries.nth(0)).toContainText('Cluster');
    await expect(entries.nth(0)).toContainText('deleted');
    await expect(entries.nth(1)).toContainText('created');
    await expect(entries.nth(1)).toContainText(`name: ${name}`);
    await expect(entries.nth(1)).toContainText('admin@demo.test');
    await expect(entries.nth(1)).toContainText('Browser');

    // By kind: clusters only; the download takes the same filter.
    await pick(page, 'Kind', /^Cluster$/);
    await expect(page).toHaveURL(/action=cluster\./);
    await expect(table.getByRole('row').filter({ hasText: 'Sign-in' })).toHaveCount(0);
    await expect(row(page, name)).toHaveCount(2);
    await expect(page.getByTestId('audit-download')).toHaveAttribute('href', /\/api\/v1\/audit\/download\?action=cluster\./);
    const csv = await page.request.get((await page.getByTestId('audit-download').getAttribute('href'))!);
    expect(csv.status()).toBe(200);
    expect(await csv.text()).toContain(`cluster.created,cluster,${id}`);

    // By person: someone who did nothing here leaves the list empty.
    await page.getByTestId('audit-person').fill('nobody-at-all@');
    await expect(page).toHaveURL(/person=nobody-at-all/);
    await expect(row(page, name)).toHaveCount(0);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(row(page, name)).toHaveCount(2);

    const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    expect(result.violations.map((v) => `${v.id}: ${v.nodes[0]?.html}`)).toEqual([]);

    // A market administrator is not offered it, and the address answers forbidden.
    const context = await browser.newContext();
    const other = await context.newPage();
    await signIn(other, 'market-admin@demo.test');
    await other.goto('/audit');
    await expect(other.getByRole('heading', { name: 'Audit trail' })).toHaveCount(0);
    await expect(other).toHaveURL(/\/403/);
    await context.close();
  });
});
