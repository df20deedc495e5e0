import { setTimeout as sleep } from 'node:timers/promises';
import { actorOf, auditRead, type Reader } from '../../audit/audit.ts';
import { and, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import type { Import, ImportDetail } from '@mss/contracts/imports';
import { type CodeDisabledStatus, ReportStatus } from '@mss/contracts/enums';
import { isMessageKey, type MessageKey, type MessageParams, translate } from '@mss/contracts/messages';
import type { Locale } from '@mss/contracts/enums';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Executor } from '../../db/client.ts';
import { codeMarkets, codes, companies, companyCodes, files, importErrors, imports, markets, periods, reports, users } from '../../db/schema.ts';
import { AppError, notFound } from '../../errors.ts';
import { isXlsxError, markXlsx, withXlsxSlot } from '../../lib/xlsx/index.ts';
import { type Paged, planList } from '../../lib/list.ts';
import { deleteFile, fileContent, storeFile, withFileOnDisk } from '../../lib/files.ts';
import { runPreflight } from '../preflight/preflight.service.ts';
import { findReportRow, reportsFor, visibleReports } from '../reports/reports.service.ts';
import { createRowSet, deleteStaleRowSets, insertRows, setCurrentRowSet } from '../reports/row-sets.ts';
import { applyReportEvent, assertReportEvent } from '../reports/reports.workflow.ts';
import { columnName, type TemplateCode, writeRowsAsXlsx } from './imports.sheets.ts';
import { openSheet, sheetFormatOf } from '../../lib/sheet.ts';
import type { CodeInfo, CodeLookup } from './imports.validator.ts';
import { validateReportFile } from './imports.validator.ts';
import { type Principal } from '../../auth/principal.ts';
import { JOB_LEASE_SECONDS } from '../../jobs/queue.ts';
import { INSTANCE_NAME } from '../../lib/instance.ts';
import { isUuid } from '../../lib/uuid.ts';

/** Errors an import's detail carries: the screen shows these, the error sheet all of them. */
export const ERRORS_ON_SCREEN = 100;
/** Errors written per statement, and the pause between two: other requests get the database's connection meanwhile. */
const ERRORS_PER_INSERT = 500;
const PAUSE_BETWEEN_INSERTS_MS = 5;

/** Stores an import's errors in their order, a batch at a time, in place of any stored before (a run started over). */
async function storeErrors(db: Executor, importId: number, errors: readonly StoredError[]): Promise<void> {
  await db.delete(importErrors).where(eq(importErrors.import_id, importId));
  for (let start = 0; start < errors.length; start += ERRORS_PER_INSERT) {
    if (start > 0) await new Promise((resolve) => setTimeout(resolve, PAUSE_BETWEEN_INSERTS_MS));
    // One parameter per batch (a JSON array), not seven per error: the statement is parsed and bound once.
    const batch = errors.slice(start, start + ERRORS_PER_INSERT).map((e, i) => ({
      position: start + i,
      row: e.row,
      code: e.code,
      key: e.key ?? null,
      params: e.key === undefined ? {} : e.params,
      message: e.key === undefined ? e.message : null,
      column_letter: e.column?.letter ?? null,
      column_name: e.column?.name ?? null,
      cell: e.column?.cell ?? null,
    }));
    await db.execute(sql`
      insert into import_errors (import_id, position, row, code, key, params, message, column_letter, column_name, cell)
      select ${importId}, x.position, x.row, x.code, x.key, x.params, x.message, x.column_letter, x.column_name, x.cell
      from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb)
        as x(position int, row int, code text, key text, params jsonb, message text, column_letter text, column_name text, cell text)`);
  }
}

/** Where a report's codes come from: its organization, market and company. */
async function codeScopeOf(db: Db, reportId: number) {
  const [report] = await db
    .select({ company_id: reports.company_id, market_id: periods.market_id, organization_id: markets.organization_id })
    .from(reports)
    .innerJoin(periods, eq(periods.id, reports.period_id))
    .innerJoin(markets, eq(markets.id, periods.market_id))
    .where(eq(reports.id, reportId));
  if (!report) throw notFound();
  return report;
}

