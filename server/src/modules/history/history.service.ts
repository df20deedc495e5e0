import { setTimeout as sleep } from 'node:timers/promises';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { canInMarket } from '@mss/contracts/abilities';
import type { Locale } from '@mss/contracts/enums';
import type { HistoryImport, HistoryImportDetail, HistoryPlan, HistoryResult } from '@mss/contracts/history';
import { isMessageKey, type MessageKey, type MessageParams, translate } from '@mss/contracts/messages';
import type { FastifyBaseLogger } from 'fastify';
import type { Principal } from '../../auth/principal.ts';
import type { Db, Executor } from '../../db/client.ts';
import { sqlArray } from '../../db/sql-array.ts';
import {
  codeMarkets,
  codes,
  companies,
  companyCodes,
  companyMarkets,
  companyOrganizations,
  files,
  historyImportErrors,
  historyImportRows,
  historyImports,
  markets,
  periods,
  reportRowSets,
  reports,
  users,
} from '../../db/schema.ts';
import { AppError, forbidden, notFound } from '../../errors.ts';
import { deleteFile, storeFile, withFileOnDisk } from '../../lib/files.ts';
import { organizationMarketIds } from '../../lib/scope.ts';
import { isUuid } from '../../lib/uuid.ts';
import { lockPeriod } from '../statistics/figures/statistics.cells.ts';
import { publishPeriod } from '../statistics/disclosure/statistics.publications.ts';
import { applyHistoryReports } from '../reports/reports.workflow.ts';
import { ERRORS_ON_SCREEN } from '../imports/imports.service.ts';
import { type HistoryError, type HistoryLookup, type HistoryMarket, type HistoryRow, validateHistoryFile } from './history.validator.ts';

/*
 * An association's history in one step (docs/decisions.md "History import"). Three steps, each a
 * job on the queue, each asked for by an administrator: check (a dry run: every problem, or what
 * the import would do), import (periods created, one approved report per company and period,
 * each period in one transaction of its own), publish (each period the import touched, under the
 * same disclosure control as any publication). A step that dies with its process is run again
 * from its start: checking changes nothing, importing the same rows again changes nothing, and
 * publishing an unchanged period gives its latest publication again.
 */

type Row = typeof historyImports.$inferSelect;
interface Queue {
  sendHistory(id: number): Promise<void>;
}

/** Rows staged per statement while the file is read: short statements, so that other requests get the connection in between. */
const STAGE_BATCH_ROWS = 5_000;
/** Steps that run (one per organization at a time, but a check). */
const RUNNING = ['checking', 'importing', 'publishing'] as const;

/** The markets of the caller's organization where they may import history: they manage its periods and approve its reports. */
export async function historyMarketsOf(db: Db, principal: Principal): Promise<number[]> {
  if (principal.organizationId === null) return [];
  const ids = await organizationMarketIds(db, principal);
  return ids.filter((id) => canInMarket(principal.subject, 'manage-periods', id) && canInMarket(principal.subject, 'approve-reports', id));
}

async function assertMayImport(db: Db, principal: Principal): Promise<number[]> {
  const marketIds = await historyMarketsOf(db, principal);
  if (principal.organizationId === null || marketIds.length === 0) throw forbidden();
  return marketIds;
}

