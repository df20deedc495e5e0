import { dataOf } from '@mss/contracts/common';
import {
  clusterStatisticsQuerySchema,
  clusterStatisticsSchema,
  companyStatisticsQuerySchema,
  companyStatisticsSchema,
  marketStatisticsQuerySchema,
  marketStatisticsSchema,
  type StatisticsFormat,
  trendStatisticsQuerySchema,
  statisticsChoicesSchema,
  trendStatisticsSchema,
} from '@mss/contracts/statistics';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { actorOf, audit, auditRead, readerOf } from '../../audit/audit.ts';
import type { App, AppContext } from '../../context.ts';
import { requireSignedIn } from '../../auth/session-auth.ts';
import { principalOf } from '../../auth/principal.ts';
import { localeOf } from '../../i18n.ts';
import { findClusterStatistics } from './answers/statistics.cluster.ts';
import { findCompanyStatistics } from './answers/statistics.company.ts';
import { findMarketStatistics } from './answers/statistics.market.ts';
import { findTrendStatistics } from './answers/statistics.trend.ts';
import { findStatisticsChoices } from './answers/statistics.choices.ts';
import { clusterTable, companyTable, marketTable, type Table, sendTable, trendTable } from './answers/statistics.sheets.ts';

const tags = ['statistics'];

/**
 * The answers of market, cluster, company and trend are built by typed code and can be large (a
 * cluster's is 1.3 MB): they are written as they are, without a second pass of the response
 * schema over every cell (which documents them in OpenAPI, and which statistics.test.ts checks
 * every answer against).
 */
const asBuilt = { serializerCompiler: () => (data: unknown) => JSON.stringify(data) };
/**
 * The JSON answer may be kept while the database is unchanged (plugins/kept-answers.ts); a download
 * and the breakdown by company are recorded in the audit trail at each read, so they are computed.
 */
const keptUnlessRecorded = {
  config: {
    keptAnswer: (request: FastifyRequest) => {
      const query = request.query as { format?: StatisticsFormat; by?: string };
      return (query.format ?? 'json') === 'json' && query.by !== 'company';
    },
  },
};
const DOWNLOAD = ' With format=xlsx or format=csv: the same table as a download.';

/** The answer as JSON, or its table as an xlsx or csv download. */
async function answer<T>(reply: FastifyReply, format: StatisticsFormat, data: T, table: (data: T) => Table) {
  if (format === 'json') return reply.send({ data });
  const sheet = table(data);
  return sendTable(reply, format, sheet, `statistics ${sheet.name}`);
}

export function statisticsRoutes(app: App, ctx: AppContext) {
  /** A statistics download (csv or xlsx), whatever it holds: which one, as asked, in the audit trail. */
  const auditDownload = async (request: FastifyRequest, query: { format?: StatisticsFormat }) => {
    if (!query.format || query.format === 'json') return;
    await audit(ctx.db, {
      action: 'statistics.downloaded',
      actor: actorOf(principalOf(request), request.ip),
      record: { type: 'statistics', id: request.routeOptions.url ?? request.url },
      details: { query },
    });
  };

  const signedIn = requireSignedIn(ctx);

  app.get(
    '/statistics/choices',
    {
      schema: {
        tags,
        summary: 'What the statistics screens offer to pick: markets viewed (with their currency), clusters viewed, currencies',
        response: { 200: dataOf(statisticsChoicesSchema) },
      },
      preValidation: signedIn,
      config: { keptAnswer: true },
    },
    async (request) => ({ data: await findStatisticsChoices(ctx.db, principalOf(request)) }),
  );

  app.get(
    '/statistics/market',
    {
      schema: {
        tags,
        summary: `One market and period: by code, code group, code section, company (approvers) or total, against last year and year to date.${DOWNLOAD}`,
        querystring: marketStatisticsQuerySchema,
        response: { 200: dataOf(marketStatisticsSchema) },
      },
      preValidation: signedIn,
      ...asBuilt,
      ...keptUnlessRecorded,
    },
    async (request, reply) => {
      const data = await findMarketStatistics(ctx.db, principalOf(request), request.query);
      // Every company's figures side by side (approvers only): a read of individual figures.
      if (request.query.by === 'company')
        await auditRead(ctx.db, readerOf(principalOf(request), request.ip), {
          action: 'statistics.company_read',
          companyId: null,
          marketId: data.market.id,
          record: { type: 'period', id: request.query.period_uuid },
          details: { by: 'company', format: request.query.format },
        });
      await auditDownload(request, request.query);
      return answer(reply, request.query.format, data, (d) => marketTable(d, localeOf(request)));
    },
  );
  app.get(
    '/statistics/cluster',
    {
      schema: {
        tags,
        summary: `The markets of a cluster, each with its period starting in the month, side by side and added up in one currency.${DOWNLOAD}`,
        querystring: clusterStatisticsQuerySchema,
        response: { 200: dataOf(clusterStatisticsSchema) },
      },
      preValidation: signedIn,
      ...asBuilt,
      ...keptUnlessRecorded,
    },
    async (request, reply) => {
      const data = await findClusterStatistics(ctx.db, principalOf(request), request.query);
      await auditDownload(request, request.query);
      return answer(reply, request.query.format, data, (d) => clusterTable(d, localeOf(request)));
    },
  );
  app.get(
    '/statistics/trend',
    {
      schema: {
        tags,
        summary: `A market's (or cluster's) latest periods for the total or one code, group or section, each against the same period a year earlier.${DOWNLOAD}`,
        querystring: trendStatisticsQuerySchema,
        response: { 200: dataOf(trendStatisticsSchema) },
      },
      preValidation: signedIn,
      ...asBuilt,
      ...keptUnlessRecorded,
    },
    async (request, reply) => {
      const data = await findTrendStatistics(ctx.db, principalOf(request), request.query);
      await auditDownload(request, request.query);
      return answer(reply, request.query.format, data, (d) => trendTable(d, localeOf(request)));
    },
  );
  app.get(
    '/statistics/company',
    {
      schema: {
        tags,
        summary: `A company's figures per code against its market, with its history of shares.${DOWNLOAD}`,
        querystring: companyStatisticsQuerySchema,
        response: { 200: dataOf(companyStatisticsSchema) },
      },
      preValidation: signedIn,
      ...asBuilt,
    },
    async (request, reply) => {
      const data = await findCompanyStatistics(ctx.db, principalOf(request), request.query);
      await auditRead(ctx.db, readerOf(principalOf(request), request.ip), {
        action: 'statistics.company_read',
        companyId: data.company.id,
        marketId: data.market.id,
        record: { type: 'company', id: data.company.id },
        details: { period_uuid: request.query.period_uuid, format: request.query.format },
      });
      await auditDownload(request, request.query);
      return answer(reply, request.query.format, data, (d) => companyTable(d, localeOf(request)));
    },
  );
}
