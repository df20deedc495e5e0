import { PassThrough, Readable } from 'node:stream';
import { readerOf } from '../../audit/audit.ts';
import { z } from 'zod';
import { dataOf, listOf } from '@mss/contracts/common';
import { importDetailSchema, importListQuerySchema, importSchema, rowsImportSchema } from '@mss/contracts/imports';
import type { FastifyReply } from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { App, AppContext } from '../../context.ts';
import { contentDisposition } from '../../lib/content-disposition.ts';
import { uploadedFile } from '../../lib/files.ts';
import { XLSX_CONTENT_TYPE } from '../../lib/xlsx-writer/index.ts';
import { findReportRow, reportsFor } from '../reports/reports.service.ts';
import { assertReportEvent } from '../reports/reports.workflow.ts';
import { availableCodesFor } from './imports.codes.ts';
import { findImport, findImportErrors, findImportFile, findImports, findMarkedImportFile } from './imports.service.ts';
import { acceptUpload } from './imports.upload.ts';
import { csvSeparatorFor, templateCsv, writeErrorSheet, writeTemplate } from './imports.sheets.ts';
import { principalOf } from '../../auth/principal.ts';
import { requireSignedIn } from '../../auth/session-auth.ts';
import { uuidParams } from '../../lib/uuid.ts';
import { withIdempotency } from '../../lib/idempotency.ts';
import { importRowsOfBody } from './imports.rows.ts';
import { isJsonArray } from '../../lib/json-rows.ts';
import { AppError } from '../../errors.ts';

const tags = ['imports'];

/** The rows as JSON, as the document shows them (a CSV body is a report file's CSV). */
const figure = z.union([z.number(), z.string()]).nullable().optional();
const rowsBodySchema = z
  .array(z.object({ code: z.union([z.string(), z.number().int()]), volume: figure, value: figure }))
  .describe('The rows: a JSON number is kept digit for digit; a string is read as a spreadsheet cell ("1 234,5"); null or missing is empty.');

const ROWS_DESCRIPTION = `The body is the report's rows, as JSON or as CSV:

- \`application/json\`: an array of \`{ "code": "1001", "volume": 12.5, "value": "1234.5" }\`. A number is taken
  as written (digit for digit, never through a double); a string is read as a spreadsheet's text cell
  ("1 234,5"); null or a missing key is an empty cell. Element i is row i + 1 in the messages.
- \`text/csv\`: a report file as CSV (UTF-8, ";" or ",", the decimal sign detected), a header row optional.

The rows replace the report's rows when every one passes the rules of a report file (the same messages);
otherwise nothing changes and the answer lists the errors (row and field). The import is listed in the
import history with source "api". \`dry_run=true\` checks only: nothing is stored and no import is recorded.
With an \`Idempotency-Key\` header, repeating the request with the same key and body gives the same answer
(header \`Idempotent-Replayed: true\`) and changes nothing; the same key with another body is refused.

Example:

    curl -X PUT "$APP/api/v1/reports/$REPORT/rows" \\
      -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json" -H "Idempotency-Key: 2026-11-erp-1" \\
      -d '[{"code":"1001","volume":12.5,"value":1234.5},{"code":"1002","volume":3,"value":null}]'`;
/** The author of the comments in a marked file. */
const MARKED_BY = 'Market Sales Statistics';

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

/** A body that parses as JSON and is an array. */
function isJsonArrayText(content: Buffer): boolean {
  return jsonRowsOf(content) !== null;
}

