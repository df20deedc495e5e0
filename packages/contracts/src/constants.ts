// Plain constants of the wire, without schemas: the web's first screens import them without loading zod.

/** The header that state-changing requests from the web app carry (CSRF defence, docs/architecture.md §4). */
export const REQUESTED_WITH_HEADER = 'X-Requested-With';
export const REQUESTED_WITH_VALUE = 'XMLHttpRequest';
export const API_PREFIX = '/api';
export const DEFAULT_API_VERSION = 1;
export const MIN_SEARCH_LENGTH = 3;
export const MAX_PER_PAGE = 100;

export const MIN_PASSWORD_LENGTH = 8;
