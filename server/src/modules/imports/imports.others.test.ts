import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReportWithCodes, createTestApp, PASSWORD, type TestApp, XHR } from '../../../test/helpers.ts';
import { largeStringsWorkbook } from '../../../test/hostile-files.ts';
import { multipart } from '../../../test/world.ts';

/*
 * One file never stalls everyone: a file shaped like large_strings.xlsx of the SheetJS
 * corpus (12,000 rows of long text, an error on every row) once held the embedded database's one
 * connection for 60–95 s after it was found invalid, sign-in included. While such a file is
 * imported, another user signs in and lists reports; every request must answer, and within a
 * generous bound (the 200 ms target is measured by `npm run bench`, not here: this test must pass
 * on a slow, busy machine too).
 */

const BOUND_MS = 5_000;

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ JOBS: 'on' });
});
afterAll(async () => {
  await t?.close();
});

describe('other users while a file of long texts imports', () => {
  it('when a file of 12,000 rows of long text is imported, then another user signs in and lists reports meanwhile, every request answered within 5 s', async () => {
    const uploader = await createReportWithCodes(t, 20);
    const other = await createReportWithCodes(t, 5);
    const email = (await t.app.inject({ url: '/api/v1/users/me', headers: other.reporter })).json().data.email as string;
    const file = multipart('long texts.xlsx', largeStringsWorkbook(12_000, 3, 900));
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/v1/reports/${uploader.report.uuid}/file`,
      headers: { ...uploader.reporter, ...file.headers },
      payload: file.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(202);
    const importUuid = uploaded.json().data.uuid as string;

    // The other user: the report list every 50 ms and a sign-in every 500 ms, without waiting for earlier answers.
    const answers: Promise<{ status: number; ms: number; what: string }>[] = [];
    const timed = (what: string, request: () => Promise<{ statusCode: number }>) => {
      const start = performance.now();
      answers.push(request().then((res) => ({ status: res.statusCode, ms: performance.now() - start, what })));
    };
    let tick = 0;
    const timer = setInterval(() => {
      timed('report list', () => t.app.inject({ url: '/api/v1/reports', headers: other.reporter }));
      if (tick++ % 10 === 0)
        timed('sign-in', () => t.app.inject({ method: 'POST', url: '/api/v1/auth/login', headers: XHR, payload: { email, password: PASSWORD } }));
    }, 50);
    let status = 'queued';
    try {
      for (let i = 0; i < 1200 && (status === 'queued' || status === 'processing'); i++) {
        await new Promise((r) => setTimeout(r, 100));
        status = (await t.app.inject({ url: `/api/v1/imports/${importUuid}`, headers: uploader.reporter })).json().data.status;
      }
    } finally {
      clearInterval(timer);
    }
    const done = await Promise.all(answers);

    expect(status).toBe('invalid');
    const detail = (await t.app.inject({ url: `/api/v1/imports/${importUuid}`, headers: uploader.reporter })).json().data;
    // An error in A, B and C of every row but the first (read as a header), column A cut to 60 characters.
    expect(detail.error_count).toBe(35_997);
    expect(detail.errors).toHaveLength(100);
    expect(detail.errors[0].code).toMatch(/^.{60}…$/u);
    expect(done.length).toBeGreaterThan(5);
    expect(done.filter((a) => a.status !== 200)).toEqual([]);
    expect(done.filter((a) => a.ms > BOUND_MS)).toEqual([]);
  });
});
