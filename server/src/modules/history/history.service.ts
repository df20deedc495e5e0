import { audit } from '../../audit/audit.ts';
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { and, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Locale } from '@mss/contracts/enums';
import type { HistoryImport, HistoryImportDetail, HistoryPlan, HistoryResult, HistoryStatus } from '@mss/contracts/history';
import { isMessageKey, type MessageParams, translate } from '@mss/contracts/messages';
import type { FastifyBaseLogger } from 'fastify';
import type { Principal } from '../../auth/principal.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { allows, HISTORY_CANCELLABLE, HISTORY_LIFECYCLE, type HistoryEvent } from '@mss/contracts/lifecycles';
import type { Db, Executor } from '../../db/client.ts';
import { sqlArray, sqlUnnest } from '../../db/sql-array.ts';
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
import { mayIn, organizationMarketIds } from '../../auth/policy.ts';
import { isUuid } from '../../lib/uuid.ts';
import { lockPeriod } from '../statistics/figures/statistics.cells.ts';
import { publishPeriod } from '../statistics/disclosure/statistics.publications.ts';
import { applyHistoryReports } from '../reports/reports.workflow.ts';
import { ERRORS_ON_SCREEN } from '../imports/imports.service.ts';
import { type HistoryError, type HistoryLookup, type HistoryMarket, type HistoryRow, validateHistoryFile } from './history.validator.ts';
import type { RequestsInFlight } from '../../lib/requests-in-flight.ts';

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

/** Rows staged per statement while the file is read: short statements, so that other requests get the connection in between. */
const STAGE_BATCH_ROWS = 5_000;
/** Steps that run (one per organization at a time, but a check). */
const RUNNING = ['checking', 'importing', 'publishing'] as const;

/** The markets of the caller's organization where they may import history: they manage its periods and approve its reports. */
export async function historyMarketsOf(db: Db, principal: Principal): Promise<number[]> {
  if (principal.organizationId === null) return [];
  const ids = await organizationMarketIds(db, principal);
  return ids.filter((id) => mayIn(principal, 'manage-periods', id) && mayIn(principal, 'approve-reports', id));
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
  queue: JobQueue | null,
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
  await queue?.send('history-import', { historyImportId: created!.id });
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
export async function requestHistoryImport(db: Db, principal: Principal, uuid: string, queue: JobQueue | null): Promise<void> {
  const row = await findRow(db, principal, uuid);
  const mine = await historyMarketsOf(db, principal);
  if (!allows(HISTORY_LIFECYCLE, row.status as HistoryStatus, 'import') || row.plan === null) throw new AppError('conflict', 'history.not_checked');
  if (!planMarketIds(row).every((id) => mine.includes(id))) throw forbidden();
  await startStep(db, row, 'import', principal.userId, mine, queue);
}

/** Publishes the periods the import wrote. */
export async function requestHistoryPublish(db: Db, principal: Principal, uuid: string, queue: JobQueue | null): Promise<void> {
  const row = await findRow(db, principal, uuid);
  const mine = await historyMarketsOf(db, principal);
  if (!allows(HISTORY_LIFECYCLE, row.status as HistoryStatus, 'publish') || row.result === null) throw new AppError('conflict', 'history.not_publishable');
  if (!planMarketIds(row).every((id) => mine.includes(id))) throw forbidden();
  await startStep(db, row, 'publish', principal.userId, mine, queue);
}

async function startStep(db: Db, row: Row, event: 'import' | 'publish', actor: number, marketIds: number[], queue: JobQueue | null): Promise<void> {
  const { from, to: status } = HISTORY_LIFECYCLE[event];
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
      .where(and(eq(historyImports.id, row.id), eq(historyImports.status, row.status), inArray(historyImports.status, [...from])))
      .returning({ id: historyImports.id });
  });
  if (started.length === 0) throw new AppError('conflict', 'history.busy');
  await queue?.send('history-import', { historyImportId: row.id });
}

