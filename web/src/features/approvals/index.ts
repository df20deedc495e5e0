/*
 * The approvals feature's public face: a period's approval list, which the reports feature reads.
 * Other features import it only through this file (eslint.config.js, webZones). It exports no
 * screen: the approval screen imports the reports feature's index.ts and the report screens import
 * this file, so screens exported from both would close a cycle.
 */
export { approvalQueries } from './api/approvals.ts';
