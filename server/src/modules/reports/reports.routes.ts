import { z } from 'zod';
import { dataOf, listOf } from '@mss/contracts/common';
import { preflightSchema } from '@mss/contracts/preflight';
import {
  bulkStatusInputSchema,
  bulkStatusResultSchema,
  reportCreateSchema,
  reportListQuerySchema,
  reportRowSchema,
  reportRowsQuerySchema,
  reportSchema,
  reportStatusInputSchema,
  reportSummarySchema,
} from '@mss/contracts/reports';
import type { FastifyRequest } from 'fastify';
import type { App, AppContext } from '../../context.ts';
import { abilitySubjectOf, requireAbilitySubject } from '../../auth/permissions.ts';
import { actorOf } from '../../auth/session-auth.ts';
import { localeOf } from '../../i18n.ts';
import {
  changeReportStatus,
  changeReportStatuses,
  copyPreviousReport,
  createReport,
  findApprovalList,
  findReport,
  findReportPreflight,
  findReportRows,
  findReports,
} from './reports.service.ts';

const tags = ['reports'];
// Not z.uuid(): a malformed uuid is a record that does not exist (404), like an unknown one.
const uuidParams = z.object({ uuid: z.string().max(100) });

export function reportsRoutes(app: App, ctx: AppContext) {
  const signedIn = requireAbilitySubject(ctx);
  const who = (request: FastifyRequest) => ({ actor: actorOf(request), subject: abilitySubjectOf(request), locale: localeOf(request) });
  const one = { params: uuidParams, response: { 200: dataOf(reportSchema) } };

  app.get(
    '/reports',
    {
      schema: { tags, summary: 'Reports the caller may see', querystring: reportListQuerySchema, response: { 200: dataOf(z.array(reportSummarySchema)) } },
      preValidation: signedIn,
    },
    async (request) => ({ data: await findReports(ctx.db, who(request), request.query) }),
  );
  app.post(
    '/reports',
    {
      schema: { tags, summary: 'Create a report (409 when it exists)', body: reportCreateSchema, response: { 201: dataOf(reportSchema) } },
      preValidation: signedIn,
    },
    async (request, reply) => reply.code(201).send({ data: await createReport(ctx.db, who(request), request.body) }),
  );
  app.get(
    '/reports/:uuid',
    {
      schema: { tags, summary: 'A report with its row count, totals, latest preflight and status history (rows: GET /reports/{uuid}/rows)', ...one },
      preValidation: signedIn,
    },
    async (request) => ({ data: await findReport(ctx.db, who(request), request.params.uuid) }),
  );
  app.get(
    '/reports/:uuid/rows',
    {
      schema: {
        tags,
        summary: "A page of the report's rows (sort: code, name, volume, value; search: code or name, longer than 2 characters)",
        params: uuidParams,
        querystring: reportRowsQuerySchema,
        response: { 200: listOf(reportRowSchema) },
      },
      preValidation: signedIn,
    },
    async (request) => findReportRows(ctx.db, who(request), request.params.uuid, request.query),
  );
  app.post(
    '/reports/:uuid/status',
    {
      schema: { tags, summary: 'Submit (40), send back (50) or approve (60)', ...one, body: reportStatusInputSchema },
      preValidation: signedIn,
    },
    async (request) => ({ data: await changeReportStatus(ctx.db, who(request), request.params.uuid, request.body) }),
  );
  app.post(
    '/reports/bulk-status',
    {
      schema: {
        tags,
        summary: 'Approve or send back several reports; answers which changed and why others were refused',
        body: bulkStatusInputSchema,
        response: { 200: dataOf(bulkStatusResultSchema) },
      },
      preValidation: signedIn,
    },
    async (request) => ({ data: await changeReportStatuses(ctx.db, who(request), request.body, localeOf(request)) }),
  );
  app.post(
    '/reports/:uuid/copy-previous',
    { schema: { tags, summary: "Start from the previous period's rows", ...one }, preValidation: signedIn },
    async (request) => ({ data: await copyPreviousReport(ctx.db, who(request), request.params.uuid) }),
  );
  app.get(
    '/reports/:uuid/preflight',
    {
      schema: { tags, summary: 'The latest preflight result', params: uuidParams, response: { 200: dataOf(preflightSchema.nullable()) } },
      preValidation: signedIn,
    },
    async (request) => ({ data: await findReportPreflight(ctx.db, who(request), request.params.uuid, false) }),
  );
  app.post(
    '/reports/:uuid/preflight',
    {
      schema: { tags, summary: 'Run the preflight again', params: uuidParams, response: { 200: dataOf(preflightSchema.nullable()) } },
      preValidation: signedIn,
    },
    async (request) => ({ data: await findReportPreflight(ctx.db, who(request), request.params.uuid, true) }),
  );
  app.get(
    '/periods/:uuid/approval-list',
    {
      schema: { tags, summary: "Every reporting company's report for the period", params: uuidParams, response: { 200: dataOf(z.array(reportSummarySchema)) } },
      preValidation: signedIn,
    },
    async (request) => ({ data: await findApprovalList(ctx.db, who(request), request.params.uuid) }),
  );
}
