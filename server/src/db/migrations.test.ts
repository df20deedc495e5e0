import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileContent } from '../lib/files.ts';
import { openDatabase, migrateDatabase, type Database } from './client.ts';

const MIGRATIONS = path.join(import.meta.dirname, 'migrations');

/** A migrations folder holding the first `count` migrations only (the journal cut to match). */
function firstMigrations(count: number): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mss-migrations-'));
  fs.mkdirSync(path.join(dir, 'meta'));
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  journal.entries = journal.entries.slice(0, count);
  fs.writeFileSync(path.join(dir, 'meta', '_journal.json'), JSON.stringify(journal));
  for (const entry of journal.entries) fs.copyFileSync(path.join(MIGRATIONS, `${entry.tag}.sql`), path.join(dir, `${entry.tag}.sql`));
  return dir;
}

let database: Database;
const folders: string[] = [];
beforeAll(async () => {
  database = await openDatabase({ inMemory: true });
});
afterAll(async () => {
  await database?.close();
  for (const dir of folders) fs.rmSync(dir, { recursive: true, force: true });
});

describe('migrating report rows into row sets (0005, 0006)', () => {
  it('when a database from before row sets has rows, then each report keeps its rows as its current set', async () => {
    const q = (text: string, values: unknown[] = []) => database.pool.query(text, values).then((r) => r.rows);
    const before = firstMigrations(5); // 0000-0004
    folders.push(before);
    await migrate(database.db, { migrationsFolder: before });

    const [org] = await q(`insert into organizations (name) values ('Org') returning id`);
    const [market] = await q(
      `insert into markets (organization_id, international_name, local_name, iso_code) values ($1, 'Sweden', 'Sverige', 'SE') returning id`,
      [org.id],
    );
    const [company] = await q(`insert into companies (name) values ('Company') returning id`);
    const codes = await q(`insert into codes (organization_id, code, name) values ($1, 'A', 'a'), ($1, 'B', 'b') returning id`, [org.id]);
    const [period] = await q(`insert into periods (market_id, title, starts_on, ends_on) values ($1, '2026-09', '2026-09-01', '2026-09-30') returning id`, [
      market.id,
    ]);
    const [next] = await q(`insert into periods (market_id, title, starts_on, ends_on) values ($1, '2026-10', '2026-10-01', '2026-10-31') returning id`, [
      market.id,
    ]);
    const [withRows] = await q(`insert into reports (period_id, company_id) values ($1, $2) returning id`, [period.id, company.id]);
    const [withoutRows] = await q(`insert into reports (period_id, company_id) values ($1, $2) returning id`, [next.id, company.id]);
    await q(`insert into report_rows (report_id, code_id, volume, value) values ($1, $2, 1, 10), ($1, $3, 2, null)`, [withRows.id, codes[0].id, codes[1].id]);

    await migrateDatabase(database.db);

    const reports = await q(`select id, row_set_id from reports order by id`);
    expect(reports[1].row_set_id).toBeNull();
    const sets = await q(`select id, report_id from report_row_sets`);
    expect(sets).toEqual([{ id: reports[0].row_set_id, report_id: withRows.id }]);
    expect(await q(`select row_set_id, code_id, volume::float8 as volume, value::float8 as value from report_rows order by code_id`)).toEqual([
      { row_set_id: sets[0].id, code_id: codes[0].id, volume: 1, value: 10 },
      { row_set_id: sets[0].id, code_id: codes[1].id, volume: 2, value: null },
    ]);
    expect(withoutRows.id).toBe(reports[1].id);
    // The checks now name row sets: a row of an unknown set is refused, and deleting the report takes its rows.
    await expect(q(`insert into report_rows (row_set_id, code_id) values (987654, $1)`, [codes[0].id])).rejects.toMatchObject({ code: '23503' });
    await q(`delete from reports where id = $1`, [withRows.id]);
    expect(await q(`select count(*)::int as n from report_rows`)).toEqual([{ n: 0 }]);
  });
});

describe('moving file contents into chunks (0008)', () => {
  it('when a database from before chunks has files, then each keeps its content, complete, readable chunk by chunk', async () => {
    const older = await openDatabase({ inMemory: true });
    try {
      const q = (text: string, values: unknown[] = []) => older.pool.query(text, values).then((r) => r.rows);
      const before = firstMigrations(8); // 0000-0007
      folders.push(before);
      await migrate(older.db, { migrationsFolder: before });
      const contents = [Buffer.alloc(0), Buffer.from('a small logotype'), randomBytes(1024 * 1024 + 7)];
      const ids: number[] = [];
      for (const [i, content] of contents.entries()) {
        const [row] = await q(`insert into files (name, mime_type, size, sha256, content) values ($1, 'application/octet-stream', $2, $3, $4) returning id`, [
          `file-${i}`,
          content.length,
          createHash('sha256').update(content).digest('hex'),
          content,
        ]);
        ids.push(row.id);
      }
      const [org] = await q(`insert into organizations (name) values ('Org') returning id`);
      await q(`insert into markets (organization_id, international_name, local_name, iso_code, logotype_file_id) values ($1, 'Sweden', 'Sverige', 'SE', $2)`, [
        org.id,
        ids[1],
      ]);

      await migrateDatabase(older.db);

      expect(await q(`select column_name from information_schema.columns where table_name = 'files' and column_name = 'content'`)).toEqual([]);
      expect(await q(`select id, complete from files order by id`)).toEqual(ids.map((id) => ({ id, complete: true })));
      expect(await q(`select file_id, seq from file_chunks order by file_id`)).toEqual([
        { file_id: ids[1], seq: 0 },
        { file_id: ids[2], seq: 0 },
      ]);
      for (const [i, id] of ids.entries()) {
        const read: Buffer[] = [];
        for await (const chunk of fileContent(older.db, id)) read.push(chunk);
        expect(Buffer.concat(read).equals(contents[i]!)).toBe(true);
      }
      expect(await q(`select logotype_file_id from markets`)).toEqual([{ logotype_file_id: ids[1] }]);
      // Deleting a file takes its chunks with it.
      await q(`delete from markets`);
      await q(`delete from files where id = $1`, [ids[1]]);
      expect(await q(`select file_id from file_chunks`)).toEqual([{ file_id: ids[2] }]);
    } finally {
      await older.close();
    }
  });
});

