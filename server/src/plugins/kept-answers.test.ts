import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMarket, createOrganization, createTestApp, insertMemberCompany, insertReport, signIn, signInAs, type TestApp, XHR } from '../../test/helpers.ts';
import { COMPACT_DATA_CHANGES_SQL, DATA_VERSION_SQL, KeptAnswers } from '../lib/kept-answers.ts';
import { publishPeriod } from '../modules/statistics/disclosure/statistics.publications.ts';
import { KEPT_ANSWER_HEADER } from './kept-answers.ts';

/*
 * Kept answers (docs/decisions.md "Kept answers"): a read asked again while the app's data is
 * unchanged is answered as it was; any change, through the API or not, and any other caller, is
 * computed again; what a read records (the audit trail) is never skipped.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const codesUrl = '/api/v1/admin/codes?per_page=100';

describe('kept answers', () => {
  it('when the same caller reads again and nothing changed, then the same answer comes kept; after a change through the API it is computed again and holds the change', async () => {
    const admin = await signInAs(t, ['admin']);
    const post = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/codes',
      headers: admin.headers,
      payload: { code: 'K1', name: 'Before', disabled_status: 0, market_ids: [] },
    });
    expect(post.statusCode, post.body).toBe(201);
    const first = await t.app.inject({ url: codesUrl, headers: admin.headers });
    expect(first.headers[KEPT_ANSWER_HEADER]).toBe('miss');
    const second = await t.app.inject({ url: codesUrl, headers: admin.headers });
    expect(second.headers[KEPT_ANSWER_HEADER]).toBe('hit');
    expect(second.body).toBe(first.body);
    expect(second.headers['content-type']).toBe(first.headers['content-type']);
    expect(second.headers['cache-control']).toBe('no-store');

    const id = post.json().data.id as number;
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/admin/codes/${id}`,
      headers: admin.headers,
      payload: { code: 'K1', name: 'After', disabled_status: 0, market_ids: [] },
    });
    expect(put.statusCode, put.body).toBe(200);
    const third = await t.app.inject({ url: codesUrl, headers: admin.headers });
    expect(third.headers[KEPT_ANSWER_HEADER]).toBe('miss');
    expect(third.json().data.map((c: { name: string }) => c.name)).toEqual(['After']);
  });

  it('when the database is changed outside the API (an operator, another process), then the next read holds the change', async () => {
    const admin = await signInAs(t, ['admin']);
    await t.db.execute(sql`insert into codes (organization_id, code, name) values (${admin.organizationId!}, 'OUT', 'Outside')`);
    await t.app.inject({ url: codesUrl, headers: admin.headers });
    expect((await t.app.inject({ url: codesUrl, headers: admin.headers })).headers[KEPT_ANSWER_HEADER]).toBe('hit');
    await t.db.execute(sql`update codes set name = 'Changed in SQL' where organization_id = ${admin.organizationId!}`);
    const after = await t.app.inject({ url: codesUrl, headers: admin.headers });
    expect(after.headers[KEPT_ANSWER_HEADER]).toBe('miss');
    expect(after.json().data.map((c: { name: string }) => c.name)).toEqual(['Changed in SQL']);
  });

  it('when another caller asks the same, then the answer is theirs: an approver’s provisional figures never reach a viewer, nor one organization’s codes another', async () => {
    const org = await createOrganization(t.db);
    const market = await createMarket(t.db, org.id);
    const code = (await t.db.execute<{ id: number }>(sql`insert into codes (organization_id, code, name) values (${org.id}, '1001', 'Code') returning id`))
      .rows[0]!.id;
    await t.db.execute(sql`insert into code_markets (code_id, market_id) values (${code}, ${market.id})`);
    const period = (
      await t.db.execute<{ id: number; uuid: string }>(sql`
        insert into periods (market_id, title, starts_on, ends_on, status) values (${market.id}, '2026-05', '2026-05-01', '2026-05-31', 'closed')
        returning id, uuid::text as uuid`)
    ).rows[0]!;
    for (const volume of ['10', '20', '30']) {
      const company = await insertMemberCompany(t.db, org.id, market.id);
      await insertReport(t.db, { periodId: period.id, companyId: company, status: 60, rows: [{ codeId: code, volume, value: '100' }] });
    }
    const approver = await signInAs(t, ['market-admin'], { organizationId: org.id, marketIds: [market.id] });
    const viewer = await signInAs(t, ['viewer'], { organizationId: org.id, marketIds: [market.id] });
    const url = `/api/v1/statistics/market?period_uuid=${period.uuid}&by=code`;
    for (let i = 0; i < 3; i++) expect((await t.app.inject({ url, headers: approver.headers })).statusCode).toBe(200);
    expect((await t.app.inject({ url, headers: approver.headers })).headers[KEPT_ANSWER_HEADER]).toBe('hit');
    const refused = await t.app.inject({ url, headers: viewer.headers });
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json()).toEqual({ message: 'The period is not yet published for viewing.' });

    // Published: both read it, each their own answer (the approver's tells the reasons, the viewer's not).
    await publishPeriod(t.db, period.id, { actorId: null, mark: true });
    const approverAnswer = await t.app.inject({ url, headers: approver.headers });
    const viewerAnswer = await t.app.inject({ url, headers: viewer.headers });
    expect(viewerAnswer.statusCode, viewerAnswer.body).toBe(200);
    expect(viewerAnswer.headers[KEPT_ANSWER_HEADER]).toBe('miss');
    expect(viewerAnswer.json().data.rows[0].volume).toBe(approverAnswer.json().data.rows[0].volume);

    // Another organization's administrator asking the same list gets their own organization's codes.
    const other = await signInAs(t, ['admin']);
    const mine = await signInAs(t, ['admin'], { organizationId: org.id });
    await t.app.inject({ url: codesUrl, headers: mine.headers });
    const theirs = await t.app.inject({ url: codesUrl, headers: other.headers });
    expect(theirs.headers[KEPT_ANSWER_HEADER]).toBe('miss');
    expect(theirs.json().data).toEqual([]);
  });

  it('when a read is recorded in the audit trail (the breakdown by company, a download), then it is computed and recorded every time', async () => {
    const org = await createOrganization(t.db);
    const market = await createMarket(t.db, org.id);
    const period = (
      await t.db.execute<{ uuid: string }>(sql`
        insert into periods (market_id, title, starts_on, ends_on, status) values (${market.id}, '2026-06', '2026-06-01', '2026-06-30', 'closed')
        returning uuid::text as uuid`)
    ).rows[0]!;
    const approver = await signInAs(t, ['market-admin'], { organizationId: org.id, marketIds: [market.id] });
    const entries = async () =>
      (
        await t.db.execute<{ n: number }>(
          sql`select count(*)::int as n from audit_entries where user_id = ${approver.user.id} and action in ('statistics.company_read', 'statistics.downloaded')`,
        )
      ).rows[0]!.n;
    for (const query of ['by=company', 'by=code&format=csv']) {
      const url = `/api/v1/statistics/market?period_uuid=${period.uuid}&${query}`;
      const before = await entries();
      for (let i = 0; i < 3; i++) {
        const res = await t.app.inject({ url, headers: approver.headers });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.headers[KEPT_ANSWER_HEADER]).toBeUndefined();
      }
      expect(await entries()).toBe(before + 3);
    }
  });

  it('when someone signs in (a session written, an audit entry), then the data has not changed and the answer is still the kept one', async () => {
    const admin = await signInAs(t, ['admin']);
    await t.app.inject({ url: codesUrl, headers: admin.headers });
    expect((await t.app.inject({ url: codesUrl, headers: admin.headers })).headers[KEPT_ANSWER_HEADER]).toBe('hit');
    const viewer = await signInAs(t, ['viewer']);
    await t.app.inject({ url: codesUrl, headers: admin.headers });
    // The viewer signs in again, and fails once: sessions, login attempts and audit entries are written.
    await signIn(t.app, viewer.user.email);
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', headers: XHR, payload: { email: viewer.user.email, password: 'wrong-password' } }))
        .statusCode,
    ).toBe(422);
    expect((await t.app.inject({ url: codesUrl, headers: admin.headers })).headers[KEPT_ANSWER_HEADER]).toBe('hit');
  });

  it('when the recorded changes are compacted, then the version is the same and the kept answer still answers', async () => {
    const admin = await signInAs(t, ['admin']);
    await t.db.execute(sql`insert into codes (organization_id, code, name) values (${admin.organizationId!}, 'C1', 'Compacted')`);
    const version = async () => (await t.database.pool.query<{ version: string }>(DATA_VERSION_SQL)).rows[0]!.version;
    await t.app.inject({ url: codesUrl, headers: admin.headers });
    const before = await version();
    expect(Number((await t.database.pool.query('select count(*) as n from data_changes')).rows[0].n)).toBeGreaterThan(0);
    await t.database.pool.query(COMPACT_DATA_CHANGES_SQL);
    expect(Number((await t.database.pool.query('select count(*) as n from data_changes')).rows[0].n)).toBe(0);
    expect(await version()).toBe(before);
    expect((await t.app.inject({ url: codesUrl, headers: admin.headers })).headers[KEPT_ANSWER_HEADER]).toBe('hit');
    await t.db.execute(sql`update codes set name = 'After compacting' where organization_id = ${admin.organizationId!}`);
    expect(await version()).not.toBe(before);
    const after = await t.app.inject({ url: codesUrl, headers: admin.headers });
    expect(after.json().data.map((c: { name: string }) => c.name)).toEqual(['After compacting']);
  });

  it('when several read the same at once after a change, then one computes and the others get its answer', async () => {
    const admin = await signInAs(t, ['admin']);
    await t.db.execute(sql`insert into codes (organization_id, code, name) values (${admin.organizationId!}, 'T1', 'Together')`);
    const answers = await Promise.all(Array.from({ length: 6 }, () => t.app.inject({ url: codesUrl, headers: admin.headers })));
    expect(answers.map((a) => a.headers[KEPT_ANSWER_HEADER]).sort()).toEqual(['hit', 'hit', 'hit', 'hit', 'hit', 'miss']);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
  });

  it('when an answer fails, then it is not kept', async () => {
    const viewer = await signInAs(t, ['viewer']);
    for (let i = 0; i < 2; i++) {
      const res = await t.app.inject({ url: codesUrl, headers: viewer.headers });
      expect(res.statusCode).toBe(403);
    }
    expect(t.app.keptAnswers.size).toBeLessThan(100);
  });
});

describe('the version of the data', () => {
  /** What changes on every sign-in or request and no kept answer reads. */
  const NOT_COUNTED = ['audit_entries', 'data_change_base', 'data_changes', 'idempotency_keys', 'login_attempts', 'password_resets', 'sessions'];

  it('is moved on by a write to every table of the app’s data: each has the trigger (a new table must get it too)', async () => {
    const tables = await t.db.execute<{ table: string; counted: boolean }>(sql`
      select c.relname as table, exists (select 1 from pg_trigger g where g.tgrelid = c.oid and g.tgname = 'data_changed') as counted
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') order by 1`);
    expect(tables.rows.length).toBeGreaterThan(50);
    expect(tables.rows.filter((r) => !r.counted).map((r) => r.table)).toEqual(NOT_COUNTED);
  });
});

