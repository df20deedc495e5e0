import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './client.ts';

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ inMemory: true });
});
afterAll(async () => {
  await database?.close();
});

describe('the embedded database behind its socket', () => {
  it('when a query fails, then the next queries still work (the pool replaces the connection)', async () => {
    for (let i = 0; i < 3; i++) {
      await expect(database.pool.query('select 1/0')).rejects.toMatchObject({ code: '22012' });
      await expect(database.pool.query('select $1::int as n', [i])).resolves.toMatchObject({ rows: [{ n: i }] });
    }
  });

  it('when a transaction fails, then it is rolled back and the session goes on', async () => {
    await database.pool.query('create table if not exists probe (id int primary key)');
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute('insert into probe values (1)');
        await tx.execute('insert into probe values (1)');
      }),
    ).rejects.toMatchObject({ cause: { code: '23505' } });
    expect((await database.pool.query('select count(*)::int as n from probe')).rows).toEqual([{ n: 0 }]);
  });
});

describe('a connection that dies while idle', () => {
  it('when the server ends an idle session, then the process goes on and the next query reconnects', async () => {
    const own = await openDatabase({ inMemory: true });
    try {
      const client = await own.pool.connect();
      client.release();
      // The pool's idle client learns its connection is gone: an 'error' event, not a crash.
      const warned = new Promise<void>((resolve) => process.once('warning', () => resolve()));
      (client as unknown as { emit(event: string, error: Error): void }).emit('error', new Error('terminating connection due to administrator command'));
      await warned;
      await expect(own.pool.query('select 1 as ok')).resolves.toMatchObject({ rows: [{ ok: 1 }] });
    } finally {
      await own.close();
    }
  });
});
