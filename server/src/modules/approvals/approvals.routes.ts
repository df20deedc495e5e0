import { z } from 'zod';
import { bulkStatusInputSchema, bulkStatusResultSchema } from '@mss/contracts/approvals';
import { dataOf } from '@mss/contracts/common';
import { reportSummarySchema } from '@mss/contracts/reports';
import type { App, AppContext } from '../../context.ts';
import { principalOf } from '../../auth/principal.ts';
import { requireSignedIn } from '../../auth/session-auth.ts';
import { changeReportStatuses, findApprovalList } from './approvals.service.ts';
import { uuidParams } from '../../lib/uuid.ts';

const tags = ['approvals'];

/** What approvers do beside one report's status (reports.routes): a period's list, and bulk. */
export function approvalsRoutes(app: App, ctx: AppContext) {
  const signedIn = requireSignedIn(ctx);
  app.get(
    '/periods/:uuid/approval-list',
    {
      schema: { tags, summary: "Every reporting company's report for the period", params: uuidParams, response: { 200: dataOf(z.array(reportSummarySchema)) } },
      preValidation: signedIn,
    },
    async (request) => ({ data: await findApprovalList(ctx.db, principalOf(request), request.params.uuid) }),
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
    async (request) => ({ data: await changeReportStatuses(ctx.db, principalOf(request), request.body) }),
  );
}