/** What the organization has, for the validator; `administered`: the markets the step may write. */
export async function historyLookupFor(db: Executor, organizationId: number, administered: readonly number[]): Promise<HistoryLookup> {
  const orgMarkets = await db.select({ id: markets.id, iso_code: markets.iso_code }).from(markets).where(eq(markets.organization_id, organizationId));
  const marketIds = orgMarkets.map((m) => m.id);
  const codeRows = await db
    .select({ id: codes.id, code: codes.code, disabled_status: codes.disabled_status })
    .from(codes)
    .where(eq(codes.organization_id, organizationId));
  const marketCodes = marketIds.length ? await db.select().from(codeMarkets).where(inArray(codeMarkets.market_id, marketIds)) : [];
  const periodRows = marketIds.length
    ? await db
        .select({
          id: periods.id,
          market_id: periods.market_id,
          month: sql<string>`to_char(${periods.starts_on}, 'YYYY-MM')`,
          whole: sql<boolean>`${periods.starts_on} = date_trunc('month', ${periods.starts_on})::date and ${periods.ends_on} = (date_trunc('month', ${periods.starts_on}) + interval '1 month - 1 day')::date`,
        })
        .from(periods)
        .where(inArray(periods.market_id, marketIds))
    : [];
  const companyRows = await db
    .select({ id: companies.id, name: companies.name })
    .from(companies)
    .innerJoin(companyOrganizations, eq(companyOrganizations.company_id, companies.id))
    .where(eq(companyOrganizations.organization_id, organizationId));
  const companyIds = companyRows.map((c) => c.id);
  const memberships = companyIds.length ? await db.select().from(companyMarkets).where(inArray(companyMarkets.company_id, companyIds)) : [];
  const companyCodeRows = companyIds.length ? await db.select().from(companyCodes).where(inArray(companyCodes.company_id, companyIds)) : [];

  // Grouped in one pass each (an organization may have 100,000 codes and hundreds of companies).
  const group = <K, V>(rows: readonly { key: K; value: V }[]) => {
    const out = new Map<K, Set<V>>();
    for (const { key, value } of rows) {
      let set = out.get(key);
      if (!set) out.set(key, (set = new Set()));
      set.add(value);
    }
    return out;
  };
  const codesOfMarket = group(marketCodes.map((c) => ({ key: c.market_id, value: c.code_id })));
  const marketsOfCompany = group(memberships.map((x) => ({ key: x.company_id, value: x.market_id })));
  const codesOfCompany = group(companyCodeRows.map((x) => ({ key: x.company_id, value: x.code_id })));
  const periodsOfMarket = new Map<number, Map<string, { id: number; whole_month: boolean }>>();
  for (const p of periodRows) {
    let months = periodsOfMarket.get(p.market_id);
    if (!months) periodsOfMarket.set(p.market_id, (months = new Map()));
    if (!months.has(p.month)) months.set(p.month, { id: p.id, whole_month: p.whole });
  }
  const marketsByIso = new Map<string, HistoryMarket>();
  for (const m of orgMarkets) {
    marketsByIso.set(m.iso_code.toUpperCase(), {
      id: m.id,
      iso_code: m.iso_code,
      administered: administered.includes(m.id),
      codeIds: codesOfMarket.get(m.id) ?? new Set(),
      periods: periodsOfMarket.get(m.id) ?? new Map(),
    });
  }
  const companiesById = new Map(
    companyRows.map((c) => [
      c.id,
      { id: c.id, name: c.name, marketIds: marketsOfCompany.get(c.id) ?? new Set<number>(), codeIds: codesOfCompany.get(c.id) ?? new Set<number>() },
    ]),
  );
  const companiesByName = new Map<string, (typeof companiesById extends Map<number, infer C> ? C : never)[]>();
  for (const c of companiesById.values()) {
    const key = c.name.trim().toLowerCase();
    companiesByName.set(key, [...(companiesByName.get(key) ?? []), c]);
  }
  return {
    marketsByIso,
    companiesById,
    companiesByName,
    codesByCode: new Map(codeRows.map((c) => [c.code, { ...c, disabled_status: c.disabled_status as 0 | 10 | 20 | 30 }])),
  };
}

/** Accepts a history file: stores it and queues its check. */
export async function acceptHistoryFile(
  db: Db,
  principal: Principal,
  readFile: () => Promise<{ name: string; content: Buffer | AsyncIterable<Buffer> }>,
  queue: Queue | null,
): Promise<{ uuid: string; status: string }> {
  const marketIds = await assertMayImport(db, principal);
  const file = await readFile();
  const fileId = await storeFile(db, { name: file.name, mimeType: 'application/octet-stream', content: file.content });
  const [created] = await db
    .insert(historyImports)
    .values({ organization_id: principal.organizationId!, user_id: principal.userId, file_id: fileId, market_ids: marketIds })
    .returning({ id: historyImports.id, uuid: historyImports.uuid, status: historyImports.status })
    .catch(async (error: unknown) => {
      await deleteFile(db, fileId).catch(() => {});
      throw error;
    });
  await queue?.sendHistory(created!.id);
  return { uuid: created!.uuid, status: created!.status };
}

