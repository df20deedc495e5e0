import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganization, createTestApp, signInAs, type TestApp } from '../../../test/helpers.ts';
import { codeGroups, codes } from '../../db/schema.ts';

let t: TestApp;
let admin: Awaited<ReturnType<typeof signInAs>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signInAs(t, ['admin']);
});
afterAll(async () => {
  await t?.close();
});

const url = '/api/v1/admin/code_groups';

describe('code groups', () => {
  it('when created with codes, then the list shows id, title, organization and the codes; deleting keeps the codes', async () => {
    const [a, b] = await t.db
      .insert(codes)
      .values([
        { organization_id: admin.organizationId!, code: '10', name: 'Ten' },
        { organization_id: admin.organizationId!, code: '20', name: 'Twenty' },
      ])
      .returning();
    const res = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload: { title: 'Electric', code_ids: [b!.id, a!.id, a!.id] } });
    expect(res.statusCode).toBe(201);
    const group = res.json().data;
    expect(group.codes.map((c: { code: string }) => c.code)).toEqual(['10', '20']);
    const list = await t.app.inject({ url: `${url}?search=elec`, headers: admin.headers });
    expect(list.json().data).toEqual([
      { id: group.id, title: 'Electric', organization: { id: admin.organizationId, name: expect.any(String) }, codes: group.codes },
    ]);
    const code = await t.app.inject({ url: `/api/v1/admin/codes/${a!.id}`, headers: admin.headers });
    expect(code.json().data.groups).toEqual([{ id: group.id, title: 'Electric' }]);
    expect((await t.app.inject({ method: 'DELETE', url: `${url}/${group.id}`, headers: admin.headers })).statusCode).toBe(204);
    expect((await t.app.inject({ url: `/api/v1/admin/codes/${a!.id}`, headers: admin.headers })).json().data.groups).toEqual([]);
  });

  it("when a code of another organization is given, then 422; another organization's group is 404", async () => {
    const other = await createOrganization(t.db);
    const [foreignCode] = await t.db.insert(codes).values({ organization_id: other.id, code: '99', name: 'Foreign' }).returning();
    const res = await t.app.inject({ method: 'POST', url, headers: admin.headers, payload: { title: 'Mixed', code_ids: [foreignCode!.id] } });
    expect(res.json().errors).toEqual({ code_ids: ['The chosen codes must belong to the same organization.'] });
    const [foreignGroup] = await t.db.insert(codeGroups).values({ organization_id: other.id, title: 'Theirs' }).returning();
    expect((await t.app.inject({ url: `${url}/${foreignGroup!.id}`, headers: admin.headers })).statusCode).toBe(404);
  });
});