/** Available = assigned to the market and reported by the company: two sets, not two lookups per code. */
const isAvailable = (scope: { market_id: number; company_id: number }) =>
  sql<boolean>`(${codes.id} in (select ${codeMarkets.code_id} from ${codeMarkets} where ${codeMarkets.market_id} = ${scope.market_id})
    and ${codes.id} in (select ${companyCodes.code_id} from ${companyCodes} where ${companyCodes.company_id} = ${scope.company_id}))`;

/**
 * The validator's lookup: every code of the report's organization (a code of another
 * organization is an invalid code), whether it is available, without names or order: with
 * 100,000 codes this query runs while the file is read.
 */
export async function codeLookupFor(db: Db, reportId: number): Promise<CodeLookup> {
  const scope = await codeScopeOf(db, reportId);
  // The driver's rows as they are: mapping 100,000 of them through the query builder took ~85 ms
  // of this thread, while the database waited for the first rows to write.
  const { rows } = await db.execute<{ id: number; code: string; disabled_status: CodeDisabledStatus; available: boolean }>(
    sql`select ${codes.id}, ${codes.code}, ${codes.disabled_status}, ${isAvailable(scope)} as available from ${codes} where ${codes.organization_id} = ${scope.organization_id}`,
  );
  // The rows are the code infos (same fields): no second object per code.
  const byCode = new Map<string, CodeInfo>();
  for (const r of rows) byCode.set(r.code, r);
  return { byCode };
}

/** The codes available to the report's company in its market, by code, with their names (the template). */
export async function availableCodesFor(db: Db, reportId: number): Promise<TemplateCode[]> {
  const scope = await codeScopeOf(db, reportId);
  const rows = await db
    .select({ code: codes.code, name: codes.name, disabled_status: codes.disabled_status })
    .from(codes)
    .where(and(eq(codes.organization_id, scope.organization_id), isAvailable(scope)))
    .orderBy(sql`${codes.code} collate "C"`);
  return rows.map((r) => ({ ...r, disabled_status: r.disabled_status as CodeDisabledStatus }));
}

/**
 * Accepts an uploaded file for a report: checks who and when (docs/architecture.md §5), stores the file,
 * records the import and moves the report to Processing file. The queue does the rest.
 * `readFile` is called only after the checks: a refused upload is answered before its body is
 * read, and nothing of it is stored.
 */
export async function acceptUpload(
  db: Db,
  principal: Principal,
  reportUuid: string,
  readFile: () => Promise<{ name: string; content: Buffer | AsyncIterable<Buffer> }>,
  queue: { sendImport(importId: number): Promise<void> } | null,
  source: 'upload' | 'api' = 'upload',
): Promise<{ id: number; uuid: string; status: string }> {
  const report = await findReportRow(db, principal, reportUuid);
  const mayAct = await reportsFor(db, principal, report);
  assertReportEvent({ status: report.status, periodStatus: report.period.status }, 'upload', mayAct);
  const file = await readFile();
  // Stored as sent; the worker judges the content (not the name or the declared type).
  const fileId = await storeFile(db, { name: file.name, mimeType: 'application/octet-stream', content: file.content });
  // The status may have changed while the file arrived: then the stored file is nobody's.
  const created = await db
    .transaction(async (tx) => {
      const moved = await applyReportEvent(tx, { event: 'upload', reportId: report.id, actor: principal.userId, by: actorOf(principal), mayAct });
      const [row] = await tx
        .insert(imports)
        .values({ report_id: report.id, user_id: principal.userId, file_id: fileId, report_status_before: moved.from, source })
        .returning({ id: imports.id, uuid: imports.uuid, status: imports.status });
      return row!;
    })
    .catch(async (error: unknown) => {
      await deleteFile(db, fileId).catch(() => {}); // the refusal is the answer, not a failed clean-up
      throw error;
    });
  // Without a worker in this process the import waits, queued, for the next one that starts.
  await queue?.sendImport(created.id);
  return { id: created.id, uuid: created.uuid, status: created.status };
}

/** Rows handed to the database at a time while the file is still being read. */
const WRITE_BATCH_ROWS = 10_000;

/**
 * Runs of one import before it is given up (the job queue retries a failed run this many times
 * minus one). A file that fails every run, or ends the process every time, must not leave its
 * report in Processing: the last run marks the import failed and the report Invalid file.
 */
