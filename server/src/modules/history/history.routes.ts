import { PassThrough } from 'node:stream';
import { z } from 'zod';
import { dataOf } from '@mss/contracts/common';
import { historyImportDetailSchema, historyImportSchema } from '@mss/contracts/history';
import { translate } from '@mss/contracts/messages';
import type { App, AppContext } from '../../context.ts';
import { contentDisposition } from '../../lib/content-disposition.ts';
import { csvDocument } from '../../lib/csv/writer.ts';
import { uploadedFile } from '../../lib/files.ts';
import { uuidParams } from '../../lib/uuid.ts';
import { writeXlsx, XLSX_CONTENT_TYPE } from '../../lib/xlsx-writer/index.ts';
import { principalOf } from '../../auth/principal.ts';
import { actorOfRequest, audit } from '../../audit/audit.ts';
import { requireSignedIn } from '../../auth/session-auth.ts';
import { csvSeparatorFor } from '../imports/imports.sheets.ts';
import {
  acceptHistoryFile,
  findHistoryErrors,
  findHistoryImport,
  findHistoryImports,
  historyMarketsOf,
  requestHistoryCancel,
  requestHistoryImport,
  requestHistoryPublish,
} from './history.service.ts';
import { forbidden } from '../../errors.ts';

const tags = ['history imports'];

async function xlsxBuffer(rows: (string | number | null)[][], header: string[], sheetName: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const sink = new PassThrough();
  sink.on('data', (c: Buffer) => chunks.push(c));
  await writeXlsx(sink, rows, { sheetName, header, columnWidths: [10, 10, 30, 14, 16, 16] });
  return Buffer.concat(chunks);
}

export function historyRoutes(app: App, ctx: AppContext) {
  const signedIn = requireSignedIn(ctx);

  app.post(
    '/history-imports',
    {
      schema: {
        tags,
        summary: `Upload an association's history (one long table, xlsx or CSV; multipart field "file", at most ${ctx.config.HISTORY_MAX_MB} MB): checked in the background (a dry run), imported and published only when asked`,
        consumes: ['multipart/form-data'],
        response: { 202: dataOf(z.object({ uuid: z.string(), status: z.string() })) },
      },
      preValidation: signedIn,
    },
    async (request, reply) => {
      const readFile = () => uploadedFile(request, ctx.config.HISTORY_MAX_MB, 'history.csv');
      const result = await acceptHistoryFile(ctx.db, principalOf(request), readFile, ctx.queue);
      await audit(ctx.db, { action: 'history_import.uploaded', actor: actorOfRequest(request), record: { type: 'history_import', id: result.uuid } });
      return reply.code(202).send({ data: result });
    },
  );
  app.get(
    '/history-imports',
    {
      schema: { tags, summary: "The organization's history imports, newest first (the latest 50)", response: { 200: dataOf(z.array(historyImportSchema)) } },
      preValidation: signedIn,
    },
    async (request) => ({ data: await findHistoryImports(ctx.db, principalOf(request)) }),
  );
  app.get(
    '/history-imports/template',
    {
      schema: {
        tags,
        summary: "The history file's header (Market, Period, Company, Code, Volume, Value) as an xlsx, or with format=csv a CSV",
        querystring: z.object({ format: z.enum(['xlsx', 'csv']).default('xlsx') }),
      },
      preValidation: signedIn,
    },
    async (request, reply) => {
      const principal = principalOf(request);
      if ((await historyMarketsOf(ctx.db, principal)).length === 0) throw forbidden();
      const t = (key: Parameters<typeof translate>[0]) => translate(key, {}, 'en-US');
      const header = [
        t('history.sheet.market'),
        t('history.sheet.period'),
        t('history.sheet.company'),
        t('import.sheet.code'),
        t('import.sheet.volume'),
        t('import.sheet.value'),
      ];
      if (request.query.format === 'csv') {
        reply.header('Content-Disposition', contentDisposition('history.csv'));
        return reply.header('Content-Type', 'text/csv; charset=utf-8').send(csvDocument([header], csvSeparatorFor(principal.locale)));
      }
      reply.header('Content-Disposition', contentDisposition('history.xlsx'));
      return reply.header('Content-Type', XLSX_CONTENT_TYPE).send(await xlsxBuffer([], header, 'History'));
    },
  );
  app.get(
    '/history-imports/:uuid',
    {
      schema: {
        tags,
        summary: 'One history import: its status, progress, plan or result, and its first 100 errors',
        params: uuidParams,
        response: { 200: dataOf(historyImportDetailSchema) },
      },
      preValidation: signedIn,
    },
    async (request) => ({ data: await findHistoryImport(ctx.db, principalOf(request), request.params.uuid) }),
  );
  for (const [action, run, summary] of [
    ['import', requestHistoryImport, 'Import the checked file: periods created, one approved report per company and period (again: only what changed)'],
    ['publish', requestHistoryPublish, 'Publish every period the import created or changed, under the disclosure control'],
  ] as const) {
    app.post(
      `/history-imports/:uuid/${action}`,
      { schema: { tags, summary, params: uuidParams, response: { 200: dataOf(historyImportDetailSchema) } }, preValidation: signedIn },
      async (request) => {
        const principal = principalOf(request);
        await run(ctx.db, principal, request.params.uuid, ctx.queue);
        await audit(ctx.db, {
          action: `history_import.${action}_requested`,
          actor: actorOfRequest(request),
          record: { type: 'history_import', id: request.params.uuid },
        });
        return { data: await findHistoryImport(ctx.db, principal, request.params.uuid) };
      },
    );
  }
  app.post(
    '/history-imports/:uuid/cancel',
    {
      schema: {
        tags,
        summary: 'Stop a running check or import after the period it is writing',
        params: uuidParams,
        response: { 200: dataOf(historyImportDetailSchema) },
      },
      preValidation: signedIn,
    },
    async (request) => {
      const principal = principalOf(request);
      await requestHistoryCancel(ctx.db, principal, request.params.uuid);
      await audit(ctx.db, {
        action: 'history_import.cancel_requested',
        actor: actorOfRequest(request),
        record: { type: 'history_import', id: request.params.uuid },
      });
      return { data: await findHistoryImport(ctx.db, principal, request.params.uuid) };
    },
  );
  app.get(
    '/history-imports/:uuid/errors',
    { schema: { tags, summary: 'The error list as an xlsx (Row, Column, In the cell, Error)', params: uuidParams }, preValidation: signedIn },
    async (request, reply) => {
      const principal = principalOf(request);
      const { fileName, errors } = await findHistoryErrors(ctx.db, principal, request.params.uuid);
      const t = (key: Parameters<typeof translate>[0]) => translate(key, {}, principal.locale);
      const content = await xlsxBuffer(
        errors.map((e) => [e.row, e.column ? `${e.column.name} (${e.column.letter})` : null, e.column?.cell ?? null, e.message]),
        [t('import.sheet.row'), t('import.sheet.column'), t('import.sheet.cell'), t('import.sheet.error')],
        'Errors',
      );
      reply.header('Content-Disposition', contentDisposition(`errors ${fileName.replace(/\.(xlsx|csv)$/i, '')}.xlsx`));
      return reply.header('Content-Type', XLSX_CONTENT_TYPE).send(content);
    },
  );
}
