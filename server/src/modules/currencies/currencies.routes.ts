import { currencyInputSchema, currencySchema } from '@mss/contracts/admin';
import type { App, AppContext } from '../../context.ts';
import { requireAnyAbility, requireSuperAdmin } from '../../auth/permissions.ts';
import { registerCrudRoutes } from '../../lib/crud-routes.ts';
import { createCurrency, deleteCurrency, findCurrencies, findCurrency, updateCurrency } from './currencies.service.ts';

export function currenciesRoutes(app: App, ctx: AppContext) {
  registerCrudRoutes(app, ctx, {
    keptAnswers: true,
    path: '/admin/currencies',
    noun: 'currency',
    schema: currencySchema,
    input: currencyInputSchema,
    // Market and conversion forms pick currencies too, so reading is open to their managers.
    canRead: requireAnyAbility(ctx, ['manage-currencies', 'manage-markets', 'manage-currency-conversion']),
    // Shared by every organization: only a super-admin changes them.
    canWrite: requireSuperAdmin(ctx),
    summaries: { list: 'List currencies', delete: 'Delete a currency that nothing uses' },
    // Currencies are shared by every organization: no actor scopes them.
    service: {
      list: (_actor, query) => findCurrencies(ctx.db, query),
      find: (_actor, id) => findCurrency(ctx.db, id),
      create: (_actor, input) => createCurrency(ctx.db, input),
      update: (_actor, id, input) => updateCurrency(ctx.db, id, input),
      remove: (_actor, id) => deleteCurrency(ctx.db, id),
    },
  });
}