/** Asks a running import to stop after the period it is writing. */
export async function requestHistoryCancel(db: Db, principal: Principal, uuid: string): Promise<void> {
  const row = await findRow(db, principal, uuid);
  const updated = await db
    .update(historyImports)
    .set({ cancel_requested: true })
    .where(and(eq(historyImports.id, row.id), inArray(historyImports.status, [...HISTORY_CANCELLABLE])))
    .returning({ id: historyImports.id });
  if (updated.length === 0) throw new AppError('conflict', 'history.not_cancellable');
}

/** After a start: every step that did not end is queued again. */
export async function recoverHistoryImports(db: Db, queue: JobQueue): Promise<number> {
  const pending = await db
    .select({ id: historyImports.id })
    .from(historyImports)
    .where(inArray(historyImports.status, ['queued', ...RUNNING]));
  for (const p of pending) await queue.send('history-import', { historyImportId: p.id });
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
export async function processHistory(db: Db, log: FastifyBaseLogger, id: number, requests?: RequestsInFlight): Promise<void> {
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
  const run: Run = { db, id, attempt, row: taken[0]!, requests };
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
    const failure = status === 'publishing' ? 'publish_failed' : 'failed';
    await db.delete(historyImportRows).where(eq(historyImportRows.history_import_id, id));
    await db
      .update(historyImports)
      .set({ status: HISTORY_LIFECYCLE[failure].to, finished_at: sql`now()` })
      .where(and(eq(historyImports.id, id), eq(historyImports.attempts, attempt), inArray(historyImports.status, [...HISTORY_LIFECYCLE[failure].from])));
  } finally {
    clearInterval(renewal);
  }
}

interface Run {
  db: Db;
  id: number;
  attempt: number;
  row: Row;
  /** The process's requests in flight: on the embedded database each month or publication waits for them (a little). */
  requests?: RequestsInFlight;
}

/**
 * On the embedded database (one connection) a month written or a period published holds the
 * connection for ~150 ms; a request being served would wait that long once for each of its
 * statements. So each step first lets the requests in flight finish, for at most this long.
 */
const YIELD_TO_REQUESTS_MS = 50;
const yieldToRequests = async (run: Run) => {
  if (parallelism(run.db) === 1) await run.requests?.quiet(YIELD_TO_REQUESTS_MS);
};

class TakenOver extends Error {}

/**
 * Writes progress (and renews the lease), only while the step is this run's; with an event of the
 * lifecycle (contracts/lifecycles.ts), the step ends in its status, from one its table allows.
 */
