import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEntries } from '../db/schema.ts';
import { audit, purgeAudit, redact } from './audit.ts';
import { createOrganization, createReportWithCodes, createTestApp, createUser, PASSWORD, signInAs, type TestApp, XHR } from '../../test/helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const entriesOf = (where: { email?: string; userId?: number }) =>
  t.db
    .select()
    .from(auditEntries)
    .where(where.email ? eq(auditEntries.email, where.email) : eq(auditEntries.user_id, where.userId!))
    .orderBy(asc(auditEntries.id));

describe('the audit trail of signing in', () => {
  it('when a user signs in, issues a token, revokes it and signs out, then each is an entry with who, which organization, through what and from where, and no secret', async () => {
    const org = await createOrganization(t.db);
    const user = await createUser(t.db, { roles: ['admin'], organizationIds: [org.id] });
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: XHR,
      payload: { email: user.email, password: PASSWORD },
      remoteAddress: '10.1.2.3',
    });
    expect(login.statusCode).toBe(200);
    const cookie = `mss_session=${login.cookies.find((c) => c.name === 'mss_session')!.value}`;
    const token = await t.app.inject({
      method: 'POST',
      url: '/api/v1/users/me/tokens',
      headers: { ...XHR, cookie },
      payload: { device_name: 'ERP export' },
      remoteAddress: '10.1.2.3',
    });
    expect(token.statusCode, token.body).toBe(201);
    const tokens = (await t.app.inject({ url: '/api/v1/users/me/tokens', headers: { ...XHR, cookie } })).json().data as { id: number }[];
    const revoked = await t.app.inject({
      method: 'DELETE',
      url: `/api/v1/users/me/tokens/${tokens[0]!.id}`,
      headers: { ...XHR, cookie },
      remoteAddress: '10.1.2.3',
    });
    expect(revoked.statusCode, revoked.body).toBe(204);
    const logout = await t.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: { ...XHR, cookie }, remoteAddress: '10.1.2.3' });
    expect(logout.statusCode).toBe(204);

    const entries = await entriesOf({ userId: user.id });
    expect(entries.map((e) => e.action)).toEqual(['auth.sign_in', 'auth.token_issued', 'auth.token_revoked', 'auth.sign_out']);
    const [signIn, issued, tokenRevoked, signOut] = entries;
    expect(signIn).toMatchObject({ organization_id: org.id, email: user.email, via: 'session', ip: '10.1.2.3', record_type: 'session' });
    expect(signIn!.session_id).toBe(Number(signIn!.record_id));
    // Made on the profile: by the browser session, the new token the record.
    expect(issued).toMatchObject({
      organization_id: org.id,
      via: 'session',
      session_id: signIn!.session_id,
      details: { device_name: 'ERP export', scope: 'all' },
    });
    expect(issued!.record_id).toBe(String(tokens[0]!.id));
    // Revoked by the browser session, of the token: the actor's session, the token as the record.
    expect(tokenRevoked).toMatchObject({ via: 'session', session_id: signIn!.session_id, record_id: String(tokens[0]!.id), ip: '10.1.2.3' });
    expect(signOut).toMatchObject({ via: 'session', session_id: signIn!.session_id, ip: '10.1.2.3' });
    // Neither the password nor the token is anywhere in the trail.
    const all = JSON.stringify(entries);
    expect(all).not.toContain(PASSWORD);
    expect(all).not.toContain(login.cookies.find((c) => c.name === 'mss_session')!.value);
    expect(all).not.toContain((token.json() as { data: { token: string } }).data.token);
  });

  it('when a sign-in fails with a wrong password or an unknown e-mail, then both are the same kind of entry (the trail does not tell which e-mails have an account either); a disabled user is named', async () => {
    const org = await createOrganization(t.db);
    const user = await createUser(t.db, { roles: ['viewer'], organizationIds: [org.id] });
    const disabled = await createUser(t.db, { roles: ['viewer'], organizationIds: [org.id], disabled: true });
    const tries = [
      { email: user.email, password: 'not-the-password' },
      { email: 'nobody-at-all@audit.test', password: 'not-the-password' },
      { email: disabled.email, password: PASSWORD },
    ];
    for (const payload of tries) {
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/auth/login', headers: XHR, payload, remoteAddress: '10.9.9.9' });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
    }
    const [wrong] = await entriesOf({ email: user.email });
    const [unknown] = await entriesOf({ email: 'nobody-at-all@audit.test' });
    const [off] = await entriesOf({ email: disabled.email });
    for (const entry of [wrong, unknown])
      expect(entry).toMatchObject({
        action: 'auth.sign_in_failed',
        user_id: null,
        organization_id: null,
        ip: '10.9.9.9',
        details: { reason: 'wrong_credentials' },
      });
    expect(off).toMatchObject({ action: 'auth.sign_in_failed', user_id: disabled.id, details: { reason: 'disabled' } });
    expect(JSON.stringify([wrong, unknown, off])).not.toContain('not-the-password');
  });
});

/** The database's own message of a refused statement (drizzle wraps it), or 'done'. */
const refusal = (statement: PromiseLike<unknown>) =>
  Promise.resolve(statement).then(
    () => 'done',
    (error: Error & { cause?: Error }) => error.cause?.message ?? error.message,
  );

