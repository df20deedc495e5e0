import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AUDIT_DOWNLOAD_MAX, auditEntrySchema, auditQuerySchema } from '@mss/contracts/audit';
import { dataOf, idParamsSchema, listOf } from '@mss/contracts/common';
import type { App, AppContext } from '../../context.ts';
import { principalOf } from '../../auth/principal.ts';
import { requireSignedIn } from '../../auth/session-auth.ts';
import { forbidden } from '../../errors.ts';
import { contentDisposition } from '../../lib/content-disposition.ts';
import { csvField, csvText } from '../../lib/csv/writer.ts';
import { auditEntriesFor, findAuditEntries, findAuditEntry, mayReadAudit } from './audit.service.ts';

const tags = ['audit'];

const CSV_HEADER = [
  'id',
  'at',
  'organization',
  'user_id',
  'email',
  'via',
  'session_id',
  'ip',
  'action',
  'record_type',
  'record_id',
  'before',
  'after',
  'details',
];

const json = (value: unknown) => (value === null || value === undefined ? '' : JSON.stringify(value));

export function auditRoutes(app: App, ctx: AppContext) {
  const signedIn = requireSignedIn(ctx);
  // Administrators of the session's organization, and super-administrators (403 for anyone else).
  const mayRead = async (request: FastifyRequest, reply: FastifyReply) => {
    await signedIn(request, reply);
    if (!mayReadAudit(principalOf(request))) throw forbidden();
  };

  app.get(
    '/audit',
    {
      schema: {
        tags,
        summary: 'The audit trail, newest first: filtered by person, record, action and time (administrators: their organization; super-administrators: all)',
        querystring: auditQuerySchema,
        response: { 200: listOf(auditEntrySchema) },
      },
      preValidation: mayRead,
    },
    async (request) => findAuditEntries(ctx.db, principalOf(request), request.query),
  );
  app.get(
    '/audit/download',
    {
      schema: {
        tags,
        summary: `The entries the filters match as CSV (UTF-8, newest first, at most ${AUDIT_DOWNLOAD_MAX.toLocaleString('en-US')})`,
        querystring: auditQuerySchema.omit({ page: true, per_page: true }),
      },
      preValidation: mayRead,
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const entries = auditEntriesFor(ctx.db, principal, request.query, AUDIT_DOWNLOAD_MAX);
      // Streamed: a year of entries is not held in memory at once.
      async function* lines() {
        yield `\uFEFF${CSV_HEADER.join(',')}\r\n`;
        for await (const e of entries) {
          const fields = [e.id, e.at, csvText(e.organization?.name ?? ''), e.user?.id ?? '', csvText(e.email), e.via, e.session_id, e.ip];
          const rest = [e.action, e.record_type, csvText(e.record_id), json(e.before), json(e.after), json(e.details)];
          yield `${[...fields, ...rest].map((f) => csvField(f)).join(',')}\r\n`;
        }
      }
      reply.header('Content-Disposition', contentDisposition(`audit ${new Date().toISOString().slice(0, 10)}.csv`));
      return reply.header('Content-Type', 'text/csv; charset=utf-8').send(Readable.from(lines()));
    },
  );
  app.get(
    '/audit/:id',
    {
      schema: { tags, summary: 'One audit entry (another organization’s is 404)', params: idParamsSchema, response: { 200: dataOf(auditEntrySchema) } },
      preValidation: mayRead,
    },
    async (request) => ({ data: await findAuditEntry(ctx.db, principalOf(request), request.params.id) }),
  );
}