async function findRow(db: Db, principal: Principal, uuid: string): Promise<Row> {
  // Who may import history at all, first (a super-admin, who acts in no one organization, may not).
  await assertMayImport(db, principal);
  if (!isUuid(uuid) || principal.organizationId === null) throw notFound();
  const [row] = await db
    .select()
    .from(historyImports)
    .where(and(eq(historyImports.uuid, uuid), eq(historyImports.organization_id, principal.organizationId)));
  if (!row) throw notFound();
  return row;
}

/** The plan's markets: every one must be the caller's to import into. */
function planMarketIds(row: Row): number[] {
  return [...new Set(((row.plan as HistoryPlan | null)?.periods ?? []).map((p) => p.market_id))];
}

/** Starts the import of a checked file (or again, of a cancelled or failed one). One running step per organization. */
export async function requestHistoryImport(db: Db, principal: Principal, uuid: string, queue: Queue | null): Promise<void> {
  const row = await findRow(db, principal, uuid);
  const mine = await historyMarketsOf(db, principal);
  if (!['checked', 'cancelled', 'failed', 'imported', 'published'].includes(row.status) || row.plan === null)
    throw new AppError('conflict', 'history.not_checked');
  if (!planMarketIds(row).every((id) => mine.includes(id))) throw forbidden();
  await startStep(db, row, 'importing', principal.userId, mine, queue);
}

/** Publishes the periods the import wrote. */
export async function requestHistoryPublish(db: Db, principal: Principal, uuid: string, queue: Queue | null): Promise<void> {
  const row = await findRow(db, principal, uuid);
  const mine = await historyMarketsOf(db, principal);
  if (!['imported', 'published', 'cancelled'].includes(row.status) || row.result === null) throw new AppError('conflict', 'history.not_publishable');
  if (!planMarketIds(row).every((id) => mine.includes(id))) throw forbidden();
  await startStep(db, row, 'publishing', principal.userId, mine, queue);
}

async function startStep(db: Db, row: Row, status: 'importing' | 'publishing', actor: number, marketIds: number[], queue: Queue | null): Promise<void> {
  const started = await db.transaction(async (tx) => {
    // One running step per organization: two imports of overlapping files would race per period.
    await tx.execute(sql`select pg_advisory_xact_lock(74112, ${row.organization_id})`);
    const busy = await tx
      .select({ id: historyImports.id })
      .from(historyImports)
      .where(and(eq(historyImports.organization_id, row.organization_id), inArray(historyImports.status, ['importing', 'publishing'])));
    if (busy.length) throw new AppError('conflict', 'history.busy');
    return tx
      .update(historyImports)
      .set({
        status,
        imported_by: actor,
        market_ids: marketIds,
        cancel_requested: false,
        // No run holds the new step yet: the job takes it at once.
        heartbeat_at: null,
        rows_read: 0,
        rows_done: 0,
        periods_done: 0,
        started_at: sql`now()`,
        finished_at: null,
      })
      .where(and(eq(historyImports.id, row.id), eq(historyImports.status, row.status)))
      .returning({ id: historyImports.id });
  });
  if (started.length === 0) throw new AppError('conflict', 'history.busy');
  await queue?.sendHistory(row.id);
}

/** Asks a running import to stop after the period it is writing. */
export async function requestHistoryCancel(db: Db, principal: Principal, uuid: string): Promise<void> {
  const row = await findRow(db, principal, uuid);
  const updated = await db
    .update(historyImports)
    .set({ cancel_requested: true })
    .where(and(eq(historyImports.id, row.id), inArray(historyImports.status, ['queued', 'checking', 'importing'])))
    .returning({ id: historyImports.id });
  if (updated.length === 0) throw new AppError('conflict', 'history.not_cancellable');
}

/** After a start: every step that did not end is queued again. */
export async function recoverHistoryImports(db: Db, queue: Queue): Promise<number> {
  const pending = await db
    .select({ id: historyImports.id })
    .from(historyImports)
    .where(inArray(historyImports.status, ['queued', ...RUNNING]));
  for (const p of pending) await queue.sendHistory(p.id);
  return pending.length;
}

// ---------------------------------------------------------------------------------------------
// The job
// ---------------------------------------------------------------------------------------------

/**
 * A step's lease: the run renews `heartbeat_at` every third of this; a run that has not for this
 * long is gone (its process died), and the next run takes the step over.
 */
