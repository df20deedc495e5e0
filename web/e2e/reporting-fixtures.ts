import { type APIRequestContext, type APIResponse, type Page, expect } from '@playwright/test';
import ExcelJS from 'exceljs';
import { ReportStatus } from '@mss/contracts/enums';

// What the reporting specs (periods, imports, reports, approvals) set up: a period of Sweden with
// Nordlys Trading AB's report in it, and report files. Each test makes its own period (a title
// of its own, and dates of its own) so that the specs run alone and in any order.

export const NORDLYS = 'Nordlys Trading AB';

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** An xlsx with a header row and the given rows (Code, Volume, Value), written with ExcelJS. */
export async function xlsx(rows: (string | number | null)[][]): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Report');
  sheet.addRow(['Code', 'Volume', 'Value']);
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

/** Nordlys's codes in Sweden: 1001–1008 (1008: value disabled) and 3001–3006. */
export const VALID_ROWS: (string | number | null)[][] = [
  ...['1001', '1002', '1003', '1004', '1005', '1006', '1007'].map((code, i) => [code, 10 + i, 1000 * (i + 1)]),
  ['1008', 3, null],
  ...['3001', '3002', '3003', '3004', '3005', '3006'].map((code, i) => [code, 5 + i, 500 * (i + 1)]),
];

/** A period title no other test uses. */
export const periodTitle = (prefix = 'E2E') => `${prefix} ${Date.now()}`;

/** On a report's import screen: chooses the file and uploads it. */
export async function upload(page: Page, name: string, content: Buffer, mimeType = XLSX_MIME): Promise<void> {
  await page.locator('input[type="file"]').setInputFiles({ name, mimeType, buffer: content });
  await page.getByRole('button', { name: 'Upload', exact: true }).click();
}

/** The link to Nordlys's report of the period `title` among the reporter's open reports on the dashboard. */
export const openReportLink = (page: Page, title: string) =>
  page.getByTestId('dashboard-open-reports').getByRole('link', { name: new RegExp(`${NORDLYS} · SE · ${title}`) });

async function dataOf<T>(response: APIResponse, what: string, status = 200): Promise<T> {
  expect(response.status(), `${what}: ${await response.text()}`).toBe(status);
  return ((await response.json()) as { data: T }).data;
}

/**
 * Through the API, as the market administrator (`api`): creates a period of Sweden and opens it,
 * which gives every company reporting in Sweden an Ongoing report. Returns the period's uuid.
 */
export async function openPeriodOfSweden(api: APIRequestContext, title: string, dates: { starts: string; ends: string; deadline: string }): Promise<string> {
  const me = await dataOf<{ markets: { id: number; iso_code: string }[] }>(await api.get('/api/v1/users/me'), 'the signed-in user');
  const sweden = me.markets.find((m) => m.iso_code === 'SE');
  expect(sweden, 'the market administrator manages Sweden').toBeTruthy();
  const period = await dataOf<{ uuid: string }>(
    await api.post('/api/v1/periods', { data: { market_id: sweden!.id, title, starts_on: dates.starts, ends_on: dates.ends, deadline: dates.deadline } }),
    'creating the period',
    201,
  );
  await dataOf(await api.post(`/api/v1/periods/${period.uuid}/open`), 'opening the period');
  return period.uuid;
}

/** The uuid of Nordlys's report in the period. */
export async function nordlysReport(api: APIRequestContext, periodUuid: string): Promise<string> {
  const reports = await dataOf<{ uuid: string; company: { name: string } }[]>(
    await api.get('/api/v1/reports', { params: { period_uuid: periodUuid } }),
    'the reports of the period',
  );
  const report = reports.find((r) => r.company.name === NORDLYS);
  expect(report, `${NORDLYS} has a report in the period`).toBeTruthy();
  return report!.uuid;
}

/** Through the API, as the reporter: uploads a file to the report and waits until it is imported. */
export async function importFile(api: APIRequestContext, reportUuid: string, name: string, content: Buffer): Promise<void> {
  const accepted = await dataOf<{ uuid: string }>(
    await api.post(`/api/v1/reports/${reportUuid}/file`, { multipart: { file: { name, mimeType: XLSX_MIME, buffer: content } } }),
    'uploading the file',
    202,
  );
  await expect
    .poll(async () => (await dataOf<{ status: string }>(await api.get(`/api/v1/imports/${accepted.uuid}`), 'the import')).status, {
      message: `the import of ${name}`,
      timeout: 20_000,
    })
    .toBe('done');
}

/** Through the API: submits (reporter), sends back or approves (market administrator) the report. */
export async function setReportStatus(api: APIRequestContext, reportUuid: string, status: ReportStatus, comment?: string): Promise<void> {
  const report = await dataOf<{ status: number }>(await api.post(`/api/v1/reports/${reportUuid}/status`, { data: { status, comment } }), 'changing the status');
  expect(report.status).toBe(status);
}