export const IMPORT_MAX_ATTEMPTS = 4;

/**
 * The job: validates the file while writing its rows into a new row set, and when the file is
 * valid makes that set the report's rows in one small transaction (an invalid file never touches
 * them). Safe to run again after a crash: it starts over from the stored file.
 */
export async function processImport(db: Db, log: FastifyBaseLogger, importId: number): Promise<void> {
  const claimed = await claimImport(db, importId);
  if (!claimed) return;
  const { item, report, attempt } = claimed;
  // The lease: renewed while this run works; a run whose lease ended (its process died) is taken over.
  const renewal = setInterval(
    () => {
      db.update(imports)
        .set({ heartbeat_at: sql`now()` })
        .where(and(eq(imports.id, importId), eq(imports.attempts, attempt)))
        .catch((error: unknown) => log.warn({ err: error, importId }, 'import lease not renewed'));
    },
    (IMPORT_LEASE_SECONDS * 1000) / 3,
  );
  try {
    await runImport(db, log, item, report, attempt);
  } finally {
    clearInterval(renewal);
  }
}

/**
 * An import's run lease: a run renews `heartbeat_at` every third of this; a run that has
 * not for this long is gone, and the next run takes the import over. As long as the job queue's lease.
 */
export const IMPORT_LEASE_SECONDS = JOB_LEASE_SECONDS;

/**
 * Takes the import for this run: a new attempt, fenced by the attempt number (every write of the
 * run's outcome names it, so a run that was taken over changes nothing). While another run holds
 * a live lease, waits for it to end or finish; null when there is nothing (left) to do.
 */
async function claimImport(db: Db, importId: number) {
  for (;;) {
    const [item] = await db
      .select({ ...getTableColumns(imports), lease_age: sql<number | null>`extract(epoch from now() - ${imports.heartbeat_at})::float8` })
      .from(imports)
      .where(eq(imports.id, importId));
    if (!item || item.status === 'invalid' || item.status === 'done' || item.status === 'failed') return null;
    if (item.status === 'processing' && item.lease_age !== null && item.lease_age < IMPORT_LEASE_SECONDS) {
      await sleep((IMPORT_LEASE_SECONDS - item.lease_age) * 1000 + 250);
      continue;
    }
    const [report] = await db.select({ id: reports.id, status: reports.status }).from(reports).where(eq(reports.id, item.report_id));
    if (!report) return null;
    // Interrupted while storing rows: go back to Processing file and start over.
    if (report.status === ReportStatus.ProcessingData) await applyReportEvent(db, { event: 'restart', reportId: report.id, actor: null });
    else if (report.status !== ReportStatus.ProcessingFile) {
      await db
        .update(imports)
        .set({ status: 'failed', finished_at: sql`now()` })
        .where(and(eq(imports.id, importId), eq(imports.attempts, item.attempts)));
      return null;
    }
    const attempt = item.attempts + 1;
    const taken = await db
      .update(imports)
      .set({ status: 'processing', started_at: sql`now()`, heartbeat_at: sql`now()`, attempts: attempt, worker: INSTANCE_NAME })
      .where(and(eq(imports.id, importId), eq(imports.attempts, item.attempts)))
      .returning({ id: imports.id });
    // Another run took it in between: look again.
    if (taken.length === 0) continue;
    return { item, report, attempt };
  }
}

