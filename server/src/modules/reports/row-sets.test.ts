import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createCompany, createMarket, createTestApp, signInAs, type TestApp } from '../../../test/helpers.ts';
import { codes, periods, reportRows, reportRowSets, reports } from '../../db/schema.ts';
import { insertRows } from './row-sets.ts';

// Row-set integrity (migration 0010): report_rows has statement-level checks instead of
// foreign keys, and they must hold when a delete and an import's insert run at the same time.

let t: TestApp;
let admin: Awaited<ReturnType<typeof signInAs>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signInAs(t, ['admin']);
});
afterAll(async () => {
  await t?.close();
});

/** A code of the admin's organization (assigned to no company, so only its rows keep it) and a new row set. */
async function codeAndRowSet(code: string) {
  const organizationId = admin.organizationId!;
  const [row] = await t.db.insert(codes).values({ organization_id: organizationId, code, name: code }).returning();
  const market = await createMarket(t.db, organizationId);
  const company = await createCompany(t.db, []);
  const [period] = await t.db.insert(periods).values({ market_id: market.id, title: '2026-10', starts_on: '2026-10-01', ends_on: '2026-10-31' }).returning();
  const [report] = await t.db.insert(reports).values({ period_id: period!.id, company_id: company.id }).returning();
  const [rowSet] = await t.db.insert(reportRowSets).values({ report_id: report!.id }).returning();
  return { code: row!, rowSetId: rowSet!.id };
}

const deleteCodeViaApi = (id: number) => t.app.inject({ method: 'DELETE', url: `/api/v1/admin/codes/${id}`, headers: admin.headers });
const figures = (codeId: number) => [{ code_id: codeId, volume: '1', value: '2.5' }];
const rowsOfCode = async (codeId: number) => (await t.db.select().from(reportRows).where(eq(reportRows.code_id, codeId))).length;
const rowsOfSet = async (rowSetId: number) => (await t.db.select().from(reportRows).where(eq(reportRows.row_set_id, rowSetId))).length;
const codeExists = async (codeId: number) => (await t.db.select().from(codes).where(eq(codes.id, codeId))).length === 1;

/** Rows naming a code or a row set that does not exist: what an `innerJoin` would silently drop. */
async function orphanRows(): Promise<number> {
  const result = await t.db.execute<{ n: number }>(sql`
    select count(*)::int as n from report_rows rr
    where not exists (select 1 from codes c where c.id = rr.code_id)
       or not exists (select 1 from report_row_sets s where s.id = rr.row_set_id)`);
  return result.rows[0]!.n;
}

describe('report rows and deletes interleaved (PGlite: one session, statements take turns)', () => {
  it('when an import has written a batch naming a code, then deleting the code is refused: through the API with 409, in SQL with 23503', async () => {
    const { code, rowSetId } = await codeAndRowSet('INTERLEAVED-1');
    await insertRows(t.db, rowSetId, figures(code.id));
    const res = await deleteCodeViaApi(code.id);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('The code INTERLEAVED-1 is still in use and cannot be deleted.');
    await expect(t.db.delete(codes).where(eq(codes.id, code.id))).rejects.toMatchObject({ cause: { code: '23503' } });
    // Nor can its id go away by an update or a truncate.
    await expect(t.db.update(codes).set({ id: 2_000_000_000 }).where(eq(codes.id, code.id))).rejects.toMatchObject({ cause: { code: '23503' } });
    await expect(t.db.execute(sql`truncate codes cascade`)).rejects.toMatchObject({ cause: { code: '23503' } });
    expect(await codeExists(code.id)).toBe(true);
    expect(await rowsOfCode(code.id)).toBe(1);
    // An update that keeps the id is not a delete.
    await t.db.update(codes).set({ name: 'renamed' }).where(eq(codes.id, code.id));
  });

  it('when a code is deleted between two batches of an import, then the batch naming it fails and leaves no row', async () => {
    const { code, rowSetId } = await codeAndRowSet('INTERLEAVED-2');
    const other = await codeAndRowSet('INTERLEAVED-3');
    await insertRows(t.db, rowSetId, figures(other.code.id));
    expect((await deleteCodeViaApi(code.id)).statusCode).toBe(204);
    await expect(insertRows(t.db, rowSetId, figures(code.id))).rejects.toMatchObject({ cause: { code: '23503' } });
    expect(await rowsOfCode(code.id)).toBe(0);
    expect(await orphanRows()).toBe(0);
  });

  it('when a row set is deleted between two batches, then its rows go with it and the next batch fails', async () => {
    const { code, rowSetId } = await codeAndRowSet('INTERLEAVED-4');
    await insertRows(t.db, rowSetId, figures(code.id));
    await t.db.delete(reportRowSets).where(eq(reportRowSets.id, rowSetId));
    expect(await rowsOfSet(rowSetId)).toBe(0);
    await expect(insertRows(t.db, rowSetId, figures(code.id))).rejects.toMatchObject({ cause: { code: '23503' } });
    expect(await orphanRows()).toBe(0);
  });
});

