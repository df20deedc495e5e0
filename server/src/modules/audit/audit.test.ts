import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries } from '../../db/schema.ts';
import { audit } from '../../audit/audit.ts';
import { createMarket, createOrganization, createReportWithCodes, createTestApp, PASSWORD, signInAs, type TestApp, XHR } from '../../../test/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const entriesBy = (userId: number) => t.db.select().from(auditEntries).where(eq(auditEntries.user_id, userId)).orderBy(asc(auditEntries.id));

describe('the audit trail of changes', () => {
  it('when an administrator creates, changes and deletes a cluster and a market, then each is an entry: the record created or deleted whole, an update with only the fields it changed', async () => {
    const admin = await signInAs(t, ['admin']);
    const orgId = admin.organizationId!;
    const call = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
      t.app.inject({ method, url: `/api/v1${url}`, headers: admin.headers, payload, remoteAddress: '10.7.7.7' });
    const currency = (
      await t.db.execute<{ id: number }>(
        sql`insert into currencies (iso_code, name) values ('NOK', 'Krone') on conflict (iso_code) do update set name = excluded.name returning id`,
      )
    ).rows[0]!.id;
    const marketBody = { international_name: 'Norway', local_name: 'Norge', iso_code: 'NO', currency_id: currency };
    const market = await call('POST', '/admin/markets', marketBody);
    expect(market.statusCode, market.body).toBe(201);
    const marketId = market.json().data.id as number;
    expect((await call('PUT', `/admin/markets/${marketId}`, { ...marketBody, local_name: 'Noreg' })).statusCode).toBe(200);
    const cluster = await call('POST', '/admin/clusters', { name: 'North', market_ids: [marketId] });
    expect(cluster.statusCode, cluster.body).toBe(201);
    const clusterId = cluster.json().data.id as number;
    expect((await call('PUT', `/admin/clusters/${clusterId}`, { name: 'Far north', market_ids: [marketId] })).statusCode).toBe(200);
    expect((await call('DELETE', `/admin/clusters/${clusterId}`)).statusCode).toBe(204);
    // A refused change leaves no entry.
    expect((await call('PUT', `/admin/clusters/${clusterId}`, { name: 'Gone', market_ids: [] })).statusCode).toBe(404);

    const entries = await entriesBy(admin.user.id);
    const changes = entries.filter((e) => !e.action.startsWith('auth.'));
    expect(changes.map((e) => [e.action, e.record_type, e.record_id])).toEqual([
      ['market.created', 'market', String(marketId)],
      ['market.updated', 'market', String(marketId)],
      ['cluster.created', 'cluster', String(clusterId)],
      ['cluster.updated', 'cluster', String(clusterId)],
      ['cluster.deleted', 'cluster', String(clusterId)],
    ]);
    expect(changes.every((e) => e.organization_id === orgId && e.ip === '10.7.7.7' && e.via === 'session' && e.email === admin.user.email)).toBe(true);
    expect(changes[0]!.after).toMatchObject({ international_name: 'Norway', local_name: 'Norge', iso_code: 'NO' });
    expect(changes[1]).toMatchObject({ before: { id: marketId, local_name: 'Norge' }, after: { id: marketId, local_name: 'Noreg' } });
    expect(changes[3]).toMatchObject({ before: { id: clusterId, name: 'North' }, after: { id: clusterId, name: 'Far north' } });
    expect(Object.keys(changes[3]!.after as object).sort()).toEqual(['id', 'name']);
    expect(changes[4]).toMatchObject({ before: { name: 'Far north' }, after: null });

    // A super-administrator's change is in the record's organization's trail, where its administrators look.
    const root = await signInAs(t, ['super-admin']);
    const theirs = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/clusters',
      headers: root.headers,
      payload: { organization_id: orgId, name: 'By the super-administrator', market_ids: [] },
    });
    expect(theirs.statusCode, theirs.body).toBe(201);
    const [entry] = await entriesBy(root.user.id).then((all) => all.filter((e) => e.action === 'cluster.created'));
    expect(entry).toMatchObject({ organization_id: orgId, record_id: String(theirs.json().data.id) });
  });

  it("when a period is created and opened and a report uploaded and submitted, then each is an entry of the market's organization, a status change by who asked (the import job's by nobody)", async () => {
    const { reporter, report } = await createReportWithCodes(t, 1);
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/reports/${report.uuid}/rows`,
      headers: { ...reporter, 'content-type': 'application/json' },
      payload: '[{"code":"1000001","volume":5,"value":7}]',
      remoteAddress: '10.8.8.8',
    });
    expect(put.statusCode, put.body).toBe(200);
    const submit = await t.app.inject({
      method: 'POST',
      url: `/api/v1/reports/${report.uuid}/status`,
      headers: reporter,
      payload: { status: 40 },
      remoteAddress: '10.8.8.8',
    });
    expect(submit.statusCode, submit.body).toBe(200);
    const entries = await t.db.select().from(auditEntries).where(eq(auditEntries.record_id, report.uuid)).orderBy(asc(auditEntries.id));
    const statuses = entries.filter((e) => e.action === 'report.status_changed');
    expect(
      statuses.map((e) => [(e.details as { event: string }).event, (e.before as { status: number }).status, (e.after as { status: number }).status]),
    ).toEqual([
      ['upload', 20, 10],
      ['file_valid', 10, 30],
      ['rows_stored', 30, 20],
      ['submit', 20, 40],
    ]);
    expect(statuses[0]).toMatchObject({ ip: '10.8.8.8', via: 'session' });
    expect(statuses[0]!.user_id).not.toBeNull();
    expect(statuses[1]!.user_id).toBeNull();
    const { rows } = await t.db.execute<{ organization_id: number; period_uuid: string }>(
      sql`select m.organization_id, p.uuid::text as period_uuid from reports r join periods p on p.id = r.period_id join markets m on m.id = p.market_id where r.id = ${report.id}`,
    );
    expect(statuses.every((e) => e.organization_id === rows[0]!.organization_id)).toBe(true);
    const period = await t.db.select().from(auditEntries).where(eq(auditEntries.record_id, rows[0]!.period_uuid)).orderBy(asc(auditEntries.id));
    expect(period.map((e) => e.action)).toEqual(['period.created', 'period.opened']);
    expect(period[1]!.details).toMatchObject({ title: '2026-10', status: 'open' });
  });

  it('when a user changes their profile and password and an administrator changes a setting, then each is an entry and no password is in any', async () => {
    const admin = await signInAs(t, ['admin']);
    const profile = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/users/me',
      headers: admin.headers,
      payload: { first_name: 'Astrid', last_name: 'User', phone: '', locale: 'sv-SE' },
    });
    expect(profile.statusCode, profile.body).toBe(200);
    const password = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/users/me/password',
      headers: admin.headers,
      payload: { current_password: PASSWORD, password: 'another-long-password', password_confirmation: 'another-long-password' },
    });
    expect(password.statusCode, password.body).toBe(204);
    const setting = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/admin/organizations/${admin.organizationId}/settings`,
      headers: admin.headers,
      payload: { settings: { estimate_missing_reports: 1 } },
    });
    expect(setting.statusCode, setting.body).toBe(200);
    const entries = (await entriesBy(admin.user.id)).filter((e) => !e.action.startsWith('auth.sign'));
    expect(entries.map((e) => e.action)).toEqual(['user.updated', 'auth.password_changed', 'organization.updated']);
    expect(entries[0]).toMatchObject({ before: { first_name: 'Test', locale: 'en-US' }, after: { first_name: 'Astrid', locale: 'sv-SE' } });
    expect(entries[2]!.record_id).toBe(String(admin.organizationId));
    expect(JSON.stringify(entries)).not.toMatch(/another-long-password|correct-horse/);
  });
});

