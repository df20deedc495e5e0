import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Locator, type Page, test } from '@playwright/test';
import { ReportStatus } from '@mss/contracts/enums';
import { DEMO_PASSWORD, apiAs, row } from './helpers.ts';
import {
  NORDLYS,
  VALID_ROWS,
  importFile,
  nordlysReport,
  openPeriodOfSweden,
  openReportLink,
  periodTitle,
  setReportStatus,
  xlsx,
} from './reporting-fixtures.ts';

/*
 * The deadline-day journeys with the keyboard alone (WCAG 2.1.1, 2.4.7): the reporter signs in,
 * opens the report, uploads the file and submits it; the approver opens the approval list and
 * approves. No click: Tab to each control, Enter or Space to use it, and at each stop the focus
 * is visible (an outline or a ring that differs from the control without focus).
 */

/**
 * The focused element shows that it has the focus: an outline or a box shadow (buttons, links,
 * checkboxes), or for a text field its border in the focus color instead of the resting gray.
 */
async function expectFocusVisible(page: Page): Promise<void> {
  const ring = await page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return 'nothing has the focus';
    const style = getComputedStyle(element);
    const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    const field = element.matches('input, textarea, .mantine-Input-input') && style.borderTopColor !== 'rgb(206, 212, 218)';
    return outline || style.boxShadow !== 'none' || field ? 'visible' : `no focus ring on ${element.outerHTML.slice(0, 120)}`;
  });
  expect(ring).toBe('visible');
}

/** Presses Tab until `target` (or an element inside it) has the focus, then checks the focus is visible. */
async function tabTo(page: Page, target: Locator, max = 120): Promise<void> {
  await expect(target).toBeVisible();
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    if (await target.evaluate((element) => element === document.activeElement || element.contains(document.activeElement))) {
      await expectFocusVisible(page);
      return;
    }
  }
  throw new Error(`Tab did not reach ${target.toString()} in ${max} steps`);
}

/** Signs in with the keyboard, then closes the notices after sign-in with Escape. */
async function signInWithKeyboard(page: Page, email: string): Promise<void> {
  await page.goto('/login');
  await tabTo(page, page.getByRole('textbox', { name: 'E-mail' }));
  await page.keyboard.type(email);
  await tabTo(page, page.getByRole('textbox', { name: 'Password', exact: true }));
  await page.keyboard.type(DEMO_PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  // The notices (information modals, then release notes) one after the other, each closed with Escape.
  for (let i = 0; i < 10; i++) {
    const dialog = page.getByRole('dialog');
    await expect(dialog.or(page.getByTestId('notices-done'))).toBeAttached();
    if ((await dialog.count()) === 0) return;
    const title = (await dialog.locator('.mantine-Modal-title').textContent()) ?? '';
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog', { name: title })).toHaveCount(0);
  }
}

async function expectNoViolations(page: Page, include: string): Promise<void> {
  const axe = await new AxeBuilder({ page }).include(include).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test.describe('keyboard alone', () => {
  test('the reporter uploads a file and submits the report, from the sign-in on, without the mouse', async ({ page }) => {
    test.setTimeout(90_000);
    const title = periodTitle('Keyboard');
    await openPeriodOfSweden(await apiAs('market-admin@demo.test'), title, { starts: '2028-02-01', ends: '2028-02-29', deadline: '2028-03-10' });

    await signInWithKeyboard(page, 'reporter@demo.test');
    await tabTo(page, openReportLink(page, title));
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('report-header')).toContainText(title);

    // The file field opens the browser's file chooser with Enter.
    await tabTo(page, page.getByRole('button', { name: 'File (xlsx or CSV)', description: /UTF-8/ }));
    const chooser = page.waitForEvent('filechooser');
    await page.keyboard.press('Enter');
    await (await chooser).setFiles({ name: 'february.xlsx', mimeType: 'application/octet-stream', buffer: await xlsx(VALID_ROWS) });
    await tabTo(page, page.getByRole('button', { name: 'Upload', exact: true }));
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('import-status')).toContainText('february.xlsx');

    const submit = page.getByRole('button', { name: 'Submit', exact: true });
    await tabTo(page, submit);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    await expectNoViolations(page, '[role=dialog]');
    await tabTo(page, dialog.getByRole('button', { name: 'Submit' }));
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('report-header')).toContainText('Waiting for approval');
  });

  test('the market administrator opens the approval list from the dashboard and approves a report, without the mouse', async ({ page }) => {
    test.setTimeout(90_000);
    const title = periodTitle('Keyboard');
    const adminApi = await apiAs('market-admin@demo.test');
    const periodUuid = await openPeriodOfSweden(adminApi, title, { starts: '2028-03-01', ends: '2028-03-31', deadline: '2028-04-10' });
    const reporterApi = await apiAs('reporter@demo.test');
    const reportUuid = await nordlysReport(reporterApi, periodUuid);
    await importFile(reporterApi, reportUuid, 'march.xlsx', await xlsx(VALID_ROWS));
    await setReportStatus(reporterApi, reportUuid, ReportStatus.WaitingForApproval);

    await signInWithKeyboard(page, 'market-admin@demo.test');
    await tabTo(page, page.getByTestId('dashboard-open-periods').getByRole('link', { name: new RegExp(title) }));
    await page.keyboard.press('Enter');
    const nordlys = row(page, NORDLYS);
    await expect(nordlys).toContainText('Waiting for approval');

    // Open the report, read it, approve it.
    await tabTo(page, nordlys.getByRole('button', { name: 'Open' }));
    await page.keyboard.press('Enter');
    const drawer = page.getByRole('dialog', { name: NORDLYS });
    await expect(drawer.getByTestId('report-detail')).toBeVisible();
    await expectNoViolations(page, '[role=dialog]');
    await tabTo(page, drawer.getByRole('button', { name: 'Approve', exact: true }));
    await page.keyboard.press('Enter');
    const confirm = page.getByRole('dialog', { name: `Approve the report of ${NORDLYS}` });
    await expect(confirm).toBeVisible();
    await tabTo(page, confirm.getByRole('button', { name: 'Approve', exact: true }));
    await page.keyboard.press('Enter');
    await expect(drawer.getByTestId('report-detail')).toContainText('Approved');
    await page.keyboard.press('Escape');
    await expect(nordlys).toContainText('Approved');
  });
});