describe('the store of kept answers', () => {
  const answer = (body: string) => ({ body, contentType: 'application/json' });

  it('when asked under another version, then it has nothing; it keeps the answers of the two latest versions', () => {
    const kept = new KeptAnswers(1024 * 1024);
    kept.set('1:5:', 'a', answer('one'));
    expect(kept.get('1:5:', 'a')?.body).toBe('one');
    expect(kept.get('1:6:', 'a')).toBeUndefined();
    kept.set('1:6:', 'a', answer('two'));
    kept.set('1:7:', 'a', answer('three'));
    expect(kept.get('1:5:', 'a')).toBeUndefined();
    expect(kept.get('1:6:', 'a')?.body).toBe('two');
    expect(kept.get('1:7:', 'a')?.body).toBe('three');
    expect(kept.get('1:7:', 'b')).toBeUndefined();
  });

  it('when full, then the oldest answers go first, and an answer larger than a quarter of it is not kept', () => {
    const kept = new KeptAnswers(1000);
    kept.set('s', 'big', answer('x'.repeat(200)));
    expect(kept.size).toBe(0);
    for (let i = 0; i < 10; i++) kept.set('s', `k${i}`, answer('y'.repeat(100)));
    expect(kept.size).toBe(5);
    expect(kept.get('s', 'k0')).toBeUndefined();
    expect(kept.get('s', 'k9')?.body).toHaveLength(100);
  });

  it('when turned off (KEPT_ANSWERS_MB=0), then every read is computed', async () => {
    const off = await createTestApp({ KEPT_ANSWERS_MB: '0' });
    try {
      const admin = await signInAs(off, ['admin']);
      for (let i = 0; i < 2; i++) expect((await off.app.inject({ url: codesUrl, headers: admin.headers })).headers[KEPT_ANSWER_HEADER]).toBeUndefined();
    } finally {
      await off.close();
    }
  });
});
