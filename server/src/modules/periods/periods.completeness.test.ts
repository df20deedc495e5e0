import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { ReportStatus } from '@mss/contracts/enums';
import type { Completeness } from '@mss/contracts/periods';
import { createMarket, createOrganization, createTestApp, insertMemberCompany, signInAs, type TestApp } from '../../../test/helpers.ts';
import type { Db } from '../../db/client.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function insertPeriod(db: Db, marketId: number, month: string, status: 'draft' | 'open' | 'closed', deadline: string | null) {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const ends = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
  return (
    await db.execute<{ id: number; uuid: string }>(sql`
      insert into periods (market_id, title, starts_on, ends_on, deadline, status)
      values (${marketId}, ${month}, ${`${month}-01`}::date, ${ends}::date, ${deadline}::date, ${status}) returning id, uuid::text as uuid`)
  ).rows[0]!;
}

const setReport = (db: Db, periodId: number, companyId: number, status: number) =>
  db.execute(sql`insert into reports (period_id, company_id, status) values (${periodId}, ${companyId}, ${status})
    on conflict (period_id, company_id) do update set status = excluded.status`);

/** The counts as a recount of the reports has them (the statistics' rule, written here again). */
async function recount(db: Db) {
  const { rows } = await db.execute<{ period_id: number; status: number; n: number }>(sql`
    select r.period_id, r.status, count(*)::int as n from reports r join periods p on p.id = r.period_id join companies c on c.id = r.company_id
    where c.disabled_at is null or c.disabled_at > p.ends_on + time '23:59:59.999999' at time zone 'UTC'
    group by 1, 2 order by 1, 2`);
  return rows;
}
async function kept(db: Db) {
  const { rows } = await db.execute<{ period_id: number; status: number; n: number }>(
    sql`select period_id, status, n from period_report_counts where n <> 0 order by 1, 2`,
  );
  return rows;
}

describe('completeness counts', () => {
  it('when reports are added, moved, approved in bulk, deleted, companies disabled and periods moved, then the kept counts equal a recount after every step', async () => {
    const org = await createOrganization(t.db);
    const market = await createMarket(t.db, org.id);
    const companies: number[] = [];
    for (let i = 0; i < 6; i++) companies.push(await insertMemberCompany(t.db, org.id, market.id));
    const jan = await insertPeriod(t.db, market.id, '2030-01', 'open', '2030-02-10');
    const feb = await insertPeriod(t.db, market.id, '2030-02', 'open', '2030-03-10');
    const steps: [string, () => Promise<unknown>][] = [
      [
        'reports of January, one statement',
        () => t.db.execute(sql`insert into reports (period_id, company_id, status) select ${jan.id}, unnest(${`{${companies.join(',')}}`}::int[]), 20`),
      ],
      [
        'reports of February one by one',
        async () => {
          for (const c of companies) await setReport(t.db, feb.id, c, ReportStatus.Ongoing);
        },
      ],
      [
        'three submitted',
        () =>
          t.db.execute(sql`update reports set status = 40 where period_id = ${jan.id} and company_id = any(${`{${companies.slice(0, 3).join(',')}}`}::int[])`),
      ],
      [
        'two approved',
        () =>
          t.db.execute(sql`update reports set status = 60 where period_id = ${jan.id} and company_id = any(${`{${companies.slice(0, 2).join(',')}}`}::int[])`),
      ],
      ['an update that moves nothing', () => t.db.execute(sql`update reports set updated_at = now() where period_id = ${jan.id}`)],
      [
        'a company disabled in February: counted in January, not in February',
        () => t.db.execute(sql`update companies set disabled_at = '2030-02-15T12:00:00Z' where id = ${companies[0]!}`),
      ],
      ['disabled at the very end of January', () => t.db.execute(sql`update companies set disabled_at = '2030-01-31T23:59:59Z' where id = ${companies[1]!}`)],
      [
        'disabled on the first instant of February (counted in January)',
        () => t.db.execute(sql`update companies set disabled_at = '2030-02-01T00:00:00Z' where id = ${companies[2]!}`),
      ],
      [
        'January ends earlier, February later',
        async () => {
          await t.db.execute(sql`update periods set ends_on = '2030-01-20' where id = ${jan.id}`);
          await t.db.execute(sql`update periods set ends_on = '2030-03-31' where id = ${feb.id}`);
        },
      ],
      [
        'companies enabled again',
        () => t.db.execute(sql`update companies set disabled_at = null where id = any(${`{${companies.slice(0, 2).join(',')}}`}::int[])`),
      ],
      [
        'a report moved to a disabled company',
        async () => {
          const spare = await insertMemberCompany(t.db, org.id, market.id);
          await t.db.execute(sql`update companies set disabled_at = '2029-01-01T00:00:00Z' where id = ${spare}`);
          await t.db.execute(sql`update reports set company_id = ${spare} where period_id = ${jan.id} and company_id = ${companies[5]!}`);
        },
      ],
      [
        'reports deleted',
        () => t.db.execute(sql`delete from reports where period_id = ${feb.id} and company_id = any(${`{${companies.slice(3).join(',')}}`}::int[])`),
      ],
      [
        'a report moved to the other period',
        () => t.db.execute(sql`update reports set period_id = ${feb.id} where period_id = ${jan.id} and company_id = ${companies[4]!}`),
      ],
    ];
    for (const [name, step] of steps) {
      await step();
      expect(await kept(t.db), name).toEqual(await recount(t.db));
    }
    const after = await kept(t.db);
    expect(after.filter((r) => r.period_id === jan.id).reduce((n, r) => n + r.n, 0)).toBeGreaterThan(0);
  });
});

