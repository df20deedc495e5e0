import fs from 'node:fs';
import { type APIRequestContext, type Locator, type Page, expect, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { apiAs, pick, row, signIn } from './helpers.ts';

// Demo data (server/src/seed/demo.ts): Sweden and Norway have monthly periods 2025-01 to 2026-09,
// closed and published with every report approved; 2026-10 is open (in Sweden two reports
// approved, Skåne Lantbruk's waiting for approval, Nordlys's and Sisu's ongoing). In Sweden the
// codes 20xx (Göta Maskin only) and 30xx (Nordlys and Skåne) have too few companies: confidential
// for anyone but Sweden's approvers. No spec changes these periods.

interface Figures {
  volume: string | null;
  value: string | null;
  value_change_pct?: string | null;
  confidential: boolean;
  own_volume?: string | null;
  own_value?: string | null;
  own_volume_share_pct?: string | null;
  own_value_share_pct?: string | null;
}
interface Row extends Figures {
  key: { id: number; code?: string; name?: string; title?: string };
}
interface Market {
  rows: Row[];
  totals: Figures;
}
interface Cluster {
  totals: Figures;
  markets: { market: { iso_code: string } }[];
}

async function dataOf<T>(api: APIRequestContext, url: string): Promise<T> {
  const response = await api.get(url);
  expect(response.status(), `GET ${url}: ${await response.text()}`).toBe(200);
  return ((await response.json()) as { data: T }).data;
}

/** Sweden's id and the uuid of its period `title`, as `api`'s user sees them. */
async function swedenPeriod(api: APIRequestContext, title: string): Promise<{ marketId: number; periodUuid: string }> {
  const me = await dataOf<{ markets: { id: number; iso_code: string }[] }>(api, '/api/v1/users/me');
  const marketId = me.markets.find((m) => m.iso_code === 'SE')!.id;
  const periods = await dataOf<{ uuid: string; title: string }[]>(api, `/api/v1/periods?market_id=${marketId}`);
  const period = periods.find((p) => p.title === title);
  expect(period, `Sweden's period ${title}`).toBeTruthy();
  return { marketId, periodUuid: period!.uuid };
}

/** A decimal string of the API as the screens write it in en-US ("865200.0000" → "865,200"). */
const shown = (decimal: string) => new Intl.NumberFormat('en-US', { maximumFractionDigits: 20 }).format(decimal as Intl.StringNumericLiteral);
/** A converted value as the screen shows it: 2 decimals (the downloads keep every decimal). */
const money = (decimal: string) =>
  new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2, roundingMode: 'halfExpand' }).format(
    decimal as Intl.StringNumericLiteral,
  );
/** A percentage of the API as the screens write it ("18.3" → "18.3 %"). */
const percent = (decimal: string) =>
  `${new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(decimal as Intl.StringNumericLiteral)}\u00a0%`;

/** The input of the Mantine Select labelled `label`. */
const field = (page: Page, label: string) =>
  page
    .getByRole('textbox', { name: label, exact: true })
    .or(page.getByRole('combobox', { name: label, exact: true }))
    .first();

/** The cell of `tableRow` under the column header `header` of `table` (rows without merged cells). */
async function cellUnder(table: Locator, tableRow: Locator, header: string): Promise<Locator> {
  const headers = await table.getByRole('columnheader').allTextContents();
  // Sortable headers end with an arrow ("Own value ↕").
  const index = headers.findIndex((h) => h.replace(/\s*[↕▲▼]\s*$/, '').trim() === header);
  expect(index, `column ${header} among ${headers.join(' | ')}`).toBeGreaterThanOrEqual(0);
  return tableRow.getByRole('cell').nth(index);
}

