import pg from 'pg';
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

describe('a second connection beside the app (npm run backup)', () => {
  /** A client on the socket the app's pool uses, as `npm run backup` connects. */
  async function secondConnection(): Promise<pg.Client> {
    const client = new pg.Client({ host: database.pool.options.host, port: database.pool.options.port, user: 'postgres', database: 'postgres' });
    client.on('error', () => {});
    await client.connect();
    return client;
  }

  it('when it runs transactions while the app sends queries with large parameters, then no statement of either fails', async () => {
    // A 300 KB parameter reaches the socket in pieces, between which the other connection used to
    // get the session (pglite-socket's own queue): "unnamed prepared statement does not exist".
    const client = await secondConnection();
    const failures: string[] = [];
    let stop = false;
    let answered = 0;
    const appQueries = (async () => {
      for (let i = 0; !stop; i++) {
        try {
          const { rows } = await database.pool.query('select $1::int + 1 as n, length($2::bytea) as bytes', [i, Buffer.alloc(300_000, 7)]);
          expect(rows).toEqual([{ n: i + 1, bytes: 300_000 }]);
          answered++;
        } catch (error) {
          failures.push(`app: ${(error as Error).message}`);
        }
      }
    })();
    try {
      for (let i = 0; i < 150; i++) {
        try {
          await client.query('begin isolation level repeatable read read only');
          await client.query('select count(*) from pg_class');
          await client.query('commit');
        } catch (error) {
          failures.push(`second: ${(error as Error).message}`);
          await client.query('rollback').catch(() => {});
        }
      }
    } finally {
      stop = true;
      await appQueries;
      await client.end();
    }
    expect(failures).toEqual([]);
    expect(answered).toBeGreaterThan(50);
  });

  it('when it goes away inside its transaction, then what it wrote is rolled back and the app goes on', async () => {
    await database.pool.query('create table if not exists abandoned (id int)');
    const client = await secondConnection();
    await client.query('begin');
    await client.query('insert into abandoned values (1)');
    // The app's query waits for the transaction's end, which the lost connection brings.
    const waiting = database.pool.query('select count(*)::int as n from abandoned');
    (client as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    await expect(waiting).resolves.toMatchObject({ rows: [{ n: 0 }] });
  });
});
