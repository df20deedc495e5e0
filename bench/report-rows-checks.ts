// Benchmark: what the integrity checks of report_rows cost the database on a 100,000-row import
// (row-set integrity; docs/decisions.md "Rows, row sets and concurrent deletes").
//
// Writes 100,000 rows into a new row set the way the import job does (insertRows: ten statements
// of 10,000 rows, three unnested arrays each), three times per variant, and prints the median:
//   - none: no check at all (the floor);
//   - triggers (0006: no lock): the statement-level checks before migration 0010;
//   - triggers (0010): the statement-level checks as migrated (the row set locked FOR KEY SHARE);
//   - triggers + codes FOR KEY SHARE: the same, also locking every referenced code row, as a
//     foreign key does;
//   - foreign keys: real foreign keys to codes and row sets instead of the triggers.
// Only the database's work is measured: no file is read, so this is the part of upload→done that
// the checks can change (docs/performance.md "Where the time goes": the row inserts).
//
//   npx tsx bench/report-rows-checks.ts                       # embedded PGlite
//   TEST_DATABASE_URL=postgres://... npx tsx bench/report-rows-checks.ts   # a PostgreSQL server
import { createCompany, createMarket, createOrganization, createTestApp } from '../server/test/helpers.ts';
import { periods, reportRowSets, reports } from '../server/src/db/schema.ts';
import { insertRows, type RowFigures } from '../server/src/modules/reports/row-sets.ts';

const ROWS = 100_000;
const BATCH = 10_000;
const RUNS = 3;

const t = await createTestApp();
const q = (text: string) => t.db.$client.query(text);
try {
  const org = await createOrganization(t.db);
  await q(`insert into codes (organization_id, code, name) select ${org.id}, 'C' || i, 'Code ' || i from generate_series(1, ${ROWS}) i`);
  const codeIds = (await q(`select id from codes where organization_id = ${org.id} order by id`)).rows.map((r: { id: number }) => r.id);
  const market = await createMarket(t.db, org.id);
  const company = await createCompany(t.db, []);
  const [period] = await t.db.insert(periods).values({ market_id: market.id, title: '2026-10', starts_on: '2026-10-01', ends_on: '2026-10-31' }).returning();
  const [report] = await t.db.insert(reports).values({ period_id: period!.id, company_id: company.id }).returning();
  const rows: RowFigures[] = codeIds.map((code_id, i) => ({ code_id, volume: String(i), value: `${i}.25` }));

  async function importOnce(): Promise<number> {
    const [set] = await t.db.insert(reportRowSets).values({ report_id: report!.id }).returning();
    const start = performance.now();
    for (let i = 0; i < rows.length; i += BATCH) await insertRows(t.db, set!.id, rows.slice(i, i + BATCH));
    const ms = performance.now() - start;
    await q(`delete from report_rows where row_set_id = ${set!.id}`);
    await q(`delete from report_row_sets where id = ${set!.id}`);
    await q(`vacuum report_rows`);
    await q(`vacuum codes`);
    return ms;
  }

  const triggers = ['report_rows_check_insert', 'report_rows_check_update'];
  const codesLock = `
    CREATE OR REPLACE FUNCTION bench_lock_codes() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM 1 FROM codes c WHERE c.id IN (SELECT code_id FROM new_rows) FOR KEY SHARE;
      RETURN NULL;
    END $$`;
  // The check as 0006 left it: the same lookups, the row set not locked.
  const current = (await q(`select pg_get_functiondef('report_rows_check_references'::regproc) as def`)).rows[0].def as string;
  const withoutSetLock = current.replace(/ FOR KEY SHARE/g, '');
  if (withoutSetLock === current) throw new Error('the check no longer locks the row set: update this bench');
  const variants: { name: string; on: string[]; off: string[] }[] = [
    {
      name: 'none',
      on: triggers.map((n) => `alter table report_rows disable trigger ${n}`),
      off: triggers.map((n) => `alter table report_rows enable trigger ${n}`),
    },
    { name: 'triggers (0006: no lock)', on: [withoutSetLock], off: [current] },
    { name: 'triggers (0010)', on: [], off: [] },
    {
      name: 'triggers + codes FOR KEY SHARE',
      on: [
        codesLock,
        `create trigger bench_lock_codes after insert on report_rows referencing new table as new_rows for each statement execute function bench_lock_codes()`,
      ],
      off: [`drop trigger bench_lock_codes on report_rows`, `drop function bench_lock_codes()`],
    },
    {
      name: 'foreign keys',
      on: [
        ...triggers.map((n) => `alter table report_rows disable trigger ${n}`),
        `alter table report_rows add constraint bench_code_fk foreign key (code_id) references codes(id)`,
        `alter table report_rows add constraint bench_set_fk foreign key (row_set_id) references report_row_sets(id) on delete cascade`,
      ],
      off: [
        `alter table report_rows drop constraint bench_code_fk`,
        `alter table report_rows drop constraint bench_set_fk`,
        ...triggers.map((n) => `alter table report_rows enable trigger ${n}`),
      ],
    },
  ];

  await importOnce(); // warm-up
  const kind = process.env.TEST_DATABASE_URL ? 'PostgreSQL server' : 'PGlite';
  console.log(`${ROWS.toLocaleString('en-US')} rows in ${ROWS / BATCH} statements, ${kind}, median of ${RUNS}`);
  for (const variant of variants) {
    for (const s of variant.on) await q(s);
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) times.push(await importOnce());
    for (const s of variant.off) await q(s);
    times.sort((a, b) => a - b);
    console.log(`${variant.name.padEnd(32)} ${times[Math.floor(RUNS / 2)]!.toFixed(0).padStart(6)} ms   (${times.map((x) => x.toFixed(0)).join(', ')})`);
  }
} finally {
  await t.close();
}
