import { currencyConversionInputSchema, currencyConversionSchema, newestFirstListQuerySchema } from '@mss/contracts/admin';
import type { App, AppContext } from '../../context.ts';
import { requireAnyAbility, requireSuperAdmin } from '../../auth/permissions.ts';
import { registerCrudRoutes } from '../../lib/crud-routes.ts';
import {
  createCurrencyConversion,
  deleteCurrencyConversion,
  findCurrencyConversion,
  findCurrencyConversions,
  updateCurrencyConversion,
} from './currency-conversions.service.ts';

export function currencyConversionsRoutes(app: App, ctx: AppContext) {
  const canManage = requireAnyAbility(ctx, ['manage-currency-conversion']);
  registerCrudRoutes(app, ctx, {
    keptAnswers: true,
    path: '/currency_conversions',
    noun: 'currency conversion',
    schema: currencyConversionSchema,
    listQuery: newestFirstListQuerySchema,
    input: currencyConversionInputSchema,
    canRead: canManage,
    // Rates are shared by every organization's statistics: only a super-admin changes them.
    canWrite: requireSuperAdmin(ctx),
    tags: ['currency conversions'],
    summaries: { list: 'List currency conversions (newest first unless sorted)' },
    // Rates are shared by every organization: no actor scopes them.
    service: {
      list: (_actor, query) => findCurrencyConversions(ctx.db, query),
      find: (_actor, id) => findCurrencyConversion(ctx.db, id),
      create: (_actor, input) => createCurrencyConversion(ctx.db, input),
      update: (_actor, id, input) => updateCurrencyConversion(ctx.db, id, input),
      remove: (_actor, id) => deleteCurrencyConversion(ctx.db, id),
    },
  });
}
