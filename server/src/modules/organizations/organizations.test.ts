import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createMarket, createOrganization, createTestApp, createUser, signInAs, unique, type TestApp } from '../../../test/helpers.ts';
import { informationModals, organizations, organizationSettings } from '../../db/schema.ts';

let t: TestApp;
let superAdmin: Awaited<ReturnType<typeof signInAs>>;
beforeAll(async () => {
  t = await createTestApp();
  superAdmin = await signInAs(t, ['super-admin']);
});
afterAll(async () => {
  await t?.close();
});

const url = '/api/v1/admin/organizations';
const DEFAULT_SETTINGS = {
  deviation_percentage: 20,
  reminder_days: 0,
  min_contributors: 3,
  dominance_percentage: 85,
  protection_percentage: 10,
  estimate_missing_reports: 0,
  require_two_factor: 0,
};

describe('organizations', () => {
  it('when not signed in, then 401; without manage-organizations, then 403', async () => {
    expect((await t.app.inject({ url })).statusCode).toBe(401);
    const marketAdmin = await signInAs(t, ['market-admin']);
    const res = await t.app.inject({ url: `${url}/${marketAdmin.organizationId}`, headers: marketAdmin.headers });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'Permission denied. Your user does not have permission to view this resource.' });
    const settings = await t.app.inject({
      method: 'PUT',
      url: `${url}/${marketAdmin.organizationId}/settings`,
      headers: marketAdmin.headers,
      payload: { settings: { reminder_days: 9 } },
    });
    expect(settings.statusCode).toBe(403);
    expect(await t.db.select().from(organizationSettings).where(eq(organizationSettings.organization_id, marketAdmin.organizationId!))).toHaveLength(0);
  });

  it('when three organizations whose names differ only in case are created at once, then one exists and the others get 422 on name', async () => {
    const base = unique('Race');
    const names = [base, base.toUpperCase(), base.toLowerCase()];
    const answers = await Promise.all(
      names.map((name) => t.app.inject({ method: 'POST', url, headers: superAdmin.headers, payload: { name, mail_description: null } })),
    );
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 422, 422]);
    for (const a of answers.filter((x) => x.statusCode === 422)) expect(a.json().errors).toEqual({ name: ['The name has already been taken.'] });
    const stored = await t.db
      .select()
      .from(organizations)
      .where(sql`lower(${organizations.name}) = ${base.toLowerCase()}`);
    expect(stored).toHaveLength(1);
  });

  it('when a super-admin creates an organization, then it answers with the default settings and can be found, updated and deleted', async () => {
    const name = unique('Nordic');
    const created = await t.app.inject({ method: 'POST', url, headers: superAdmin.headers, payload: { name, mail_description: 'Monthly sales.' } });
    expect(created.statusCode).toBe(201);
    const organization = created.json().data;
    expect(organization).toEqual({ id: expect.any(Number), uuid: expect.any(String), name, mail_description: 'Monthly sales.', settings: DEFAULT_SETTINGS });
    expect((await t.app.inject({ url: `${url}/${organization.id}`, headers: superAdmin.headers })).json()).toEqual({ data: organization });

    const updated = await t.app.inject({
      method: 'PUT',
      url: `${url}/${organization.id}`,
      headers: superAdmin.headers,
      payload: { name: `${name} Association`, mail_description: null },
    });
    expect(updated.json().data).toMatchObject({ name: `${name} Association`, mail_description: null });

    const deleted = await t.app.inject({ method: 'DELETE', url: `${url}/${organization.id}`, headers: superAdmin.headers });
    expect(deleted.statusCode).toBe(204);
    expect(await t.db.select().from(organizations).where(eq(organizations.id, organization.id))).toHaveLength(0);
  });

  it('when the name is taken (in any letter case), then 422 on name', async () => {
    const existing = await createOrganization(t.db);
    const res = await t.app.inject({
      method: 'POST',
      url,
      headers: superAdmin.headers,
      payload: { name: existing.name.toUpperCase(), mail_description: null },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ name: ['The name has already been taken.'] });
    const other = await createOrganization(t.db);
    const rename = await t.app.inject({
      method: 'PUT',
      url: `${url}/${other.id}`,
      headers: superAdmin.headers,
      payload: { name: existing.name, mail_description: null },
    });
    expect(rename.statusCode).toBe(422);
    const empty = await t.app.inject({ method: 'POST', url, headers: superAdmin.headers, payload: { name: '', mail_description: null } });
    expect(empty.json().errors).toEqual({ name: ['The name field is required.'] });
  });

  it('when an administrator lists, then only the organization of their session; others answer 404 and stay untouched', async () => {
    const admin = await signInAs(t, ['admin']);
    const other = await createOrganization(t.db);
    const list = await t.app.inject({ url, headers: admin.headers });
    expect(list.json().data.map((o: { id: number }) => o.id)).toEqual([admin.organizationId]);
    expect(list.json().meta.total).toBe(1);
    const asked = await t.app.inject({ url: `${url}?organization_id=${other.id}`, headers: admin.headers });
    expect(asked.json().data.map((o: { id: number }) => o.id)).toEqual([admin.organizationId]);

    const found = await t.app.inject({ url: `${url}/${other.id}`, headers: admin.headers });
    expect(found.statusCode).toBe(404);
    expect(found.json()).toEqual({ message: 'Could not find what you were looking for.' });
    const update = await t.app.inject({
      method: 'PUT',
      url: `${url}/${other.id}`,
      headers: admin.headers,
      payload: { name: unique('Hijacked'), mail_description: null },
    });
    expect(update.statusCode).toBe(404);
    const settings = await t.app.inject({
      method: 'PUT',
      url: `${url}/${other.id}/settings`,
      headers: admin.headers,
      payload: { settings: { reminder_days: 1 } },
    });
    expect(settings.statusCode).toBe(404);
    const [stored] = await t.db.select().from(organizations).where(eq(organizations.id, other.id));
    expect(stored!.name).toBe(other.name);
    expect(await t.db.select().from(organizationSettings).where(eq(organizationSettings.organization_id, other.id))).toHaveLength(0);
  });

  it('when an administrator edits their own organization, then it is saved; creating and deleting are refused with 403', async () => {
    const admin = await signInAs(t, ['admin']);
    const [own] = await t.db.select().from(organizations).where(eq(organizations.id, admin.organizationId!));
    const update = await t.app.inject({
      method: 'PUT',
      url: `${url}/${own!.id}`,
      headers: admin.headers,
      payload: { name: own!.name, mail_description: 'Report by the 5th.' },
    });
    expect(update.statusCode).toBe(200);
    expect(update.json().data.mail_description).toBe('Report by the 5th.');

    const name = unique('Forbidden');
    const create = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload: { name, mail_description: null } });
    expect(create.statusCode).toBe(403);
    expect(await t.db.select().from(organizations).where(eq(organizations.name, name))).toHaveLength(0);
    const remove = await t.app.inject({ method: 'DELETE', url: `${url}/${own!.id}`, headers: admin.headers });
    expect(remove.statusCode).toBe(403);
    expect(await t.db.select().from(organizations).where(eq(organizations.id, own!.id))).toHaveLength(1);
  });

  it('when the organization still has markets or users, then it cannot be deleted; its modals and settings go with it otherwise', async () => {
    const withMarket = await createOrganization(t.db);
    await createMarket(t.db, withMarket.id);
    const res = await t.app.inject({ method: 'DELETE', url: `${url}/${withMarket.id}`, headers: superAdmin.headers });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: `The organization ${withMarket.name} is still in use and cannot be deleted.` });

    const withUser = await createOrganization(t.db);
    await createUser(t.db, { roles: ['viewer'], organizationIds: [withUser.id] });
    expect((await t.app.inject({ method: 'DELETE', url: `${url}/${withUser.id}`, headers: superAdmin.headers })).statusCode).toBe(409);

    const empty = await createOrganization(t.db);
    await t.db.insert(informationModals).values({ organization_id: empty.id, title: 'Hello', body: 'Welcome' });
    await t.db.insert(organizationSettings).values({ organization_id: empty.id, key: 'reminder_days', value: '3' });
    expect((await t.app.inject({ method: 'DELETE', url: `${url}/${empty.id}`, headers: superAdmin.headers })).statusCode).toBe(204);
    expect(await t.db.select().from(informationModals).where(eq(informationModals.organization_id, empty.id))).toHaveLength(0);
  });

  it('when a super-admin lists, then all organizations, searchable by name, sorted and paged', async () => {
    const tag = unique('Listed');
    const b = await createOrganization(t.db, `${tag} B`);
    const a = await createOrganization(t.db, `${tag} A`);
    const c = await createOrganization(t.db, `${tag} C`);
    const names = (res: { json(): { data: { name: string }[] } }) => res.json().data.map((o) => o.name);
    const q = `${url}?search=${encodeURIComponent(tag)}`;
    expect(names(await t.app.inject({ url: q, headers: superAdmin.headers }))).toEqual([a.name, b.name, c.name]);
    const page = await t.app.inject({ url: `${q}&direction=desc&per_page=2&page=1`, headers: superAdmin.headers });
    expect(names(page)).toEqual([c.name, b.name]);
    expect(page.json().meta).toEqual({ page: 1, per_page: 2, total: 3 });
    const one = await t.app.inject({ url: `${url}?organization_id=${b.id}`, headers: superAdmin.headers });
    expect(names(one)).toEqual([b.name]);
  });
});

