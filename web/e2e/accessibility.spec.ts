import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { signIn, signInAsAdmin } from './helpers.ts';

/*
 * WCAG 2.1 AA on every screen each role reaches, at 1440 and at 390 px (a phone): each role signs
 * in and walks its screens the way a person would, from the navbar and then the links on each
 * screen (a list's row leads to its edit or view screen, a period to its approval list, a report to
 * its statistics), each kind of screen once. axe-core checks every screen at both widths and any
 * violation fails, whatever its impact. At 390 no page may scroll sideways either.
 */

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** Each demo role (server/src/seed/demo.ts) and the company user without a role. */
const ROLES = ['super-admin', 'admin', 'market-admin', 'cluster-admin', 'reporter', 'company', 'viewer', 'cluster-viewer', 'just-stats'];

/** Links the walk does not follow: they leave the app, sign out or download. */
const SKIP = /^\/(api\/|logout)|\.(xlsx|csv|pdf|png)(\?|$)/;

/** The kind of screen a path is: ids, uuids and market codes made placeholders, the query dropped. */
function screenKind(path: string): string {
  return path
    .split('?')[0]!
    .split('/')
    .map((segment) => (/^\d+$/.test(segment) ? ':id' : /^[0-9a-f-]{32,36}$/i.test(segment) ? ':uuid' : /^[A-Z]{2}$/.test(segment) ? ':market' : segment))
    .join('/');
}

/** The screen has rendered what it loads: no loader, no table still fetching, no pending request. */
async function settled(page: Page): Promise<void> {
  await expect(page.locator('h1, h2').first()).toBeVisible();
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.mantine-Loader-root:visible, [aria-busy=true]')).toHaveCount(0);
}

async function violations(page: Page, where: string): Promise<string[]> {
  const result = await new AxeBuilder({ page }).withTags(WCAG_21_AA).analyze();
  // Each rule once, with up to five of its elements and what axe says of the first.
  return result.violations.map(
    (v) =>
      `${where}: ${v.id} (${v.impact}) ${v.nodes
        .slice(0, 5)
        .map((n) => n.target.join(' '))
        .join(
          ' | ',
        )}${v.nodes.length > 5 ? ` … ${v.nodes.length} nodes` : ''}: ${v.nodes[0]?.html.slice(0, 160) ?? ''} ${v.nodes[0]?.failureSummary?.replace(/\s+/g, ' ') ?? ''}`,
  );
}

/** axe at 1440 and at 390, and at 390 the page's width. */
async function check(page: Page, where: string): Promise<string[]> {
  const found = await violations(page, `${where} @1440`);
  await page.setViewportSize(PHONE);
  await settled(page);
  found.push(...(await violations(page, `${where} @390`)));
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  if (overflow > 0) found.push(`${where} @390: the page scrolls sideways by ${overflow} px`);
  await page.setViewportSize(DESKTOP);
  return found;
}

/** The app's own links on the screen (the navbar's and the main area's). */
async function links(page: Page): Promise<string[]> {
  const hrefs = await page.locator('nav a[href^="/"], main a[href^="/"]').evaluateAll((as) => as.map((a) => a.getAttribute('href') ?? ''));
  return hrefs.filter((href) => href && !SKIP.test(href));
}

/**
 * The administration's lists and forms are the same screens for each role that reaches them (only
 * their rows differ): checked once, by the first role to reach them. Every other screen shows what
 * the role may see (a dashboard, statistics, reports) and is checked for each role.
 */
const SAME_FOR_EVERY_ROLE =
  /^\/(users|markets|clusters|organizations|companies|codes|code_sections|code_groups|currencies|currency-conversions|releases|information-modals)(\/|$)/;
const checkedOnce = new Set<string>();

test.describe('accessibility (WCAG 2.1 AA)', () => {
  test('the public screens', async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    const found: string[] = [];
    for (const path of ['/login', '/forgot-password', '/reset-password/not-a-token', '/no/such/screen']) {
      await page.goto(path);
      await expect(page.locator('h1, h2').first()).toBeVisible();
      found.push(...(await check(page, path)));
    }
    expect(found).toEqual([]);
  });

  for (const role of ROLES) {
    test(`every screen ${role}@demo.test reaches`, async ({ page }) => {
      // Up to some 30 kinds of screen, each checked twice: minutes on a busy machine.
      test.setTimeout(15 * 60_000);
      await page.setViewportSize(DESKTOP);
      if (role === 'admin') await signInAsAdmin(page);
      else await signIn(page, `${role}@demo.test`);

      const found: string[] = [];
      const seen = new Set<string>();
      const queue: { path: string; depth: number }[] = [{ path: '/', depth: 0 }];
      while (queue.length > 0) {
        const { path, depth } = queue.shift()!;
        const kind = screenKind(path);
        if (seen.has(kind) || checkedOnce.has(kind)) continue;
        seen.add(kind);
        if (SAME_FOR_EVERY_ROLE.test(kind)) checkedOnce.add(kind);
        const response = await page.goto(path);
        // A link to what the server does not have is a dead end in itself.
        if (!response?.ok()) {
          found.push(`${path}: a link leads to ${response?.status() ?? 'nothing'}`);
          continue;
        }
        await settled(page);
        found.push(...(await check(page, path)));
        if (depth < 3) for (const next of await links(page)) queue.push({ path: next, depth: depth + 1 });
      }
      console.log(`${role}: ${[...seen].join(', ')}`);
      expect(found).toEqual([]);
    });
  }
});