async function runImport(db: Db, log: FastifyBaseLogger, item: typeof imports.$inferSelect, report: { id: number }, attempt: number): Promise<void> {
  const importId = item.id;
  // Rows written by an interrupted run are not the report's: drop them before writing anew.
  await deleteStaleRowSets(db, report.id);
  if (attempt > IMPORT_MAX_ATTEMPTS) {
    // The earlier runs ended the process (or the queue retried more often than it should).
    await giveUpImport(db, importId, report.id, attempt);
    return;
  }
  const rowSetId = await createRowSet(db, report.id);

  try {
    await withFileOnDisk(db, item.file_id, 'upload.xlsx', async (filePath) => {
      // The database's thread looks the codes up, then writes the rows, while this one reads the sheet.
      // Whether any stored figure is negative: the preflight then need not look for them among the rows.
      let negative = false;
      const result = await validateReportFile(filePath, codeLookupFor(db, report.id), {
        sink: {
          batchSize: WRITE_BATCH_ROWS,
          write: (rows) => {
            negative ||= rows.some((r) => r.volume?.startsWith('-') || r.value?.startsWith('-'));
            return insertRows(db, rowSetId, rows);
          },
        },
      });
      if (!result.ok) {
        // Stored as message keys with their parameters: rendered in each reader's language when served.
        // All of them (the validator lists at most IMPORT_MAX_ERRORS, then a note where it stopped):
        // the error sheet holds what the file has.
        const stored: StoredError[] = result.errors.map((e) => ({ row: e.row, code: e.code, key: e.key, params: e.params, column: e.column ?? null }));
        // Written before the import says it is invalid: a reader never sees it invalid without them.
        await stillOurs(db, importId, attempt);
        await storeErrors(db, importId, stored);
        await db.transaction(async (tx) => {
          await stillOurs(tx, importId, attempt);
          await tx
            .update(imports)
            // Every error of the file, counted even past the list's end.
            .set({
              status: 'invalid',
              error_count: result.errorCount,
              row_count: result.dataRowCount,
              finished_at: sql`now()`,
            })
            .where(eq(imports.id, importId));
          await applyReportEvent(tx, { event: 'file_invalid', reportId: report.id, actor: null });
        });
        await deleteStaleRowSets(db, report.id);
        return;
      }
      await db.transaction(async (tx) => {
        await stillOurs(tx, importId, attempt);
        await applyReportEvent(tx, { event: 'file_valid', reportId: report.id, actor: null });
        await setCurrentRowSet(tx, report.id, rowSetId);
        await tx
          .update(imports)
          .set({ status: 'done', row_count: result.rowCount, error_count: 0, finished_at: sql`now()` })
          .where(eq(imports.id, importId));
        // In the same step (docs/architecture.md §5 "rows stored, preflight run"): whoever sees the import done
        // sees its preflight too (the import screen stops polling once it is done).
        await runPreflight(tx, report.id, undefined, { noNegatives: !negative });
        await applyReportEvent(tx, { event: 'rows_stored', reportId: report.id, actor: null, before: item.report_status_before });
      });
      await deleteStaleRowSets(db, report.id);
    });
  } catch (error) {
    if (error instanceof TakenOver || !(await isOurs(db, importId, attempt).catch(() => true))) {
      // A later run has the import (this one's lease ended): what this run wrote is not used.
      log.warn({ importId, attempt }, 'import run taken over by another');
      return;
    }
    log.error({ err: error, importId, attempt }, 'import failed');
    if (attempt < IMPORT_MAX_ATTEMPTS) throw error; // the queue runs it again
    await deleteStaleRowSets(db, report.id);
    await giveUpImport(db, importId, report.id, attempt);
  }
}

/**
 * The import failed for good: it says so, and the report leaves Processing (its rows untouched).
 * An import that got as far as done (a later step failed, say the preflight) stays done.
 */
async function giveUpImport(db: Db, importId: number, reportId: number, attempt: number): Promise<void> {
  const error: StoredError = { row: null, code: null, key: 'import.failed', params: {} };
  await db.transaction(async (tx) => {
    const failed = await tx
      .update(imports)
      .set({ status: 'failed', error_count: 1, finished_at: sql`now()` })
      .where(and(eq(imports.id, importId), eq(imports.status, 'processing'), eq(imports.attempts, attempt)))
      .returning({ id: imports.id });
    if (failed.length === 0) return;
    await storeErrors(tx, importId, [error]);
    const [report] = await tx.select({ status: reports.status }).from(reports).where(eq(reports.id, reportId)).for('update');
    // From Processing data the way back goes through Processing file (the status machine).
    if (report?.status === ReportStatus.ProcessingData) await applyReportEvent(tx, { event: 'restart', reportId, actor: null });
    if (report?.status === ReportStatus.ProcessingFile || report?.status === ReportStatus.ProcessingData) {
      await applyReportEvent(tx, { event: 'give_up', reportId, actor: null });
    }
  });
}

/** A run's outcome is written only while the import is still this run's (fenced by the attempt). */
class TakenOver extends Error {}

