import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from './context.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { usersRoutes } from './modules/users/users.routes.ts';
import { protocolRoutes } from './modules/protocol/protocol.routes.ts';
import { currenciesRoutes } from './modules/currencies/currencies.routes.ts';
import { currencyConversionsRoutes } from './modules/currency-conversions/currency-conversions.routes.ts';
import { releasesRoutes } from './modules/releases/releases.routes.ts';
import { organizationsRoutes } from './modules/organizations/organizations.routes.ts';
import { informationModalsRoutes } from './modules/information-modals/information-modals.routes.ts';
import { clustersRoutes } from './modules/clusters/clusters.routes.ts';
import { marketsRoutes } from './modules/markets/markets.routes.ts';
import { codesRoutes } from './modules/codes/codes.routes.ts';
import { codeSectionsRoutes } from './modules/code-sections/code-sections.routes.ts';
import { codeGroupsRoutes } from './modules/code-groups/code-groups.routes.ts';
import { companiesRoutes } from './modules/companies/companies.routes.ts';
import { adminUsersRoutes } from './modules/admin-users/admin-users.routes.ts';
import { periodsRoutes } from './modules/periods/periods.routes.ts';
import { reportsRoutes } from './modules/reports/reports.routes.ts';
import { approvalsRoutes } from './modules/approvals/approvals.routes.ts';
import { historyRoutes } from './modules/history/history.routes.ts';
import { importsRoutes } from './modules/imports/imports.routes.ts';
import { statisticsRoutes } from './modules/statistics/statistics.routes.ts';
import { auditRoutes } from './modules/audit/audit.routes.ts';
import { communicationsRoutes } from './modules/communications/communications.routes.ts';

/**
 * The API's routes, module by module, in one place (registered under /api/v1 by app.ts). A new
 * module adds its line here, and each of its routes an entry in authorization.matrix.ts.
 */
export const apiRoutes: FastifyPluginAsync<{ ctx: AppContext }> = async (api, { ctx }) => {
  const v1 = api.withTypeProvider<ZodTypeProvider>();
  authRoutes(v1, ctx);
  usersRoutes(v1, ctx);
  protocolRoutes(v1);
  currenciesRoutes(v1, ctx);
  currencyConversionsRoutes(v1, ctx);
  releasesRoutes(v1, ctx);
  organizationsRoutes(v1, ctx);
  informationModalsRoutes(v1, ctx);
  clustersRoutes(v1, ctx);
  marketsRoutes(v1, ctx);
  codesRoutes(v1, ctx);
  codeSectionsRoutes(v1, ctx);
  codeGroupsRoutes(v1, ctx);
  companiesRoutes(v1, ctx);
  adminUsersRoutes(v1, ctx);
  periodsRoutes(v1, ctx);
  reportsRoutes(v1, ctx);
  approvalsRoutes(v1, ctx);
  importsRoutes(v1, ctx);
  historyRoutes(v1, ctx);
  statisticsRoutes(v1, ctx);
  communicationsRoutes(v1, ctx);
  auditRoutes(v1, ctx);
};