const HISTORY_LEASE_SECONDS = 30;

/**
 * The job: runs the step the import's status names. While another run holds a live lease, waits
 * for it to end or finish; a run taken over by another stops at its next write.
 */
export async function processHistory(db: Db, log: FastifyBaseLogger, id: number): Promise<void> {
  let row: Row | undefined;
  let status: string;
  for (;;) {
    [row] = await db.select().from(historyImports).where(eq(historyImports.id, id));
    if (!row) return;
    status = row.status === 'queued' ? 'checking' : row.status;
    if (!(RUNNING as readonly string[]).includes(status)) return;
    const age = row.heartbeat_at && row.attempts > 0 ? (Date.now() - row.heartbeat_at.getTime()) / 1000 : Number.POSITIVE_INFINITY;
    if (age >= HISTORY_LEASE_SECONDS) break;
    await sleep((HISTORY_LEASE_SECONDS - age) * 1000 + 250);
  }
  const attempt = row.attempts + 1;
  const taken = await db
    .update(historyImports)
    .set({ status, attempts: attempt, heartbeat_at: sql`now()`, started_at: sql`coalesce(${historyImports.started_at}, now())` })
    .where(and(eq(historyImports.id, id), eq(historyImports.attempts, row.attempts)))
    .returning();
  if (taken.length === 0) return;
  const run = { db, id, attempt, row: taken[0]! };
  const renewal = setInterval(
    () => {
      db.update(historyImports)
        .set({ heartbeat_at: sql`now()` })
        .where(and(eq(historyImports.id, id), eq(historyImports.attempts, attempt)))
        .catch((error: unknown) => log.warn({ err: error, historyImportId: id }, 'history import lease not renewed'));
    },
    (HISTORY_LEASE_SECONDS * 1000) / 3,
  );
  try {
    if (status === 'checking') await check(run);
    else if (status === 'importing') await importRows(run);
    else await publish(run);
  } catch (error) {
    if (error instanceof TakenOver) return;
    // A step that fails (not one whose process died: that one's lease ends and the queue runs it
    // again) ends here; the administrator can ask again (every step can run twice).
    log.error({ err: error, historyImportId: id, step: status }, 'history import step failed');
    await db.delete(historyImportRows).where(eq(historyImportRows.history_import_id, id));
    await db
      .update(historyImports)
      .set({ status: status === 'publishing' ? 'imported' : 'failed', finished_at: sql`now()` })
      .where(and(eq(historyImports.id, id), eq(historyImports.attempts, attempt)));
  } finally {
    clearInterval(renewal);
  }
}

interface Run {
  db: Db;
  id: number;
  attempt: number;
  row: Row;
}

class TakenOver extends Error {}

/** Writes progress (and renews the lease), only while the step is this run's. */
async function ours(db: Executor, run: Run, set: PgUpdateSetSource<typeof historyImports> = {}): Promise<{ cancel: boolean }> {
  const [row] = await db
    .update(historyImports)
    .set({ ...set, heartbeat_at: sql`now()` })
    .where(and(eq(historyImports.id, run.id), eq(historyImports.attempts, run.attempt)))
    .returning({ cancel: historyImports.cancel_requested });
  if (!row) throw new TakenOver();
  return row;
}

async function storeErrors(db: Executor, id: number, errors: readonly HistoryError[]): Promise<void> {
  await db.delete(historyImportErrors).where(eq(historyImportErrors.history_import_id, id));
  for (let start = 0; start < errors.length; start += 1000) {
    const batch = errors.slice(start, start + 1000).map((e, i) => ({
      position: start + i,
      row: e.row,
      key: e.key,
      params: e.params,
      column_letter: e.column?.letter ?? null,
      column_name: e.column?.name ?? null,
      cell: e.column?.cell ?? null,
    }));
    await db.execute(sql`
      insert into history_import_errors (history_import_id, position, row, key, params, column_letter, column_name, cell)
      select ${id}, x.position, x.row, x.key, x.params, x.column_letter, x.column_name, x.cell
      from jsonb_to_recordset(${JSON.stringify(batch)}::jsonb)
        as x(position int, row int, key text, params jsonb, column_letter text, column_name text, cell text)`);
  }
}

