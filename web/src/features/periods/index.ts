/*
 * The periods feature's public face: reading periods and a period's status badge, which other
 * features use (approvals, communications, reports, statistics). They import it only through this
 * file (eslint.config.js, webZones); the screens are app/'s, loaded lazily by their own paths.
 */
export { periodQueries } from './api/period-queries.ts';
export { PeriodStatusBadge } from './components/period-status-badge.tsx';
