import { AxeBuilder } from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { createHmac } from 'node:crypto';
import { apiAs, API_HEADERS, signInAsAdmin } from './helpers.ts';

/** What an authenticator app shows for `secret` (base32) at `offset` 30-second steps from now (RFC 6238), written here on its own. */
function appCode(secret: string, offset: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const bits = [...secret].map((c) => alphabet.indexOf(c).toString(2).padStart(5, '0')).join('');
  const key = Buffer.from(bits.match(/.{8}/g)!.map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 30_000) + offset));
  const mac = createHmac('sha1', key).update(counter).digest();
  const at = mac[19]! & 15;
  return String((mac.readUInt32BE(at) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

test.describe('two-factor sign-in', () => {
  test('a user with two-factor sign-in on is asked for the code after the password, and a wrong code is refused', async ({ page, browser }) => {
    test.setTimeout(90_000);
    // A user of its own (the demo's users sign in without a code in every other test).
    await signInAsAdmin(page);
    const email = `two-factor-${Date.now()}@demo.test`;
    const password = 'two-factor-password';
    const made = await page.request.post('/api/v1/admin/users', {
      headers: API_HEADERS,
      data: {
        email,
        first_name: 'Tove',
        last_name: 'Twofactor',
        phone: null,
        locale: 'en-US',
        password,
        password_confirmation: password,
        company_id: null,
        organization_ids: [],
        market_ids: [],
        roles: ['admin'],
        disabled: false,
      },
    });
    expect(made.status(), await made.text()).toBe(201);
    // Turned on through the API with its own session, as the profile will.
    const api = await apiAs(email, password);
    const setup = await api.post('/api/v1/users/me/two-factor/setup');
    const { secret } = (await setup.json()).data as { secret: string };
    const code = (offset: number) => appCode(secret, offset);
    const enable = await api.post('/api/v1/users/me/two-factor/enable', { data: { code: code(-1) } });
    expect(enable.status(), await enable.text()).toBe(200);

    const context = await browser.newContext();
    const other = await context.newPage();
    await other.goto('/login');
    await other.getByRole('textbox', { name: 'E-mail' }).fill(email);
    await other.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
    await other.getByRole('button', { name: 'Sign in' }).click();
    // The code is asked; e-mail and password stay as typed.
    const codeField = other.getByRole('textbox', { name: 'Code' });
    await expect(codeField).toBeVisible();
    await expect(codeField).toBeFocused();
    const axe = await new AxeBuilder({ page: other }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
    expect(axe.violations.map((v) => `${v.id}: ${v.nodes[0]?.html}`)).toEqual([]);
    if (process.env.SHOTS) {
      for (const [width, height] of [
        [1440, 900],
        [390, 844],
      ] as const) {
        await other.setViewportSize({ width, height });
        await other.screenshot({ path: `${process.env.SHOTS}/login-code-${width}.png` });
      }
    }
    await codeField.fill('000000');
    await other.getByRole('button', { name: 'Sign in' }).click();
    await expect(other.getByRole('alert')).toContainText('The code is not valid.');
    await codeField.fill(code(0));
    await other.getByRole('button', { name: 'Sign in' }).click();
    await expect(other.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
    await context.close();
  });
});
