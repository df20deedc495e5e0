// Accepting a report's file: who may upload and when, storing it, and queueing its import.
import { actorOf } from '../../audit/audit.ts';
import type { Db } from '../../db/client.ts';
import { imports } from '../../db/schema.ts';
import { deleteFile, storeFile } from '../../lib/files.ts';
import { findReportRow, reportsFor } from '../reports/reports.service.ts';
import { applyReportEvent, assertReportEvent } from '../reports/reports.workflow.ts';
import { type Principal } from '../../auth/principal.ts';
import type { JobQueue } from '../../jobs/queue.ts';

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
  queue: JobQueue | null,
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
  await queue?.send('report-import', { importId: created.id });
  return { id: created.id, uuid: created.uuid, status: created.status };
}
