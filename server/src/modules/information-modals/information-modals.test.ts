import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createOrganization, createTestApp, signInAs, unique, type TestApp } from '../../../test/helpers.ts';
import { informationModalDismissals, informationModals } from '../../db/schema.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const url = '/api/v1/admin/information-modals';
/** The whole form, as the web sends it: active, no dates unless given. */
const whole = (fields: Record<string, unknown>) => ({ active: true, starts_on: null, ends_on: null, ...fields });

async function createModal(organizationId: number, values: { title?: string; active?: boolean; starts_on?: string | null; ends_on?: string | null } = {}) {
  const [modal] = await t.db
    .insert(informationModals)
    .values({ organization_id: organizationId, title: values.title ?? unique('Modal'), body: 'Read me.', ...values })
    .returning();
  return modal!;
}

describe('information modals administration', () => {
  it('when not signed in, then 401; without manage-organizations, then 403', async () => {
    expect((await t.app.inject({ url })).statusCode).toBe(401);
    const reporter = await signInAs(t, ['reporter']);
    const res = await t.app.inject({ url, headers: reporter.headers });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'Permission denied. Your user does not have permission to view this resource.' });
    const create = await t.app.inject({
      method: 'POST',
      url,
      headers: reporter.headers,
      payload: whole({ organization_id: reporter.organizationId, title: 'Hi', body: 'There' }),
    });
    expect(create.statusCode).toBe(403);
    expect(await t.db.select().from(informationModals).where(eq(informationModals.organization_id, reporter.organizationId!))).toHaveLength(0);
  });

  it('when an administrator creates a modal for their organization, then it is listed, found, updated and deleted', async () => {
    const admin = await signInAs(t, ['admin']);
    const created = await t.app.inject({
      method: 'POST',
      url,
      headers: admin.headers,
      payload: whole({ organization_id: admin.organizationId, title: 'New period', body: 'March is open.', starts_on: '2024-03-01', ends_on: '2024-03-31' }),
    });
    expect(created.statusCode).toBe(201);
    const modal = created.json().data;
    expect(modal).toEqual({
      id: expect.any(Number),
      organization_id: admin.organizationId,
      title: 'New period',
      body: 'March is open.',
      active: true,
      starts_on: '2024-03-01',
      ends_on: '2024-03-31',
    });
    const list = await t.app.inject({ url: `${url}?organization_id=${admin.organizationId}`, headers: admin.headers });
    expect(list.json()).toEqual({ data: [modal], meta: { page: 1, per_page: 25, total: 1 } });

    const updated = await t.app.inject({
      method: 'PUT',
      url: `${url}/${modal.id}`,
      headers: admin.headers,
      payload: whole({ organization_id: admin.organizationId, title: 'New period', body: 'March is open.', active: false, starts_on: null }),
    });
    expect(updated.json().data).toMatchObject({ active: false, starts_on: null, ends_on: null });

    expect((await t.app.inject({ method: 'DELETE', url: `${url}/${modal.id}`, headers: admin.headers })).statusCode).toBe(204);
    expect((await t.app.inject({ url: `${url}/${modal.id}`, headers: admin.headers })).statusCode).toBe(404);
  });

  it("when an administrator reaches for another organization's modal, then 404 and it stays untouched", async () => {
    const admin = await signInAs(t, ['admin']);
    const other = await createOrganization(t.db);
    const modal = await createModal(other.id, { title: 'Theirs' });
    const payload = whole({ organization_id: admin.organizationId, title: 'Mine now', body: 'x' });
    expect((await t.app.inject({ url: `${url}/${modal.id}`, headers: admin.headers })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'PUT', url: `${url}/${modal.id}`, headers: admin.headers, payload })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `${url}/${modal.id}`, headers: admin.headers })).statusCode).toBe(404);
    const [stored] = await t.db.select().from(informationModals).where(eq(informationModals.id, modal.id));
    expect(stored).toMatchObject({ title: 'Theirs', organization_id: other.id });

    // The list of the other organization is empty for them, not their own.
    await createModal(admin.organizationId!);
    const list = await t.app.inject({ url: `${url}?organization_id=${other.id}`, headers: admin.headers });
    expect(list.json()).toEqual({ data: [], meta: { page: 1, per_page: 25, total: 0 } });
    const own = await t.app.inject({ url, headers: admin.headers });
    expect(own.json().data.map((m: { organization_id: number }) => m.organization_id)).toEqual([admin.organizationId]);
  });

  it('when an administrator creates a modal for another organization, then 422 on organization_id', async () => {
    const admin = await signInAs(t, ['admin']);
    const other = await createOrganization(t.db);
    const res = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload: whole({ organization_id: other.id, title: 'Sneaky', body: 'x' }) });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ organization_id: ['You can choose only your own organization.'] });
    expect(await t.db.select().from(informationModals).where(eq(informationModals.organization_id, other.id))).toHaveLength(0);
  });

  it('when a super-admin lists with organization_id, then only that organization; an unknown organization cannot get modals', async () => {
    const superAdmin = await signInAs(t, ['super-admin']);
    const org = await createOrganization(t.db);
    const other = await createOrganization(t.db);
    const mine = await createModal(org.id, { title: 'B' });
    const mine2 = await createModal(org.id, { title: 'A' });
    await createModal(other.id);
    const list = await t.app.inject({ url: `${url}?organization_id=${org.id}&sort=title`, headers: superAdmin.headers });
    expect(list.json().data.map((m: { id: number }) => m.id)).toEqual([mine2.id, mine.id]);
    const unknown = await t.app.inject({
      method: 'POST',
      url,
      headers: superAdmin.headers,
      payload: whole({ organization_id: 999999, title: 'x', body: 'y' }),
    });
    expect(unknown.statusCode).toBe(422);
    expect(Object.keys(unknown.json().errors)).toEqual(['organization_id']);
  });

  it('when the end date is before the start date or the title is empty, then 422 with field errors', async () => {
    const admin = await signInAs(t, ['admin']);
    const res = await t.app.inject({
      method: 'POST',
      url,
      headers: admin.headers,
      payload: whole({ organization_id: admin.organizationId, title: 'Dates', body: 'x', starts_on: '2024-05-10', ends_on: '2024-05-09' }),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: 'The end date must not be before the start date.',
      errors: { ends_on: ['The end date must not be before the start date.'] },
    });
    const empty = await t.app.inject({
      method: 'POST',
      url,
      headers: admin.headers,
      payload: whole({ organization_id: admin.organizationId, title: '', body: 'x' }),
    });
    expect(empty.json().errors).toEqual({ title: ['The title field is required.'] });
    const badDate = await t.app.inject({
      method: 'POST',
      url,
      headers: admin.headers,
      payload: whole({ organization_id: admin.organizationId, title: 'Dates', body: '', starts_on: '10.05.2024' }),
    });
    expect(badDate.json().errors).toEqual({ body: ['The text field is required.'], starts_on: ['The start date is not a valid date.'] });
  });

  it('when the list is searched and paged, then meta counts all matches', async () => {
    const admin = await signInAs(t, ['admin']);
    const tag = unique('paged');
    for (const n of [1, 2, 3]) await createModal(admin.organizationId!, { title: `${tag} ${n}` });
    await createModal(admin.organizationId!, { title: 'Unrelated' });
    const res = await t.app.inject({ url: `${url}?search=${tag}&sort=title&direction=desc&per_page=2&page=2`, headers: admin.headers });
    expect(res.json().data.map((m: { title: string }) => m.title)).toEqual([`${tag} 1`]);
    expect(res.json().meta).toEqual({ page: 2, per_page: 2, total: 3 });
  });
});