async function ours(db: Executor, run: Run, set: PgUpdateSetSource<typeof historyImports> = {}, event?: HistoryEvent): Promise<{ cancel: boolean }> {
  const step = event ? HISTORY_LIFECYCLE[event] : null;
  const [row] = await db
    .update(historyImports)
    .set({ ...set, ...(step ? { status: step.to } : {}), heartbeat_at: sql`now()` })
    .where(and(eq(historyImports.id, run.id), eq(historyImports.attempts, run.attempt), step ? inArray(historyImports.status, [...step.from]) : undefined))
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

/**
 * Reads and checks the file against `lookup`; `sink` takes the valid rows in batches (the import)
 * or none does (the dry run). Stops early when cancelling is asked for (`cancelled`) or `stop` says so.
 */
async function readFile(run: Run, lookup: HistoryLookup, sink?: (rows: HistoryRow[]) => Promise<void>, stop: () => boolean = () => false) {
  let cancelled = false;
  const result = await withFileOnDisk(run.db, run.row.file_id, 'history', (path) =>
    validateHistoryFile(path, lookup, {
      sink: sink ? { batchSize: STAGE_BATCH_ROWS, write: sink } : undefined,
      onProgress: async (rowsRead) => {
        const { cancel } = await ours(run.db, run, { rows_read: rowsRead });
        cancelled ||= cancel;
      },
      stop: () => cancelled || stop(),
    }),
  );
  return { result, cancelled };
}

/**
 * A digest of what the validator is given (markets, their codes and periods, companies, their
 * markets and codes, codes): the same file checked against a lookup of the same digest has the
 * same answer.
 */
export function lookupDigest(lookup: HistoryLookup): string {
  const hash = createHash('sha256');
  const put = (...parts: unknown[]) => hash.update(`${JSON.stringify(parts)}\n`);
  const sorted = (set: ReadonlySet<number>) => [...set].sort((x, y) => x - y);
  for (const [iso, m] of [...lookup.marketsByIso].sort(([x], [y]) => x.localeCompare(y)))
    put(
      'm',
      iso,
      m.id,
      m.iso_code,
      m.administered,
      sorted(m.codeIds),
      [...m.periods].sort(([x], [y]) => x.localeCompare(y)),
    );
  for (const c of [...lookup.companiesById.values()].sort((x, y) => x.id - y.id)) put('c', c.id, c.name, sorted(c.marketIds), sorted(c.codeIds));
  for (const [name, list] of [...lookup.companiesByName].sort(([x], [y]) => x.localeCompare(y)))
    put(
      'n',
      name,
      list.map((c) => c.id).sort((x, y) => x - y),
    );
  for (const k of [...lookup.codesByCode.values()].sort((x, y) => x.id - y.id)) put('k', k.id, k.code, k.disabled_status);
  return hash.digest('hex');
}

/** The dry run: every problem, or what the import would do. Changes nothing but the import's own row. */
async function check(run: Run): Promise<void> {
  const { db } = run;
  const lookup = await historyLookupFor(db, run.row.organization_id, run.row.market_ids);
  const { result, cancelled } = await readFile(run, lookup);
  if (cancelled) {
    await ours(db, run, { finished_at: sql`now()` }, 'cancelled');
    return;
  }
  if (!result.ok) {
    await storeErrors(db, run.id, result.errors);
    await ours(
      db,
      run,
      {
        error_count: result.errorCount,
        data_rows: result.dataRowCount,
        row_count: null,
        plan: null,
        finished_at: sql`now()`,
      },
      'invalid',
    );
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
  await ours(
    db,
    run,
    {
      direct_digest: result.contiguous ? lookupDigest(lookup) : null,
      error_count: 0,
      data_rows: result.dataRowCount,
      row_count: result.rowCount,
      plan,
      periods_total: plan.periods.length,
      finished_at: sql`now()`,
    },
    'checked',
  );
}

/**
 * Stages a batch of checked rows: one staged row per market, month and company of the batch, its
 * codes and figures as arrays (a file sorted by company and period stages ~40 rows a batch).
 */
async function stage(db: Db, id: number, rows: readonly HistoryRow[]): Promise<void> {
  const runs = new Map<string, { market_id: number; period_start: string; company_id: number; codes: number[]; volumes: string[]; values: string[] }>();
  for (const r of rows) {
    const key = `${r.market_id}:${r.period_start}:${r.company_id}`;
    let run = runs.get(key);
    if (!run) runs.set(key, (run = { market_id: r.market_id, period_start: r.period_start, company_id: r.company_id, codes: [], volumes: [], values: [] }));
    run.codes.push(r.code_id);
    // Checked figures: plain decimals (or none), so each array's literal is written here.
    run.volumes.push(r.volume ?? 'NULL');
    run.values.push(r.value ?? 'NULL');
  }
  const all = [...runs.values()];
  const literal = (items: readonly (string | number)[]) => `{${items.join(',')}}`;
  await db.execute(sql`
    insert into ${historyImportRows} (history_import_id, market_id, period_start, company_id, code_ids, volume_list, value_list)
    select ${id}, market_id, period_start, company_id, code_ids::int[], volume_list::numeric[], value_list::numeric[]
    from ${sqlUnnest('t', [
      ['market_id', all.map((r) => r.market_id), 'int'],
      ['period_start', all.map((r) => r.period_start), 'date'],
      ['company_id', all.map((r) => r.company_id), 'int'],
      ['code_ids', all.map((r) => literal(r.codes)), 'text'],
      ['volume_list', all.map((r) => literal(r.volumes)), 'text'],
      ['value_list', all.map((r) => literal(r.values)), 'text'],
    ])}`);
}

/**
 * The import: the file is read and checked again (the organization may have changed since the
 * dry run), and each market's period is written in one transaction: the period (created closed
 * when missing), one approved report per company holding exactly the file's rows. A report whose
 * approved rows already are the file's is left as it is, so the same file imported again changes
 * nothing. Cancelling stops between two periods.
 *
 * When the dry run found each month's rows in one run and the organization is as it was then
 * (`direct_digest`), the file's answer is known to be the same: each period is written as soon as
 * its rows are read. Otherwise the rows are staged while the whole file is checked, and the
 * periods written from the staging once it is valid.
 */
async function importRows(run: Run): Promise<void> {
  const { db, id } = run;
  await db.delete(historyImportRows).where(eq(historyImportRows.history_import_id, id));
  const lookup = await historyLookupFor(db, run.row.organization_id, run.row.market_ids);
  const [file] = await db.select({ name: files.name }).from(files).where(eq(files.id, run.row.file_id));
  const writer = periodWriter(run, translate('history.status_comment', { file_name: file?.name ?? '' }));
  try {
    await writeMonths(run, lookup, writer);
  } finally {
    // Nothing left being written when the step ends, however it ends.
    await writer.drain().catch(() => {});
  }
}

async function writeMonths(run: Run, lookup: HistoryLookup, writer: ReturnType<typeof periodWriter>): Promise<void> {
  const { db, id } = run;
  if (run.row.direct_digest !== null && run.row.direct_digest === lookupDigest(lookup)) {
    await ours(db, run, { periods_total: (run.row.plan as HistoryPlan | null)?.periods.length ?? 0 });
    // One period's rows at a time, written when the next period's begin.
    let current: { key: string; rows: HistoryRow[] } | null = null;
    const writeCurrent = async () => {
      const rows = current!.rows;
      current = null;
      return writer.write(rows[0]!.market_id, rows[0]!.period_start.slice(0, 7), rows, givenRows(rows));
    };
    let cancelled = false;
    const read = await readFile(
      run,
      lookup,
      async (rows) => {
        for (const row of rows) {
          const key = `${row.market_id}:${row.period_start}`;
          if (current && current.key !== key && !cancelled) cancelled = (await writeCurrent()) === 'cancel';
          if (!current || current.key !== key) current = { key, rows: [] };
          current.rows.push(row);
        }
      },
      () => cancelled,
    );
    cancelled ||= read.cancelled;
    if (!cancelled && read.result.ok && current) cancelled = (await writeCurrent()) === 'cancel';
    await writer.drain();
    // Checked as in the dry run, so valid (were it not, each period written stays whole).
    if (!cancelled && !read.result.ok) return endInvalid(run, read.result);
    return cancelled ? endCancelled(run, writer.outcome) : endImported(run, writer, read.result.dataRowCount);
  }

  const { result, cancelled } = await readFile(run, lookup, (rows) => stage(db, id, rows));
  if (cancelled) return endCancelled(run, emptyResult());
  if (!result.ok) return endInvalid(run, result);
  await db.execute(sql`analyze ${historyImportRows}`);
  await ours(db, run, { rows_read: result.dataRowCount, periods_total: result.periods.length, row_count: result.rowCount });
  for (const p of result.periods) {
    const rows = stagedRows(id, p.market_id, `${p.period}-01`);
    if ((await writer.write(p.market_id, p.period, p.company_ids, rows, p.rows)) === 'cancel') {
      await writer.drain();
      return endCancelled(run, writer.outcome);
    }
  }
  await writer.drain();
  await endImported(run, writer, result.dataRowCount);
}

/** Months written, or markets published, at once: two on a PostgreSQL server, one on the embedded database (one connection). */
const parallelism = (db: Db) => ((db.$client.options.max ?? 1) > 1 ? 2 : 1);

/**
 * Writes periods, each in a transaction of its own, and counts what it did. On a PostgreSQL server
 * two months are written at once (each on a connection of its own, while the file is read on):
 * months are independent, each locked by its writer. The embedded database has one connection, so
 * there one at a time.
 */
function periodWriter(run: Run, comment: string) {
  const outcome = emptyResult();
  const concurrency = parallelism(run.db);
  const inFlight = new Set<Promise<void>>();
  let failure: { error: unknown } | null = null;
  let rowsDone = 0;
  let periodsDone = 0;
  const settle = async (all: boolean) => {
    while (inFlight.size >= (all ? 1 : concurrency)) await Promise.race(inFlight);
    if (failure) throw failure.error;
  };
  return {
    outcome,
    get rowsDone() {
      return rowsDone;
    },
    get periodsDone() {
      return periodsDone;
    },
    /**
     * One market's month: its rows given as `rows` (a select of company_id, code_id, volume,
     * value), its companies as ids or as the rows they come from. Returns once the month is written,
     * or being written beside another ('cancel' when cancelling was asked for first: nothing written).
     */
    async write(marketId: number, month: string, companies: readonly number[] | readonly HistoryRow[], rows: SQL, count?: number): Promise<'cancel' | 'done'> {
      await settle(false);
      const { cancel } = await ours(run.db, run, { rows_done: rowsDone, periods_done: periodsDone });
      if (cancel) return 'cancel';
      const companyIds =
        typeof companies[0] === 'number' ? (companies as number[]) : [...new Set((companies as HistoryRow[]).map((r) => r.company_id))].sort((x, y) => x - y);
      await yieldToRequests(run);
      const task: Promise<void> = run.db
        .transaction(async (tx) => {
          // Still this run's step (a run taken over writes nothing more; one taken over after
          // this check writes what the run taking over would: writing a month is idempotent).
          const [mine] = await tx
            .select({ id: historyImports.id })
            .from(historyImports)
            .where(and(eq(historyImports.id, run.id), eq(historyImports.attempts, run.attempt)));
          if (!mine) throw new TakenOver();
          return writePeriod(tx, { marketId, month, companyIds, rows, actor: run.row.imported_by ?? run.row.user_id!, comment });
        })
        .then(
          (written) => {
            outcome.periods_created += written.created ? 1 : 0;
            outcome.reports_created += written.reportsCreated;
            outcome.reports_replaced += written.reportsReplaced;
            outcome.reports_unchanged += written.reportsUnchanged;
            if (written.changed) outcome.period_ids.push(written.periodId);
            outcome.all_period_ids.push(written.periodId);
            rowsDone += count ?? companies.length;
            periodsDone++;
          },
          (error: unknown) => {
            failure ??= { error };
          },
        )
        .finally(() => inFlight.delete(task));
      inFlight.add(task);
      // One at a time: the month is written before the file is read on. Reading while a month's
      // dozen statements go back and forth delays each of their answers by the reading in between
      // (the connection is answered on this thread): 2 years imported in 33 s instead of 23.
      if (concurrency === 1) await settle(true);
      return 'done';
    },
    /** Waits for every month being written; throws the first failure. */
    drain: () => settle(true),
  };
}

/** A period's staged rows, one per code. */
const stagedRows = (importId: number, marketId: number, start: string) => sql`
  select s.company_id, u.code_id, u.volume, u.value from ${historyImportRows} s
  cross join lateral unnest(s.code_ids, s.volume_list, s.value_list) as u(code_id, volume, value)
  where s.history_import_id = ${importId} and s.market_id = ${marketId} and s.period_start = ${start}::date`;

/** Rows read from the file, as a select. */
const givenRows = (rows: readonly HistoryRow[]) => sql`
  select * from ${sqlUnnest('u', [
    ['company_id', rows.map((r) => r.company_id), 'int'],
    ['code_id', rows.map((r) => r.code_id), 'int'],
    ['volume', rows.map((r) => r.volume), 'numeric'],
    ['value', rows.map((r) => r.value), 'numeric'],
  ])}`;

async function endInvalid(run: Run, result: { errors: HistoryError[]; errorCount: number }): Promise<void> {
  await run.db.delete(historyImportRows).where(eq(historyImportRows.history_import_id, run.id));
  await storeErrors(run.db, run.id, result.errors);
  await ours(run.db, run, { error_count: result.errorCount, plan: null, direct_digest: null, finished_at: sql`now()` }, 'invalid');
}

async function endImported(run: Run, writer: ReturnType<typeof periodWriter>, rowsRead: number): Promise<void> {
  await run.db.delete(historyImportRows).where(eq(historyImportRows.history_import_id, run.id));
  // Millions of rows may have come in: the planner's numbers of them, at once (the embedded
  // database has no autovacuum to do it).
  await run.db.execute(sql`analyze report_rows, reports, report_row_sets`);
  await ours(
    run.db,
    run,
    {
      rows_read: rowsRead,
      rows_done: writer.rowsDone,
      periods_done: writer.periodsDone,
      result: writer.outcome,
      finished_at: sql`now()`,
    },
    'imported',
  );
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
  await ours(run.db, run, { result: outcome, finished_at: sql`now()` }, 'cancelled');
}

/** One market's period, in the caller's transaction. */
async function writePeriod(
  tx: Executor,
  input: { marketId: number; month: string; companyIds: number[]; rows: SQL; actor: number; comment: string },
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
  const staged = input.rows;
  // Approved reports whose rows already are the file's, figure for figure (numeric equality: 1.50 is 1.5).
  // A period just created has no reports: nothing to compare (the month's rows are sent once, not twice more).
  const { rows: unchangedRows } = created
    ? { rows: [] }
    : await tx.execute<{ company_id: number }>(sql`
    select r.company_id from ${reports} r
    where r.period_id = ${periodId} and r.status = 60 and r.row_set_id is not null
      and r.company_id = any(${sqlArray(input.companyIds, 'int')})
      and not exists (
        select code_id, volume, value from report_rows rr where rr.row_set_id = r.row_set_id and (rr.volume is not null or rr.value is not null)
        except
        select code_id, volume, value from (${staged}) st where st.company_id = r.company_id and (st.volume is not null or st.value is not null))
      and not exists (
        select code_id, volume, value from (${staged}) st where st.company_id = r.company_id and (st.volume is not null or st.value is not null)
        except
        select code_id, volume, value from report_rows rr where rr.row_set_id = r.row_set_id)`);
  const unchanged = new Set(unchangedRows.map((r) => r.company_id));
  const toWrite = input.companyIds.filter((c) => !unchanged.has(c));
  if (toWrite.length === 0) return { periodId, created, changed: created, reportsCreated: 0, reportsReplaced: 0, reportsUnchanged: unchanged.size };
  const { rows: before } = created
    ? { rows: [] }
    : await tx.execute<{ company_id: number }>(
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
    select m.set_id, st.code_id, st.volume, st.value
    from (${staged}) st
    join unnest(${sqlArray([...setOfCompany.keys()], 'int')}, ${sqlArray([...setOfCompany.values()], 'int')}) as m(company_id, set_id) on m.company_id = st.company_id
    where st.volume is not null or st.value is not null`);
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
        .select({ id: periods.id, uuid: periods.uuid, title: periods.title, market_id: periods.market_id })
        .from(periods)
        .where(and(inArray(periods.id, ids), sql`${periods.status} <> 'draft'`))
        .orderBy(periods.starts_on, periods.id)
    : [];
  await ours(db, run, { periods_total: publishable.length, periods_done: 0 });
  // Each market's months oldest first (an estimate is made from the latest earlier published
  // month); on a PostgreSQL server two markets at once.
  const markets = new Map<number, (typeof publishable)[number][]>();
  for (const p of publishable) markets.set(p.market_id, [...(markets.get(p.market_id) ?? []), p]);
  const queue = [...markets.values()];
  let done = 0;
  const publisher = async () => {
    for (let months = queue.shift(); months; months = queue.shift())
      for (const period of months) {
        await yieldToRequests(run);
        await publishPeriod(db, period.id, { actorId: run.row.imported_by, mark: true });
        await audit(db, {
          action: 'period.published',
          actor: { userId: run.row.imported_by, organizationId: run.row.organization_id },
          marketId: period.market_id,
          record: { type: 'period', id: period.uuid },
          details: { title: period.title, history_import: run.row.uuid },
        });
        done++;
        await ours(db, run, { periods_done: done });
      }
  };
  await Promise.all(Array.from({ length: parallelism(db) }, publisher));
  await ours(db, run, { result: { ...result, periods_published: done }, finished_at: sql`now()` }, 'published');
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
  const key = isMessageKey(e.key) ? e.key : null;
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
