import fs from 'node:fs';
import path from 'node:path';
import { type Page, expect } from '@playwright/test';

export const DEMO_PASSWORD = 'demo-password';
export const PRODUCT = 'Market Sales Statistics';

/** Fills the sign-in form and submits it. */
export async function submitLogin(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.getByRole('textbox', { name: 'E-mail' }).fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs in through the sign-in screen and waits for the dashboard. */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto('/login');
  await submitLogin(page, email, password);
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
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
    const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.eml')).sort().reverse() : [];
    for (const file of files) {
      const mail = decodeMail(fs.readFileSync(path.join(dir, file), 'utf8'));
      if (new RegExp(`^To:.*${to.replace(/[.+]/g, '\\$&')}`, 'mi').test(mail)) return mail;
    }
    if (Date.now() > deadline) throw new Error(`No e-mail to ${to} under ${dir} (files: ${files.join(', ') || 'none'})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