describe('active information modals', () => {
  it('when not signed in, then 401', async () => {
    expect((await t.app.inject({ url: '/api/v1/information-modals/active' })).statusCode).toBe(401);
  });

  it("when a user signs in, then the active, current, undismissed modals of the session's organization", async () => {
    const reporter = await signInAs(t, ['reporter']);
    const orgId = reporter.organizationId!;
    const open = await createModal(orgId);
    const current = await createModal(orgId, { starts_on: '2000-01-01', ends_on: '2999-12-31' });
    await createModal(orgId, { active: false });
    await createModal(orgId, { starts_on: '2999-01-01' });
    await createModal(orgId, { ends_on: '2000-01-01' });
    const dismissed = await createModal(orgId);
    await t.db.insert(informationModalDismissals).values({ information_modal_id: dismissed.id, user_id: reporter.user.id });
    await createModal((await createOrganization(t.db)).id);

    const res = await t.app.inject({ url: '/api/v1/information-modals/active', headers: reporter.headers });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((m: { id: number }) => m.id)).toEqual([open.id, current.id]);
  });

  it('when a user dismisses a modal (twice), then 204, stored once, and no longer active for them only', async () => {
    const org = await createOrganization(t.db);
    const reader = await signInAs(t, ['viewer'], { organizationId: org.id });
    const colleague = await signInAs(t, ['viewer'], { organizationId: org.id });
    const modal = await createModal(org.id);
    for (let i = 0; i < 2; i++) {
      const res = await t.app.inject({ method: 'POST', url: `/api/v1/information-modals/${modal.id}/dismiss`, headers: reader.headers });
      expect(res.statusCode).toBe(204);
    }
    expect(await t.db.select().from(informationModalDismissals).where(eq(informationModalDismissals.information_modal_id, modal.id))).toHaveLength(1);
    expect((await t.app.inject({ url: '/api/v1/information-modals/active', headers: reader.headers })).json().data).toEqual([]);
    const theirs = await t.app.inject({ url: '/api/v1/information-modals/active', headers: colleague.headers });
    expect(theirs.json().data.map((m: { id: number }) => m.id)).toEqual([modal.id]);
  });

  it("when a user dismisses another organization's modal, then 404 and nothing is stored", async () => {
    const reader = await signInAs(t, ['viewer']);
    const modal = await createModal((await createOrganization(t.db)).id);
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/information-modals/${modal.id}/dismiss`, headers: reader.headers });
    expect(res.statusCode).toBe(404);
    expect(await t.db.select().from(informationModalDismissals).where(eq(informationModalDismissals.information_modal_id, modal.id))).toHaveLength(0);
  });
});