describe('completeness counts under concurrency', () => {
  it('when many transactions approve, send back and submit reports of one period at once, then every change is counted (on PostgreSQL they overlap)', async () => {
    const org = await createOrganization(t.db);
    const market = await createMarket(t.db, org.id);
    const period = await insertPeriod(t.db, market.id, '2030-05', 'open', null);
    const companies: number[] = [];
    for (let i = 0; i < 12; i++) companies.push(await insertMemberCompany(t.db, org.id, market.id));
    for (const c of companies) await setReport(t.db, period.id, c, ReportStatus.WaitingForApproval);
    const statuses = [60, 50, 20, 60, 60, 50, 60, 20, 60, 60, 50, 60];
    await Promise.all(
      companies.map((company, i) =>
        t.db.transaction(async (tx) => {
          await tx.execute(sql`update reports set status = ${statuses[i]!} where period_id = ${period.id} and company_id = ${company}`);
          // Held open a moment, so that on a PostgreSQL server the transactions overlap before they commit.
          await tx.execute(sql`select pg_sleep(0.02)`);
        }),
      ),
    );
    const counts = (await kept(t.db)).filter((r) => r.period_id === period.id);
    expect(counts).toEqual([
      { period_id: period.id, status: 20, n: 2 },
      { period_id: period.id, status: 50, n: 3 },
      { period_id: period.id, status: 60, n: 7 },
    ]);
  });
});