/**
 * PostgreSQL server only: two connections at once. PGlite's pool has one connection, on which a
 * held transaction would block the other side forever.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('report rows and deletes at the same time (PostgreSQL server, two connections)', () => {
  /** A transaction that runs `work`, then holds before its commit until `release` (or rolls back with `rollback`). */
  function heldTransaction(work: Parameters<TestApp['db']['transaction']>[0]) {
    let release!: () => void;
    let rollback!: () => void;
    let done!: () => void;
    const worked = new Promise<void>((resolve) => (done = resolve));
    const gate = new Promise<'commit' | 'rollback'>((resolve) => {
      release = () => resolve('commit');
      rollback = () => resolve('rollback');
    });
    const finished = t.db.transaction(async (tx) => {
      await work(tx);
      done();
      if ((await gate) === 'rollback') tx.rollback();
    });
    return { worked, finished, release, rollback };
  }

  /**
   * Whether a session of the test database comes to wait for a lock within 2 s. Asserted after
   * the outcome, so that without the locks a test shows what went wrong (both sides succeeded).
   */
  async function someoneWaitsForALock(): Promise<boolean> {
    for (let i = 0; i < 40; i++) {
      const result = await t.db.execute<{ n: number }>(sql`
        select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`);
      if (result.rows[0]!.n > 0) return true;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return false;
  }

  const pending = (promise: Promise<unknown>) =>
    Promise.race([
      promise.then(
        () => 'settled',
        () => 'settled',
      ),
      new Promise((resolve) => setTimeout(() => resolve('pending'), 200)),
    ]);

  it('when an import has written rows naming a code and not yet committed, then deleting the code waits, and is refused with 409 once the rows are committed', async () => {
    const { code, rowSetId } = await codeAndRowSet('RACE-1');
    const importing = heldTransaction((tx) => insertRows(tx, rowSetId, figures(code.id)));
    await importing.worked;
    const deleting = deleteCodeViaApi(code.id);
    const waited = await someoneWaitsForALock();
    const whileHeld = await pending(deleting);
    importing.release();
    await importing.finished;
    const res = await deleting;
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('The code RACE-1 is still in use and cannot be deleted.');
    expect(await codeExists(code.id)).toBe(true);
    expect(await rowsOfCode(code.id)).toBe(1);
    expect(waited).toBe(true);
    expect(whileHeld).toBe('pending');
  });

  it('when that import rolls back instead, then the waiting delete goes through', async () => {
    const { code, rowSetId } = await codeAndRowSet('RACE-2');
    const importing = heldTransaction((tx) => insertRows(tx, rowSetId, figures(code.id)));
    await importing.worked;
    const deleting = deleteCodeViaApi(code.id);
    const waited = await someoneWaitsForALock();
    importing.rollback();
    await expect(importing.finished).rejects.toThrow();
    expect((await deleting).statusCode).toBe(204);
    expect(await codeExists(code.id)).toBe(false);
    expect(waited).toBe(true);
  });

  it('when a code is deleted and not yet committed, then an import writing rows naming it waits, and fails with 23503 once the delete commits', async () => {
    const { code, rowSetId } = await codeAndRowSet('RACE-3');
    const deleting = heldTransaction(async (tx) => {
      await tx.delete(codes).where(eq(codes.id, code.id));
    });
    await deleting.worked;
    const writing = insertRows(t.db, rowSetId, figures(code.id));
    const waited = await someoneWaitsForALock();
    const whileHeld = await pending(writing);
    deleting.release();
    await deleting.finished;
    await expect(writing).rejects.toMatchObject({ cause: { code: '23503' } });
    expect(await codeExists(code.id)).toBe(false);
    expect(await rowsOfCode(code.id)).toBe(0);
    expect(await orphanRows()).toBe(0);
    expect(waited).toBe(true);
    expect(whileHeld).toBe('pending');
  });

  it('when an import has written rows into a set and not yet committed, then deleting the set waits and takes those rows with it', async () => {
    const { code, rowSetId } = await codeAndRowSet('RACE-4');
    const importing = heldTransaction((tx) => insertRows(tx, rowSetId, figures(code.id)));
    await importing.worked;
    const deleting = t.db
      .delete(reportRowSets)
      .where(eq(reportRowSets.id, rowSetId))
      .then(() => undefined);
    const waited = await someoneWaitsForALock();
    const whileHeld = await pending(deleting);
    importing.release();
    await importing.finished;
    await deleting;
    expect(await rowsOfSet(rowSetId)).toBe(0);
    expect(await orphanRows()).toBe(0);
    expect(waited).toBe(true);
    expect(whileHeld).toBe('pending');
  });

  it('when a row set is deleted and not yet committed, then an import writing into it waits, and fails with 23503 once the delete commits', async () => {
    const { code, rowSetId } = await codeAndRowSet('RACE-5');
    const deleting = heldTransaction(async (tx) => {
      await tx.delete(reportRowSets).where(eq(reportRowSets.id, rowSetId));
    });
    await deleting.worked;
    const writing = insertRows(t.db, rowSetId, figures(code.id));
    const waited = await someoneWaitsForALock();
    const whileHeld = await pending(writing);
    deleting.release();
    await deleting.finished;
    await expect(writing).rejects.toMatchObject({ cause: { code: '23503' } });
    expect(await rowsOfSet(rowSetId)).toBe(0);
    expect(await orphanRows()).toBe(0);
    expect(waited).toBe(true);
    expect(whileHeld).toBe('pending');
  });
});

