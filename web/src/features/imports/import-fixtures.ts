import { ReportStatus } from '@mss/contracts/enums';
import type { ImportDetail } from '@mss/contracts/imports';

export const market = { id: 1, international_name: 'Sweden', local_name: 'Sverige', iso_code: 'SE' };

/** One import of the report `rep-1`, as GET /imports/{uuid} answers it (tests of the import screens). */
export function importDetail(status: ImportDetail['status'], errors: ImportDetail['errors'] = [], rowCount: number | null = null): ImportDetail {
  return {
    uuid: 'imp-1',
    status,
    source: 'upload',
    report: { uuid: 'rep-1', status: ReportStatus.ProcessingFile },
    company: { id: 1, name: 'Nordlys Trading AB' },
    market,
    period: { uuid: 'per-1', title: '2026-11' },
    user: { id: 1, name: 'Rita Reporter' },
    file_name: 'report.xlsx',
    file_size: 1000,
    row_count: rowCount,
    error_count: errors.length,
    created_at: '2026-11-21T06:00:00Z',
    finished_at: null,
    message: status === 'invalid' ? 'The file report.xlsx could not be uploaded due to containing invalid data.' : null,
    errors,
    errors_listed: errors.length,
    errors_truncated: false,
    errors_note: null,
  };
}
