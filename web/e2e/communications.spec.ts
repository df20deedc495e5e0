import { expect, test } from '@playwright/test';
import { apiAs, newestMailTo, pick, pill, row, signIn } from './helpers.ts';
import { openPeriodOfSweden, periodTitle } from './reporting-fixtures.ts';

const ADMIN = 'market-admin@demo.test';

test.describe('communications', () => {
  test('a market administrator reminds the reporters of Sweden whose report is not yet submitted: draft, recipients, preflight, send, deliveries', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    // A period of its own, opened: every company reporting in Sweden gets an Ongoing report in it.
    const title = periodTitle('Comms');
    await openPeriodOfSweden(await apiAs(ADMIN), title, { starts: '2028-02-01', ends: '2028-02-29', deadline: '2028-03-10' });
    const subject = `Reminder ${title}`;

    await signIn(page, ADMIN);
    await page.goto('/communication');
    await expect(page.getByRole('heading', { name: 'Communication' })).toBeVisible();
    await page.getByRole('button', { name: 'New communication' }).click();

    // Subject and message, with variables put in at the cursor.
    await page.getByRole('textbox', { name: 'Subject' }).fill(subject);
    const editor = page.locator('.ProseMirror');
    await editor.click();
    await page.keyboard.type('Dear ');
    await page.getByRole('button', { name: 'Insert Recipient’s name' }).click();
    await page.keyboard.type(', your report is not yet submitted. Please report here: ');
    await page.getByRole('button', { name: 'Insert Link to the report' }).click();
    await expect(editor).toContainText('Dear {{recipient_name}}, your report is not yet submitted. Please report here: {{report_link}}');

    // Recipients: Sweden (the administrator's only market, chosen already), reporters, the period, reports not submitted.
    await expect(pill(page, 'Sweden')).toBeVisible();
    await pick(page, 'Roles', /^Reporter$/);
    await pick(page, 'Period', title);
    // Where the report is, in a person's words: not submitted yet (ongoing, a file being read or refused), or sent back.
    for (const stage of ['Not submitted yet', 'Waiting for completion (sent back)']) await pick(page, 'Where their report is', stage);
    await page.getByRole('button', { name: 'Save draft' }).click();

    // Saved: the draft opens on its recipients, with the count.
    await expect(page).toHaveURL(/\/communication\?uuid=[^&]+&tab=recipients/);
    await expect(page.getByTestId('communication-status').first()).toHaveText('Draft');
    const countText = page.getByTestId('recipient-count');
    await expect(countText).toHaveText(/^\d+ recipients? would get this mail now\.$/);
    const count = Number((await countText.textContent())!.match(/\d+/)![0]);
    expect(count).toBeGreaterThan(0);
    await expect(page.getByRole('table', { name: 'Recipients' }).getByRole('row')).not.toHaveCount(1);
    // Per company: who gets it; a company with no user to reach (Göta Maskin in the demo) is No recipient, and said above.
    const reach = page.getByRole('table', { name: 'Companies and who gets the mail' });
    await expect(reach.getByRole('row').filter({ hasText: 'Göta Maskin AB' })).toContainText('No recipient');
    await expect(reach.getByRole('row', { name: /Nordlys Trading AB/ })).toContainText('reporter@demo.test');
    await expect(page.getByTestId('unreached-companies').first()).toContainText('Göta Maskin AB');

    // Sending is refused until a preflight is sent.
    await page.getByRole('tab', { name: 'Send' }).click();
    await expect(page.getByTestId('send-reason')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeDisabled();

    // The preflight: rendered for the first recipient, sent to the author, shown on screen.
    await page.getByRole('tab', { name: 'Test e-mail' }).click();
    await page.getByRole('button', { name: 'Send test e-mail' }).click();
    const rendered = page.getByTestId('rendered-mail');
    await expect(rendered).toBeVisible();
    await expect(page.getByTestId('rendered-subject')).toHaveText(subject);
    await expect(page.getByTestId('rendered-text')).toContainText('Dear ');
    await expect(page.getByTestId('rendered-text')).not.toContainText('{{');
    await expect(page.getByTestId('rendered-text')).toContainText('http');
    await expect(rendered.frameLocator('iframe').locator('body')).toContainText('your report is not yet submitted');
    await expect(page.getByTestId('communication-status').first()).toHaveText('Preflight sent');
    expect(await newestMailTo(ADMIN)).toContain(subject);

    // Send, after the confirmation that names the count.
    await page.getByRole('tab', { name: 'Send' }).click();
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(count === 1 ? 'Send to 1 recipient?' : `Send to ${count} recipients?`);
    await expect(dialog).toContainText(/\d+ compan(y gets|ies get) no mail: nobody there is among the recipients\./);
    await dialog.getByRole('button', { name: 'Send' }).click();

    // The deliveries: every one sent once the background job has run (the screen polls).
    await expect(page).toHaveURL(/tab=deliveries/);
    await expect(page.getByTestId('communication-status').first()).toHaveText('Sent', { timeout: 30_000 });
    await expect(page.getByTestId('count-total')).toHaveText(String(count));
    await expect(page.getByTestId('count-sent')).toHaveText(String(count));
    await expect(page.getByTestId('count-failed')).toHaveText('0');
    await expect(page.getByRole('table', { name: 'Deliveries' }).getByTestId('delivery-status').first()).toHaveText('Sent');
    await expect(page.getByRole('button', { name: /^Retry failed/ })).toHaveCount(0);

    // The list shows it as sent, with its counts.
    await page.getByRole('link', { name: 'All communications' }).click();
    const listed = row(page, subject);
    await expect(listed).toContainText('Sent');
    await expect(listed.getByRole('cell').nth(3)).toHaveText(String(count));
  });
});