describe("a row set's row count (migration 0018: kept by triggers, read by the report lists)", () => {
  const countOf = async (rowSetId: number) =>
    (await t.db.select({ n: reportRowSets.row_count }).from(reportRowSets).where(eq(reportRowSets.id, rowSetId)))[0]!.n;
  it('when rows are inserted in batches, deleted, and moved to another set, then each set counts exactly the rows it holds', async () => {
    const a = await codeAndRowSet('ROW-COUNT-A');
    const b = await codeAndRowSet('ROW-COUNT-B');
    const more = await t.db
      .insert(codes)
      .values(['ROW-COUNT-C', 'ROW-COUNT-D', 'ROW-COUNT-E'].map((code) => ({ organization_id: admin.organizationId!, code, name: code })))
      .returning();
    const [c, d, e] = more.map((x) => x.id) as [number, number, number];
    expect(await countOf(a.rowSetId)).toBe(0);
    await insertRows(t.db, a.rowSetId, [...figures(a.code.id), ...figures(b.code.id)]);
    await insertRows(t.db, a.rowSetId, figures(c));
    await insertRows(t.db, b.rowSetId, figures(b.code.id));
    expect([await countOf(a.rowSetId), await countOf(b.rowSetId)]).toEqual([3, 1]);
    // One statement writing into both sets.
    await t.db.execute(sql`insert into report_rows (row_set_id, code_id, volume, value)
      values (${a.rowSetId}, ${d}, 1, 1), (${b.rowSetId}, ${d}, 1, 1), (${b.rowSetId}, ${e}, 2, 2)`);
    expect([await countOf(a.rowSetId), await countOf(b.rowSetId)]).toEqual([4, 3]);
    await t.db.execute(sql`delete from report_rows where row_set_id = ${a.rowSetId} and code_id = ${b.code.id}`);
    expect(await countOf(a.rowSetId)).toBe(3);
    // Moved: the code of a's row is not in b yet.
    await t.db.execute(sql`update report_rows set row_set_id = ${b.rowSetId} where row_set_id = ${a.rowSetId} and code_id = ${c}`);
    expect([await countOf(a.rowSetId), await countOf(b.rowSetId)]).toEqual([2, 4]);
    expect([await countOf(a.rowSetId), await countOf(b.rowSetId)]).toEqual([await rowsOfSet(a.rowSetId), await rowsOfSet(b.rowSetId)]);
    // An update that moves nothing changes no count.
    await t.db.execute(sql`update report_rows set volume = volume + 1 where row_set_id = ${b.rowSetId}`);
    expect(await countOf(b.rowSetId)).toBe(4);
  });
});
