// The import job: a stored file validated and written as the report's rows, run again after a crash
// (imports are claimed by attempt), and given up after IMPORT_MAX_ATTEMPTS.
import { setTimeout as sleep } from 'node:timers/promises';
import { and, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { ReportStatus } from '@mss/contracts/enums';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Executor } from '../../db/client.ts';
import { importErrors, imports, reports } from '../../db/schema.ts';
import { withFileOnDisk } from '../../lib/files.ts';
import { runPreflight } from '../preflight/preflight.service.ts';
import { createRowSet, deleteStaleRowSets, insertRows, setCurrentRowSet } from '../reports/row-sets.ts';
import { applyReportEvent } from '../reports/reports.workflow.ts';
import { validateReportFile } from './imports.validator.ts';
import { defineJob, JOB_LEASE_SECONDS, type JobQueue } from '../../jobs/queue.ts';
import { z } from 'zod';
import { allows, IMPORT_LIFECYCLE } from '@mss/contracts/lifecycles';
import type { ImportStatus } from '@mss/contracts/imports';
import { INSTANCE_NAME } from '../../lib/instance.ts';
import { codeLookupFor } from './imports.codes.ts';
import { type StoredError } from './imports.service.ts';

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
    // The import's lifecycle (contracts/lifecycles.ts): invalid, done and failed imports are over.
    if (!item || !allows(IMPORT_LIFECYCLE, item.status as ImportStatus, 'claim')) return null;
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
        .set({ status: IMPORT_LIFECYCLE.abandon.to, finished_at: sql`now()` })
        .where(and(eq(imports.id, importId), eq(imports.attempts, item.attempts), inArray(imports.status, [...IMPORT_LIFECYCLE.abandon.from])));
      return null;
    }
    const attempt = item.attempts + 1;
    const taken = await db
      .update(imports)
      .set({ status: IMPORT_LIFECYCLE.claim.to, started_at: sql`now()`, heartbeat_at: sql`now()`, attempts: attempt, worker: INSTANCE_NAME })
      .where(and(eq(imports.id, importId), eq(imports.attempts, item.attempts), inArray(imports.status, [...IMPORT_LIFECYCLE.claim.from])))
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
              status: IMPORT_LIFECYCLE.invalid.to,
              error_count: result.errorCount,
              row_count: result.dataRowCount,
              finished_at: sql`now()`,
            })
            .where(and(eq(imports.id, importId), inArray(imports.status, [...IMPORT_LIFECYCLE.invalid.from])));
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
          .set({ status: IMPORT_LIFECYCLE.done.to, row_count: result.rowCount, error_count: 0, finished_at: sql`now()` })
          .where(and(eq(imports.id, importId), inArray(imports.status, [...IMPORT_LIFECYCLE.done.from])));
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
      .set({ status: IMPORT_LIFECYCLE.give_up.to, error_count: 1, finished_at: sql`now()` })
      .where(and(eq(imports.id, importId), inArray(imports.status, [...IMPORT_LIFECYCLE.give_up.from]), eq(imports.attempts, attempt)))
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
async function recoverImports(db: Db, queue: JobQueue): Promise<number> {
  const pending = await db
    .select({ id: imports.id })
    .from(imports)
    .where(inArray(imports.status, ['queued', 'processing']));
  for (const p of pending) await queue.send('report-import', { importId: p.id });
  return pending.length;
}

declare module '../../jobs/queue.ts' {
  interface JobPayloads {
    'report-import': { importId: number };
  }
}

/** The processing of an uploaded file: one job per import, a second request for the same import folded in. */
export const importJob = defineJob({
  name: 'report-import',
  payload: z.object({ importId: z.number().int().positive() }),
  // Retries cover a crash mid-job: the lease ends, the job comes back, and processing starts over.
  queue: { retryLimit: IMPORT_MAX_ATTEMPTS - 1, retryDelay: 1, expireInSeconds: 900 },
  // Files processed at once by this process.
  worker: { pollingIntervalSeconds: 0.5, localConcurrency: 2 },
  sendOptions: ({ importId }) => ({ singletonKey: `import-${importId}` }),
  handler: (ctx, { importId }) => processImport(ctx.db, ctx.log, importId),
  recover: (ctx, queue) => recoverImports(ctx.db, queue),
});
