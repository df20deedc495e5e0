import { z } from 'zod';
import type { FastifyRequest } from 'fastify';
import { marketInputSchema, marketSchema } from '@mss/contracts/admin';
import { dataOf, idParamsSchema, listOf, listQuerySchema } from '@mss/contracts/common';
import type { App, AppContext } from '../../context.ts';
import { requireAnyAbility } from '../../auth/permissions.ts';
import { readLogotype, sendFile } from '../../lib/files.ts';
import { createMarket, deleteMarket, findMarket, findMarketLogotypeId, findMarkets, setMarketLogotype, updateMarket } from './markets.service.ts';
import { principalOf } from '../../auth/principal.ts';
import { actorOfRequest, auditChange } from '../../audit/audit.ts';

const tags = ['markets'];

export function marketsRoutes(app: App, ctx: AppContext) {
  const canView = requireAnyAbility(ctx, ['view-markets', 'manage-markets']);
  const canManage = requireAnyAbility(ctx, ['manage-markets']);
  const one = { params: idParamsSchema, response: { 200: dataOf(marketSchema) } };
  /** A change of a market, in the audit trail with the fields it changed. */
  const changed = async <T>(request: FastifyRequest, id: number, change: () => Promise<T>): Promise<T> => {
    const before = await findMarket(ctx.db, principalOf(request), id);
    const after = await change();
    await auditChange(ctx.db, actorOfRequest(request), { type: 'market', id, change: 'updated', before, after });
    return after;
  };

  // docs/product.md §7 lists both markets and admin/markets among the list endpoints: one list, two paths.
  for (const path of ['/markets', '/admin/markets']) {
    app.get(
      path,
      {
        schema: { tags, summary: 'List markets (searches international_name)', querystring: listQuerySchema, response: { 200: listOf(marketSchema) } },
        preValidation: canView,
      },
      async (request) => findMarkets(ctx.db, principalOf(request), request.query),
    );
  }
  app.get('/markets/:id', { schema: { tags, summary: 'One market', ...one }, preValidation: canView }, async (request) => ({
    data: await findMarket(ctx.db, principalOf(request), request.params.id),
  }));
  app.get(
    '/markets/:id/logotype',
    { schema: { tags, summary: "The market's logotype (png or jpg)", params: idParamsSchema }, preValidation: canView },
    async (request, reply) => sendFile(ctx.db, reply, await findMarketLogotypeId(ctx.db, principalOf(request), request.params.id)),
  );

  app.get('/admin/markets/:id', { schema: { tags, summary: 'One market, for editing', ...one }, preValidation: canManage }, async (request) => ({
    data: await findMarket(ctx.db, principalOf(request), request.params.id),
  }));
  app.post(
    '/admin/markets',
    { schema: { tags, summary: 'Create a market', body: marketInputSchema, response: { 201: dataOf(marketSchema) } }, preValidation: canManage },
    async (request, reply) => {
      const created = await createMarket(ctx.db, principalOf(request), request.body);
      await auditChange(ctx.db, actorOfRequest(request), { type: 'market', id: created.id, change: 'created', after: created });
      return reply.code(201).send({ data: created });
    },
  );
  app.put(
    '/admin/markets/:id',
    { schema: { tags, summary: 'Update a market', ...one, body: marketInputSchema }, preValidation: canManage },
    async (request) => ({ data: await changed(request, request.params.id, () => updateMarket(ctx.db, principalOf(request), request.params.id, request.body)) }),
  );
  app.delete(
    '/admin/markets/:id',
    { schema: { tags, summary: 'Delete a market that nothing uses', params: idParamsSchema, response: { 204: z.null() } }, preValidation: canManage },
    async (request, reply) => {
      const before = await findMarket(ctx.db, principalOf(request), request.params.id);
      await deleteMarket(ctx.db, principalOf(request), request.params.id);
      await auditChange(ctx.db, actorOfRequest(request), { type: 'market', id: before.id, change: 'deleted', before });
      return reply.code(204).send(null);
    },
  );
  app.put(
    '/admin/markets/:id/logotype',
    {
      schema: { tags, summary: 'Upload the logotype (multipart field "file", png or jpg, at most 2 MiB)', ...one, consumes: ['multipart/form-data'] },
      preValidation: canManage,
    },
    async (request) => {
      const principal = principalOf(request);
      await findMarket(ctx.db, principal, request.params.id);
      const file = await readLogotype(request);
      return { data: await changed(request, request.params.id, () => setMarketLogotype(ctx.db, principal, request.params.id, file)) };
    },
  );
  app.delete('/admin/markets/:id/logotype', { schema: { tags, summary: 'Remove the logotype', ...one }, preValidation: canManage }, async (request) => ({
    data: await changed(request, request.params.id, () => setMarketLogotype(ctx.db, principalOf(request), request.params.id, null)),
  }));
}
