/*
 * The information modals feature's public face: an organization's modals, which the organization's
 * edit screen lists. Other features import it only through this file (eslint.config.js, webZones).
 */
export { organizationInformationModalsQuery } from './api/information-modals.ts';
