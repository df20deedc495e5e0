import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, signInAs, unique, type TestApp } from '../../../test/helpers.ts';
import { releases, releaseViews } from '../../db/schema.ts';

let t: TestApp;
let superAdmin: Awaited<ReturnType<typeof signInAs>>;
beforeAll(async () => {
  t = await createTestApp();
  superAdmin = await signInAs(t, ['super-admin']);
});
afterAll(async () => {
  await t?.close();
});

const url = '/api/v1/admin/releases';

async function createRelease(values: { version?: string; release_date: string; title?: string }) {
  const [release] = await t.db
    .insert(releases)
    .values({ version: values.version ?? unique('v'), release_date: values.release_date, title: values.title ?? '' })
    .returning();
  return release!;
}

async function view(releaseId: number, userId: number) {
  await t.db.insert(releaseViews).values({ release_id: releaseId, user_id: userId });
}

describe('release notes administration', () => {
  it('when not signed in, then 401; an administrator without manage-releases, then 403', async () => {
    expect((await t.app.inject({ url })).statusCode).toBe(401);
    const admin = await signInAs(t, ['admin']);
    const res = await t.app.inject({ url, headers: admin.headers });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: 'Permission denied. Your user does not have permission to view this resource.' });
    const version = unique('forbidden');
    const create = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload: { version, release_date: '2024-01-01', title: '', notes: '' } });
    expect(create.statusCode).toBe(403);
    expect(await t.db.select().from(releases).where(eq(releases.version, version))).toHaveLength(0);
  });

  it('when created, then listed, found, updated and deleted, with views counted', async () => {
    const version = unique('1.0');
    const created = await t.app.inject({
      method: 'POST',
      url,
      headers: superAdmin.headers,
      payload: { version, release_date: '2024-06-01', title: 'Summer release', notes: 'Faster imports.' },
    });
    expect(created.statusCode).toBe(201);
    const release = created.json().data;
    expect(release).toEqual({ id: expect.any(Number), version, release_date: '2024-06-01', title: 'Summer release', notes: 'Faster imports.', views: 0 });

    const reader = await signInAs(t, ['viewer']);
    await view(release.id, reader.user.id);
    await view(release.id, superAdmin.user.id);
    const found = await t.app.inject({ url: `${url}/${release.id}`, headers: superAdmin.headers });
    expect(found.json().data.views).toBe(2);
    const list = await t.app.inject({ url: `${url}?search=${encodeURIComponent(version)}`, headers: superAdmin.headers });
    expect(list.json()).toEqual({ data: [{ ...release, views: 2 }], meta: { page: 1, per_page: 25, total: 1 } });

    const updated = await t.app.inject({
      method: 'PUT',
      url: `${url}/${release.id}`,
      headers: superAdmin.headers,
      payload: { version, release_date: '2024-06-02', title: 'Summer release, fixed', notes: '' },
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json().data).toMatchObject({ release_date: '2024-06-02', title: 'Summer release, fixed', notes: '', views: 2 });

    const deleted = await t.app.inject({ method: 'DELETE', url: `${url}/${release.id}`, headers: superAdmin.headers });
    expect(deleted.statusCode).toBe(204);
    expect((await t.app.inject({ url: `${url}/${release.id}`, headers: superAdmin.headers })).statusCode).toBe(404);
    expect(await t.db.select().from(releaseViews).where(eq(releaseViews.release_id, release.id))).toHaveLength(0);
  });

  it('when the version is taken, then 422 on version; keeping its own version on update is fine', async () => {
    const taken = await createRelease({ release_date: '2024-01-01' });
    const other = await createRelease({ release_date: '2024-01-02' });
    const res = await t.app.inject({
      method: 'POST',
      url,
      headers: superAdmin.headers,
      payload: { version: taken.version, release_date: '2024-02-01', title: '', notes: '' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ version: ['The version has already been taken.'] });
    const update = await t.app.inject({
      method: 'PUT',
      url: `${url}/${other.id}`,
      headers: superAdmin.headers,
      payload: { version: taken.version, release_date: '2024-01-02', title: '', notes: '' },
    });
    expect(update.statusCode).toBe(422);
    const self = await t.app.inject({
      method: 'PUT',
      url: `${url}/${taken.id}`,
      headers: superAdmin.headers,
      payload: { version: taken.version, release_date: '2024-01-03', title: '', notes: '' },
    });
    expect(self.statusCode).toBe(200);
  });

  it('when the input is invalid, then 422 with field errors', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url,
      headers: superAdmin.headers,
      payload: { version: ' ', release_date: '2024-13-45', title: '', notes: '' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ version: ['The version field is required.'], release_date: ['The release date is not a valid date.'] });
  });

  it('when no sort is given, then the newest release date first; sorted by version or views, and paged', async () => {
    const tag = unique('sortrel');
    const old = await createRelease({ version: `${tag}-b`, release_date: '2021-01-01', title: tag });
    const mid = await createRelease({ version: `${tag}-c`, release_date: '2022-01-01', title: tag });
    const recent = await createRelease({ version: `${tag}-a`, release_date: '2023-01-01', title: tag });
    const reader = await signInAs(t, ['viewer']);
    await view(old.id, reader.user.id);
    await view(old.id, superAdmin.user.id);
    await view(mid.id, reader.user.id);
    const ids = (res: { json(): { data: { id: number }[] } }) => res.json().data.map((r) => r.id);
    const q = `${url}?search=${tag}`;

    expect(ids(await t.app.inject({ url: q, headers: superAdmin.headers }))).toEqual([recent.id, mid.id, old.id]);
    expect(ids(await t.app.inject({ url: `${q}&sort=version`, headers: superAdmin.headers }))).toEqual([recent.id, old.id, mid.id]);
    expect(ids(await t.app.inject({ url: `${q}&sort=views&direction=desc`, headers: superAdmin.headers }))).toEqual([old.id, mid.id, recent.id]);
    const page = await t.app.inject({ url: `${q}&sort=release_date&direction=asc&per_page=2&page=2`, headers: superAdmin.headers });
    expect(ids(page)).toEqual([recent.id]);
    expect(page.json().meta).toEqual({ page: 2, per_page: 2, total: 3 });
    expect((await t.app.inject({ url: `${url}?sort=notes`, headers: superAdmin.headers })).statusCode).toBe(422);
  });
});

