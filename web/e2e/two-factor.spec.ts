import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { createHmac } from 'node:crypto';
import { API_HEADERS, dismissNotices, newestMailTo, signInAsAdmin } from './helpers.ts';

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

const shoot = async (page: Page, name: string) => {
  if (!process.env.SHOTS) return;
  const viewport = page.viewportSize() ?? { width: 1280, height: 720 };
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: `${process.env.SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize(viewport);
};
/** An administrator of its own, made through the API by the signed-in admin (the demo's users sign in without a code in every other test). */
const createAdmin = async (page: Page, user: { email: string; password: string; firstName: string; lastName: string; locale: string }) => {
  const made = await page.request.post('/api/v1/admin/users', {
    headers: API_HEADERS,
    data: {
      email: user.email,
      first_name: user.firstName,
      last_name: user.lastName,
      phone: null,
      locale: user.locale,
      password: user.password,
      password_confirmation: user.password,
      company_id: null,
      organization_ids: [],
      market_ids: [],
      roles: ['admin'],
      disabled: false,
    },
  });
  expect(made.status(), await made.text()).toBe(201);
};
const axe = async (page: Page) => {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  expect(result.violations.map((v) => `${v.id}: ${v.nodes[0]?.html}`)).toEqual([]);
};
/** The check at 1440 and at 390 px, then back to the page's own size. */
const axeWide = async (page: Page) => {
  const viewport = page.viewportSize() ?? { width: 1280, height: 720 };
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await axe(page);
  }
  await page.setViewportSize(viewport);
};

test.describe('two-factor sign-in', () => {
  test('a user turns it on on the profile with a QR code and keeps the recovery codes, is then asked for the code at sign-in, and turns it off with a recovery code', async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    // A user of its own (the demo's users sign in without a code in every other test).
    await signInAsAdmin(page);
    const email = `two-factor-${Date.now()}@demo.test`;
    const password = 'two-factor-password';
    await createAdmin(page, { email, password, firstName: 'Tove', lastName: 'Twofactor', locale: 'en-US' });

    const context = await browser.newContext();
    const user = await context.newPage();
    const signInForm = async () => {
      await user.goto('/login');
      await user.getByRole('textbox', { name: 'E-mail' }).fill(email);
      await user.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
      await user.getByRole('button', { name: 'Sign in' }).click();
    };
    await signInForm();
    await expect(user.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
    await dismissNotices(user);

    // On: the QR code and the key, a code from the app, then the recovery codes, shown once.
    await user.goto('/profile');
    const panel = user.getByTestId('two-factor-panel');
    await panel.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    await expect(panel.getByRole('img', { name: 'QR code for your authenticator app' }).locator('svg')).toBeVisible();
    const secret = (await panel.getByTestId('two-factor-key').textContent())!.replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await shoot(user, 'profile-two-factor-setup');
    await axe(user);
    await panel.getByRole('textbox', { name: 'Code from the app' }).fill('000000');
    await panel.getByRole('button', { name: 'Confirm and turn on' }).click();
    await expect(panel.getByText('The code is not valid.')).toBeVisible();
    await panel.getByRole('textbox', { name: 'Code from the app' }).fill(appCode(secret, -1));
    await panel.getByRole('button', { name: 'Confirm and turn on' }).click();
    const codes = panel.getByTestId('recovery-codes').locator('code');
    await expect(codes).toHaveCount(10);
    const recovery = (await codes.allTextContents()).map((c) => c.trim());
    await expect(panel.getByTestId('two-factor-on')).toContainText('Recovery codes left: 10.');
    await shoot(user, 'profile-two-factor-codes');
    await axe(user);
    await panel.getByRole('button', { name: 'I have saved them' }).click();
    await expect(panel.getByTestId('recovery-codes')).toHaveCount(0);

    // Signing in again: the code after the password.
    await user.getByRole('button', { name: 'Sign out' }).click();
    await signInForm();
    const codeField = user.getByRole('textbox', { name: 'Code' });
    await expect(codeField).toBeVisible();
    await expect(codeField).toBeFocused();
    await shoot(user, 'login-code');
    await axe(user);
    await codeField.fill('000000');
    await user.getByRole('button', { name: 'Sign in' }).click();
    await expect(user.getByRole('alert')).toContainText('The code is not valid.');
    await codeField.fill(appCode(secret, 1));
    await user.getByRole('button', { name: 'Sign in' }).click();
    await expect(user.getByRole('heading', { name: /^Welcome, / })).toBeVisible();

    // Off: the password and a recovery code.
    await user.goto('/profile');
    await expect(panel.getByTestId('two-factor-on')).toBeVisible();
    await panel.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
    await panel.getByRole('textbox', { name: 'Code', exact: true }).fill(recovery[0]!);
    await panel.getByRole('button', { name: 'Turn off two-factor sign-in' }).click();
    await expect(panel.getByRole('button', { name: 'Turn on two-factor sign-in' })).toBeVisible();
    await context.close();
  });

  test('in Swedish, on a phone and wide: turning it on, the recovery codes and the code a password reset asks for pass the accessibility check', async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    await signInAsAdmin(page);
    const email = `tvasteg-${Date.now()}@demo.test`;
    const password = 'tvasteg-losenord';
    await createAdmin(page, { email, password, firstName: 'Tove', lastName: 'Tvåsteg', locale: 'sv-SE' });

    const context = await browser.newContext({ locale: 'sv-SE', viewport: { width: 390, height: 844 } });
    const user = await context.newPage();
    await user.goto('/login');
    await user.getByRole('textbox', { name: 'E-post' }).fill(email);
    await user.getByRole('textbox', { name: 'Lösenord', exact: true }).fill(password);
    await user.getByRole('button', { name: 'Logga in' }).click();
    await expect(user.getByRole('heading', { name: /^Välkommen, / })).toBeVisible();
    await dismissNotices(user);

    await user.goto('/profile');
    const panel = user.getByTestId('two-factor-panel');
    await panel.getByRole('button', { name: 'Slå på tvåstegsinloggning' }).click();
    const secret = (await panel.getByTestId('two-factor-key').textContent())!.replace(/\s/g, '');
    await axeWide(user);
    await panel.getByRole('textbox', { name: 'Kod från appen' }).fill(appCode(secret, 0));
    await panel.getByRole('button', { name: 'Bekräfta och slå på' }).click();
    await expect(panel.getByTestId('recovery-codes').locator('code')).toHaveCount(10);
    // The recovery codes, with the notice that it is on still showing.
    await shoot(user, 'profile-two-factor-codes-sv');
    await axeWide(user);
    await panel.getByRole('button', { name: 'Jag har sparat dem' }).click();
    await expect(panel.getByTestId('recovery-codes')).toHaveCount(0);

    // A forgotten password: the e-mailed link, the new password, then the code.
    const asked = await user.request.post('/api/v1/auth/forgot-password', { headers: API_HEADERS, data: { email } });
    expect(asked.status(), await asked.text()).toBe(200);
    const link = (await newestMailTo(email)).match(/http:\/\/localhost:3100\/reset-password\/[^\s"'<>]+/)?.[0];
    expect(link, 'the e-mail contains the reset link').toBeTruthy();
    const url = new URL(link!);
    await user.goto(url.pathname + url.search);
    await user.getByRole('textbox', { name: 'Nytt lösenord', exact: true }).fill('ett-nytt-losenord');
    await user.getByRole('textbox', { name: 'Bekräfta nytt lösenord' }).fill('ett-nytt-losenord');
    await user.getByRole('button', { name: 'Återställ lösenord' }).click();
    // Asked for the first time: the field with its help and the focus, no error yet.
    const code = user.getByRole('textbox', { name: 'Kod' });
    await expect(code).toBeFocused();
    await expect(user.getByText('Ange koden från din autentiseringsapp.')).toHaveCount(0);
    await shoot(user, 'reset-password-code-sv');
    await axeWide(user);
    // A wrong code: said under the field, in a red that reads (4.5:1).
    await code.fill('000000');
    await user.getByRole('button', { name: 'Återställ lösenord' }).click();
    await expect(user.getByText(/^Koden är ogiltig/)).toBeVisible();
    await shoot(user, 'reset-password-code-wrong-sv');
    await axeWide(user);
    await code.fill(appCode(secret, 1));
    await user.getByRole('button', { name: 'Återställ lösenord' }).click();
    await expect(user).toHaveURL(/\/login$/);
    await context.close();
  });
});