describe('reading the audit trail', () => {
  it("when an administrator reads it, then they see their organization's entries only, filtered by person, record, action and time; another organization's entry is 404; a super-administrator sees all", async () => {
    const a = await signInAs(t, ['admin']);
    const b = await signInAs(t, ['admin']);
    const market = await createMarket(t.db, a.organizationId!);
    const mine = { userId: a.user.id, email: a.user.email, organizationId: a.organizationId! };
    await audit(t.db, { action: 'market.updated', actor: mine, record: { type: 'market', id: market.id }, before: { name: 'x' }, after: { name: 'y' } });
    await audit(t.db, { action: 'statistics.downloaded', actor: mine, details: { format: 'csv' } });
    await audit(t.db, { action: 'market.updated', actor: { userId: b.user.id, organizationId: b.organizationId! }, record: { type: 'market', id: 999 } });
    const read = (query: string, headers = a.headers) => t.app.inject({ url: `/api/v1/audit${query}`, headers });

    const all = await read('');
    expect(all.statusCode, all.body).toBe(200);
    const listed = all.json() as { data: { id: number; action: string; organization: { id: number } }[]; meta: { total: number } };
    expect(listed.data.every((e) => e.organization.id === a.organizationId)).toBe(true);
    expect(listed.data.map((e) => e.action)).toEqual(['statistics.downloaded', 'market.updated', 'auth.sign_in']);
    expect(listed.meta.total).toBe(3);
    expect((await read('?action=market.')).json().data).toHaveLength(1);
    expect((await read('?action=market.updated')).json().data[0]).toMatchObject({ record_type: 'market', record_id: String(market.id), before: { name: 'x' } });
    expect((await read(`?record_type=market&record_id=${market.id}`)).json().meta.total).toBe(1);
    expect((await read(`?user_id=${a.user.id}`)).json().meta.total).toBe(3);
    expect((await read(`?person=${a.user.email.slice(0, 8)}`)).json().meta.total).toBe(3);
    expect((await read('?from=2000-01-01&to=2000-12-31')).json().meta.total).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    expect((await read(`?from=${today}&to=${today}`)).json().meta.total).toBe(3);
    // Bad filters are refused, not ignored.
    expect((await read('?person=ab')).statusCode).toBe(422);
    expect((await read('?action=drop table')).statusCode).toBe(422);
    expect((await read('?from=2026-02-30')).statusCode).toBe(422);
    expect((await read('?from=2026-03-01&to=2026-02-01')).statusCode).toBe(422);
    // Another organization's entry, and its organization_id, do not cross.
    const theirs = (await read('', b.headers)).json().data as { id: number }[];
    expect((await read(`/${theirs[0]!.id}`)).statusCode).toBe(404);
    expect((await read(`/${listed.data[0]!.id}`)).statusCode).toBe(200);
    expect((await read(`?organization_id=${b.organizationId}`)).json().meta.total).toBe(3);

    const root = await signInAs(t, ['super-admin']);
    expect((await read(`/${theirs[0]!.id}`, root.headers)).statusCode).toBe(200);
    expect((await read(`?organization_id=${b.organizationId}`, root.headers)).json().meta.total).toBe(2);
    // Neither a market administrator nor a viewer reads it.
    for (const roles of [['market-admin'], ['viewer']] as const) {
      const other = await signInAs(t, [...roles], { organizationId: a.organizationId });
      expect((await read('', other.headers)).statusCode).toBe(403);
    }
    expect((await t.app.inject({ url: '/api/v1/audit', headers: XHR })).statusCode).toBe(401);
  });

  it('when an administrator downloads the entries as CSV, then the file holds what the filters match, newest first, with the change as JSON and formulas defused', async () => {
    const a = await signInAs(t, ['admin']);
    const org = await createOrganization(t.db);
    const actor = { userId: a.user.id, email: '=cmd|calc@example.test', organizationId: a.organizationId! };
    await audit(t.db, { action: 'company.updated', actor, record: { type: 'company', id: 5 }, before: { name: 'Old, "quoted"' }, after: { name: 'New' } });
    await audit(t.db, { action: 'company.deleted', actor: { ...actor, organizationId: org.id }, record: { type: 'company', id: 6 } });
    const res = await t.app.inject({ url: '/api/v1/audit/download?action=company.', headers: a.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="audit \d{4}-\d{2}-\d{2}\.csv"/);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('id,at,organization,user_id,email,via,session_id,ip,action,record_type,record_id,before,after,details');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`,${a.user.id},'=cmd|calc@example.test,`);
    expect(lines[1]).toContain(',company.updated,company,5,"{""name"":""Old, \\""quoted\\""""}","{""name"":""New""}",');
  });
});