/** Reads and checks the file; `sink` stages the rows (the import) or nothing (the dry run). */
async function readFile(run: Run, sink?: (rows: HistoryRow[]) => Promise<void>) {
  const lookup = await historyLookupFor(run.db, run.row.organization_id, run.row.market_ids);
  let cancelled = false;
  const result = await withFileOnDisk(run.db, run.row.file_id, 'history', (path) =>
    validateHistoryFile(path, lookup, {
      sink: sink ? { batchSize: STAGE_BATCH_ROWS, write: sink } : undefined,
      onProgress: async (rowsRead) => {
        const { cancel } = await ours(run.db, run, { rows_read: rowsRead });
        cancelled = cancel;
      },
      stop: () => cancelled,
    }),
  );
  return { result, cancelled };
}

/** The dry run: every problem, or what the import would do. Changes nothing but the import's own row. */
async function check(run: Run): Promise<void> {
  const { db } = run;
  const { result, cancelled } = await readFile(run);
  if (cancelled) {
    await ours(db, run, { status: 'cancelled', finished_at: sql`now()` });
    return;
  }
  if (!result.ok) {
    await storeErrors(db, run.id, result.errors);
    await ours(db, run, {
      status: 'invalid',
      error_count: result.errorCount,
      data_rows: result.dataRowCount,
      row_count: null,
      plan: null,
      finished_at: sql`now()`,
    });
    return;
  }
  // Which of the file's companies already have a report in each existing period.
  const existingIds = result.periods.map((p) => p.period_id).filter((x): x is number => x !== null);
  const existing = existingIds.length
    ? await db.select({ period_id: reports.period_id, company_id: reports.company_id }).from(reports).where(inArray(reports.period_id, existingIds))
    : [];
  const withReport = new Set(existing.map((r) => `${r.period_id}:${r.company_id}`));
  const plan: HistoryPlan = {
    format: result.format,
    periods: result.periods.map((p) => ({
      market_id: p.market_id,
      market: p.market,
      period: p.period,
      exists: p.period_id !== null,
      rows: p.rows,
      companies: p.company_ids.length,
      reports_existing: p.period_id === null ? 0 : p.company_ids.filter((c) => withReport.has(`${p.period_id}:${c}`)).length,
    })),
  };
  await storeErrors(db, run.id, []);
  await ours(db, run, {
    status: 'checked',
    error_count: 0,
    data_rows: result.dataRowCount,
    row_count: result.rowCount,
    plan,
    periods_total: plan.periods.length,
    finished_at: sql`now()`,
  });
}

/** Stages a batch of checked rows. */
async function stage(db: Db, id: number, rows: readonly HistoryRow[]): Promise<void> {
  await db.execute(sql`
    insert into ${historyImportRows} (history_import_id, market_id, period_start, company_id, code_id, volume, value)
    select ${id}, market_id, period_start, company_id, code_id, volume, value
    from unnest(${sqlArray(
      rows.map((r) => r.market_id),
      'int',
    )}, ${sqlArray(
      rows.map((r) => r.period_start),
      'date',
    )}, ${sqlArray(
      rows.map((r) => r.company_id),
      'int',
    )}, ${sqlArray(
      rows.map((r) => r.code_id),
      'int',
    )}, ${sqlArray(
      rows.map((r) => r.volume),
      'numeric',
    )}, ${sqlArray(
      rows.map((r) => r.value),
      'numeric',
    )}) as t(market_id, period_start, company_id, code_id, volume, value)`);
}

/**
 * The import: the file is read and checked again (the organization may have changed since the
 * dry run) while its rows are staged; then each market's period is written in one transaction:
 * the period (created closed when missing), one approved report per company holding exactly the
 * file's rows. A report whose approved rows already are the file's is left as it is, so the same
 * file imported again changes nothing. Cancelling stops between two periods.
 */
