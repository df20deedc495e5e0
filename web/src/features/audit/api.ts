import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client.ts';
import type { ListParams } from '../../api/resource.ts';
import { buildUrl } from '../../api/transport.ts';

/** The audit trail's filters as the URL and the API name them (GET /audit). */
export interface AuditFilters {
  person?: string;
  action?: string;
  record_type?: string;
  record_id?: string;
  from?: string;
  to?: string;
}

const queryOf = (filters: AuditFilters, organizationId?: number) =>
  Object.fromEntries(Object.entries({ ...filters, organization_id: organizationId }).filter(([, v]) => v !== undefined && v !== '')) as Record<
    string,
    string | number
  >;

export const auditQueries = {
  list: (params: ListParams, filters: AuditFilters) => {
    const query = { page: params.page, per_page: params.per_page, ...queryOf(filters, params.organization_id) };
    return queryOptions({
      queryKey: ['audit', 'list', query] as readonly unknown[],
      queryFn: () => api.get('/audit', { query }),
      placeholderData: keepPreviousData,
    });
  },
};

/** The CSV of every entry the filters match. */
export const auditDownloadUrl = (filters: AuditFilters, organizationId?: number) => buildUrl('audit/download', { query: queryOf(filters, organizationId) });
