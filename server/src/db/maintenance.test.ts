import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './client.ts';
import { startEmbeddedMaintenance, vacuumWhereNeeded } from './maintenance.ts';

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ inMemory: true });
  await database.pool.query('create table churn (id int primary key, v text)');
  await database.pool.query('create table quiet (id int primary key)');
  await database.pool.query('insert into quiet select g from generate_series(1, 1000) g');
  await stats('quiet'); // the inserts counted before the analyze, so that it clears them
  await database.pool.query('analyze quiet');
});
afterAll(async () => {
  await database?.close();
});

/** The table's statistics, once the changes so far have reached them (they are flushed lazily). */
async function stats(table: string) {
  await database.pool.query('select pg_stat_force_next_flush()');
  await database.pool.query('select pg_stat_clear_snapshot()');
  return (await database.pool.query('select n_dead_tup::int as dead, last_vacuum, last_analyze from pg_stat_user_tables where relname = $1', [table])).rows[0];
}

describe('maintenance of the embedded database (it has no autovacuum)', () => {
  it('when a table has many dead rows, then it is vacuumed and analyzed; a table without changes is left alone', async () => {
    await database.pool.query(`insert into churn select g, repeat('x', 50) from generate_series(1, 20000) g`);
    await database.pool.query('delete from churn where id > 100');
    expect((await stats('churn')).dead).toBe(19900);

    const run = await vacuumWhereNeeded(database.pool);
    expect(run.vacuumed).toContain('churn');
    expect(run.vacuumed).not.toContain('quiet');
    expect(run.analyzed).not.toContain('quiet');
    const after = await stats('churn');
    expect(after.dead).toBe(0);
    expect(after.last_vacuum).not.toBeNull();
    expect(after.last_analyze).not.toBeNull();

    // Nothing left to do.
    expect(await vacuumWhereNeeded(database.pool)).toEqual({ vacuumed: [], analyzed: [] });
  });

  it('when started, then it runs on its interval and stops cleanly', async () => {
    await database.pool.query('delete from churn where id > 10');
    await stats('churn');
    const logged: object[] = [];
    const stop = startEmbeddedMaintenance(database.pool, { info: (obj) => logged.push(obj), error: (obj) => logged.push(obj) }, 50);
    for (let i = 0; i < 100 && logged.length === 0; i++) await new Promise((r) => setTimeout(r, 50));
    await stop();
    expect(logged[0]).toMatchObject({ vacuumed: ['churn'] });
    expect((await stats('churn')).dead).toBe(0);
  });
});
