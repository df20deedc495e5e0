import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDisclosureWorld, type DisclosureWorld, type Headers } from './disclosure-world.ts';
import { createTestApp, type TestApp } from './helpers.ts';
import { multipart } from './world.ts';

/*
 * Every kind of download, for names a member may have: the template and error sheet of
 * an import, the uploaded file, every statistics xlsx and csv, and a communication's attachment,
 * for a company, a cluster and files whose names hold Š, Ł, ā, 日本, quotes, slashes and control
 * characters. Each answers 200 with an RFC 6266 Content-Disposition: the name in filename*
 * (UTF-8), an ASCII fallback in filename.
 */

const COMPANY = 'Škoda "Citroën" 日本 / Łódź ā\u0007 AB';
const CLUSTER = 'Baltic "Ū" / Ė\\Ł\u0001 日本';
const UPLOAD = 'Ataskaita ā ū ė Łódź 日本.xlsx';
const ATTACHMENT = 'Příloha ā ū 日本.txt';

let t: TestApp;
let w: DisclosureWorld;
beforeAll(async () => {
  t = await createTestApp({ JOBS: 'on' });
  w = await buildDisclosureWorld(t, {
    markets: [{ iso: 'LT', currency: 'EUR' }],
    codes: ['101', '102'],
    groups: [],
    sections: [],
    companies: ['Plain AB', 'Second AB', 'Third AB'],
    periods: ['2026-01'],
    rows: ['Plain AB', 'Second AB', 'Third AB'].flatMap((company, i) => [
      { market: 'LT', period: '2026-01', company, code: '101', volume: `${10 + i}`, value: `${100 + i}` },
      { market: 'LT', period: '2026-01', company, code: '102', volume: `${20 + i}`, value: `${200 + i}` },
    ]),
  });
  // Names as stored long ago, before text inputs refused control characters.
  await t.db.execute(sql`update companies set name = ${COMPANY} where id = ${w.companyIds['Plain AB']!}`);
  await t.db.execute(sql`update clusters set name = ${CLUSTER} where id = ${w.cluster}`);
  const published = await t.app.inject({ method: 'POST', url: `/api/v1/periods/${w.periodIds['LT/2026-01']!.uuid}/publish`, headers: w.headers.marketAdmin });
  expect(published.statusCode, published.body).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

/** Downloads `url`, expects a valid header, and gives back the name a browser saves (filename*) and the fallback. */
async function download(url: string, headers: Headers) {
  const res = await t.app.inject({ url: `/api/v1${url}`, headers });
  expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(200);
  const header = String(res.headers['content-disposition']);
  expect(header, url).toMatch(/^attachment; filename="[\x20\x21\x23-\x24\x26-\x5b\x5d-\x7e]*"; filename\*=UTF-8''[A-Za-z0-9!#$&+.^_`|~%-]+$/);
  return {
    name: decodeURIComponent(/filename\*=UTF-8''(\S+)$/.exec(header)![1]!),
    fallback: /filename="([^"]*)"/.exec(header)![1]!,
    body: res.rawPayload,
  };
}

/** What the name becomes in a download: control characters, slashes and backslashes replaced. */
const offered = (name: string) => name.replace(/[\p{Cc}/\\]/gu, '_');

describe('downloads for names outside Latin-1', () => {
  it('when a company, a cluster and files have names with Š, Ł, ā, 日本, quotes, slashes and control characters, then every download answers with its name in filename* and an ASCII fallback', async () => {
    const lt = w.marketIds.LT!;
    const period = w.periodIds['LT/2026-01']!.uuid;
    const company = w.companyIds['Plain AB']!;
    const reporter = w.headers.reporters['Plain AB']!;
    const names: string[] = [];
    for (const format of ['xlsx', 'csv']) {
      names.push((await download(`/statistics/market?period_uuid=${period}&by=code&format=${format}`, w.headers.viewer)).name);
      const cluster = await download(
        `/statistics/cluster?cluster_id=${w.cluster}&month=2026-01&by=code&currency=EUR&format=${format}`,
        w.headers.clusterViewer,
      );
      expect(cluster.name).toBe(`statistics ${offered(CLUSTER)} 2026-01 code.${format}`);
      expect(cluster.fallback).toBe(`statistics Baltic _U_ _ E_L_ __ 2026-01 code.${format}`);
      names.push((await download(`/statistics/trend?market_id=${lt}&periods=12&format=${format}`, w.headers.viewer)).name);
      const own = await download(`/statistics/company?company_id=${company}&period_uuid=${period}&format=${format}`, reporter);
      expect(own.name).toBe(`statistics ${offered(COMPANY)} LT 2026-01.${format}`);
      expect(own.fallback).toBe(`statistics Skoda _Citroen_ __ _ Lodz a_ AB LT 2026-01.${format}`);
    }
    expect(names).toEqual(['statistics LT 2026-01 code.xlsx', 'statistics LT trend.xlsx', 'statistics LT 2026-01 code.csv', 'statistics LT trend.csv']);

    // An open period: the company's report takes a template and an upload.
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/periods',
      headers: w.headers.marketAdmin,
      payload: { market_id: lt, title: '2026-02', starts_on: '2026-02-01', ends_on: '2026-02-28' },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/periods/${created.json().data.uuid}/open`, headers: w.headers.marketAdmin })).statusCode).toBe(
      200,
    );
    const report = (
      await t.db.execute<{ uuid: string }>(
        sql`select r.uuid::text as uuid from reports r join periods p on p.id = r.period_id where p.uuid = ${created.json().data.uuid} and r.company_id = ${company}`,
      )
    ).rows[0]!.uuid;
    const template = await download(`/reports/${report}/template`, reporter);
    expect(template.name).toBe(`${offered(COMPANY)} LT 2026-02.xlsx`);
    expect(template.fallback).toBe('Skoda _Citroen_ __ _ Lodz a_ AB LT 2026-02.xlsx');

    const file = multipart(UPLOAD, Buffer.from('not a workbook'));
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/v1/reports/${report}/file`,
      headers: { ...reporter, ...file.headers },
      payload: file.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(202);
    const importUuid = uploaded.json().data.uuid as string;
    for (let i = 0; i < 200; i++) {
      const status = (await t.app.inject({ url: `/api/v1/imports/${importUuid}`, headers: reporter })).json().data.status;
      if (status !== 'queued' && status !== 'processing') break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const original = await download(`/imports/${importUuid}/file`, reporter);
    expect(original.name).toBe(UPLOAD);
    expect(original.fallback).toBe('Ataskaita a u e Lodz __.xlsx');
    expect(original.body.toString()).toBe('not a workbook');
    const errors = await download(`/imports/${importUuid}/errors`, reporter);
    expect(errors.name).toBe(`errors ${UPLOAD}`);

    // A communication's attachment.
    const communication = await t.app.inject({
      method: 'POST',
      url: '/api/v1/communications',
      headers: w.headers.marketAdmin,
      payload: {
        subject: 'Files',
        body: '<p>See the file.</p>',
        foot_notes: '',
        recipients: { market_ids: [lt], roles: ['reporter'], company_ids: [], period_uuid: null, report_statuses: [] },
      },
    });
    expect(communication.statusCode, communication.body).toBe(201);
    const uuid = communication.json().data.uuid as string;
    const attachment = multipart(ATTACHMENT, Buffer.from('Sveiki!\n'));
    const attached = await t.app.inject({
      method: 'POST',
      url: `/api/v1/communications/${uuid}/attachments`,
      headers: { ...w.headers.marketAdmin, ...attachment.headers },
      payload: attachment.payload,
    });
    expect(attached.statusCode, attached.body).toBe(201);
    const got = await download(`/communications/${uuid}/attachments/${attached.json().data.id}`, w.headers.marketAdmin);
    expect(got.name).toBe(ATTACHMENT);
    expect(got.fallback).toBe('Priloha a u __.txt');
    expect(got.body.toString()).toBe('Sveiki!\n');
  });
});