async function importRows(run: Run): Promise<void> {
  const { db, id } = run;
  await db.delete(historyImportRows).where(eq(historyImportRows.history_import_id, id));
  const { result, cancelled } = await readFile(run, (rows) => stage(db, id, rows));
  if (cancelled) return endCancelled(run, emptyResult());
  if (!result.ok) {
    await db.delete(historyImportRows).where(eq(historyImportRows.history_import_id, id));
    await storeErrors(db, id, result.errors);
    await ours(db, run, { status: 'invalid', error_count: result.errorCount, plan: null, finished_at: sql`now()` });
    return;
  }
  await db.execute(sql`analyze ${historyImportRows}`);
  await ours(db, run, { rows_read: result.dataRowCount, periods_total: result.periods.length, row_count: result.rowCount });
  const [file] = await db.select({ name: files.name }).from(files).where(eq(files.id, run.row.file_id));
  const comment = translate('history.status_comment', { file_name: file?.name ?? '' });
  const outcome = emptyResult();
  let rowsDone = 0;
  let periodsDone = 0;
  for (const p of result.periods) {
    const { cancel } = await ours(db, run, { rows_done: rowsDone, periods_done: periodsDone });
    if (cancel) return endCancelled(run, outcome);
    const written = await db.transaction(async (tx) => {
      await ours(tx, run);
      return writePeriod(tx, {
        importId: id,
        marketId: p.market_id,
        month: p.period,
        companyIds: p.company_ids,
        actor: run.row.imported_by ?? run.row.user_id!,
        comment,
      });
    });
    outcome.periods_created += written.created ? 1 : 0;
    outcome.reports_created += written.reportsCreated;
    outcome.reports_replaced += written.reportsReplaced;
    outcome.reports_unchanged += written.reportsUnchanged;
    if (written.changed) outcome.period_ids.push(written.periodId);
    outcome.all_period_ids.push(written.periodId);
    rowsDone += p.rows;
    periodsDone++;
  }
  await db.delete(historyImportRows).where(eq(historyImportRows.history_import_id, id));
  await ours(db, run, { status: 'imported', rows_done: rowsDone, periods_done: periodsDone, result: outcome, finished_at: sql`now()` });
}

const emptyResult = (): HistoryResult => ({
  periods_created: 0,
  reports_created: 0,
  reports_replaced: 0,
  reports_unchanged: 0,
  period_ids: [],
  all_period_ids: [],
  periods_published: 0,
});

async function endCancelled(run: Run, outcome: HistoryResult): Promise<void> {
  await run.db.delete(historyImportRows).where(eq(historyImportRows.history_import_id, run.id));
  await ours(run.db, run, { status: 'cancelled', result: outcome, finished_at: sql`now()` });
}

