/*
 * The reports feature's public face: what other features use of it (approvals, communications,
 * dashboard, imports, statistics). They import it only through this file (eslint.config.js,
 * webZones); the screens are app/'s, loaded lazily by their own paths. Nothing exported here
 * imports another feature, so a feature this one imports may import it in turn without a cycle.
 */
export { reportDownloads, reportKeys, reportQueries, reportsApi } from './api/reports.ts';
export { PreflightResults } from './components/preflight-results.tsx';
export { ReportStatusBadge } from './components/report-badges.tsx';
export { ReportStatusActions } from './components/report-status-actions.tsx';
export { RowsTable } from './components/rows-table.tsx';
export { ReportProgressCells, SentBackComment, SeverityBadge } from './components/status-badges.tsx';
export { StatusHistory } from './components/status-history.tsx';
export { reportLink } from './lib/report-link.ts';
export { OPEN_REPORT_STATUSES, reportActions, statusFor } from './lib/report-status.ts';