describe('unread release notes', () => {
  it('when not signed in, then 401 for unread and view', async () => {
    expect((await t.app.inject({ url: '/api/v1/releases/unread' })).statusCode).toBe(401);
    const release = await createRelease({ release_date: '2024-01-01' });
    const res = await t.app.inject({ method: 'POST', url: `/api/v1/releases/${release.id}/view`, headers: { 'x-requested-with': 'XMLHttpRequest' } });
    expect(res.statusCode).toBe(401);
  });

  it('when a user has read some notes, then unread lists the others that are out, newest first', async () => {
    const reader = await signInAs(t, ['reporter']);
    const first = await createRelease({ release_date: '2020-01-01' });
    const second = await createRelease({ release_date: '2020-02-01' });
    const read = await createRelease({ release_date: '2020-03-01' });
    const future = await createRelease({ release_date: '2999-01-01' });
    await view(read.id, reader.user.id);
    // Read by someone else: still unread for this user.
    await view(second.id, superAdmin.user.id);

    const res = await t.app.inject({ url: '/api/v1/releases/unread', headers: reader.headers });
    expect(res.statusCode).toBe(200);
    const ids: number[] = res.json().data.map((r: { id: number }) => r.id);
    expect(ids).not.toContain(read.id);
    expect(ids).not.toContain(future.id);
    expect(ids.filter((id) => id === first.id || id === second.id)).toEqual([second.id, first.id]);
    expect(res.json().data.find((r: { id: number }) => r.id === second.id)).toMatchObject({ version: second.version, views: 1 });
  });

  it('when a user views a note twice, then it is recorded once and no longer unread', async () => {
    const reader = await signInAs(t, ['viewer']);
    const release = await createRelease({ release_date: '2020-05-01' });
    for (let i = 0; i < 2; i++) {
      const res = await t.app.inject({ method: 'POST', url: `/api/v1/releases/${release.id}/view`, headers: reader.headers });
      expect(res.statusCode).toBe(204);
    }
    expect(await t.db.select().from(releaseViews).where(eq(releaseViews.release_id, release.id))).toHaveLength(1);
    const unread = await t.app.inject({ url: '/api/v1/releases/unread', headers: reader.headers });
    expect(unread.json().data.map((r: { id: number }) => r.id)).not.toContain(release.id);
  });

  it('when the note does not exist, then viewing it is 404', async () => {
    const reader = await signInAs(t, ['viewer']);
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/releases/999999/view', headers: reader.headers });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Could not find what you were looking for.' });
  });
});