describe('import errors as message keys (0009), one row each (0016)', () => {
  it('when stored errors carry their English sentence, then it is dropped where a key is there to render it, and every error becomes a row of import_errors in its order', async () => {
    const older = await openDatabase({ inMemory: true });
    try {
      const q = (text: string, values: unknown[] = []) => older.pool.query(text, values).then((r) => r.rows);
      const before = firstMigrations(9); // 0000-0008
      folders.push(before);
      await migrate(older.db, { migrationsFolder: before });
      const [org] = await q(`insert into organizations (name) values ('Org') returning id`);
      const [market] = await q(
        `insert into markets (organization_id, international_name, local_name, iso_code) values ($1, 'Sweden', 'Sverige', 'SE') returning id`,
        [org.id],
      );
      const [company] = await q(`insert into companies (name) values ('Company') returning id`);
      const [period] = await q(`insert into periods (market_id, title, starts_on, ends_on) values ($1, '2026-09', '2026-09-01', '2026-09-30') returning id`, [
        market.id,
      ]);
      const [report] = await q(`insert into reports (period_id, company_id) values ($1, $2) returning id`, [period.id, company.id]);
      const [file] = await q(`insert into files (name, mime_type, size, sha256, complete) values ('f', 'x', 0, '', true) returning id`);
      const errors = [
        { row: 2, code: 'X', key: 'import.invalid_code', params: { row: 2 }, message: 'Invalid code on row 2.' },
        { row: null, code: null, message: 'A sentence from before keys.' },
      ];
      const [item] = await q(`insert into imports (report_id, file_id, report_status_before, status, errors) values ($1, $2, 20, 'invalid', $3) returning id`, [
        report.id,
        file.id,
        JSON.stringify(errors),
      ]);
      const [empty] = await q(`insert into imports (report_id, file_id, report_status_before, status) values ($1, $2, 20, 'done') returning id`, [
        report.id,
        file.id,
      ]);

      await migrateDatabase(older.db);

      // 0016 then moves them into import_errors, one row each in their order.
      expect(await q(`select import_id, position, row, code, key, params, message from import_errors order by import_id, position`)).toEqual([
        { import_id: item.id, position: 0, row: 2, code: 'X', key: 'import.invalid_code', params: { row: 2 }, message: null },
        { import_id: item.id, position: 1, row: null, code: null, key: null, params: {}, message: 'A sentence from before keys.' },
      ]);
      expect(await q(`select id from imports order by id`)).toEqual([{ id: item.id }, { id: empty.id }]);
    } finally {
      await older.close();
    }
  });
});

describe('delivery attempts kept one by one (0015)', () => {
  it('when deliveries were tried before attempts were recorded, then each keeps its last attempt with its answer, and its count goes on', async () => {
    const older = await openDatabase({ inMemory: true });
    try {
      const q = (text: string, values: unknown[] = []) => older.pool.query(text, values).then((r) => r.rows);
      const before = firstMigrations(15); // 0000-0014
      folders.push(before);
      await migrate(older.db, { migrationsFolder: before });
      const [org] = await q(`insert into organizations (name) values ('Org') returning id`);
      const [communication] = await q(
        `insert into communications (organization_id, status, subject, body, market_ids, recipients) values ($1, 20, 'S', '<p>B</p>', '{1}', '{}') returning id`,
        [org.id],
      );
      const delivery = (email: string, status: string, attempts: number, answer: string | null) =>
        q(
          `insert into communication_deliveries (communication_id, email, name, variables, status, attempts, smtp_response, message_id)
           values ($1, $2, 'N', '{}', $3, $4, $5, $2) returning id`,
          [communication.id, email, status, attempts, answer],
        ).then((rows) => rows[0].id as number);
      const failed = await delivery('a@example.test', 'failed', 2, '550 Mailbox unavailable');
      const sent = await delivery('b@example.test', 'sent', 1, '250 OK');
      const waiting = await delivery('c@example.test', 'queued', 0, null);

      await migrateDatabase(older.db);

      expect(
        await q(
          `select delivery_id, number, outcome, smtp_response, finished_at is not null as finished from communication_delivery_attempts order by delivery_id`,
        ),
      ).toEqual([
        { delivery_id: failed, number: 2, outcome: 'failed', smtp_response: '550 Mailbox unavailable', finished: true },
        { delivery_id: sent, number: 1, outcome: 'sent', smtp_response: '250 OK', finished: true },
      ]);
      expect(await q(`select id, attempts, round_attempts from communication_deliveries order by id`)).toEqual([
        { id: failed, attempts: 2, round_attempts: 2 },
        { id: sent, attempts: 1, round_attempts: 1 },
        { id: waiting, attempts: 0, round_attempts: 0 },
      ]);
    } finally {
      await older.close();
    }
  });
});
