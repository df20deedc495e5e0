import { z } from 'zod';
import { currencyInputSchema, currencySchema } from '@mss/contracts/admin';
import { dataOf, idParamsSchema, listOf, listQuerySchema } from '@mss/contracts/common';
import type { App, AppContext } from '../../context.ts';
import { requireAnyAbility } from '../../auth/permissions.ts';
import { createCurrency, deleteCurrency, findCurrencies, findCurrency, updateCurrency } from './currencies.service.ts';

const tags = ['currencies'];

export function currenciesRoutes(app: App, ctx: AppContext) {
  // Market and conversion forms pick currencies too, so reading is open to their managers.
  const canRead = requireAnyAbility(ctx, ['manage-currencies', 'manage-markets', 'manage-currency-conversion']);
  const canWrite = requireAnyAbility(ctx, ['manage-currencies']);

  app.get(
    '/admin/currencies',
    { schema: { tags, summary: 'List currencies', querystring: listQuerySchema, response: { 200: listOf(currencySchema) } }, preValidation: canRead },
    async (request) => findCurrencies(ctx.db, request.query),
  );
  app.get(
    '/admin/currencies/:id',
    { schema: { tags, summary: 'One currency', params: idParamsSchema, response: { 200: dataOf(currencySchema) } }, preValidation: canRead },
    async (request) => ({ data: await findCurrency(ctx.db, request.params.id) }),
  );
  app.post(
    '/admin/currencies',
    { schema: { tags, summary: 'Create a currency', body: currencyInputSchema, response: { 201: dataOf(currencySchema) } }, preValidation: canWrite },
    async (request, reply) => reply.code(201).send({ data: await createCurrency(ctx.db, request.body) }),
  );
  app.put(
    '/admin/currencies/:id',
    {
      schema: { tags, summary: 'Update a currency', params: idParamsSchema, body: currencyInputSchema, response: { 200: dataOf(currencySchema) } },
      preValidation: canWrite,
    },
    async (request) => ({ data: await updateCurrency(ctx.db, request.params.id, request.body) }),
  );
  app.delete(
    '/admin/currencies/:id',
    { schema: { tags, summary: 'Delete a currency that nothing uses', params: idParamsSchema, response: { 204: z.null() } }, preValidation: canWrite },
    async (request, reply) => {
      await deleteCurrency(ctx.db, request.params.id);
      return reply.code(204).send(null);
    },
  );
}
