import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { ROLES } from '@mss/contracts/enums';
import { createTestApp, type TestApp, XHR } from '../../test/helpers.ts';
import { codeGroups, codes, codeSections, currencyConversions, informationModals, markets, organizations, periods, releases, reports } from '../db/schema.ts';
import { DEMO_PASSWORD, isDatabaseEmpty, seedDemo } from './demo.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const total = async (table: PgTable) => (await t.db.select({ n: count() }).from(table))[0]!.n;

describe('demo data', () => {
  it('when loaded into an empty database, then one user per role signs in with the demo password', async () => {
    expect(await isDatabaseEmpty(t.db)).toBe(true);
    const signIns = await seedDemo(t.db);
    expect(await isDatabaseEmpty(t.db)).toBe(false);
    expect(signIns.map((s) => s.email).sort()).toEqual(ROLES.map((r) => `${r}@demo.test`).sort());
    for (const { email } of signIns) {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', headers: XHR, payload: { email, password: DEMO_PASSWORD } });
      expect(res.statusCode, email).toBe(200);
      expect(res.json().data.must_choose_organization, email).toBe(email === 'admin@demo.test');
    }
  });

  it('then it shows every administration screen with realistic content', async () => {
    expect(await total(organizations)).toBe(2);
    expect(await total(markets)).toBe(5);
    expect(await total(codes)).toBeGreaterThanOrEqual(24);
    expect(await total(codeSections)).toBe(4);
    expect(await total(codeGroups)).toBe(4);
    expect(await total(currencyConversions)).toBe(18);
    expect(await total(releases)).toBe(1);
    expect(await total(informationModals)).toBe(1);
    // Sweden and Norway: 2025-01 to 2026-10, monthly; 5 companies report in Sweden, 4 in Norway.
    // Finland and Denmark: 2025-09 to 2026-10, 4 companies each.
    expect(await total(periods)).toBe(22 * 2 + 14 * 2);
    expect(await total(reports)).toBe(22 * 5 + 22 * 4 + 14 * 4 + 14 * 4);
  });

  it('then every role that views statistics has published figures of each of its markets on first sign-in, compared with last year', async () => {
    for (const email of ['viewer@demo.test', 'just-stats@demo.test', 'company@demo.test', 'cluster-viewer@demo.test']) {
      const login = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', headers: XHR, payload: { email, password: DEMO_PASSWORD } });
      const cookie = `mss_session=${login.cookies[0]!.value}`;
      const periods = (await t.app.inject({ url: '/api/v1/periods', headers: { cookie } })).json().data as {
        uuid: string;
        published: boolean;
        starts_on: string;
        market: { iso_code: string };
      }[];
      const markets = [...new Set(periods.map((p) => p.market.iso_code))].sort();
      expect(markets.length, email).toBeGreaterThan(0);
      for (const iso of markets) {
        const latest = periods.filter((p) => p.market.iso_code === iso && p.published).sort((a, b) => b.starts_on.localeCompare(a.starts_on))[0];
        expect(latest, `${email} ${iso}`).toBeDefined();
        const res = await t.app.inject({ url: `/api/v1/statistics/market?period_uuid=${latest!.uuid}&by=total`, headers: { cookie } });
        expect(res.statusCode, `${email} ${iso}: ${res.body}`).toBe(200);
        const data = res.json().data;
        expect(data.totals.value, `${email} ${iso}`).toMatch(/^\d+\.\d+$/);
        expect(data.totals.value_change_pct, `${email} ${iso}`).not.toBeNull();
      }
    }
  });

  it('then the reporter has the October reports to do and the approved September ones to compare with', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: XHR,
      payload: { email: 'reporter@demo.test', password: DEMO_PASSWORD },
    });
    const cookie = `mss_session=${login.cookies[0]!.value}`;
    const open = await t.app.inject({ url: '/api/v1/reports?status[]=20', headers: { cookie } });
    expect(
      open
        .json()
        .data.map((r: { market: { iso_code: string }; period: { title: string } }) => `${r.market.iso_code} ${r.period.title}`)
        .sort(),
    ).toEqual(['NO 2026-10', 'SE 2026-10']);
    const approved = await t.app.inject({ url: '/api/v1/reports?status[]=60', headers: { cookie } });
    expect(
      approved.json().data.every((r: { company: { name: string }; row_count: number }) => r.company.name === 'Nordlys Trading AB' && r.row_count === 14),
    ).toBe(true);
  });
});
