// The user guide's example ("Sending rows from your own system"), type-checked with the API's
// generated types in every CI run: sends one report's rows, first as a dry run.
import { marketSalesStatistics } from './client.ts';

export async function sendRows(app: string, token: string, report: string, rows: { code: string; volume: string | null; value: string | null }[]) {
  const api = marketSalesStatistics(app, token);
  const path = '/reports/{uuid}/rows' as const;
  const check = await api.PUT(path, { params: { path: { uuid: report }, query: { dry_run: 'true' } }, body: rows });
  if (check.error || !check.data.data.valid) return check.data?.data.errors ?? check.error;
  // The same rows again, for real; the key makes a repeat after a lost answer harmless.
  const sent = await api.PUT(path, {
    params: { path: { uuid: report }, query: { dry_run: 'false' }, header: { 'idempotency-key': `rows-${report}-${rows.length}` } },
    body: rows,
  });
  return sent.data?.data;
}
