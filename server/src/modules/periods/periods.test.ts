import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createCompany, createMarket, createOrganization, createTestApp, createUser, signIn, signInAs, type TestApp, XHR } from '../../../test/helpers.ts';
import { companies, companyOrganizations, reports, reportStatusChanges } from '../../db/schema.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function setup() {
  const org = await createOrganization(t.db);
  const market = await createMarket(t.db, org.id, 'Sweden');
  const marketAdmin = await signInAs(t, ['market-admin'], { organizationId: org.id, marketIds: [market.id] });
  return { org, market, marketAdmin };
}

const create = (headers: Record<string, string>, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: '/api/v1/periods', headers, payload });
const act = (headers: Record<string, string>, uuid: string, action: string) =>
  t.app.inject({ method: 'POST', url: `/api/v1/periods/${uuid}/${action}`, headers });
const period = { title: '2026-10', starts_on: '2026-10-01', ends_on: '2026-10-31', deadline: '2026-11-10' };

describe('periods', () => {
  it('when a market admin creates a period, then it is a draft of that market and listed', async () => {
    const { market, marketAdmin } = await setup();
    const res = await create(marketAdmin.headers, { ...period, market_id: market.id });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ title: '2026-10', status: 'draft', published: false, market: { id: market.id }, report_count: 0 });
    const list = await t.app.inject({ url: `/api/v1/periods?market_id=${market.id}`, headers: marketAdmin.headers });
    expect(list.json().data.map((p: { title: string }) => p.title)).toEqual(['2026-10']);
  });

  it('when the title exists in the market, then 422 "This period (:title) does already exist in this market."', async () => {
    const { market, marketAdmin } = await setup();
    await create(marketAdmin.headers, { ...period, market_id: market.id });
    const again = await create(marketAdmin.headers, { ...period, title: '2026-10', market_id: market.id });
    expect(again.statusCode).toBe(422);
    expect(again.json()).toEqual({
      message: 'This period (2026-10) does already exist in this market.',
      errors: { title: ['This period (2026-10) does already exist in this market.'] },
    });
  });

  it('when a period is asked for by a title that does not exist, then 404 "The period (:title) does not exist." naming it', async () => {
    const { marketAdmin } = await setup();
    const res = await t.app.inject({ url: `/api/v1/periods/2026-13`, headers: marketAdmin.headers });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('The period (2026-13) does not exist.');
  });

  it('when a period uuid is unknown or another organization’s, then 404 that never shows a uuid as the period’s title', async () => {
    const { marketAdmin } = await setup();
    const foreign = await setup();
    const created = await create(foreign.marketAdmin.headers, { ...period, title: '2026-07', market_id: foreign.market.id });
    expect(created.statusCode).toBe(201);
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const uuid of [unknown, created.json().data.uuid as string]) {
      const asked = [
        await t.app.inject({ url: `/api/v1/periods/${uuid}`, headers: marketAdmin.headers }),
        await t.app.inject({ url: `/api/v1/periods/${uuid}/approval-list`, headers: marketAdmin.headers }),
        await t.app.inject({ method: 'POST', url: `/api/v1/periods/${uuid}/open`, headers: marketAdmin.headers }),
      ];
      for (const res of asked) {
        expect(res.statusCode, uuid).toBe(404);
        expect(res.json(), uuid).toEqual({ message: 'Could not find what you were looking for.' });
        // Neither the uuid nor the other organization's title.
        expect(res.body).not.toContain(uuid);
        expect(res.body).not.toContain('2026-07');
      }
    }
  });

  it('when opened, then every enabled company reporting in the market gets an Ongoing report, recorded in its history', async () => {
    const { org, market, marketAdmin } = await setup();
    const other = await createMarket(t.db, org.id, 'Norway');
    const a = await createCompany(t.db, [{ marketId: market.id, roles: ['reporter'] }], 'Alpha');
    const b = await createCompany(t.db, [{ marketId: market.id, roles: [] }], 'Beta');
    const gone = await createCompany(t.db, [{ marketId: market.id, roles: [] }], 'Gone');
    await t.db
      .update(companies)
      .set({ disabled_at: new Date(Date.now() - 1000) })
      .where(eq(companies.id, gone.id));
    await createCompany(t.db, [{ marketId: other.id, roles: [] }], 'Elsewhere');
    for (const c of [a, b, gone]) await t.db.insert(companyOrganizations).values({ company_id: c.id, organization_id: org.id });
    const p = (await create(marketAdmin.headers, { ...period, market_id: market.id })).json().data;
    const opened = await act(marketAdmin.headers, p.uuid, 'open');
    expect(opened.statusCode).toBe(200);
    expect(opened.json().data).toMatchObject({ status: 'open', report_count: 2 });
    const rows = await t.db.select({ company_id: reports.company_id, status: reports.status, id: reports.id }).from(reports);
    const mine = rows.filter((r) => [a.id, b.id, gone.id].includes(r.company_id));
    expect(mine.map((r) => r.company_id).sort()).toEqual([a.id, b.id].sort());
    expect(mine.every((r) => r.status === 20)).toBe(true);
    const history = await t.db.select().from(reportStatusChanges).where(eq(reportStatusChanges.report_id, mine[0]!.id));
    expect(history).toEqual([expect.objectContaining({ from_status: null, to_status: 20, user_id: marketAdmin.user.id })]);
    // Opening again is refused; closing, re-opening and publishing follow the states.
    expect((await act(marketAdmin.headers, p.uuid, 'open')).statusCode).toBe(409);
    expect((await act(marketAdmin.headers, p.uuid, 'close')).json().data.status).toBe('closed');
    expect((await act(marketAdmin.headers, p.uuid, 'publish')).json().data.published).toBe(true);
    expect((await act(marketAdmin.headers, p.uuid, 'unpublish')).json().data.published).toBe(false);
    const reopened = await act(marketAdmin.headers, p.uuid, 'open');
    expect(reopened.json().data).toMatchObject({ status: 'open', report_count: 2 });
    // Two closes at once: the lifecycle's status is in the write's condition, so one closes and the other is refused.
    const both = await Promise.all([act(marketAdmin.headers, p.uuid, 'close'), act(marketAdmin.headers, p.uuid, 'close')]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
  });

  it('when some reports are approved, then managers see the coverage and who is missing by status; reporters and viewers see none of it', async () => {
    const { org, market, marketAdmin } = await setup();
    const names = ['Delta', 'alpha', 'Charlie', 'Bravo', 'Gone'];
    const made = [];
    for (const name of names) made.push(await createCompany(t.db, [{ marketId: market.id, roles: ['reporter'] }], name));
    for (const c of made) await t.db.insert(companyOrganizations).values({ company_id: c.id, organization_id: org.id });
    const p = (await create(marketAdmin.headers, { ...period, market_id: market.id })).json().data;
    await act(marketAdmin.headers, p.uuid, 'open');
    const [delta, , charlie, bravo, gone] = made.map((c) => c.id);
    const setStatus = (companyId: number, status: number) => t.db.update(reports).set({ status }).where(eq(reports.company_id, companyId));
    await setStatus(delta!, 60);
    await setStatus(bravo!, 40);
    await setStatus(charlie!, 50);
    // A company disabled before the period ended is not counted (as in the statistics' coverage).
    await setStatus(gone!, 60);
    await t.db
      .update(companies)
      .set({ disabled_at: new Date('2026-10-15T00:00:00Z') })
      .where(eq(companies.id, gone!));
    const listed = async (headers: Record<string, string>) =>
      (await t.app.inject({ url: `/api/v1/periods?market_id=${market.id}`, headers })).json().data.find((x: { uuid: string }) => x.uuid === p.uuid);
    expect((await listed(marketAdmin.headers)).coverage).toEqual({
      approved: 1,
      expected: 4,
      missing: [
        { status: 20, companies: ['alpha'] },
        { status: 40, companies: ['Bravo'] },
        { status: 50, companies: ['Charlie'] },
      ],
    });
    const reporter = await signInAs(t, ['reporter'], { organizationId: org.id, marketIds: [market.id] });
    expect((await listed(reporter.headers)).coverage).toBeNull();
    await act(marketAdmin.headers, p.uuid, 'close');
    await act(marketAdmin.headers, p.uuid, 'publish');
    const viewer = await signInAs(t, ['viewer'], { organizationId: org.id, marketIds: [market.id] });
    const seen = await listed(viewer.headers);
    expect(seen.published).toBe(true);
    expect(seen.coverage).toBeNull();
  });

  it('when a draft is published, then 409; a draft cannot be closed', async () => {
    const { market, marketAdmin } = await setup();
    const p = (await create(marketAdmin.headers, { ...period, market_id: market.id })).json().data;
    expect((await act(marketAdmin.headers, p.uuid, 'publish')).statusCode).toBe(409);
    const close = await act(marketAdmin.headers, p.uuid, 'close');
    expect(close.statusCode).toBe(409);
    expect(close.json().message).toBe('The period is draft, so this cannot be done.');
    // In Finnish, the state too.
    const finnish = await act({ ...marketAdmin.headers, 'accept-language': 'fi-FI' }, p.uuid, 'close');
    expect(finnish.json().message).toBe('Kauden tila on luonnos, joten tätä ei voi tehdä.');
  });

  it('when a user manages another market or another organization, then the period is refused or invisible', async () => {
    const { org, market, marketAdmin } = await setup();
    const p = (await create(marketAdmin.headers, { ...period, market_id: market.id })).json().data;
    const otherMarket = await createMarket(t.db, org.id);
    const neighbour = await signInAs(t, ['market-admin'], { organizationId: org.id, marketIds: [otherMarket.id] });
    expect((await create(neighbour.headers, { ...period, market_id: market.id })).statusCode).toBe(403);
    expect((await act(neighbour.headers, p.uuid, 'open')).statusCode).toBe(403);
    const stranger = await signInAs(t, ['admin']);
    expect((await t.app.inject({ url: `/api/v1/periods/${p.uuid}`, headers: stranger.headers })).statusCode).toBe(404);
    expect((await t.app.inject({ url: `/api/v1/periods?market_id=${market.id}`, headers: stranger.headers })).statusCode).toBe(404);
    const viewer = await signInAs(t, ['viewer'], { organizationId: org.id, marketIds: [market.id] });
    expect((await t.app.inject({ url: `/api/v1/periods?market_id=${market.id}`, headers: viewer.headers })).statusCode).toBe(200);
    expect((await act(viewer.headers, p.uuid, 'open')).statusCode).toBe(403);
  });

  it('when a cluster admin asks for the cluster list, then the periods of all their markets', async () => {
    const { org, market, marketAdmin } = await setup();
    const norway = await createMarket(t.db, org.id, 'Norway');
    const clusterAdmin = await signInAs(t, ['cluster-admin'], { organizationId: org.id, marketIds: [market.id, norway.id] });
    await create(marketAdmin.headers, { ...period, market_id: market.id });
    expect((await create(clusterAdmin.headers, { ...period, market_id: norway.id })).statusCode).toBe(201);
    const list = await t.app.inject({ url: '/api/v1/periods?cluster=1', headers: clusterAdmin.headers });
    expect(list.json().data.map((p: { market: { international_name: string } }) => p.market.international_name)).toEqual(['Norway', 'Sweden']);
  });

  it('when the end is before the start, then 422', async () => {
    const { market, marketAdmin } = await setup();
    const res = await create(marketAdmin.headers, { ...period, ends_on: '2026-09-01', market_id: market.id });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['ends_on']);
  });

  describe('who sees which periods (viewers once got drafts and unpublished periods)', () => {
    /** A market with a draft, an open, a closed and a published period, newest first as listed. */
    async function periodsInEveryState() {
      const { org, market, marketAdmin } = await setup();
      const make = async (title: string, month: string, actions: string[]) => {
        const p = (await create(marketAdmin.headers, { title, starts_on: `2026-${month}-01`, ends_on: `2026-${month}-28`, market_id: market.id })).json().data;
        for (const action of actions) expect((await act(marketAdmin.headers, p.uuid, action)).statusCode).toBe(200);
        return p.uuid as string;
      };
      const uuids = {
        draft: await make('Draft', '04', []),
        open: await make('Open', '03', ['open']),
        closed: await make('Closed', '02', ['open', 'close']),
        published: await make('Published', '01', ['open', 'close', 'publish']),
      };
      return { org, market, marketAdmin, uuids };
    }
    const titles = async (headers: Record<string, string>, query: string) =>
      (await t.app.inject({ url: `/api/v1/periods${query}`, headers })).json().data.map((p: { title: string }) => p.title);

    it('when a viewer, cluster viewer or statistics-only user asks, then only published periods; an unpublished one is "The period is not yet published for viewing."', async () => {
      const { org, market, uuids } = await periodsInEveryState();
      for (const role of ['viewer', 'cluster-viewer', 'just-stats'] as const) {
        const user = await signInAs(t, [role], { organizationId: org.id, marketIds: [market.id] });
        expect(await titles(user.headers, `?market_id=${market.id}`), role).toEqual(['Published']);
        expect(await titles(user.headers, ''), role).toEqual(['Published']);
        expect((await t.app.inject({ url: `/api/v1/periods/${uuids.published}`, headers: user.headers })).statusCode).toBe(200);
        for (const uuid of [uuids.draft, uuids.open, uuids.closed]) {
          const res = await t.app.inject({ url: `/api/v1/periods/${uuid}`, headers: user.headers });
          expect(res.statusCode, role).toBe(403);
          expect(res.json()).toEqual({ message: 'The period is not yet published for viewing.' });
        }
      }
    });

    it('when a reporter or a company user asks, then the periods that have reports (open, closed, published), not drafts', async () => {
      const { org, market, uuids } = await periodsInEveryState();
      const reporter = await signInAs(t, ['reporter'], { organizationId: org.id, marketIds: [market.id] });
      // The company role held through the company's market, as the demo's company user holds it.
      const company = await createCompany(t.db, [{ marketId: market.id, roles: ['company'] }]);
      const follower = await createUser(t.db, { organizationIds: [org.id], companyId: company.id });
      const followerHeaders = { ...XHR, cookie: await signIn(t.app, follower.email) };
      for (const headers of [reporter.headers, followerHeaders]) {
        expect(await titles(headers, `?market_id=${market.id}`)).toEqual(['Open', 'Closed', 'Published']);
        expect((await t.app.inject({ url: `/api/v1/periods/${uuids.open}`, headers })).statusCode).toBe(200);
        const draft = await t.app.inject({ url: `/api/v1/periods/${uuids.draft}`, headers });
        expect(draft.statusCode).toBe(403);
        expect(draft.json()).toEqual({ message: 'The period is not yet published for viewing.' });
      }
    });

    it('when an approver of the market asks, then every period, drafts included', async () => {
      const { org, market, marketAdmin } = await periodsInEveryState();
      expect(await titles(marketAdmin.headers, `?market_id=${market.id}`)).toEqual(['Draft', 'Open', 'Closed', 'Published']);
      const clusterAdmin = await signInAs(t, ['cluster-admin'], { organizationId: org.id, marketIds: [market.id] });
      expect(await titles(clusterAdmin.headers, `?market_id=${market.id}`)).toEqual(['Draft', 'Open', 'Closed', 'Published']);
    });
  });
});
