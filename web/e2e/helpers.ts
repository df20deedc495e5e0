import fs from 'node:fs';
import path from 'node:path';
import { type APIRequestContext, type Browser, type Page, expect, request, test } from '@playwright/test';

export const DEMO_PASSWORD = 'demo-password';
export const PRODUCT = 'Market Sales Statistics';

/** Fills the sign-in form and submits it. */
export async function submitLogin(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.getByRole('textbox', { name: 'E-mail' }).fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

export interface SignInOptions {
  /** Leave the notices after sign-in (information modals, unread release notes) open. */
  keepNotices?: boolean;
}

/** Signs in through the sign-in screen and waits for the dashboard; closes the notices it shows. */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD, options: SignInOptions = {}): Promise<void> {
  await page.goto('/login');
  await submitLogin(page, email, password);
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  if (!options.keepNotices) await dismissNotices(page);
}

/** The notices' buttons in the five languages (en-US, sv-SE, dk-DK, no-NO, fi-FI). */
const NOTICE_BUTTON = /^(Close|Got it|Stäng|Uppfattat|Luk|Forstået|Lukk|Forstått|Sulje|Selvä)$/;

/**
 * Closes the notices the dashboard shows after sign-in (information modals, then unread
 * release notes), one after the other, once their requests have settled.
 */
export async function dismissNotices(page: Page): Promise<void> {
  for (let i = 0; i < 10; i++) {
    // The dashboard says when no notice is left (`notices-done`), once it knows both lists: a
    // state to wait for, not a quiet network (a notice can open after the network went quiet).
    const dialog = page.getByRole('dialog');
    await expect(dialog.or(page.getByTestId('notices-done'))).toBeAttached();
    if ((await dialog.count()) === 0) return;
    const title = await dialog.locator('.mantine-Modal-title').textContent();
    await dialog.getByRole('button', { name: NOTICE_BUTTON }).last().click();
    await expect(page.getByRole('dialog', { name: title ?? '' })).toHaveCount(0);
  }
}

/** Closes notices until the one titled `title` shows, and returns it (left open). */
export async function noticeTitled(page: Page, title: string) {
  for (let i = 0; i < 10; i++) {
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    const current = (await dialog.locator('.mantine-Modal-title').textContent()) ?? '';
    if (current === title) return dialog;
    await dialog.getByRole('button', { name: NOTICE_BUTTON }).last().click();
    await expect(page.getByRole('dialog', { name: current })).toHaveCount(0);
  }
  throw new Error(`No notice titled ${title}`);
}

/** The text of an .eml file with quoted-printable soft line breaks and "=3D" undone. */
export function decodeMail(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=3D/gi, '=');
}

/**
 * The newest e-mail written by the server (DATA_DIR/mail/*.eml, names sort by time) that is
 * addressed to `to`; waits for it, since the server writes it after answering.
 */
export async function newestMailTo(to: string, timeoutMs = 10_000): Promise<string> {
  const dir = path.join(process.env.E2E_DATA_DIR ?? '', 'mail');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const files = fs.existsSync(dir)
      ? fs
          .readdirSync(dir)
          .filter((f) => f.endsWith('.eml'))
          .sort()
          .reverse()
      : [];
    for (const file of files) {
      const mail = decodeMail(fs.readFileSync(path.join(dir, file), 'utf8'));
      if (new RegExp(`^To:.*${to.replace(/[.+]/g, '\\$&')}`, 'mi').test(mail)) return mail;
    }
    if (Date.now() > deadline) throw new Error(`No e-mail to ${to} under ${dir} (files: ${files.join(', ') || 'none'})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Signs in as the administrator of two organizations, working in `organization`. */
export async function signInAsAdmin(page: Page, organization = 'Nordic Sales Association', options: SignInOptions = {}): Promise<void> {
  await page.goto('/login');
  await submitLogin(page, 'admin@demo.test');
  await page.getByRole('combobox', { name: 'Organization' }).click();
  await page.getByRole('option', { name: organization }).click();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  if (!options.keepNotices) await dismissNotices(page);
}

/** Picks `option` in the Mantine Select or MultiSelect labelled `label`, then closes its dropdown. */
export async function pick(page: Page, label: string | RegExp, option: string | RegExp): Promise<void> {
  await page
    .getByRole('textbox', { name: label })
    .or(page.getByRole('combobox', { name: label }))
    .first()
    .click();
  await page.getByRole('option', { name: option }).first().click();
  await page.keyboard.press('Escape');
}

/** The row of a list table that contains `text`. */
export const row = (page: Page, text: string | RegExp) => page.getByRole('row').filter({ hasText: text });

/** A chosen value of a MultiSelect. */
export const pill = (page: Page, text: string) => page.locator('.mantine-Pill-label', { hasText: text });

/** A 1×1 png, for logotypes. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

/** Submits the form of an add or edit screen. */
export async function save(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Save', exact: true }).click();
}

/** Deletes through the row's Delete button and the confirm modal. */
export async function deleteRow(page: Page, text: string | RegExp): Promise<void> {
  await row(page, text).getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
}

/** An error modal with this message; closed with OK. */
export async function expectErrorModal(page: Page, message: string): Promise<void> {
  const modal = page.getByRole('dialog').filter({ hasText: message });
  await expect(modal).toBeVisible();
  await modal.getByRole('button', { name: 'OK' }).click();
  await expect(modal).toHaveCount(0);
}

/** A page in a browser context of its own, signed in through the sign-in screen as `email`. */
export async function signedInPage(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, email);
  return page;
}

/** The header the server asks of every API call from the web app. */
export const API_HEADERS = { 'X-Requested-With': 'XMLHttpRequest' };

/** An API client signed in as `email` (through POST /auth/login), for setting up what a test needs. */
export async function apiAs(email: string, password = DEMO_PASSWORD): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL: test.info().project.use.baseURL, extraHTTPHeaders: API_HEADERS });
  const login = await api.post('/api/v1/auth/login', { data: { email, password } });
  expect(login.status(), `signing in ${email} through the API`).toBe(200);
  return api;
}