async function isOurs(db: Executor, importId: number, attempt: number): Promise<boolean> {
  const [row] = await db.select({ attempts: imports.attempts }).from(imports).where(eq(imports.id, importId));
  return row?.attempts === attempt;
}

/** In a transaction, also locks the import row: no later run can take it until this one commits. */
async function stillOurs(db: Executor, importId: number, attempt: number): Promise<void> {
  const [row] = await db.select({ attempts: imports.attempts }).from(imports).where(eq(imports.id, importId)).for('update');
  if (row?.attempts !== attempt) throw new TakenOver(`import ${importId}: attempt ${attempt} was taken over`);
}

/**
 * After a start: every import that did not finish is queued again. One that another process is
 * running (its lease is live) waits in its job for that run to end, then finds nothing to do.
 */
export async function recoverImports(db: Db, queue: { sendImport(importId: number): Promise<void> }): Promise<number> {
  const pending = await db
    .select({ id: imports.id })
    .from(imports)
    .where(inArray(imports.status, ['queued', 'processing']));
  for (const p of pending) await queue.sendImport(p.id);
  return pending.length;
}

const importColumns = {
  id: imports.id,
  uuid: imports.uuid,
  status: imports.status,
  source: imports.source,
  row_count: imports.row_count,
  error_count: imports.error_count,
  created_at: imports.created_at,
  finished_at: imports.finished_at,
  file_id: imports.file_id,
  file_name: files.name,
  file_size: files.size,
  report: { uuid: reports.uuid, status: reports.status },
  company: { id: companies.id, name: companies.name },
  market: { id: markets.id, international_name: markets.international_name, local_name: markets.local_name, iso_code: markets.iso_code },
  period: { uuid: periods.uuid, title: periods.title },
  user_id: users.id,
  user_first: users.first_name,
  user_last: users.last_name,
  user_email: users.email,
};

/** An import's report, period, market, company, file and uploader, joined to a select from imports. */
const joinImportParts = <Q extends PgSelect>(query: Q) =>
  query
    .innerJoin(reports, eq(reports.id, imports.report_id))
    .innerJoin(periods, eq(periods.id, reports.period_id))
    .innerJoin(markets, eq(markets.id, periods.market_id))
    .innerJoin(companies, eq(companies.id, reports.company_id))
    .innerJoin(files, eq(files.id, imports.file_id))
    .leftJoin(users, eq(users.id, imports.user_id));

const selectImports = (db: Db) => joinImportParts(db.select(importColumns).from(imports).$dynamic());

type ImportRowData = Awaited<ReturnType<typeof selectImports>>[number];

function toImport(row: ImportRowData): Import {
  return {
    uuid: row.uuid,
    status: row.status as Import['status'],
    source: row.source as Import['source'],
    report: row.report,
    company: row.company,
    market: row.market,
    period: row.period,
    user: row.user_id === null ? null : { id: row.user_id, name: `${row.user_first ?? ''} ${row.user_last ?? ''}`.trim() || (row.user_email ?? '') },
    file_name: row.file_name,
    file_size: row.file_size,
    row_count: row.row_count,
    error_count: row.error_count,
    created_at: row.created_at.toISOString(),
    finished_at: row.finished_at?.toISOString() ?? null,
  };
}

/** Imports of the reports the actor may see, a page at a time, newest first unless sorted otherwise. */
export async function findImports(
  db: Db,
  principal: Principal,
  query: { report_uuid?: string; page: number; per_page: number; sort?: string; direction: 'asc' | 'desc'; search?: string },
): Promise<Paged<Import>> {
  const userName = sql`lower(coalesce(nullif(trim(concat_ws(' ', ${users.first_name}, ${users.last_name})), ''), ${users.email}))`;
  const plan = planList(query, {
    sortable: {
      created_at: imports.id,
      file_name: sql`lower(${files.name})`,
      status: imports.status,
      company: sql`lower(${companies.name})`,
      market: markets.iso_code,
      period: periods.starts_on,
      user: userName,
      row_count: imports.row_count,
      error_count: imports.error_count,
    },
    searchable: [files.name, companies.name, periods.title, users.email, sql`concat_ws(' ', ${users.first_name}, ${users.last_name})`],
    nullsLast: ['row_count', 'user'],
  });
  const where = and(await visibleReports(db, principal), query.report_uuid ? eq(reports.uuid, query.report_uuid) : undefined, plan.search);
  const [counted] = await joinImportParts(
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(imports)
      .$dynamic(),
  ).where(where);
  const rows = await selectImports(db)
    .where(where)
    // Equal sort values: newest first.
    .orderBy(plan.orderBy[0]!, desc(imports.id))
    .limit(plan.limit)
    .offset(plan.offset);
  return { data: rows.map(toImport), meta: plan.meta(counted?.total ?? 0) };
}