describe('GET /completeness', () => {
  async function world() {
    const org = await createOrganization(t.db);
    const sweden = await createMarket(t.db, org.id, 'Sweden');
    const norway = await createMarket(t.db, org.id, 'Norway');
    const companies: number[] = [];
    for (let i = 0; i < 4; i++) companies.push(await insertMemberCompany(t.db, org.id, sweden.id));
    // 2020-01: past its deadline, one company missing: overdue. 2020-02: all submitted, one waiting.
    // 2020-03: all approved. 2020-04: closed with one missing (missing, not overdue). 2020-05: a draft.
    // 2020-06: deadline far ahead, all missing. Norway 2020-01: a market the market admin does not run.
    const periods = {
      jan: await insertPeriod(t.db, sweden.id, '2020-01', 'open', '2020-02-10'),
      feb: await insertPeriod(t.db, sweden.id, '2020-02', 'open', '2020-03-10'),
      mar: await insertPeriod(t.db, sweden.id, '2020-03', 'open', null),
      apr: await insertPeriod(t.db, sweden.id, '2020-04', 'closed', '2020-05-10'),
      may: await insertPeriod(t.db, sweden.id, '2020-05', 'draft', '2020-06-10'),
      jun: await insertPeriod(t.db, sweden.id, '2020-06', 'open', '2099-07-10'),
      norway: await insertPeriod(t.db, norway.id, '2020-01', 'open', '2020-02-10'),
    };
    const statuses: Record<string, number[]> = {
      jan: [60, 40, 20, 50],
      feb: [60, 60, 40, 40],
      mar: [60, 60, 60, 60],
      apr: [60, 60, 60, 20],
      jun: [20, 20, 20, 20],
    };
    for (const [key, list] of Object.entries(statuses)) {
      for (const [i, status] of list.entries()) await setReport(t.db, periods[key as keyof typeof periods].id, companies[i]!, status);
    }
    // A company disabled before March ends is not expected in March or later.
    const gone = await insertMemberCompany(t.db, org.id, sweden.id);
    await setReport(t.db, periods.jan.id, gone, 60);
    await setReport(t.db, periods.jun.id, gone, 20);
    await t.db.execute(sql`update companies set disabled_at = '2020-03-05T00:00:00Z' where id = ${gone}`);
    await setReport(t.db, periods.norway.id, companies[0]!, 20);
    const marketAdmin = await signInAs(t, ['market-admin'], { organizationId: org.id, marketIds: [sweden.id] });
    const admin = await signInAs(t, ['admin'], { organizationId: org.id });
    return { org, sweden, norway, periods, marketAdmin, admin };
  }
  const get = async (headers: Record<string, string>, query: string) => {
    const res = await t.app.inject({ url: `/api/v1/completeness?${query}`, headers });
    return { res, data: res.statusCode === 200 && !query.includes('format=') ? (res.json().data as Completeness) : null };
  };

  it('when a market admin asks for a year, then each opened period of their markets has its counts, overdue marked, drafts and other markets left out', async () => {
    const w = await world();
    const { res, data } = await get(w.marketAdmin.headers, 'from=2020-01&to=2020-12');
    expect(res.statusCode).toBe(200);
    const rows = data!.rows.map((r) => [r.period.title, r.market.international_name, r.expected, r.submitted, r.waiting, r.approved, r.missing, r.overdue]);
    expect(rows).toEqual([
      ['2020-06', 'Sweden', 4, 0, 0, 0, 4, false],
      ['2020-04', 'Sweden', 4, 3, 0, 3, 1, false],
      ['2020-03', 'Sweden', 4, 4, 0, 4, 0, false],
      ['2020-02', 'Sweden', 4, 4, 2, 2, 0, false],
      ['2020-01', 'Sweden', 5, 3, 1, 2, 2, true],
    ]);
    expect(data!.rows.at(-1)!.by_status).toEqual([
      { status: 20, count: 1 },
      { status: 40, count: 1 },
      { status: 50, count: 1 },
      { status: 60, count: 2 },
    ]);
    expect(data!.totals).toEqual({ periods: 5, expected: 21, submitted: 14, approved: 11, missing: 7, overdue: 1 });
    expect(data!.states).toEqual({ all: 5, missing: 3, overdue: 1, waiting: 1, complete: 1 });
  });

  it('when filtered by status, then only those rows come, and the totals and state counts stay those of the range', async () => {
    const w = await world();
    const titles = async (status: string) =>
      (await get(w.marketAdmin.headers, `from=2020-01&to=2020-12&status=${status}`)).data!.rows.map((r) => r.period.title);
    expect(await titles('missing')).toEqual(['2020-06', '2020-04', '2020-01']);
    expect(await titles('overdue')).toEqual(['2020-01']);
    expect(await titles('waiting')).toEqual(['2020-02']);
    expect(await titles('complete')).toEqual(['2020-03']);
    const { data } = await get(w.marketAdmin.headers, 'from=2020-01&to=2020-12&status=overdue');
    expect(data!.totals.periods).toBe(5);
  });

  it('when an administrator asks, then every market of the organization is in it; market_id narrows to one', async () => {
    const w = await world();
    const all = (await get(w.admin.headers, 'from=2020-01&to=2020-01')).data!;
    expect(all.rows.map((r) => r.market.international_name)).toEqual(['Norway', 'Sweden']);
    const one = (await get(w.admin.headers, `from=2020-01&to=2020-01&market_id=${w.norway.id}`)).data!;
    expect(one.rows.map((r) => [r.market.international_name, r.expected, r.missing, r.overdue])).toEqual([['Norway', 1, 1, true]]);
  });

  it('when the range is not given, then it is this year; a range backwards or over 120 months is refused with the reason', async () => {
    const w = await world();
    const year = new Date().toISOString().slice(0, 4);
    const { data } = await get(w.marketAdmin.headers, '');
    expect([data!.from, data!.to]).toEqual([`${year}-01`, `${year}-12`]);
    expect((await get(w.marketAdmin.headers, 'from=2020-03')).data!.to).toBe('2020-12');
    for (const query of ['from=2020-05&to=2020-04', 'from=2010-01&to=2020-01', 'from=2020-13', 'from=2020-1']) {
      const { res } = await get(w.marketAdmin.headers, query);
      expect(res.statusCode, query).toBe(422);
    }
    const { res } = await get(w.marketAdmin.headers, 'from=2020-05&to=2020-04');
    expect(res.json().message).toBe('Choose a range from an earlier month to a later one, at most 120 months.');
    expect((await get(w.marketAdmin.headers, 'from=2011-01&to=2020-12')).res.statusCode).toBe(200);
  });

  it('when someone asks for a market they do not run, then 403; another organization’s market is 404; a role without the ability is 403', async () => {
    const w = await world();
    expect((await get(w.marketAdmin.headers, `market_id=${w.norway.id}`)).res.statusCode).toBe(403);
    const other = await world();
    expect((await get(w.marketAdmin.headers, `market_id=${other.sweden.id}`)).res.statusCode).toBe(404);
    expect((await get(w.admin.headers, `market_id=${other.sweden.id}`)).res.statusCode).toBe(404);
    const viewer = await signInAs(t, ['viewer'], { organizationId: w.org.id, marketIds: [w.sweden.id] });
    expect((await get(viewer.headers, '')).res.statusCode).toBe(403);
  });

  it('when downloaded as csv or xlsx, then the rows of the filter come with a header block, in the reader’s language', async () => {
    const w = await world();
    const { res } = await get(w.marketAdmin.headers, 'from=2020-01&to=2020-12&status=missing&format=csv');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toContain('Completeness 2020-01 2020-12.csv');
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    expect(lines.slice(0, 4)).toEqual(['Months,2020-01 – 2020-12', 'Shown,Reports missing', expect.stringMatching(/^Overdue as of,\d{4}-\d{2}-\d{2}$/), '']);
    expect(lines[4]).toBe('Market,Period,Period status,Published,Deadline,Expected,Submitted,Waiting for approval,Approved,Missing,Overdue');
    expect(lines.slice(5)).toEqual([
      'Sweden,2020-06,open,,2099-07-10,4,0,0,0,4,',
      'Sweden,2020-04,closed,,2020-05-10,4,3,0,3,1,',
      'Sweden,2020-01,open,,2020-02-10,5,3,1,2,2,yes',
    ]);
    const changed = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/users/me',
      headers: w.marketAdmin.headers,
      payload: { first_name: 'Greta', last_name: 'Lund', phone: '', locale: 'sv-SE' },
    });
    expect(changed.statusCode).toBe(200);
    const swedish = await get(w.marketAdmin.headers, 'from=2020-01&to=2020-12&status=overdue&format=csv');
    expect(swedish.res.body).toContain(
      'Marknad,Period,Periodens status,Publicerad,Sista inlämningsdag,Förväntade,Inskickade,Väntar på godkännande,Godkända,Saknas,Försenad',
    );
    expect(swedish.res.body).toContain('Sweden,2020-01,öppen,,2020-02-10,5,3,1,2,2,ja');
    const xlsx = await get(w.marketAdmin.headers, 'from=2020-01&to=2020-12&format=xlsx');
    expect(xlsx.res.headers['content-type']).toContain('spreadsheetml');
    expect(xlsx.res.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });
});