describe('append-only', () => {
  it('when anything tries to change, delete or truncate an entry, then the database refuses', async () => {
    await audit(t.db, { action: 'auth.sign_out', actor: { userId: null, organizationId: null }, details: { probe: 'append-only' } });
    const [entry] = await t.db
      .select()
      .from(auditEntries)
      .where(sql`${auditEntries.details} ->> 'probe' = 'append-only'`);
    for (const statement of [
      sql`update audit_entries set action = 'auth.sign_in' where id = ${entry!.id}`,
      sql`delete from audit_entries where id = ${entry!.id}`,
      sql`truncate audit_entries`,
    ])
      expect(await refusal(t.db.execute(statement))).toMatch(/cannot be changed or deleted/);
    const [still] = await t.db.select().from(auditEntries).where(eq(auditEntries.id, entry!.id));
    expect(still).toEqual(entry);
  });

  it('when the retention purge runs, then exactly the entries older than AUDIT_RETENTION_MONTHS go, and a delete outside it is still refused', async () => {
    const org = await createOrganization(t.db);
    const at = (months: number) => sql`now() - make_interval(months => ${months})`;
    await t.db.insert(auditEntries).values([
      { organization_id: org.id, action: 'auth.sign_in', at: at(25) },
      { organization_id: org.id, action: 'auth.sign_in', at: at(23) },
      { organization_id: org.id, action: 'auth.sign_in', at: at(0) },
    ]);
    const ages = async () =>
      (
        await t.db.execute<{ months: number }>(
          sql`select (extract(year from age(now(), at)) * 12 + extract(month from age(now(), at)))::int as months from audit_entries where organization_id = ${org.id} order by at`,
        )
      ).rows.map((r) => r.months);
    expect(await ages()).toEqual([25, 23, 0]);
    expect(await purgeAudit(t.db, 24)).toBeGreaterThanOrEqual(1);
    expect(await ages()).toEqual([23, 0]);
    // The purge's cut-off was its own transaction's: nothing older can be deleted after it.
    expect(await refusal(t.db.delete(auditEntries).where(and(eq(auditEntries.organization_id, org.id))))).toMatch(/cannot be changed or deleted/);
  });
});

describe("reads of a company's figures", () => {
  it("when a market administrator and a super-administrator read a report, its rows and its file, then each read is an entry of the market's organization; the company's own reporter reading them is not recorded", async () => {
    const { reporter, report } = await createReportWithCodes(t, 2);
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/v1/reports/${report.uuid}/rows`,
      headers: { ...reporter, 'content-type': 'application/json' },
      payload: '[{"code":"1000001","volume":5,"value":7}]',
    });
    expect(put.statusCode, put.body).toBe(200);
    const importUuid = (put.json() as { data: { import: { uuid: string } } }).data.import.uuid;
    const { rows } = await t.db.execute<{ market_id: number; organization_id: number }>(
      sql`select p.market_id, m.organization_id from reports r join periods p on p.id = r.period_id join markets m on m.id = p.market_id where r.id = ${report.id}`,
    );
    const { market_id, organization_id } = rows[0]!;
    const approver = await signInAs(t, ['market-admin'], { organizationId: organization_id, marketIds: [market_id] });
    const root = await signInAs(t, ['super-admin']);
    const urls = [`/api/v1/reports/${report.uuid}`, `/api/v1/reports/${report.uuid}/rows`, `/api/v1/imports/${importUuid}/file`];
    for (const headers of [reporter, approver.headers, root.headers])
      for (const url of urls) expect((await t.app.inject({ url, headers, remoteAddress: '10.4.4.4' })).statusCode, url).toBe(200);
    const entries = await t.db
      .select()
      .from(auditEntries)
      .where(sql`${auditEntries.details} ->> 'company_id' = ${String(report.company_id)} and ${auditEntries.action} <> 'report.status_changed'`)
      .orderBy(asc(auditEntries.id));
    expect(entries.map((e) => [e.user_id, e.action, e.record_type])).toEqual(
      [approver.user.id, root.user.id].flatMap((id) => [
        [id, 'report.read', 'report'],
        [id, 'report.rows_read', 'report'],
        [id, 'report.file_read', 'import'],
      ]),
    );
    // A super-administrator belongs to no organization: the read is the market's organization's.
    expect(entries.every((e) => e.organization_id === organization_id && e.ip === '10.4.4.4')).toBe(true);
    expect(entries[2]!.details).toMatchObject({ report_uuid: report.uuid, file: 'original', file_name: 'rows.json' });
  });
});

describe('redact', () => {
  it('when a value holds passwords, tokens, hashes or recovery codes at any depth, then their values are hidden and the rest kept', () => {
    expect(
      redact({
        email: 'a@b.test',
        password: 'x',
        nested: { token_hash: 'y', list: [{ recovery_codes: ['1'], name: 'n' }] },
        totp_secret: 'z',
        at: new Date(0),
      }),
    ).toEqual({
      email: 'a@b.test',
      password: '[hidden]',
      nested: { token_hash: '[hidden]', list: [{ recovery_codes: '[hidden]', name: 'n' }] },
      totp_secret: '[hidden]',
      at: '1970-01-01T00:00:00.000Z',
    });
  });
});