async function findImportRow(db: Db, principal: Principal, uuid: string): Promise<ImportRowData> {
  if (!isUuid(uuid)) throw notFound();
  const [row] = await selectImports(db).where(and(eq(imports.uuid, uuid), await visibleReports(db, principal)));
  if (!row) throw notFound();
  return row;
}

/**
 * A row error as stored: its message key and parameters (migration 0009 dropped the stored English
 * sentences). An entry from before keys were stored, if any, keeps its sentence.
 */
type ErrorColumn = { letter: 'A' | 'B' | 'C'; name: string | null; cell: string | null } | null;
type StoredError =
  | { row: number | null; code: string | null; key: MessageKey; params: MessageParams; column?: ErrorColumn }
  | { row: number | null; code: string | null; key?: undefined; message: string; column?: ErrorColumn };

/** The column as a reader sees it: the header's name, or the template's name of that column in the reader's language. */
const columnOf = (column: ErrorColumn | undefined, locale?: Locale) =>
  column ? { letter: column.letter, name: columnName(column, locale), cell: column.cell } : null;

/** A stored error with its message in the reader's language. */
export function renderImportError(error: StoredError, locale?: Locale) {
  const column = columnOf(error.column, locale);
  if (error.key === undefined) return { row: error.row, code: error.code ?? null, key: null, params: {}, message: error.message, column };
  return { row: error.row, code: error.code ?? null, key: error.key, params: error.params, message: translate(error.key, error.params, locale), column };
}

/** Stored errors as they were written (a legacy entry has its sentence instead of a key). */
const storedError = (e: {
  row: number | null;
  code: string | null;
  key: string | null;
  params: unknown;
  message: string | null;
  column_letter: string | null;
  column_name: string | null;
  cell: string | null;
}): StoredError => {
  const column: ErrorColumn = e.column_letter ? { letter: e.column_letter as 'A' | 'B' | 'C', name: e.column_name, cell: e.cell } : null;
  // A key the catalogue no longer has is shown by its stored sentence (or the key itself).
  return e.key === null || !isMessageKey(e.key)
    ? { row: e.row, code: e.code, message: e.message ?? e.key ?? '', column }
    : { row: e.row, code: e.code, key: e.key, params: e.params as MessageParams, column };
};
const errorColumns = {
  row: importErrors.row,
  code: importErrors.code,
  key: importErrors.key,
  params: importErrors.params,
  message: importErrors.message,
  column_letter: importErrors.column_letter,
  column_name: importErrors.column_name,
  cell: importErrors.cell,
};

/**
 * The first `limit` stored errors of an import, how many are stored and the last one (a cut list
 * ends with its note), each read by the index: 50,000 errors do not travel for the first 100.
 */
async function firstErrors(db: Db, importId: number, limit: number) {
  const first = await db.select(errorColumns).from(importErrors).where(eq(importErrors.import_id, importId)).orderBy(importErrors.position).limit(limit);
  const [last] = await db.select(errorColumns).from(importErrors).where(eq(importErrors.import_id, importId)).orderBy(desc(importErrors.position)).limit(1);
  const [counted] = await db
    .select({ stored: sql<number>`count(*)::int` })
    .from(importErrors)
    .where(eq(importErrors.import_id, importId));
  return { first: first.map(storedError), last: last ? storedError(last) : null, stored: counted?.stored ?? 0 };
}

const isCutNote = (error: StoredError | null | undefined): boolean => error?.key === 'import.too_many_errors';

