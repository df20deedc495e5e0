import type { FastifyRequest } from 'fastify';
import { companyInputSchema, companyListItemSchema, companySchema } from '@mss/contracts/admin';
import { dataOf, idParamsSchema, listOf, listQuerySchema } from '@mss/contracts/common';
import type { App, AppContext } from '../../context.ts';
import { requireAnyAbility } from '../../auth/permissions.ts';
import { registerCrudRoutes } from '../../lib/crud-routes.ts';
import { readLogotype, sendFile } from '../../lib/files.ts';
import { createCompany, deleteCompany, findCompanies, findCompany, findCompanyLogotypeId, setCompanyLogotype, updateCompany } from './companies.service.ts';
import { principalOf } from '../../auth/principal.ts';
import { actorOfRequest, auditChange } from '../../audit/audit.ts';

const tags = ['companies'];

export function companiesRoutes(app: App, ctx: AppContext) {
  const canManage = requireAnyAbility(ctx, ['manage-companies']);
  const one = { params: idParamsSchema, response: { 200: dataOf(companySchema) } };
  /** A changed logotype, in the audit trail as a change of the company. */
  const logotypeChanged = async <T>(request: FastifyRequest, id: number, change: () => Promise<T>): Promise<T> => {
    const before = await findCompany(ctx.db, principalOf(request), id);
    const after = await change();
    await auditChange(ctx.db, actorOfRequest(request), { type: 'company', id, change: 'updated', before, after });
    return after;
  };

  app.get(
    '/companies/companies-with-disabled',
    {
      schema: {
        tags,
        summary: 'List every company, disabled ones too (by name)',
        querystring: listQuerySchema,
        response: { 200: listOf(companyListItemSchema) },
      },
      preValidation: canManage,
    },
    async (request) => findCompanies(ctx.db, principalOf(request), request.query, { includeDisabled: true }),
  );
  registerCrudRoutes(app, ctx, {
    path: '/companies',
    noun: 'company',
    schema: companySchema,
    listSchema: companyListItemSchema,
    input: companyInputSchema,
    canRead: canManage,
    canWrite: canManage,
    summaries: { list: 'List the companies enabled now' },
    service: {
      // The plain list holds the companies enabled now, with the list columns only.
      list: (principal, query) => findCompanies(ctx.db, principal, query, { includeDisabled: false }),
      find: (principal, id) => findCompany(ctx.db, principal, id),
      create: (principal, input) => createCompany(ctx.db, principal, input),
      update: (principal, id, input) => updateCompany(ctx.db, principal, id, input),
      remove: (principal, id) => deleteCompany(ctx.db, principal, id),
    },
  });
  app.get(
    '/companies/:id/logotype',
    { schema: { tags, summary: "The company's logotype (png or jpg)", params: idParamsSchema }, preValidation: canManage },
    async (request, reply) => sendFile(ctx.db, reply, await findCompanyLogotypeId(ctx.db, principalOf(request), request.params.id)),
  );
  app.put(
    '/companies/:id/logotype',
    {
      schema: {
        tags,
        summary: 'Upload the logotype (multipart field "file", png or jpg by content, at most 2 MiB)',
        ...one,
        consumes: ['multipart/form-data'],
      },
      preValidation: canManage,
    },
    async (request) => {
      const principal = principalOf(request);
      await findCompanyLogotypeId(ctx.db, principal, request.params.id);
      const file = await readLogotype(request);
      return { data: await logotypeChanged(request, request.params.id, () => setCompanyLogotype(ctx.db, principal, request.params.id, file)) };
    },
  );
  app.delete('/companies/:id/logotype', { schema: { tags, summary: 'Remove the logotype', ...one }, preValidation: canManage }, async (request) => ({
    data: await logotypeChanged(request, request.params.id, () => setCompanyLogotype(ctx.db, principalOf(request), request.params.id, null)),
  }));
}
