// Reading imports: lists, one import with its first errors, its file, the file marked with its errors,
// and the errors in the caller's language.
import { auditRead, type Reader } from '../../audit/audit.ts';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
import type { Import, ImportDetail } from '@mss/contracts/imports';
import { isMessageKey, type MessageKey, type MessageParams, translate } from '@mss/contracts/messages';
import type { Locale } from '@mss/contracts/enums';
import type { Db } from '../../db/client.ts';
import { companies, files, importErrors, imports, markets, periods, reports, users } from '../../db/schema.ts';
import { AppError, notFound } from '../../errors.ts';
import { isXlsxError, markXlsx, withXlsxSlot } from '../../lib/xlsx/index.ts';
import { type Paged, planList } from '../../lib/list.ts';
import { fileContent, withFileOnDisk } from '../../lib/files.ts';
import { visibleReports } from '../reports/reports.service.ts';
import { columnName, writeRowsAsXlsx } from './imports.sheets.ts';
import { openSheet, sheetFormatOf } from '../../lib/sheet.ts';
import { type Principal } from '../../auth/principal.ts';
import { isUuid } from '../../lib/uuid.ts';

/** Errors an import's detail carries: the screen shows these, the error sheet all of them. */
export const ERRORS_ON_SCREEN = 100;
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
export type StoredError =
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