describe('organization settings', () => {
  it('when valid settings are saved, then they are stored and answered as numbers, the others keep their default', async () => {
    const admin = await signInAs(t, ['admin']);
    const id = admin.organizationId!;
    const res = await t.app.inject({
      method: 'PUT',
      url: `${url}/${id}/settings`,
      headers: admin.headers,
      payload: { settings: { deviation_percentage: 12.5 } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.settings).toEqual({ ...DEFAULT_SETTINGS, deviation_percentage: 12.5 });
    const again = await t.app.inject({
      method: 'PUT',
      url: `${url}/${id}/settings`,
      headers: admin.headers,
      payload: { settings: { deviation_percentage: 0, reminder_days: '7' } },
    });
    expect(again.json().data.settings).toEqual({ ...DEFAULT_SETTINGS, deviation_percentage: 0, reminder_days: 7 });
    const rows = await t.db.select().from(organizationSettings).where(eq(organizationSettings.organization_id, id));
    expect(rows.map((r) => [r.key, r.value]).sort()).toEqual([
      ['deviation_percentage', '0'],
      ['reminder_days', '7'],
    ]);
    expect((await t.app.inject({ url: `${url}/${id}`, headers: admin.headers })).json().data.settings).toEqual({
      ...DEFAULT_SETTINGS,
      deviation_percentage: 0,
      reminder_days: 7,
    });
  });

  it('when min_contributors, dominance_percentage or protection_percentage is below 0, then 422 ":key cannot be less than 0." with the label; 0 and decimals are stored', async () => {
    const admin = await signInAs(t, ['admin']);
    const id = admin.organizationId!;
    for (const [key, label] of [
      ['min_contributors', 'Minimum contributors'],
      ['dominance_percentage', 'Dominance percentage'],
      ['protection_percentage', 'Protection percentage'],
    ] as const) {
      const res = await t.app.inject({ method: 'PUT', url: `${url}/${id}/settings`, headers: admin.headers, payload: { settings: { [key]: -1 } } });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({ message: `${label} cannot be less than 0.`, errors: { [key]: [`${label} cannot be less than 0.`] } });
    }
    const ok = await t.app.inject({
      method: 'PUT',
      url: `${url}/${id}/settings`,
      headers: admin.headers,
      payload: { settings: { min_contributors: 0, dominance_percentage: 72.5, protection_percentage: 12.5 } },
    });
    expect(ok.json().data.settings).toEqual({ ...DEFAULT_SETTINGS, min_contributors: 0, dominance_percentage: 72.5, protection_percentage: 12.5 });
  });

  it('when a key is unknown, then 422 ":key is not a valid setting." on that key', async () => {
    const res = await t.app.inject({
      method: 'PUT',
      url: `${url}/${(await createOrganization(t.db)).id}/settings`,
      headers: superAdmin.headers,
      payload: { settings: { colour: 3 } },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ message: 'colour is not a valid setting.', errors: { colour: ['colour is not a valid setting.'] } });
  });

  it('when a value is not a number, or not whole for an integer setting, then 422 ":value is not a valid value for setting :key."', async () => {
    const { id } = await createOrganization(t.db);
    const text = await t.app.inject({
      method: 'PUT',
      url: `${url}/${id}/settings`,
      headers: superAdmin.headers,
      payload: { settings: { deviation_percentage: 'abc' } },
    });
    expect(text.statusCode).toBe(422);
    expect(text.json()).toEqual({
      message: 'abc is not a valid value for setting deviation percentage.',
      errors: { deviation_percentage: ['abc is not a valid value for setting deviation percentage.'] },
    });
    const fraction = await t.app.inject({
      method: 'PUT',
      url: `${url}/${id}/settings`,
      headers: superAdmin.headers,
      payload: { settings: { reminder_days: 2.5 } },
    });
    expect(fraction.json().errors).toEqual({ reminder_days: ['2.5 is not a valid value for setting reminder days.'] });
    for (const empty of [null, '', '  ']) {
      const nothing = await t.app.inject({
        method: 'PUT',
        url: `${url}/${id}/settings`,
        headers: superAdmin.headers,
        payload: { settings: { reminder_days: empty } },
      });
      expect(nothing.json()).toEqual({ message: 'The reminder days field is required.', errors: { reminder_days: ['The reminder days field is required.'] } });
    }
  });

  it('when a switch (estimate_missing_reports) is set to anything but 0 or 1, then 422; 1 and 0 are stored', async () => {
    const { id } = await createOrganization(t.db);
    const put = (value: unknown) =>
      t.app.inject({ method: 'PUT', url: `${url}/${id}/settings`, headers: superAdmin.headers, payload: { settings: { estimate_missing_reports: value } } });
    for (const bad of [2, 0.5, 'yes'])
      expect((await put(bad)).json().errors).toEqual({ estimate_missing_reports: [`${bad} is not a valid value for setting estimate missing reports.`] });
    expect((await put(1)).json().data.settings.estimate_missing_reports).toBe(1);
    expect((await put('0')).json().data.settings.estimate_missing_reports).toBe(0);
  });

  it('when a value is below 0, then 422 ":key cannot be less than 0."; with several errors nothing is stored', async () => {
    const { id } = await createOrganization(t.db);
    const res = await t.app.inject({
      method: 'PUT',
      url: `${url}/${id}/settings`,
      headers: superAdmin.headers,
      payload: { settings: { reminder_days: 3, deviation_percentage: -1, colour: 1 } },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: 'Deviation percentage cannot be less than 0.',
      errors: { deviation_percentage: ['Deviation percentage cannot be less than 0.'], colour: ['colour is not a valid setting.'] },
    });
    expect(await t.db.select().from(organizationSettings).where(eq(organizationSettings.organization_id, id))).toHaveLength(0);
  });
});