test.describe('statistics', () => {
  test('a viewer opens the latest published period from the dashboard, changes breakdown and currency, and downloads; confidential figures stay out of the files', async ({
    page,
  }) => {
    test.setTimeout(60_000);
    await signIn(page, 'viewer@demo.test');
    const card = page.getByTestId('dashboard-statistics');
    // Each of the viewer's markets with its latest published figures: the total value as the
    // statistics answer it, the change against a year earlier, the coverage and a sparkline.
    const { marketId, periodUuid } = await swedenPeriod(page.request, '2026-09');
    const sweden = card.getByTestId('dashboard-market-figures').filter({ hasText: 'Sweden' });
    const total = await dataOf<Market>(page.request, `/api/v1/statistics/market?period_uuid=${periodUuid}&by=total`);
    await expect(sweden.getByTestId('dashboard-total')).toHaveText(shown(total.totals.value!));
    await expect(sweden).toContainText(`+${total.totals.value_change_pct} % against a year earlier`.replace(' %', '\u00a0%'));
    await expect(sweden).toContainText('5 of 5 approved');
    await expect(sweden.locator('svg.recharts-surface')).toBeVisible();
    await expect(card.getByTestId('dashboard-market-figures').filter({ hasText: 'Finland' })).toContainText('Latest published: 2026-09');
    await sweden.getByRole('link', { name: 'Latest published: 2026-09' }).click();

    await expect(page).toHaveURL(new RegExp(`/statistics\\?market=${marketId}&period=${periodUuid}$`));
    await expect(field(page, 'Market')).toHaveValue('Sweden (SE)');
    await expect(field(page, 'Period')).toHaveValue('2026-09');
    await expect(page.getByTestId('coverage')).toHaveText('5 of 5 approved');
    await expect(page.getByTestId('currency-line')).toHaveText('Values in SEK');

    const table = page.getByTestId('statistics-table');
    await expect(table.getByRole('columnheader', { name: /^Code\b/ })).toBeVisible();
    // 2001 (Göta Maskin's alone) is withheld: one "Confidential" cell instead of its figures.
    const excavators = row(page, '2001 Excavators below 6 t');
    await expect(excavators.getByTestId('confidential')).toHaveText('Confidential');
    await expect(excavators.getByRole('cell')).toHaveCount(4); // code, the merged cell, companies, trend button
    await expect(page.getByTestId('confidential-note')).toBeVisible();
    // 1001 is reported by all five companies: shown.
    await expect(row(page, '1001 Tractors below 50 hp').getByTestId('confidential')).toHaveCount(0);

    const trend = page.getByTestId('trend-chart');
    await expect(trend.locator('svg.recharts-surface').first()).toBeVisible();
    await expect(trend.locator('.recharts-line').first()).toBeAttached();
    await expect(trend).toContainText('Sweden · Total');
    // The chart's figures as a table (its text alternative), opened from under it.
    await trend.getByText('The figures as a table').click();
    const figures = trend.getByRole('table', { name: /^Trend/ });
    await expect(figures.getByRole('columnheader', { name: 'A year earlier' })).toBeVisible();
    await expect(figures.getByRole('row').nth(1)).toBeVisible();

    // Breakdown by code group, values in euros: the groups are all shown (the codes hidden inside
    // them are hidden in pairs, so no group minus its shown codes gives one away).
    await page.getByTestId('breakdown').getByText('Code group', { exact: true }).click();
    await expect(page).toHaveURL(/[?&]by=code_group(&|$)/);
    await expect(table.getByRole('columnheader', { name: /^Code group\b/ })).toBeVisible();
    await expect(row(page, 'Earth moving').getByTestId('confidential')).toHaveCount(0);
    await expect(row(page, 'Agriculture').getByTestId('confidential')).toHaveCount(0);

    await pick(page, 'Currency', /^EUR/);
    await expect(page).toHaveURL(/[?&]currency=EUR(&|$)/);
    await expect(page.getByTestId('currency-line')).toHaveText(/^Values in EUR: 1 SEK = 0\.0874 EUR \(rate valid from Jul 1, 2026\)/);
    const groups = await dataOf<Market>(page.request, `/api/v1/statistics/market?period_uuid=${periodUuid}&by=code_group&currency=EUR`);
    const agriculture = groups.rows.find((r) => r.key.title === 'Agriculture')!;
    await expect(await cellUnder(table, row(page, 'Agriculture'), 'Value')).toHaveText(money(agriculture.value!));

    // Back to codes, still in euros: what the viewer's answer says, and what Sweden's approver (who
    // sees everything) knows of the withheld rows.
    await page.getByTestId('breakdown').getByText('Code', { exact: true }).click();
    await expect(page).toHaveURL(/[?&]by=code(&|$)/);
    const query = `period_uuid=${periodUuid}&by=code&currency=EUR`;
    const mine = await dataOf<Market>(page.request, `/api/v1/statistics/market?${query}`);
    const approverApi = await apiAs('market-admin@demo.test');
    const full = await dataOf<Market>(approverApi, `/api/v1/statistics/market?${query}`);
    const tractors = mine.rows.find((r) => r.key.code === '1001')!;
    await expect(await cellUnder(table, row(page, '1001 Tractors below 50 hp'), 'Value')).toHaveText(money(tractors.value!));
    const hidden = full.rows.filter((r) => r.confidential);
    // The two codes one company sells alone, and the cells hidden with them.
    expect(hidden.map((r) => r.key.code)).toEqual(expect.arrayContaining(['2001', '3006']));
    expect(hidden.length).toBeGreaterThan(2);
    expect(mine.rows.filter((r) => r.confidential).map((r) => r.key.code)).toEqual(hidden.map((r) => r.key.code));
    const withheld = hidden.flatMap((r) => [r.volume!, r.value!]);
    const withheldValues = hidden.map((r) => r.value!);
    for (const figure of withheld) expect(figure, 'the approver sees the figures of the confidential rows').toMatch(/^\d+\.\d{4}$/);
    for (const figure of withheldValues) {
      await expect(table).not.toContainText(shown(figure));
      await expect(table).not.toContainText(money(figure));
    }

    // xlsx: the link downloads the table on screen.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download xlsx' }).click()]);
    expect(download.suggestedFilename()).toMatch(/\.xlsx$/);
    expect(download.suggestedFilename()).toContain('2026-09');
    const file = fs.readFileSync(await download.path());
    expect(file.subarray(0, 2).toString('latin1')).toBe('PK');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(file as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Statistics')!;
    const sheetRows: unknown[][] = [];
    sheet.eachRow((r) => sheetRows.push((r.values as unknown[]).slice(1)));
    const flat = sheetRows.flat().map((v) => String(v ?? ''));
    expect(
      flat.some((v) => v.includes('SEK') && v.includes('EUR')),
      'the rate in the header block',
    ).toBe(true);
    const header = sheetRows.find((r) => r[0] === 'Code' && r.includes('Value'))!;
    expect(header, 'the header row of the table').toBeTruthy();
    const valueColumn = header.indexOf('Value');
    const confidentialColumn = header.indexOf('Confidential');
    const sheetRow = (code: string) => sheetRows.find((r) => r[0] === code)!;
    expect(Number(sheetRow('1001')[valueColumn])).toBeCloseTo(Number(tractors.value), 4);
    for (const code of hidden.map((r) => r.key.code!)) {
      expect(sheetRow(code)[valueColumn] ?? null).toBeNull();
      expect(sheetRow(code)[confidentialColumn]).toBe('yes');
    }
    for (const figure of withheldValues) expect(flat).not.toContain(String(Number(figure)));

    // CSV: the same table; the withheld rows are empty but for "yes" under Confidential.
    const csvHref = await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
    expect(csvHref).toContain('format=csv');
    expect(csvHref).toContain('by=code');
    expect(csvHref).toContain('currency=EUR');
    const csvResponse = await page.request.get(csvHref!);
    expect(csvResponse.status()).toBe(200);
    const csv = await csvResponse.text();
    // UTF-8 with a byte-order mark, the header block, an empty line, then the table; figures as plain decimals.
    expect([...(await csvResponse.body()).subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r\n/);
    expect(lines[0]).toMatch(/^Market,/);
    const csvTable = lines.slice(lines.indexOf('') + 1);
    expect(csvTable[0]).toMatch(/^Code,Name,Volume,Volume flags,Value,Value flags,.*,Confidential,Estimated$/);
    // The withheld row: no figure, each flagged c (and b where its change is not like with like).
    const titles = csvTable[0]!.split(',');
    const withheldRow = csvTable.find((l) => l.startsWith('2001,Excavators below 6 t,'))!.split(',');
    titles.forEach((title, i) => {
      if (title.endsWith(' flags')) expect(withheldRow[i], title).toMatch(/^cb?$/);
      else if (i > 1 && title !== 'Confidential' && title !== 'Estimated') expect(withheldRow[i], title).toBe('');
    });
    expect(withheldRow[titles.indexOf('Confidential')]).toBe('yes');
    const plain = (decimal: string) => decimal.replace(/\.?0+$/, '');
    expect(csvTable.find((l) => l.startsWith('1001,'))).toContain(`,${plain(tractors.value!)},`);
    const fields = lines.flatMap((l) => l.split(','));
    for (const figure of withheld) {
      expect(fields).not.toContain(figure);
      expect(fields).not.toContain(plain(figure));
    }
  });

  test('a reporter sees its own figures and shares beside the market, and its company statistics with the share history', async ({ page }) => {
    const reporterApi = await apiAs('reporter@demo.test');
    const me = await dataOf<{ company: { id: number; name: string } }>(reporterApi, '/api/v1/users/me');
    expect(me.company.name).toBe('Nordlys Trading AB');
    const { periodUuid } = await swedenPeriod(reporterApi, '2026-09');
    const answer = await dataOf<Market>(reporterApi, `/api/v1/statistics/market?period_uuid=${periodUuid}&by=code`);
    const tractors = answer.rows.find((r) => r.key.code === '1001')!;
    const parts = answer.rows.find((r) => r.key.code === '3006')!;
    expect(tractors.own_volume).toBeTruthy();
    expect(parts.confidential).toBe(true);

    await signIn(page, 'reporter@demo.test');
    await page.goto('/statistics');
    await pick(page, 'Market', 'Sweden');
    await expect(field(page, 'Period')).toHaveValue('2026-09');
    const table = page.getByTestId('statistics-table');
    for (const header of ['Own volume', 'Own volume share', 'Own value', 'Own value share'])
      await expect(table.getByRole('columnheader', { name: new RegExp(`^${header}\\b`) }).first()).toBeVisible();
    await expect(table.getByRole('columnheader', { name: /^Own value share\b/ })).toBeVisible();

    const tractorsRow = row(page, '1001 Tractors below 50 hp');
    await expect(await cellUnder(table, tractorsRow, 'Own volume')).toHaveText(shown(tractors.own_volume!));
    await expect(await cellUnder(table, tractorsRow, 'Own value')).toHaveText(shown(tractors.own_value!));
    await expect(await cellUnder(table, tractorsRow, 'Own value share')).toHaveText(percent(tractors.own_value_share_pct!));
    await expect(await cellUnder(table, tractorsRow, 'Value')).toHaveText(shown(tractors.value!));
    // A confidential row: the market's figures are withheld, the reporter's own are not.
    const partsRow = row(page, '3006 Batteries and chargers');
    await expect(partsRow.getByTestId('confidential')).toBeVisible();
    await expect(partsRow).toContainText(shown(parts.own_value!));

    // The company statistics: per code against the market, and the share over time.
    await page.goto(`/report-statistics/${me.company.id}/SE/2026-09`);
    await expect(page.getByText('Nordlys Trading AB · Sweden · 2026-09')).toBeVisible();
    const company = page.getByTestId('company-statistics-table');
    await expect(company.getByRole('columnheader', { name: 'Own value share' })).toBeVisible();
    await expect(row(page, '1001 Tractors below 50 hp')).toContainText(shown(tractors.own_value!));
    const history = page.getByTestId('share-history');
    await expect(history).toContainText('Own share of the market over time');
    await expect(history.locator('svg.recharts-surface').first()).toBeVisible();
    await expect(history.locator('.recharts-line')).toHaveCount(2);
    await expect(history).toContainText('2026-09');
  });

  test("an approver sees Sweden's unpublished period provisionally, by company, ranked and charted", async ({ page }) => {
    await signIn(page, 'market-admin@demo.test');
    await page.goto('/statistics');
    await pick(page, 'Period', '2026-10 · not published');
    await expect(field(page, 'Period')).toHaveValue('2026-10 · not published');
    await expect(page.getByTestId('provisional')).toContainText('Provisional figures');
    await expect(page.getByTestId('coverage')).toHaveText('2 of 5 approved');
    // 2025-10 had all five approved: every change says it compares unequal coverage, and the
    // trend draws 2026-10 apart from its line.
    await expect(page.getByTestId('coverage-differs')).toContainText('† Coverage differs from 2025-10 (approved 5 of 5 then)');
    await expect(page.getByTestId('statistics-table').getByRole('columnheader', { name: /^Change †/ })).toHaveCount(2);
    await expect(page.getByTestId('trend-coverage-differs')).toContainText('2026-10 approved 2 of 5, a year earlier 5 of 5');

    await page.getByTestId('breakdown').getByText('Company', { exact: true }).click();
    await expect(page).toHaveURL(/[?&]by=company(&|$)/);
    const table = page.getByTestId('statistics-table');
    await expect(table.getByRole('columnheader', { name: 'Rank' })).toBeVisible();
    await expect(table.getByRole('columnheader', { name: /^Company\b/ })).toBeVisible();
    // Skåne Lantbruk's report waits for approval and is counted (provisional), second by value.
    const skane = row(page, 'Skåne Lantbruk AB');
    await expect(row(page, 'Vasa Agri AB').getByRole('cell').first()).toHaveText('1');
    await expect(skane.getByRole('cell').first()).toHaveText('2');
    await expect(row(page, 'Göta Maskin AB').getByRole('cell').first()).toHaveText('3');
    // The approver sees every company's figures: nothing withheld.
    await expect(skane.getByTestId('confidential')).toHaveCount(0);
    await expect(page.getByTestId('confidential-note')).toHaveCount(0);
    // Nordlys's report is ongoing: no figures this period, which is not "Confidential" for an approver.
    const nordlys = row(page, 'Nordlys Trading AB');
    await expect(nordlys.getByRole('cell').first()).toHaveText('–');
    await expect(nordlys.getByTestId('confidential')).toHaveCount(0);
    await expect(await cellUnder(table, nordlys, 'Value')).toHaveText('–');
    await expect(table.getByTestId('confidential')).toHaveCount(0);

    const chart = page.getByTestId('share-chart');
    await expect(chart).toContainText('Shares by company');
    await expect(chart.locator('svg.recharts-surface').first()).toBeVisible();
    await expect(chart.locator('.recharts-bar-rectangle')).toHaveCount(3);
    await expect(chart).toContainText('Skåne Lantbruk AB');
  });

  test('a cluster viewer sees the Nordic cluster for 2026-09 in euros, the markets side by side', async ({ page }) => {
    const api = await apiAs('cluster-viewer@demo.test');
    const choices = await dataOf<{ clusters: { id: number; name: string }[] }>(api, '/api/v1/statistics/choices');
    const nordic = choices.clusters.find((c) => c.name === 'Nordic')!;
    const answer = await dataOf<Cluster>(api, `/api/v1/statistics/cluster?cluster_id=${nordic.id}&month=2026-09&by=code&currency=EUR`);
    expect(answer.markets.map((m) => m.market.iso_code).sort()).toEqual(['DK', 'FI', 'NO', 'SE']);

    await signIn(page, 'cluster-viewer@demo.test');
    await page.goto('/cluster-statistics');
    await expect(field(page, 'Cluster')).toHaveValue('Nordic');
    // It opens on the latest month with a published period: 2026-10 is open, not published yet.
    await expect(field(page, 'Month')).toHaveValue('2026-09');
    await expect(field(page, 'Currency')).toHaveValue('EUR · Euro');

    const table = page.getByTestId('cluster-table');
    await expect(table).toBeVisible();
    await expect(table.getByRole('columnheader').first()).toHaveText('Code');
    await expect(table.getByRole('columnheader', { name: 'Cluster total' })).toBeVisible();
    await expect(table.getByRole('columnheader', { name: 'SE', exact: true })).toBeVisible();
    await expect(table.getByRole('columnheader', { name: 'NO', exact: true })).toBeVisible();
    await expect(table.getByRole('columnheader', { name: 'DK', exact: true })).toBeVisible();
    await expect(table.getByRole('columnheader', { name: 'FI', exact: true })).toBeVisible();
    await expect(page.getByTestId('currency-line')).toHaveText(/^Values in EUR/);
    // Sweden 5, Norway 4, Finland 4 and Denmark 4 companies, all approved.
    await expect(page.getByTestId('coverage')).toHaveText('17 of 17 approved');
    const totals = table.locator('tfoot tr');
    await expect(totals).toContainText(money(answer.totals.value!));
    await expect(row(page, '1001 Tractors below 50 hp')).toBeVisible();
  });

  test('a cluster viewer whose month lacks Denmark is told which markets the figures hold, with the cluster’s coverage', async ({ page }) => {
    // The cluster administrator manages every Nordic market.
    const admin = await apiAs('cluster-admin@demo.test');
    const me = await dataOf<{ markets: { id: number; iso_code: string }[] }>(admin, '/api/v1/users/me');
    const denmark = me.markets.find((m) => m.iso_code === 'DK')!;
    const periods = await dataOf<{ uuid: string; title: string }[]>(admin, `/api/v1/periods?market_id=${denmark.id}`);
    const september = periods.find((p) => p.title === '2026-09')!;
    const unpublish = await admin.post(`/api/v1/periods/${september.uuid}/unpublish`);
    expect(unpublish.status(), await unpublish.text()).toBe(200);
    try {
      await signIn(page, 'cluster-viewer@demo.test');
      await page.goto('/cluster-statistics?month=2026-09');
      const table = page.getByTestId('cluster-table');
      await expect(table.getByRole('columnheader', { name: 'DK', exact: true })).toHaveCount(0);
      await expect(table.getByRole('columnheader', { name: 'Total of SE, FI, NO' })).toBeVisible();
      await expect(page.getByTestId('cluster-absent')).toHaveText(/; 1 of 4 markets are not in them: Denmark \(not yet published\)\.$/);
      // Sweden 5, Norway 4 and Finland 4 approved, of the 17 reports the cluster expects.
      await expect(page.getByTestId('coverage')).toHaveText('13 of 17 approved');
    } finally {
      const publish = await admin.post(`/api/v1/periods/${september.uuid}/publish`);
      expect(publish.status(), await publish.text()).toBe(200);
    }
  });

  test('a viewer of Finland, which reports from 2025-09, sees no year-to-date change for 2026-09 and is told why', async ({ page }) => {
    const api = await apiAs('viewer@demo.test');
    const me = await dataOf<{ markets: { id: number; iso_code: string }[] }>(api, '/api/v1/users/me');
    const finland = me.markets.find((m) => m.iso_code === 'FI')!;
    const periods = await dataOf<{ uuid: string; title: string }[]>(api, `/api/v1/periods?market_id=${finland.id}`);
    const september = periods.find((p) => p.title === '2026-09')!;
    await signIn(page, 'viewer@demo.test');
    await page.goto(`/statistics?market=${finland.id}&period=${september.uuid}&by=total&view=ytd`);
    await expect(page.getByTestId('ytd-break')).toHaveText('Year to date: 2025 has 1 of these 9 months, so no change is shown.');
    const totals = page.getByTestId('statistics-totals');
    await expect(totals).toBeVisible();
    await expect(totals).not.toContainText('%');
  });

  test("on a phone, a row's trend button brings its chart into view, and the chart's figures read as a table", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, 'viewer@demo.test');
    await page.goto('/statistics');
    const card = page.getByTestId('statistics-card').nth(3);
    await card.scrollIntoViewIfNeeded();
    const chart = page.getByTestId('trend-chart');
    await expect(chart).not.toBeInViewport();
    await card.getByRole('button', { name: /^Show the trend of / }).click();
    await expect(chart).toBeInViewport();
    await expect(chart.getByText('The figures as a table')).toBeVisible();
  });
});
