/*
 * The organizations feature's public face: the organizations resource, which the information
 * modals feature reads (the organization a new modal is for). Other features import it only
 * through this file (eslint.config.js, webZones).
 */
export { organizationsApi } from './api/organizations.ts';