/**
 * One import with its first `ERRORS_ON_SCREEN` errors. `error_count` is every error of the file,
 * `errors_listed` how many the error sheet holds, and `errors_note` says where a cut list stops.
 */
export async function findImport(db: Db, principal: Principal, uuid: string): Promise<ImportDetail> {
  const row = await findImportRow(db, principal, uuid);
  const { first, last, stored } = await firstErrors(db, row.id, ERRORS_ON_SCREEN);
  const cut = isCutNote(last);
  const errors = first.filter((e) => !isCutNote(e)).map((e) => renderImportError(e, principal.locale));
  const listed = stored - (cut ? 1 : 0);
  return {
    ...toImport(row),
    message: row.status === 'invalid' ? translate('import.file_invalid', { file_name: row.file_name }, principal.locale) : null,
    errors,
    errors_listed: listed,
    errors_truncated: row.error_count > errors.length,
    errors_note: cut && last ? renderImportError(last, principal.locale).message : null,
  };
}

/** The file a company uploaded: `reader` records the read in the audit trail, unless by the company's own user. */
export async function findImportFile(
  db: Db,
  principal: Principal,
  uuid: string,
  reader?: Reader,
): Promise<{ name: string; size: number; content: AsyncIterable<Buffer> }> {
  const row = await findImportRow(db, principal, uuid);
  await auditReadOfFile(db, reader, row, 'original');
  return { name: row.file_name, size: row.file_size, content: fileContent(db, row.file_id) };
}

/**
 * The uploaded file with its faulty cells marked: each row error's cell (column A when the error
 * names no column) gets a fill and a comment with the error in the reader's language. A CSV
 * cannot hold marks: its rows are written into an xlsx (each at its row number) and marked there. Errors of
 * the whole file, and the note where a cut list stops, have no cell and are not marked (the
 * screen and the error list say them). 404 for an import without row errors.
 */
const auditReadOfFile = (db: Db, reader: Reader | undefined, row: ImportRowData, file: 'original' | 'marked') =>
  auditRead(db, reader, {
    action: 'report.file_read',
    companyId: row.company.id,
    marketId: row.market.id,
    record: { type: 'import', id: row.uuid },
    details: { report_uuid: row.report.uuid, file, file_name: row.file_name },
  });

export async function findMarkedImportFile(
  db: Db,
  principal: Principal,
  uuid: string,
  author: string,
  reader?: Reader,
): Promise<{ name: string; content: Buffer }> {
  const found = await findImportRow(db, principal, uuid);
  await auditReadOfFile(db, reader, found, 'marked');
  const stored = await db
    .select(errorColumns)
    .from(importErrors)
    .where(and(eq(importErrors.import_id, found.id), sql`${importErrors.row} is not null`))
    .orderBy(importErrors.position);
  if (stored.length === 0) throw notFound();
  const marks = stored.map((e) => {
    const error = renderImportError(storedError(e), principal.locale);
    return { row: error.row!, column: error.column ? error.column.letter.charCodeAt(0) - 65 : 0, note: error.message };
  });
  // A read like the import's: in a slot, within the same limits. A CSV is marked in an xlsx of its rows.
  const content = await withFileOnDisk(db, found.file_id, 'upload', (filePath) =>
    withXlsxSlot(async () => {
      if ((await sheetFormatOf(filePath)) === 'xlsx') return markXlsx(filePath, marks, { author });
      const sheet = await openSheet(filePath, { numericColumns: [1, 2] });
      const asXlsx = `${filePath}.xlsx`;
      await writeRowsAsXlsx(sheet.rows(), asXlsx);
      return markXlsx(asXlsx, marks, { author });
    }),
  ).catch((error: unknown) => {
    if (isXlsxError(error)) throw new AppError('validation', 'import.not_markable');
    throw error;
  });
  return { name: found.file_name, content };
}

/** Every stored error (the error sheet), the cut note last when the list was cut. */
export async function findImportErrors(db: Db, principal: Principal, uuid: string) {
  const found = await findImportRow(db, principal, uuid);
  const stored = await db.select(errorColumns).from(importErrors).where(eq(importErrors.import_id, found.id)).orderBy(importErrors.position);
  return { fileName: found.file_name, errors: stored.map((e) => renderImportError(storedError(e), principal.locale)) };
}