/** One market's period, in the caller's transaction. */
async function writePeriod(
  tx: Executor,
  input: { importId: number; marketId: number; month: string; companyIds: number[]; actor: number; comment: string },
): Promise<{ periodId: number; created: boolean; changed: boolean; reportsCreated: number; reportsReplaced: number; reportsUnchanged: number }> {
  const start = `${input.month}-01`;
  const { rows: found } = await tx.execute<{ id: number }>(sql`
    select id from ${periods} where market_id = ${input.marketId} and starts_on = ${start}::date
      and ends_on = (${start}::date + interval '1 month - 1 day')::date
    order by id limit 1 for update`);
  let periodId = found[0]?.id;
  let created = false;
  if (periodId === undefined) {
    // A past month: closed at once (nobody reports into it), published when the administrator asks.
    const { rows } = await tx.execute<{ id: number }>(sql`
      insert into ${periods} (market_id, title, starts_on, ends_on, status, opened_at, closed_at)
      values (${input.marketId}, ${input.month}, ${start}::date, (${start}::date + interval '1 month - 1 day')::date, 'closed', now(), now())
      returning id`);
    periodId = rows[0]!.id;
    created = true;
  }
  await lockPeriod(tx, periodId);
  const staged = sql`select code_id, volume, value from ${historyImportRows} s
    where s.history_import_id = ${input.importId} and s.market_id = ${input.marketId} and s.period_start = ${start}::date`;
  // Approved reports whose rows already are the file's, figure for figure (numeric equality: 1.50 is 1.5).
  const { rows: unchangedRows } = await tx.execute<{ company_id: number }>(sql`
    select r.company_id from ${reports} r
    where r.period_id = ${periodId} and r.status = 60 and r.row_set_id is not null
      and r.company_id = any(${sqlArray(input.companyIds, 'int')})
      and not exists (
        select code_id, volume, value from report_rows rr where rr.row_set_id = r.row_set_id and (rr.volume is not null or rr.value is not null)
        except
        ${staged} and s.company_id = r.company_id and (s.volume is not null or s.value is not null))
      and not exists (
        ${staged} and s.company_id = r.company_id and (s.volume is not null or s.value is not null)
        except
        select code_id, volume, value from report_rows rr where rr.row_set_id = r.row_set_id)`);
  const unchanged = new Set(unchangedRows.map((r) => r.company_id));
  const toWrite = input.companyIds.filter((c) => !unchanged.has(c));
  if (toWrite.length === 0) return { periodId, created, changed: created, reportsCreated: 0, reportsReplaced: 0, reportsUnchanged: unchanged.size };
  const { rows: before } = await tx.execute<{ company_id: number }>(
    sql`select company_id from ${reports} where period_id = ${periodId} and company_id = any(${sqlArray(toWrite, 'int')})`,
  );
  const reportIds = await applyHistoryReports(tx, { periodId, companyIds: toWrite, actor: input.actor, comment: input.comment });
  const ids = toWrite.map((c) => reportIds.get(c)!);
  // A new row set per report, the staged rows into it, and the set made current.
  const { rows: sets } = await tx.execute<{ id: number; report_id: number }>(sql`
    insert into ${reportRowSets} (report_id) select id from unnest(${sqlArray(ids, 'int')}) as t(id) returning id, report_id`);
  const setOfCompany = new Map(sets.map((s) => [toWrite[ids.indexOf(s.report_id)]!, s.id]));
  await tx.execute(sql`
    insert into report_rows (row_set_id, code_id, volume, value)
    select m.set_id, s.code_id, s.volume, s.value
    from ${historyImportRows} s
    join unnest(${sqlArray([...setOfCompany.keys()], 'int')}, ${sqlArray([...setOfCompany.values()], 'int')}) as m(company_id, set_id) on m.company_id = s.company_id
    where s.history_import_id = ${input.importId} and s.market_id = ${input.marketId} and s.period_start = ${start}::date
      and (s.volume is not null or s.value is not null)`);
  await tx.execute(sql`
    update ${reports} r set row_set_id = m.set_id
    from unnest(${sqlArray(ids, 'int')}, ${sqlArray(
      ids.map((rid) => setOfCompany.get(toWrite[ids.indexOf(rid)]!)!),
      'int',
    )}) as m(report_id, set_id)
    where r.id = m.report_id`);
  await tx.execute(sql`
    delete from ${reportRowSets} rs using ${reports} r
    where rs.report_id = r.id and r.id = any(${sqlArray(ids, 'int')}) and rs.id is distinct from r.row_set_id`);
  // The period's stored cells are built again on the next read (approved reports' rows changed).
  await tx.execute(sql`delete from statistics_periods where period_id = ${periodId}`);
  return {
    periodId,
    created,
    changed: true,
    reportsCreated: toWrite.length - before.length,
    reportsReplaced: before.length,
    reportsUnchanged: unchanged.size,
  };
}

/**
 * Publishes each period the import created or changed (a period it left unchanged keeps what it
 * has): a new publication when its figures changed, under the same disclosure control as any.
 * A draft period (never opened) is left for its administrator.
 */
async function publish(run: Run): Promise<void> {
  const { db } = run;
  const result = run.row.result as HistoryResult;
  const ids = result.period_ids;
  const publishable = ids.length
    ? await db
        .select({ id: periods.id })
        .from(periods)
        .where(and(inArray(periods.id, ids), sql`${periods.status} <> 'draft'`))
        .orderBy(periods.starts_on, periods.id)
    : [];
  await ours(db, run, { periods_total: publishable.length, periods_done: 0 });
  let done = 0;
  for (const { id } of publishable) {
    await publishPeriod(db, id, { actorId: run.row.imported_by, mark: true });
    done++;
    await ours(db, run, { periods_done: done });
  }
  await ours(db, run, { status: 'published', result: { ...result, periods_published: done }, finished_at: sql`now()` });
}

// ---------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------

const listColumns = {
  row: historyImports,
  file_name: files.name,
  file_size: files.size,
  user_first: users.first_name,
  user_last: users.last_name,
  user_email: users.email,
};

