import { z } from 'zod';
import { currencyConversionInputSchema, currencyConversionSchema, newestFirstListQuerySchema } from '@mss/contracts/admin';
import { dataOf, idParamsSchema, listOf } from '@mss/contracts/common';
import type { App, AppContext } from '../../context.ts';
import { requireAnyAbility } from '../../auth/permissions.ts';
import {
  createCurrencyConversion,
  deleteCurrencyConversion,
  findCurrencyConversion,
  findCurrencyConversions,
  updateCurrencyConversion,
} from './currency-conversions.service.ts';

const tags = ['currency conversions'];

export function currencyConversionsRoutes(app: App, ctx: AppContext) {
  const canManage = requireAnyAbility(ctx, ['manage-currency-conversion']);

  app.get(
    '/currency_conversions',
    {
      schema: {
        tags,
        summary: 'List currency conversions (newest first unless sorted)',
        querystring: newestFirstListQuerySchema,
        response: { 200: listOf(currencyConversionSchema) },
      },
      preValidation: canManage,
    },
    async (request) => findCurrencyConversions(ctx.db, request.query),
  );
  app.get(
    '/currency_conversions/:id',
    { schema: { tags, summary: 'One currency conversion', params: idParamsSchema, response: { 200: dataOf(currencyConversionSchema) } }, preValidation: canManage },
    async (request) => ({ data: await findCurrencyConversion(ctx.db, request.params.id) }),
  );
  app.post(
    '/currency_conversions',
    {
      schema: { tags, summary: 'Create a currency conversion', body: currencyConversionInputSchema, response: { 201: dataOf(currencyConversionSchema) } },
      preValidation: canManage,
    },
    async (request, reply) => reply.code(201).send({ data: await createCurrencyConversion(ctx.db, request.body) }),
  );
  app.put(
    '/currency_conversions/:id',
    {
      schema: {
        tags,
        summary: 'Update a currency conversion',
        params: idParamsSchema,
        body: currencyConversionInputSchema,
        response: { 200: dataOf(currencyConversionSchema) },
      },
      preValidation: canManage,
    },
    async (request) => ({ data: await updateCurrencyConversion(ctx.db, request.params.id, request.body) }),
  );
  app.delete(
    '/currency_conversions/:id',
    { schema: { tags, summary: 'Delete a currency conversion', params: idParamsSchema, response: { 204: z.null() } }, preValidation: canManage },
    async (request, reply) => {
      await deleteCurrencyConversion(ctx.db, request.params.id);
      return reply.code(204).send(null);
    },
  );
}
