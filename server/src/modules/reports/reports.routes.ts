import { z } from 'zod';
import { readerOf } from '../../audit/audit.ts';
import { dataOf, listOf } from '@mss/contracts/common';
import { preflightSchema } from '@mss/contracts/preflight';
import {
  copyPreviewSchema,
  reportCreateSchema,
  reportHistoryQuerySchema,
  reportListQuerySchema,
  reportRowsPageSchema,
  reportRowsQuerySchema,
  reportSchema,
  reportStatusInputSchema,
  reportUnapproveInputSchema,
  reportWithdrawInputSchema,
  reportSummarySchema,
} from '@mss/contracts/reports';
import type { App, AppContext } from '../../context.ts';
import {
  changeReportStatus,
  unapproveReport,
  withdrawReport,
  copyPreviousReport,
  createReport,
  findReport,
  findReportHistory,
  findReportPreflight,
  previewCopyPrevious,
  findReportRows,
  findReports,
} from './reports.service.ts';
import { principalOf } from '../../auth/principal.ts';
import { requireSignedIn } from '../../auth/session-auth.ts';
import { uuidParams } from '../../lib/uuid.ts';

const tags = ['reports'];

export function reportsRoutes(app: App, ctx: AppContext) {
  const signedIn = requireSignedIn(ctx);
  const one = { params: uuidParams, response: { 200: dataOf(reportSchema) } };

  app.get(
    '/reports',
    {
      schema: { tags, summary: 'Reports the caller may see', querystring: reportListQuerySchema, response: { 200: dataOf(z.array(reportSummarySchema)) } },
      preValidation: signedIn,
      config: { keptAnswer: true },
    },
    async (request) => ({ data: await findReports(ctx.db, principalOf(request), request.query) }),
  );
  app.get(
    '/report-history',
    {
      schema: {
        tags,
        summary: "One market's reports over its periods, paged, sorted and searched (the report history screen)",
        querystring: reportHistoryQuerySchema,
        response: { 200: listOf(reportSummarySchema) },
      },
      preValidation: signedIn,
    },
    async (request) => findReportHistory(ctx.db, principalOf(request), request.query),
  );
  app.post(
    '/reports',
    {
      schema: { tags, summary: 'Create a report (409 when it exists)', body: reportCreateSchema, response: { 201: dataOf(reportSchema) } },
      preValidation: signedIn,
    },
    async (request, reply) => reply.code(201).send({ data: await createReport(ctx.db, principalOf(request), request.body) }),
  );
  app.get(
    '/reports/:uuid',
    {
      schema: { tags, summary: 'A report with its row count, totals, latest preflight and status history (rows: GET /reports/{uuid}/rows)', ...one },
      preValidation: signedIn,
    },
    async (request) => ({ data: await findReport(ctx.db, principalOf(request), request.params.uuid, readerOf(principalOf(request), request.ip)) }),
  );
  app.get(
    '/reports/:uuid/rows',
    {
      schema: {
        tags,
        summary:
          "A page of the report's rows beside the same company's previous period and same period last year, with the changes and a deviation flag (sort: code, name, volume, value, volume_change, value_change; search: code or name, longer than 2 characters; deviating=1: only deviating rows)",
        params: uuidParams,
        querystring: reportRowsQuerySchema,
        response: { 200: reportRowsPageSchema },
      },
      preValidation: signedIn,
    },
    async (request) => findReportRows(ctx.db, principalOf(request), request.params.uuid, request.query, readerOf(principalOf(request), request.ip)),
  );
  app.post(
    '/reports/:uuid/status',
    {
      schema: { tags, summary: 'Submit (40), send back (50) or approve (60)', ...one, body: reportStatusInputSchema },
      preValidation: signedIn,
    },
    async (request) => ({ data: await changeReportStatus(ctx.db, principalOf(request), request.params.uuid, request.body) }),
  );
  app.post(
    '/reports/:uuid/withdraw',
    {
      schema: {
        tags,
        summary: 'The reporter withdraws a submission (40) to correct it: back to 20, or 50 if it had been sent back',
        ...one,
        body: reportWithdrawInputSchema,
      },
      preValidation: signedIn,
    },
    async (request) => ({ data: await withdrawReport(ctx.db, principalOf(request), request.params.uuid, request.body) }),
  );
  app.post(
    '/reports/:uuid/unapprove',
    {
      schema: {
        tags,
        summary: 'An approver undoes an approval (60 → 40); in a published period only with republish: true, which publishes it again',
        ...one,
        body: reportUnapproveInputSchema,
      },
      preValidation: signedIn,
    },
    async (request) => ({ data: await unapproveReport(ctx.db, principalOf(request), request.params.uuid, request.body) }),
  );
  app.get(
    '/reports/:uuid/copy-previous',
    {
      schema: {
        tags,
        summary: 'What a copy from the previous period would bring: its title, rows copied and left out (for those who may copy)',
        params: uuidParams,
        response: { 200: dataOf(copyPreviewSchema) },
      },
      preValidation: signedIn,
    },
    async (request) => ({ data: await previewCopyPrevious(ctx.db, principalOf(request), request.params.uuid) }),
  );
  app.post(
    '/reports/:uuid/copy-previous',
    { schema: { tags, summary: "Start from the previous period's rows", ...one }, preValidation: signedIn },
    async (request) => ({ data: await copyPreviousReport(ctx.db, principalOf(request), request.params.uuid) }),
  );
  app.get(
    '/reports/:uuid/preflight',
    {
      schema: { tags, summary: 'The latest preflight result', params: uuidParams, response: { 200: dataOf(preflightSchema.nullable()) } },
      preValidation: signedIn,
    },
    async (request) => ({ data: await findReportPreflight(ctx.db, principalOf(request), request.params.uuid, false) }),
  );
  app.post(
    '/reports/:uuid/preflight',
    {
      schema: { tags, summary: 'Run the preflight again', params: uuidParams, response: { 200: dataOf(preflightSchema.nullable()) } },
      preValidation: signedIn,
    },
    async (request) => ({ data: await findReportPreflight(ctx.db, principalOf(request), request.params.uuid, true) }),
  );
}