function toHistoryImport(r: {
  row: Row;
  file_name: string;
  file_size: number;
  user_first: string | null;
  user_last: string | null;
  user_email: string | null;
}): HistoryImport {
  const { row } = r;
  const running = (RUNNING as readonly string[]).includes(row.status) || row.status === 'queued';
  const elapsed = row.started_at && running ? (Date.now() - row.started_at.getTime()) / 1000 : null;
  const total = row.status === 'publishing' ? row.periods_total : (row.row_count ?? row.data_rows ?? 0) * 2;
  const done = row.status === 'publishing' ? row.periods_done : row.rows_read + row.rows_done;
  const perSecond = elapsed && elapsed > 1 && done > 0 ? done / elapsed : null;
  return {
    uuid: row.uuid,
    status: row.status as HistoryImport['status'],
    file_name: r.file_name,
    file_size: r.file_size,
    user: row.user_id === null ? null : { id: row.user_id, name: `${r.user_first ?? ''} ${r.user_last ?? ''}`.trim() || (r.user_email ?? '') },
    created_at: row.created_at.toISOString(),
    started_at: row.started_at?.toISOString() ?? null,
    finished_at: row.finished_at?.toISOString() ?? null,
    data_rows: row.data_rows,
    row_count: row.row_count,
    error_count: row.error_count,
    cancel_requested: row.cancel_requested,
    progress: {
      rows_read: row.rows_read,
      rows_done: row.rows_done,
      periods_done: row.periods_done,
      periods_total: row.periods_total,
      /** Of the step's work (reading and writing the rows, or publishing the periods), 0 to 1000. */
      permille: total > 0 ? Math.min(1000, Math.floor((done * 1000) / total)) : 0,
      rows_per_second: perSecond && row.status !== 'publishing' ? Math.round(perSecond / 2) : null,
      seconds_left: perSecond && total > done ? Math.ceil((total - done) / perSecond) : null,
    },
    plan: row.plan as HistoryPlan | null,
    result: row.result as HistoryResult | null,
  };
}

const selectWithParts = (db: Db) =>
  db
    .select(listColumns)
    .from(historyImports)
    .innerJoin(files, eq(files.id, historyImports.file_id))
    .leftJoin(users, eq(users.id, historyImports.user_id))
    .$dynamic();

export async function findHistoryImports(db: Db, principal: Principal): Promise<HistoryImport[]> {
  await assertMayImport(db, principal);
  const rows = await selectWithParts(db).where(eq(historyImports.organization_id, principal.organizationId!)).orderBy(desc(historyImports.id)).limit(50);
  return rows.map(toHistoryImport);
}

type StoredHistoryError = typeof historyImportErrors.$inferSelect;

function renderError(e: Pick<StoredHistoryError, 'row' | 'key' | 'params' | 'column_letter' | 'column_name' | 'cell'>, locale: Locale) {
  const key = isMessageKey(e.key) ? (e.key as MessageKey) : null;
  return {
    row: e.row,
    key: e.key,
    message: key ? translate(key, e.params as MessageParams, locale) : e.key,
    column: e.column_letter ? { letter: e.column_letter, name: e.column_name ?? e.column_letter, cell: e.cell } : null,
  };
}

export async function findHistoryImport(db: Db, principal: Principal, uuid: string): Promise<HistoryImportDetail> {
  const row = await findRow(db, principal, uuid);
  const [parts] = await selectWithParts(db).where(eq(historyImports.id, row.id));
  const errors = await db
    .select()
    .from(historyImportErrors)
    .where(eq(historyImportErrors.history_import_id, row.id))
    .orderBy(historyImportErrors.position)
    .limit(ERRORS_ON_SCREEN);
  const [counted] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(historyImportErrors)
    .where(eq(historyImportErrors.history_import_id, row.id));
  return {
    ...toHistoryImport(parts!),
    errors: errors.map((e) => renderError(e, principal.locale)),
    errors_listed: counted?.n ?? 0,
  };
}

/** Every stored error, for the error sheet. */
export async function findHistoryErrors(db: Db, principal: Principal, uuid: string) {
  const row = await findRow(db, principal, uuid);
  const [file] = await db.select({ name: files.name }).from(files).where(eq(files.id, row.file_id));
  const errors = await db.select().from(historyImportErrors).where(eq(historyImportErrors.history_import_id, row.id)).orderBy(historyImportErrors.position);
  return { fileName: file?.name ?? 'history', errors: errors.map((e) => renderError(e, principal.locale)) };
}
