import { z } from 'zod';
import { dataOf } from '@mss/contracts/common';
import { isLocale } from '@mss/contracts/enums';
import {
  completenessQuerySchema,
  completenessSchema,
  periodInputSchema,
  periodListQuerySchema,
  periodSchema,
  publicationPreviewSchema,
} from '@mss/contracts/periods';
import type { App, AppContext } from '../../context.ts';
import { changePeriod, createPeriod, findPeriod, findPeriods, periodPublicationPreview } from './periods.service.ts';
import { principalOf } from '../../auth/principal.ts';
import { actorOfRequest, audit, auditChange } from '../../audit/audit.ts';
import { requireSignedIn } from '../../auth/session-auth.ts';
import { uuidParams } from '../../lib/uuid.ts';
import { findCompleteness } from './periods.completeness.ts';
import { completenessTable } from './periods.completeness-sheet.ts';
import { sendTable } from '../statistics/answers/statistics.sheets.ts';

const tags = ['periods'];

export function periodsRoutes(app: App, ctx: AppContext) {
  const signedIn = requireSignedIn(ctx);

  app.get(
    '/periods',
    {
      schema: {
        tags,
        summary: 'Periods of a market (market_id), or of every market whose periods the caller manages or approves (cluster=1)',
        querystring: periodListQuerySchema,
        response: { 200: dataOf(z.array(periodSchema)) },
      },
      preValidation: signedIn,
      config: { keptAnswer: true },
    },
    async (request) => ({ data: await findPeriods(ctx.db, principalOf(request), request.query) }),
  );
  app.get(
    '/completeness',
    {
      schema: {
        tags,
        summary:
          'Completeness: per market and opened period of a range of months (from, to: YYYY-MM; this year by default), the companies expected to report, submitted, waiting for approval, approved and missing, overdue marked; for every market where the caller manages periods or approves (market_id: one). status filters the rows; format=csv or xlsx downloads them.',
        querystring: completenessQuerySchema,
        response: { 200: dataOf(completenessSchema) },
      },
      preValidation: signedIn,
    },
    async (request, reply) => {
      const { query } = request;
      const principal = principalOf(request);
      const data = await findCompleteness(ctx.db, principal, query);
      if (query.format === 'json') return { data };
      // In the language the reader chose on the profile (a download link carries the browser's Accept-Language, not that choice).
      const locale = isLocale(principal.user.locale) ? principal.user.locale : principal.locale;
      return sendTable(reply, query.format, completenessTable(data, query, locale));
    },
  );
  app.get(
    '/periods/:uuid',
    {
      schema: { tags, summary: 'One period', params: uuidParams, response: { 200: dataOf(periodSchema) } },
      preValidation: signedIn,
      config: { keptAnswer: true },
    },
    async (request) => ({ data: await findPeriod(ctx.db, principalOf(request), request.params.uuid) }),
  );
  app.get(
    '/periods/:uuid/publication-preview',
    {
      schema: {
        tags,
        summary:
          'What publishing the period now would show viewers (hidden cells by breakdown, sums no pattern can protect), and for a period not complete what publishing again would hide once the missing reports are approved; decided as publishing decides, written nowhere',
        params: uuidParams,
        response: { 200: dataOf(publicationPreviewSchema) },
      },
      preValidation: signedIn,
    },
    async (request) => ({ data: await periodPublicationPreview(ctx.db, principalOf(request), request.params.uuid) }),
  );
  app.post(
    '/periods',
    {
      schema: { tags, summary: 'Create a period (draft) in a market', body: periodInputSchema, response: { 201: dataOf(periodSchema) } },
      preValidation: signedIn,
    },
    async (request, reply) => {
      const created = await createPeriod(ctx.db, principalOf(request), request.body);
      const { title, starts_on, ends_on, deadline, status } = created;
      await auditChange(ctx.db, actorOfRequest(request), {
        type: 'period',
        id: created.uuid,
        change: 'created',
        marketId: created.market.id,
        after: { title, market: created.market.international_name, starts_on, ends_on, deadline, status },
      });
      return reply.code(201).send({ data: created });
    },
  );
  const done = { open: 'opened', close: 'closed', publish: 'published', republish: 'republished', unpublish: 'unpublished' } as const;
  for (const action of ['open', 'close', 'publish', 'republish', 'unpublish'] as const) {
    app.post(
      `/periods/:uuid/${action}`,
      {
        schema: {
          tags,
          summary:
            action === 'open'
              ? 'Open the period: creates an Ongoing report for every company reporting in the market'
              : action === 'close'
                ? 'Close the period: no more uploads or status changes'
                : action === 'publish'
                  ? 'Publish the statistics of the period to viewers: its figures as they are now, with the cells no one may work out hidden'
                  : action === 'republish'
                    ? 'Publish a published period again, when its figures changed since (a late approval): viewers then see the new figures, protected together with what was published before'
                    : 'Withdraw the statistics of the period from viewers',
          params: uuidParams,
          response: { 200: dataOf(periodSchema) },
        },
        preValidation: signedIn,
      },
      async (request) => {
        const period = await changePeriod(ctx.db, principalOf(request), request.params.uuid, action);
        await audit(ctx.db, {
          action: `period.${done[action]}`,
          actor: actorOfRequest(request),
          marketId: period.market.id,
          record: { type: 'period', id: period.uuid },
          details: { title: period.title, market: period.market.international_name, status: period.status, published: period.published },
        });
        return { data: period };
      },
    );
  }
}
