import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { RowsImport } from '@mss/contracts/imports';
import type { FastifyBaseLogger } from 'fastify';
import type { Principal } from '../../auth/principal.ts';
import type { Db } from '../../db/client.ts';
import { findReport, findReportRow, reportsFor } from '../reports/reports.service.ts';
import { assertReportEvent } from '../reports/reports.workflow.ts';
import { codeLookupFor } from './imports.codes.ts';
import { processImport } from './imports.jobs.ts';
import { ERRORS_ON_SCREEN, findImport } from './imports.service.ts';
import { acceptUpload } from './imports.upload.ts';
import { columnName } from './imports.sheets.ts';
import { validateReportFile } from './imports.validator.ts';

/*
 * PUT /reports/{uuid}/rows (docs/decisions.md "Rows through the API"): a member's system sends
 * the report's rows as JSON or CSV. It is an import like a file's: the same checks (who, when, the
 * report's status), the same rules and messages (the body is read by the same sheet reader:
 * `lib/json-rows.ts` for JSON), listed in the import history with source "api". The answer waits
 * for the rows to be checked and stored (no polling): the import's outcome, the errors with row
 * and field, and the report's preflight. With `dry_run` only the checks run: nothing is stored,
 * the report's status stays, and no import is recorded.
 */

export interface RowsBody {
  content: Buffer;
  format: 'json' | 'csv';
}

export async function importRowsOfBody(
  db: Db,
  log: FastifyBaseLogger,
  principal: Principal,
  reportUuid: string,
  body: RowsBody,
  dryRun: boolean,
): Promise<RowsImport> {
  const name = body.format === 'json' ? 'rows.json' : 'rows.csv';
  if (dryRun) {
    const report = await findReportRow(db, principal, reportUuid);
    assertReportEvent({ status: report.status, periodStatus: report.period.status }, 'upload', await reportsFor(db, principal, report));
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mss-rows-'));
    try {
      const file = path.join(dir, name);
      await fs.writeFile(file, body.content);
      const result = await validateReportFile(file, codeLookupFor(db, report.id), { locale: principal.locale });
      return {
        dry_run: true,
        valid: result.ok,
        import: null,
        rows_accepted: result.ok ? result.rowCount : 0,
        error_count: result.errorCount,
        errors: result.errors.slice(0, ERRORS_ON_SCREEN).map((e) => ({
          row: e.row,
          code: e.code,
          key: e.key,
          params: e.params,
          message: e.message,
          // Unnamed (no header row, JSON): the template's name of the column.
          column: e.column ? { letter: e.column.letter, name: columnName(e.column, principal.locale), cell: e.column.cell } : null,
        })),
        preflight: null,
      };
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  }
  const accepted = await acceptUpload(db, principal, reportUuid, async () => ({ name, content: body.content }), null, 'api');
  // Run here rather than on the queue: the answer carries the outcome. Should this process end
  // first, the import is queued again at the next start (recoverImports), as an upload's would be.
  await processImport(db, log, accepted.id);
  const detail = await findImport(db, principal, accepted.uuid);
  const done = detail.status === 'done';
  const { message: _message, errors, errors_listed: _listed, errors_truncated: _truncated, errors_note: _note, ...summary } = detail;
  return {
    dry_run: false,
    valid: done,
    import: summary,
    rows_accepted: done ? (detail.row_count ?? 0) : 0,
    error_count: detail.error_count,
    errors,
    preflight: done ? (await findReport(db, principal, reportUuid)).preflight : null,
  };
}
