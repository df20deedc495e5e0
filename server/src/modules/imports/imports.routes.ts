import { PassThrough, Readable } from 'node:stream';
import { z } from 'zod';
import { dataOf, listOf } from '@mss/contracts/common';
import { importDetailSchema, importListQuerySchema, importSchema } from '@mss/contracts/imports';
import type { FastifyReply } from 'fastify';
import type { App, AppContext } from '../../context.ts';
import { validationError } from '../../errors.ts';
import { contentDisposition } from '../../lib/content-disposition.ts';
import { uploadedContent, uploadedFileName } from '../../lib/files.ts';
import { XLSX_CONTENT_TYPE } from '../../lib/xlsx-writer/index.ts';
import { findReportRow } from '../reports/reports.service.ts';
import { acceptUpload, availableCodesFor, findImport, findImportErrors, findImportFile, findImports, findMarkedImportFile } from './imports.service.ts';
import { csvSeparatorFor, templateCsv, writeErrorSheet, writeTemplate } from './imports.sheets.ts';
import { principalOf } from '../../auth/principal.ts';
import { requireSignedIn } from '../../auth/session-auth.ts';
import { uuidParams } from '../../lib/uuid.ts';

const tags = ['imports'];
/** The author of the comments in a marked file. */
const MARKED_BY = 'Market Sales Statistics';
/** Room for the multipart framing around the file: boundaries and the part's headers with its name. */
const MULTIPART_FRAMING_BYTES = 64 * 1024;

/** Writes an xlsx into memory (templates and error lists are small: one row per code or error). */
async function xlsxBuffer(write: (out: NodeJS.WritableStream) => Promise<void>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const sink = new PassThrough();
  sink.on('data', (c: Buffer) => chunks.push(c));
  await write(sink);
  return Buffer.concat(chunks);
}

function attachment(reply: FastifyReply, name: string) {
  return reply.header('Content-Disposition', contentDisposition(name));
}

export function importsRoutes(app: App, ctx: AppContext) {
  const signedIn = requireSignedIn(ctx);
  const maxBytes = Math.floor(ctx.config.IMPORT_MAX_MB * 1024 * 1024);

  app.post(
    '/reports/:uuid/file',
    {
      schema: {
        tags,
        summary: `Upload the report's file, xlsx or CSV (multipart field "file", at most ${ctx.config.IMPORT_MAX_MB} MB); processed in the background`,
        params: uuidParams,
        consumes: ['multipart/form-data'],
        response: { 202: dataOf(z.object({ uuid: z.string(), status: z.string() })) },
      },
      preValidation: signedIn,
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw validationError('file', 'validation.required');
      const tooLarge = () => validationError('file', 'files.too_large', { max: `${ctx.config.IMPORT_MAX_MB} MB` });
      // Read only once acceptUpload has checked who and when; stored as it arrives.
      const readFile = async () => {
        // A body declared larger than any file we take is refused without reading it (a body of
        // unknown length is cut at the limit as it arrives).
        if (Number(request.headers['content-length']) > maxBytes + MULTIPART_FRAMING_BYTES) throw tooLarge();
        const part = await request.file({ limits: { fileSize: maxBytes, files: 1 } });
        if (!part || part.fieldname !== 'file') throw validationError('file', 'validation.required');
        return { name: uploadedFileName(part.filename, 'report.xlsx'), content: uploadedContent(part, tooLarge) };
      };
      // Refused before the whole body was read (not allowed, or too large): the answer goes out at
      // once, and Node reads and discards the rest of the body. Closing the connection instead
      // would save that reading, but a client still sending then gets a reset that can swallow
      // the answer (seen as EPIPE here; a browser shows a network error instead of the message).
      const result = await acceptUpload(ctx.db, principalOf(request), request.params.uuid, readFile, ctx.queue);
      return reply.code(202).send({ data: result });
    },
  );
  app.get(
    '/reports/:uuid/template',
    {
      schema: {
        tags,
        summary:
          'The import template prefilled with the codes available to the company in the market: an xlsx, or with format=csv a CSV (UTF-8; "," in en-US, ";" with a decimal comma in the other languages)',
        params: uuidParams,
        querystring: z.object({ format: z.enum(['xlsx', 'csv']).default('xlsx') }),
      },
      preValidation: signedIn,
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const report = await findReportRow(ctx.db, principal, request.params.uuid);
      const codes = await availableCodesFor(ctx.db, report.id);
      const name = `${report.company.name} ${report.market.iso_code} ${report.period.title}`;
      if (request.query.format === 'csv') {
        attachment(reply, `${name}.csv`);
        return reply.header('Content-Type', 'text/csv; charset=utf-8').send(templateCsv(codes, csvSeparatorFor(principal.locale)));
      }
      const content = await xlsxBuffer((out) => writeTemplate(codes, out));
      attachment(reply, `${name}.xlsx`);
      return reply.header('Content-Type', XLSX_CONTENT_TYPE).send(content);
    },
  );
  app.get(
    '/imports',
    {
      schema: {
        tags,
        summary: 'Imports of the reports the caller may see, paged, newest first unless sorted otherwise',
        querystring: importListQuerySchema,
        response: { 200: listOf(importSchema) },
      },
      preValidation: signedIn,
    },
    async (request) => findImports(ctx.db, principalOf(request), request.query),
  );
  app.get(
    '/imports/:uuid',
    {
      schema: { tags, summary: 'One import with its status and row errors', params: uuidParams, response: { 200: dataOf(importDetailSchema) } },
      preValidation: signedIn,
    },
    async (request) => ({ data: await findImport(ctx.db, principalOf(request), request.params.uuid) }),
  );
  app.get(
    '/imports/:uuid/file',
    { schema: { tags, summary: 'The file as it was uploaded', params: uuidParams }, preValidation: signedIn },
    async (request, reply) => {
      const file = await findImportFile(ctx.db, principalOf(request), request.params.uuid);
      attachment(reply, file.name);
      return reply.header('Content-Type', 'application/octet-stream').header('Content-Length', String(file.size)).send(Readable.from(file.content));
    },
  );
  app.get(
    '/imports/:uuid/marked',
    {
      schema: { tags, summary: 'The uploaded file with its faulty cells marked: a fill and a comment with the error on each', params: uuidParams },
      preValidation: signedIn,
    },
    async (request, reply) => {
      const file = await findMarkedImportFile(ctx.db, principalOf(request), request.params.uuid, MARKED_BY);
      // "Report May (errors marked).xlsx": the reporter's own file, told apart from it.
      attachment(reply, `${file.name.replace(/\.(xlsx|csv)$/i, '')} (errors marked).xlsx`);
      return reply.header('Content-Type', XLSX_CONTENT_TYPE).send(file.content);
    },
  );
  app.get(
    '/imports/:uuid/errors',
    { schema: { tags, summary: 'The error list as an xlsx (Row, Code, Column, In the cell, Error)', params: uuidParams }, preValidation: signedIn },
    async (request, reply) => {
      const { fileName, errors } = await findImportErrors(ctx.db, principalOf(request), request.params.uuid);
      const content = await xlsxBuffer((out) =>
        writeErrorSheet(
          errors.map(({ row, code, message, column }) => ({ row, code, message, column })),
          out,
        ),
      );
      // Named after the file it lists the errors of: "errors Report May.xlsx".
      attachment(reply, `errors ${fileName.replace(/\.(xlsx|csv)$/i, '')}.xlsx`);
      return reply.header('Content-Type', XLSX_CONTENT_TYPE).send(content);
    },
  );
}