/** The JSON array of a body, or null. */
function jsonRowsOf(content: Buffer): unknown[] | null {
  if (!isJsonArray(content.subarray(0, 64))) return null;
  try {
    const parsed: unknown = JSON.parse(content.toString('utf8'));
    return Array.isArray(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

const ROW_FIELDS = new Set(['code', 'volume', 'value']);

/**
 * A key a JSON row does not name is refused (422 on `<row index>.<key>`, as every write body's):
 * a misspelt "vol" would otherwise leave the volume silently empty.
 */
function assertKnownRowKeys(content: Buffer): void {
  const rows = jsonRowsOf(content) ?? [];
  const fieldErrors: Record<string, { key: 'validation.unknown_key'; params: { attribute: string } }[]> = {};
  rows.forEach((row, index) => {
    if (row === null || typeof row !== 'object' || Array.isArray(row)) return;
    for (const key of Object.keys(row))
      if (!ROW_FIELDS.has(key)) fieldErrors[`${index}.${key}`] = [{ key: 'validation.unknown_key', params: { attribute: key } }];
  });
  const first = Object.keys(fieldErrors)[0];
  if (first) throw new AppError('validation', 'validation.unknown_key', { attribute: first.slice(first.indexOf('.') + 1) }, fieldErrors);
}

/** A route's preValidation hook: who may call it. */
type Guard = ReturnType<typeof requireSignedIn>;

export function importsRoutes(app: App, ctx: AppContext) {
  const signedIn = requireSignedIn(ctx);
  const maxBytes = Math.floor(ctx.config.IMPORT_MAX_MB * 1024 * 1024);

  uploadRoutes(app, ctx, signedIn);
  rowsRoutes(app, ctx, signedIn, maxBytes);
  templateRoutes(app, ctx, signedIn);
  importRecordRoutes(app, ctx, signedIn);
}

/** The report's file uploaded, to be imported in the background. */
function uploadRoutes(app: App, ctx: AppContext, signedIn: Guard) {
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
      // Read only once acceptUpload has checked who and when; stored as it arrives.
      const readFile = () => uploadedFile(request, ctx.config.IMPORT_MAX_MB, 'report.xlsx');
      // Refused before the whole body was read (not allowed, or too large): the answer goes out at
      // once, and Node reads and discards the rest of the body. Closing the connection instead
      // would save that reading, but a client still sending then gets a reset that can swallow
      // the answer (seen as EPIPE here; a browser shows a network error instead of the message).
      const { uuid, status } = await acceptUpload(ctx.db, principalOf(request), request.params.uuid, readFile, ctx.queue);
      return reply.code(202).send({ data: { uuid, status } });
    },
  );
}

/**
 * The rows as a body (JSON or CSV), read as bytes: a JSON number is kept as written (the
 * default parser would make it a double), and a CSV is read by the sheet reader.
 */
function rowsRoutes(app: App, ctx: AppContext, signedIn: Guard, maxBytes: number) {
  app.register(async (scoped) => {
    scoped.addContentTypeParser(['application/json', 'text/csv'], { parseAs: 'buffer', bodyLimit: maxBytes }, (_request, body, done) => done(null, body));
    scoped.withTypeProvider<ZodTypeProvider>().put(
      '/reports/:uuid/rows',
      {
        schema: {
          tags,
          summary: "Replace the report's rows from a member's system: JSON or CSV, checked by the rules of a report file",
          description: ROWS_DESCRIPTION,
          params: uuidParams,
          querystring: z.object({ dry_run: z.enum(['true', 'false']).default('false') }),
          headers: z.object({ 'idempotency-key': z.string().optional() }),
          consumes: ['application/json', 'text/csv'],
          // For the document and the generated client: the JSON form. The body is read as bytes
          // (below) and judged by the report file's rules, not by this schema.
          body: rowsBodySchema,
          response: { 200: dataOf(rowsImportSchema) },
        },
        validatorCompiler: (route) =>
          route.httpPart === 'body' ? (data: unknown) => ({ value: data }) : validatorCompiler(route as unknown as Parameters<typeof validatorCompiler>[0]),
        preValidation: signedIn,
      },
      async (request, reply) => {
        const principal = principalOf(request);
        // Who and when before what: another organization's report is not found, a report that takes
        // no file says so, and only then is the body judged.
        const report = await findReportRow(ctx.db, principal, request.params.uuid);
        assertReportEvent({ status: report.status, periodStatus: report.period.status }, 'upload', await reportsFor(ctx.db, principal, report));
        const type = String(request.headers['content-type'] ?? '');
        const format = type.startsWith('text/csv') ? 'csv' : type.startsWith('application/json') ? 'json' : null;
        const content: unknown = request.body;
        if (!format || !Buffer.isBuffer(content)) throw new AppError('validation', 'import.rows_body');
        // JSON must be an array (of rows): anything else is not rows, whatever it holds.
        if (format === 'json' && !isJsonArrayText(content)) throw new AppError('validation', 'import.rows_body');
        if (format === 'json') assertKnownRowKeys(content);
        const dryRun = request.query.dry_run === 'true';
        const answer = await withIdempotency(
          ctx.db,
          { userId: principal.userId, key: request.headers['idempotency-key'], request: `PUT ${request.url}`, body: content },
          async () => ({
            status: 200,
            body: { data: await importRowsOfBody(ctx.db, request.log, principal, request.params.uuid, { content, format }, dryRun) },
          }),
        );
        if (answer.replayed) reply.header('Idempotent-Replayed', 'true');
        return reply.code(answer.status as 200).send(answer.body as { data: z.infer<typeof rowsImportSchema> });
      },
    );
  });
}

/** The import template of a report, prefilled with its codes. */
function templateRoutes(app: App, ctx: AppContext, signedIn: Guard) {
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
}

/** The imports: listed, one with its errors, its file as uploaded or marked, and its error list. */
function importRecordRoutes(app: App, ctx: AppContext, signedIn: Guard) {
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
      const file = await findImportFile(ctx.db, principalOf(request), request.params.uuid, readerOf(principalOf(request), request.ip));
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
      const file = await findMarkedImportFile(ctx.db, principalOf(request), request.params.uuid, MARKED_BY, readerOf(principalOf(request), request.ip));
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
