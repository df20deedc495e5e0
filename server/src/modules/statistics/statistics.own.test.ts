import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import { buildDisclosureWorld, type DisclosureSpec } from '../../../test/disclosure-world.ts';

/*
 * A member's own figures beside published cells: its report as the publication counted it, over
 * the codes each published cell added up. A code group edited after publication must not change
 * the company's share of the group as published (it summed the company's figures over today's
 * codes: 303 of a published 1620 gave 18.7 % where 235 of it, 14.5 %, was the company's).
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(async () => {
  await t?.close();
});

type Row = DisclosureSpec['rows'][number];
const rows = (company: string, figures: Record<string, number>): Row[] =>
  Object.entries(figures).map(([code, volume]) => ({ market: 'SE', period: '2026-03', company, code, volume: `${volume}.0000`, value: `${volume * 10}.0000` }));

describe('own figures beside published cells', () => {
  it('when a code group is edited after publication, then a member still sees its share of the group as published', async () => {
    const w = await buildDisclosureWorld(t, {
      markets: [{ iso: 'SE', currency: 'SEK' }],
      codes: ['1001', '1002', '1003'],
      groups: [{ title: 'G1', codes: ['1001', '1002'] }],
      sections: [{ name: 'S1', start: 1000, length: 100 }],
      companies: ['A', 'B', 'C', 'D'],
      periods: ['2026-03'],
      rows: [
        ...rows('A', { '1001': 135, '1002': 100, '1003': 68 }),
        ...rows('B', { '1001': 300, '1002': 200, '1003': 90 }),
        ...rows('C', { '1001': 310, '1002': 190, '1003': 80 }),
        ...rows('D', { '1001': 205, '1002': 180, '1003': 95 }),
      ],
    });
    const uuid = w.periodIds[w.key('SE', '2026-03')]!.uuid;
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/periods/${uuid}/publish`, headers: w.headers.marketAdmin })).statusCode).toBe(200);
    // 1003 joins the group after publication.
    await t.db.execute(sql`insert into code_group_codes (code_group_id, code_id) values (${w.groupIds.G1!}, ${w.codeIds['1003']!})`);
    const res = await t.app.inject({ url: `/api/v1/statistics/market?period_uuid=${uuid}&by=code_group`, headers: w.headers.reporters.A! });
    expect(res.statusCode, res.body).toBe(200);
    const group = (res.json().data.rows as Record<string, unknown>[]).find((r) => (r.key as { id: number }).id === w.groupIds.G1);
    // As published: 1001 and 1002 of all four, 1620; A's part of it 235, 14.5 %.
    expect(group).toMatchObject({
      volume: '1620.0000',
      own_volume: '235.0000',
      own_volume_share_pct: '14.5',
      own_value: '2350.0000',
      own_value_share_pct: '14.5',
    });
    const totals = res.json().data.totals;
    expect(totals).toMatchObject({ own_volume: '303.0000' });
  });
});
